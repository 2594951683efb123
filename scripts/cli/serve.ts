/** `crawlspec serve`: the reference server on a port, until SIGINT or SIGTERM. */
import { parseArgs } from 'node:util';
import { createReferenceApp } from '../server/app.js';
import { listen } from '../server/http.js';
import { authOption, integer, UsageError } from './errors.js';

export async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'no-auth': { type: 'boolean' },
    },
    allowPositionals: false,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
  const auth = authOption(values);
  let publicUrl = '';
  const app = createReferenceApp({ auth, publicUrl: () => publicUrl });
  const server = await listen(app, { host: values.host, port: integer(values.port, '--port', 0) });
  publicUrl = server.url;
  console.log(`reference server listening on ${server.url} (${auth === 'none' ? 'no auth' : `token ${auth.token}`}); Ctrl-C stops it`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  app.close();
  return 0;
}
