/**
 * `crawlspec site`: the contract kit's test site (scripts/site/).
 *
 *   crawlspec site serve [--port N] [--host NAME]   serve it on 127.0.0.1 (and 127.0.0.2, the other site), until
 *                                                  SIGINT; under the host name NAME when given (which must
 *                                                  resolve to 127.0.0.1), with its subdomain `sub.NAME`
 *   crawlspec site export <dir> --base-url URL [--external-url URL] [--subdomain-url URL]
 *                                                  write it as static files to deploy at those addresses
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { exportSite } from '../site/export.js';
import { serveSite } from '../site/server.js';
import { parseCommand } from './args.js';
import { baseAddress, hostName, InputError, listenError, port as portOption, UsageError } from './errors.js';
import { printable, quote } from './terminal.js';

/**
 * The origin of an address option, or a usage error naming it: a copy of the site is served at the root of an
 * origin, so a path, a query or a user name (which the origin would drop without a word) is refused.
 */
function origin(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const url = baseAddress(value, name, 'https://crawlspec-site.example.org');
  if (url.pathname !== '/')
    throw new UsageError(`${name} ${quote(value)} has a path; expected an origin (the site is served at its root), e.g. ${url.origin}`);
  return url.origin;
}

/**
 * The other site's address when --external-url is not given: the base address's host under `external.`. An IP
 * address takes no such label (`external.127.0.0.1` is no address), so there --external-url is needed.
 */
function defaultExternal(main: string): string {
  const url = new URL(main);
  if (isIP(url.hostname.replace(/^\[(.*)\]$/, '$1')) !== 0) {
    throw new UsageError(
      `--base-url ${main} is an IP address, with no host name to put the other site under (external.${url.hostname}): give --external-url, the address the other site will be served at`,
    );
  }
  url.hostname = `external.${url.hostname}`;
  return url.origin;
}

/** The addresses `name` resolves to on this machine, or why it resolves to none (`ENOTFOUND`). */
export type Resolver = (name: string) => Promise<readonly string[] | string>;

const systemResolver: Resolver = (name) =>
  lookup(name, { all: true }).then(
    (found) => found.map((a) => a.address),
    (error: unknown) => String((error as { code?: unknown }).code ?? 'no address'),
  );

/**
 * The warning `site serve --host NAME` gives, one line, when NAME or its subdomain `sub.NAME` does not resolve to
 * 127.0.0.1 here, where the site listens: the addresses it prints then reach it only for a crawler that maps the
 * names itself (the reference server does, for the kit). None when both resolve there.
 */
export async function siteNameWarning(host: string, resolve: Resolver = systemResolver): Promise<string | undefined> {
  const names = [host, `sub.${host}`];
  const problems: string[] = [];
  for (const name of names) {
    const found = await resolve(name);
    if (typeof found === 'string') problems.push(`${name} does not resolve (${found})`);
    else if (!found.includes('127.0.0.1')) problems.push(`${name} resolves to ${found.join(', ')}, not 127.0.0.1`);
  }
  if (problems.length === 0) return undefined;
  return `crawlspec site serve: warning: ${problems.join('; ')}: the addresses printed above reach this site only from a crawler that maps the names to 127.0.0.1 itself (crawlspec serve does, for the kit); for others, add "127.0.0.1 ${names.join(' ')}" to /etc/hosts`;
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseCommand('site serve', args, { port: { type: 'string' }, host: { type: 'string' } }, false);
  const port = values.port === undefined ? undefined : portOption(values.port);
  const host = values.host === undefined ? undefined : hostName(values.host, '--host');
  const site = await serveSite({ ...(port === undefined ? {} : { port }), ...(host === undefined ? {} : { host }) }).catch(
    (error: unknown) => listenError(error, '127.0.0.1', port ?? 0),
  );
  const { main, external, subdomain } = site.origins;
  // Listened for before anything is printed: whoever reads a line may stop the server at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log(
    printable(
      `test site serving ${main}/ (other site ${external}/${subdomain === undefined ? '' : `, subdomain ${subdomain}/`}); Ctrl-C stops it`,
    ),
  );
  // After the addresses, which it is about (a Ctrl-C while the names are looked up still lets it be said).
  const warning = host === undefined ? undefined : await siteNameWarning(host);
  if (warning !== undefined) console.error(printable(warning));
  await stopped;
  await site.close();
  return 0;
}

async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'site export',
    args,
    { 'base-url': { type: 'string' }, 'external-url': { type: 'string' }, 'subdomain-url': { type: 'string' } },
    true,
  );
  const [dir, ...extra] = positionals;
  if (dir === undefined) throw new UsageError('site export needs a directory to write to, e.g. ./site');
  if (dir === '') throw new UsageError('site export: the directory is empty; expected a directory to write to, e.g. ./site');
  if (extra.length > 0)
    throw new UsageError(
      `unexpected ${extra.length === 1 ? 'argument' : 'arguments'} ${extra.map(quote).join(' ')}; site export takes one directory`,
    );
  const main = origin(values['base-url'], '--base-url');
  if (main === undefined) throw new UsageError('site export needs --base-url, the address the site will be served at');
  const external = origin(values['external-url'], '--external-url') ?? defaultExternal(main);
  const subdomain = origin(values['subdomain-url'], '--subdomain-url');
  const origins = [main, external, ...(subdomain === undefined ? [] : [subdomain])];
  if (new Set(origins).size < origins.length)
    throw new UsageError(
      `site export: the sites need addresses of their own; --base-url, --external-url and --subdomain-url give ${origins.join(', ')}`,
    );
  const files = await exportSite(dir, { main, external, ...(subdomain === undefined ? {} : { subdomain }) }).catch((error: unknown) => {
    throw new InputError(`cannot write the site to ${quote(dir)}: ${(error as Error).message}`);
  });
  console.log(printable(`wrote ${files.length} files to ${dir}; SERVING.md says where to serve them`));
  return 0;
}

export async function siteCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'serve') return serve(rest);
  if (sub === 'export') return exportCommand(rest);
  throw new UsageError(sub === undefined ? 'site needs serve or export' : `site takes serve or export, not ${quote(sub)}`);
}
