/**
 * `crawlspec contract`: the contract kit against a target (`--base-url`), or against the built-in reference
 * server started for the run.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { checkTable } from '../contract/checkTable.js';
import { DEFAULT_OPTIONS, exitCode, formatJunit, formatText, runContract, UNKNOWN_SITE } from '../contract/run.js';
import { createReferenceApp } from '../server/app.js';
import { listen } from '../server/http.js';
import { REFERENCE_SITE_PROFILE } from '../server/site.js';
import { authOption, integer, UsageError } from './errors.js';

/** A path of the site (`/about`): it must begin with `/`. */
function sitePath(path: string, option: string): string {
  if (!path.startsWith('/')) throw new UsageError(`${option} takes a path of the site beginning with /, not ${JSON.stringify(path)}`);
  return path;
}

/** The longest per-request timeout: an hour (timers cannot wait much longer than 24 days anyway). */
const MAX_TIMEOUT_SECONDS = 3600;

function seconds(value: string, option: string): number {
  const n = integer(value, option, 0);
  if (n < 1 || n > MAX_TIMEOUT_SECONDS) throw new UsageError(`${option} takes a number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}, not ${value}`);
  return n;
}

export async function contractCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string' },
      'no-auth': { type: 'boolean' },
      version: { type: 'string', default: 'both' },
      level: { type: 'string', default: DEFAULT_OPTIONS.level },
      seed: { type: 'string' },
      runs: { type: 'string' },
      'max-requests': { type: 'string' },
      concurrency: { type: 'string' },
      'site-url': { type: 'string' },
      'site-page': { type: 'string', multiple: true },
      'site-failing': { type: 'string' },
      timeout: { type: 'string' },
      'max-response-bytes': { type: 'string' },
      'only-no-job': { type: 'boolean', default: false },
      'list-checks': { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      behaviour: { type: 'boolean' },
      'no-behaviour': { type: 'boolean' },
      'site-host': { type: 'string' },
      'behaviour-site': { type: 'string' },
      'behaviour-external': { type: 'string' },
      'behaviour-subdomain': { type: 'string' },
      report: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
  const versions = ({ v1: ['v1'], v2: ['v2'], both: ['v1', 'v2'] } as const)[values.version as 'v1' | 'v2' | 'both'];
  if (!versions) throw new UsageError(`--version takes v1, v2 or both, not "${values.version}"`);
  if (values['list-checks']) {
    process.stdout.write(checkTable(versions));
    return 0;
  }
  if (values.level !== 'interface' && values.level !== 'service')
    throw new UsageError(`--level takes interface or service, not "${values.level}"`);
  const level = values.level;
  // A token may come from the environment, so it stays out of shell history and CI logs.
  const token = values.token ?? process.env.CRAWLSPEC_TOKEN;
  if (values['base-url'] !== undefined && token === undefined && !values['no-auth']) {
    throw new UsageError('a target needs --token T (or CRAWLSPEC_TOKEN), or --no-auth for one without authentication');
  }
  const auth = authOption({ token, 'no-auth': values['no-auth'] });
  if (values.behaviour && values['no-behaviour']) throw new UsageError('--behaviour and --no-behaviour exclude each other');
  const behaviourSite = values['behaviour-site'];
  const behaviourExternal = values['behaviour-external'];
  if ((behaviourSite === undefined) !== (behaviourExternal === undefined))
    throw new UsageError('--behaviour-site and --behaviour-external go together: the addresses of a deployed copy of the test site (crawlspec site export)');
  const behaviour = {
    ...(values.behaviour ? { behaviour: true } : values['no-behaviour'] ? { behaviour: false } : {}),
    ...(values['site-host'] === undefined ? {} : { siteHost: values['site-host'] }),
    ...(behaviourSite === undefined || behaviourExternal === undefined
      ? {}
      : {
          behaviourSite: {
            main: behaviourSite,
            external: behaviourExternal,
            ...(values['behaviour-subdomain'] === undefined ? {} : { subdomain: values['behaviour-subdomain'] }),
          },
        }),
  };
  // Without a target, the built-in reference server is started on 127.0.0.1 for the run.
  let embedded: { close(): Promise<void> } | undefined;
  let baseUrl = values['base-url'];
  if (baseUrl === undefined) {
    let publicUrl = '';
    const app = createReferenceApp({ auth, publicUrl: () => publicUrl });
    const server = await listen(app);
    publicUrl = server.url;
    baseUrl = server.url;
    embedded = { close: async () => (await server.close(), app.close()) };
  }
  try {
    const maxRequests = values['max-requests'] === undefined ? undefined : integer(values['max-requests'], '--max-requests', 0);
    // Against the built-in server the kit's jobs crawl its own site, which has pages and a page that fails;
    // against a loopback target, the test site the kit serves (runContract's default); else --site-url, with
    // what --site-page and --site-failing tell of it.
    const pages = values['site-page'];
    const failing = values['site-failing'];
    if ((pages !== undefined || failing !== undefined) && values['site-url'] === undefined)
      throw new UsageError('--site-page and --site-failing describe the site of --site-url; give --site-url too');
    const site =
      values['site-url'] !== undefined
        ? {
            siteUrl: values['site-url'],
            ...(pages === undefined && failing === undefined
              ? {}
              : { site: { pages: pages ?? UNKNOWN_SITE.pages, ...(failing === undefined ? {} : { failing: sitePath(failing, '--site-failing') }) } }),
          }
        : embedded
          ? { siteUrl: `${baseUrl}/site`, site: REFERENCE_SITE_PROFILE }
          : {};
    if (site.site !== undefined) for (const page of site.site.pages) sitePath(page, '--site-page');
    let report;
    try {
      report = await runContract({
        baseUrl,
        token: auth === 'none' ? undefined : auth.token,
        versions: [...versions],
        level,
        seed: integer(values.seed, '--seed', Date.now() % 2 ** 31),
        runs: integer(values.runs, '--runs', DEFAULT_OPTIONS.runs),
        ...(maxRequests === undefined ? {} : { maxRequests }),
        concurrency: integer(values.concurrency, '--concurrency', DEFAULT_OPTIONS.concurrency),
        ...site,
        ...(values.timeout === undefined ? {} : { timeoutMs: seconds(values.timeout, '--timeout') * 1000 }),
        maxResponseBytes: integer(values['max-response-bytes'], '--max-response-bytes', DEFAULT_OPTIONS.maxResponseBytes),
        onlyNoJob: values['only-no-job'],
        ...(values.only === undefined ? {} : { only: values.only }),
        ...behaviour,
      });
    } catch (error) {
      // The options are checked before anything is sent: a bad one is a usage error.
      if (error instanceof RangeError) throw new UsageError(error.message.replace(/^(\w+)/, (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`));
      throw error;
    }
    if (values.report !== undefined) await writeFile(values.report, formatJunit(report));
    console.log(values.json ? JSON.stringify(report, null, 2) : formatText(report));
    return exitCode(report);
  } finally {
    await embedded?.close();
  }
}
