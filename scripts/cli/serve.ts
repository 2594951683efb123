/** `crawlspec serve`: the reference server on a port, until SIGINT or SIGTERM. */
import { parseCommand } from './args.js';
import { isIP } from 'node:net';
import { authOption, hostName, listenError, listenHost, port as portOption, UsageError } from './errors.js';
import { quote } from './terminal.js';
import { printable } from './terminal.js';

/** `--allow-host NAME`: a host name or an IP address (brackets around an IPv6 one are dropped), lower-cased. */
function allowHost(value: string): string {
  const host = value.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return host;
  try {
    return hostName(host, '--allow-host');
  } catch {
    throw new UsageError(`--allow-host takes a host name or an IP address (e.g. intranet.example.com or 10.0.0.5), not ${quote(value)}`);
  }
}

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseCommand(
    'serve',
    args,
    {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'no-auth': { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true },
    },
    false,
  );
  // Every option is checked before the server starts.
  const port = portOption(values.port);
  const host = await listenHost(values.host);
  const auth = authOption(values);
  // Hosts the jobs may fetch pages from besides loopback: names (connected to only where they resolve to
  // loopback or to an address also allowed) and addresses.
  const allowed = new Set((values['allow-host'] ?? []).map((host) => allowHost(host)));
  // The server (and the validators it answers with) is loaded once the options are known to be right.
  const [{ createReferenceApp }, { listen }] = await Promise.all([import('../server/app.js'), import('../server/http.js')]);
  let publicUrl = '';
  // --allow-host opens a host to the jobs' fetches and to webhook deliveries alike.
  const isAllowed = (host: string): boolean => allowed.has(host.toLowerCase());
  const app = createReferenceApp({ auth, publicUrl: () => publicUrl, allowFetchHost: isAllowed, allowWebhookHost: isAllowed });
  const server = await listen(app, { host, port }).catch((error: unknown) => {
    app.close();
    return listenError(error, host, port);
  });
  publicUrl = server.url;
  // Listened for before the address is printed: whoever reads it may stop the server at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log(printable(`reference server listening on ${server.url} (${auth === 'none' ? 'no auth' : `token ${auth.token}`}); Ctrl-C stops it`));
  await stopped;
  await server.close();
  app.close();
  return 0;
}
