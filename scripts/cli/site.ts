/**
 * `crawlspec site`: the contract kit's test site (scripts/site/).
 *
 *   crawlspec site serve [--port N] [--host NAME]   serve it on 127.0.0.1 (and 127.0.0.2, the other site), until
 *                                                  SIGINT; under the host name NAME when given (which must
 *                                                  resolve to 127.0.0.1), with its subdomain `sub.NAME`
 *   crawlspec site export <dir> --base-url URL [--external-url URL] [--subdomain-url URL]
 *                                                  write it as static files to deploy at those addresses
 */
import { parseArgs } from 'node:util';
import { exportSite } from '../site/export.js';
import { serveSite } from '../site/server.js';
import { integer, UsageError } from './errors.js';

/** The origin of an address option, or a usage error naming it. */
function origin(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // said below
  }
  throw new UsageError(`${name} takes an http or https address, not "${value}"`);
}

async function serve(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { port: { type: 'string' }, host: { type: 'string' } }, allowPositionals: false });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
  const port = integer(values.port, '--port', 0);
  if (port > 65535) throw new UsageError(`--port takes a port number from 0 to 65535, not ${port}`);
  const site = await serveSite({ port, ...(values.host === undefined ? {} : { host: values.host }) });
  const { main, external, subdomain } = site.origins;
  console.log(`test site serving ${main}/ (other site ${external}/${subdomain === undefined ? '' : `, subdomain ${subdomain}/`}); Ctrl-C stops it`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await site.close();
  return 0;
}

async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { 'base-url': { type: 'string' }, 'external-url': { type: 'string' }, 'subdomain-url': { type: 'string' } },
    allowPositionals: true,
  });
  const [dir, ...extra] = positionals;
  if (dir === undefined) throw new UsageError('site export needs a directory to write to');
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra.join(' ')}`);
  const main = origin(values['base-url'], '--base-url');
  if (main === undefined) throw new UsageError('site export needs --base-url, the address the site will be served at');
  const external = origin(values['external-url'], '--external-url') ?? `${main.replace(/\/\/([^/:]+)/, '//external.$1')}`;
  const subdomain = origin(values['subdomain-url'], '--subdomain-url');
  const files = await exportSite(dir, { main, external, ...(subdomain === undefined ? {} : { subdomain }) });
  console.log(`wrote ${files.length} files to ${dir}; SERVING.md says where to serve them`);
  return 0;
}

export async function siteCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'serve') return serve(rest);
  if (sub === 'export') return exportCommand(rest);
  throw new UsageError(sub === undefined ? 'site needs serve or export' : `site takes serve or export, not "${sub}"`);
}
