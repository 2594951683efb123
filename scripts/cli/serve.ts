/** `crawlspec serve`: the reference server on a port, until SIGINT or SIGTERM. */
import { parseCommand } from './args.js';
import { isIP } from 'node:net';
import { isLoopbackHost } from '../server/reach.js';
import {
  authOption,
  hostName,
  baseAddress,
  listenError,
  listenHost,
  port as portOption,
  token as tokenOption,
  UsageError,
  webhookSecret,
} from './errors.js';
import { quote } from './terminal.js';
import { printable } from './terminal.js';

/** Where `--allow-host` lets jobs and webhooks go: each host, on every port (`'any'`) or on the ports named. */
type Allowed = Map<string, Set<number> | 'any'>;

/**
 * `--allow-host HOST[:PORT]`: a host name or an IP address (an IPv6 one in brackets when a port follows), lower
 * case, and the port it is allowed on (undefined: every port).
 */
function allowHost(value: string): { readonly host: string; readonly port: number | undefined } {
  const wrong = () =>
    new UsageError(
      `--allow-host takes a host name or an IP address, with a port or not (e.g. intranet.example.com, 10.0.0.5 or 127.0.0.1:8080), not ${quote(value)}`,
    );
  const text = value.toLowerCase();
  const parts = /^\[([^\]]*)\](?::(\d{1,5}))?$/.exec(text) ?? (isIP(text) === 6 ? [text, text] : /^([^:]*)(?::(\d{1,5}))?$/.exec(text));
  if (parts === null) throw wrong();
  const [, host = '', portText] = parts;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && !(port >= 1 && port <= 65535))
    throw new UsageError(`--allow-host ${quote(value)} has the port ${portText}; expected a port from 1 to 65535, or none for every port`);
  // In brackets, an IPv6 address only; else an IPv4 address or a name.
  if (text.startsWith('[') ? isIP(host) !== 6 : isIP(host) === 0 && !isName(host)) throw wrong();
  return { host, port };
}

/**
 * `--resolve NAME=ADDR` (repeatable, in the spirit of curl's `--resolve`): the server's own fetches (and webhook
 * deliveries) connect to ADDR for NAME, with no DNS; ADDR must be a loopback address, so that the option opens
 * nothing but this machine. A name mapped is fetched from on every port (reach.ts: the mapping is the opt-in).
 */
export function resolveOption(given: readonly string[]): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const value of given) {
    const at = value.indexOf('=');
    if (at === -1)
      throw new UsageError(
        `--resolve takes NAME=ADDR, a host name and the loopback address it stands for (e.g. site.example.com=127.0.0.1), not ${quote(value)}`,
      );
    const name = hostName(value.slice(0, at), '--resolve').toLowerCase();
    const address = value.slice(at + 1).replace(/^\[(.*)\]$/, '$1');
    if (isIP(address) === 0 || !isLoopbackHost(address))
      throw new UsageError(
        `--resolve ${quote(value)}: ${quote(address)} is not a loopback address; expected one of 127.0.0.0/8 or ::1 (e.g. ${name}=127.0.0.1)`,
      );
    if (Object.hasOwn(resolved, name)) throw new UsageError(`--resolve names ${name} twice; expected each name once`);
    resolved[name] = address;
  }
  return resolved;
}

const isName = (host: string): boolean => {
  try {
    hostName(host, '--allow-host');
    return true;
  } catch {
    return false;
  }
};

/**
 * The warnings `serve` gives at start, one line each, on stderr: a server without authentication, and one
 * listening on an address other machines reach (issue 22, finding 7).
 */
export function serveWarnings(auth: { readonly token: string } | 'none', host: string): string[] {
  return [
    ...(auth === 'none'
      ? ['crawlspec serve: warning: --no-auth: whoever can reach this server can start jobs on it and read every job']
      : []),
    ...(isLoopbackHost(host)
      ? []
      : [
          `crawlspec serve: warning: --host ${host} is reachable from other machines: ${auth === 'none' ? 'anyone there' : 'whoever has the token'} can use this server`,
        ]),
  ];
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
      resolve: { type: 'string', multiple: true },
      'public-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'credits-unknown': { type: 'boolean' },
    },
    false,
  );
  // Every option is checked before the server starts.
  const port = portOption(values.port);
  const host = await listenHost(values.host);
  // The token from --token, else from CRAWLSPEC_TOKEN (kept out of the process list), else a random one.
  const fromEnvironment = values.token === undefined && !values['no-auth'] ? process.env.CRAWLSPEC_TOKEN : undefined;
  const role = 'the token clients must send';
  const given = values.token ?? (fromEnvironment === undefined ? undefined : tokenOption(fromEnvironment, 'CRAWLSPEC_TOKEN', role));
  const auth = authOption({ token: given, 'no-auth': values['no-auth'] }, values.token === undefined ? 'CRAWLSPEC_TOKEN' : '--token', role);
  // Deliveries are signed with --webhook-secret, else CRAWLSPEC_WEBHOOK_SECRET (kept out of the process list), if either is given.
  const secretGiven = values['webhook-secret'] ?? process.env.CRAWLSPEC_WEBHOOK_SECRET;
  const secret =
    secretGiven === undefined
      ? undefined
      : webhookSecret(secretGiven, values['webhook-secret'] === undefined ? 'CRAWLSPEC_WEBHOOK_SECRET' : '--webhook-secret');
  const publicUrl =
    values['public-url'] === undefined ? undefined : baseAddress(values['public-url'], '--public-url', 'https://crawlspec.example.com');
  // Where the jobs may fetch pages from and webhooks go besides loopback (and, for fetches, loopback ports other
  // than the server's own): names (connected to only where they resolve to an address allowed on every port)
  // and addresses, on every port or on the ports named.
  const allowed: Allowed = new Map();
  for (const { host: name, port: only } of (values['allow-host'] ?? []).map(allowHost)) {
    const ports = allowed.get(name);
    if (only === undefined || ports === 'any') allowed.set(name, 'any');
    else allowed.set(name, (ports ?? new Set()).add(only));
  }
  const resolveHosts = resolveOption(values.resolve ?? []);
  // The server (and the validators it answers with) is loaded once the options are known to be right.
  const [{ createReferenceApp }, { listen }] = await Promise.all([import('../server/app.js'), import('../server/http.js')]);
  let base = '';
  // --allow-host opens a host to the jobs' fetches and to webhook deliveries alike.
  const isAllowed = (name: string, at: number | undefined): boolean => {
    const ports = allowed.get(name.toLowerCase());
    return ports === 'any' || (ports !== undefined && at !== undefined && ports.has(at));
  };
  const app = createReferenceApp({
    auth,
    publicUrl: () => base,
    allowFetchHost: isAllowed,
    allowWebhookHost: isAllowed,
    resolveHosts,
    ...(secret === undefined ? {} : { webhookSecret: secret }),
    ...(values['credits-unknown'] === true ? { creditsUnknown: true } : {}),
  });
  const hostNames = publicUrl === undefined ? [] : [publicUrl.hostname];
  const server = await listen(app, { host, port, hostNames }).catch((error: unknown) => {
    app.close();
    return listenError(error, host, port);
  });
  base = publicUrl?.href.replace(/(?<!\/)\/+$/, '') ?? server.url;
  // Listened for before the address is printed: whoever reads it may stop the server at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const line of serveWarnings(auth, host)) console.error(printable(line));
  const tokenSaid =
    auth === 'none'
      ? 'no auth'
      : values.token === undefined && fromEnvironment !== undefined
        ? 'token from CRAWLSPEC_TOKEN'
        : `token ${auth.token}`;
  console.log(
    printable(
      `reference server listening on ${server.url}${base === server.url ? '' : ` as ${base}`} (${tokenSaid}${secret === undefined ? '' : '; webhook deliveries signed'}); Ctrl-C stops it`,
    ),
  );
  await stopped;
  await server.close();
  app.close();
  return 0;
}
