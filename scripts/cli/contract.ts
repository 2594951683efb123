/**
 * `crawlspec contract`: the contract kit against a target (`--base-url`), or against the built-in reference
 * server started for the run. Every option is checked before anything is started or sent: a wrong one is a
 * usage error (exit 2), one line naming the option and what it takes.
 */
import { resolve } from 'node:path';
import { headerProblem, parseHeader } from '../contract/wire/headers.js';
import type { ContractOptions } from '../contract/engine/options.js';
import { parseCommand } from './args.js';
import { CONTRACT_OPTIONS, LIMITS } from './commandOptions.js';
import { withConfig } from './config.js';
import { randomBytes } from 'node:crypto';
import {
  authOption,
  hostName,
  baseAddress,
  httpAddress,
  InputError,
  integer,
  outputFile,
  token as tokenOption,
  UsageError,
  webhookSecret,
} from './errors.js';
import { closestPattern } from './suggest.js';
import { knownDeviations } from './knownDeviations.js';
import { printable, printableJson, quote } from './terminal.js';

/**
 * The kit and the validators, loaded once the options that need none of them are checked: a usage error costs
 * the command little. The reference server (its page reading, markdown and PDF text) is loaded only for a run
 * without --base-url, which starts it.
 */
async function loadKit() {
  const [validation, options, run, checkTable, site, testSite, siteData] = await Promise.all([
    import('../../schemas/validate.js'),
    import('../contract/engine/options.js'),
    import('../contract/index.js'),
    import('../contract/checks/table.js'),
    import('../server/site.js'),
    import('../site/server.js'),
    import('../site/testSite.js'),
  ]);
  return { ...validation, ...options, ...run, ...checkTable, ...site, ...testSite, ...siteData };
}
type Kit = Awaited<ReturnType<typeof loadKit>>;

/** What `crawlspec contract --help` says the defaults are; the kit's own (DEFAULT_OPTIONS) where it has one. */
export const DEFAULTS = {
  version: CONTRACT_OPTIONS.version.default,
  level: CONTRACT_OPTIONS.level.default,
  runs: 10,
  concurrency: 2,
  siteUrl: 'https://example.com',
  maxResponseBytes: 16 * 1024 * 1024,
};

/** Bounds of the numeric options (what `crawlspec contract --help` says): in the option table, which the config file's schema is made from. */
export { LIMITS };

/**
 * `--header 'Name: value'` (repeatable): each parsed and checked (headers.ts), no name twice. Their values are
 * secrets, like the token: a message shows what was given with everything after its colon as ***.
 */
export function headersOption(given: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  // An empty value has nothing to hide, and *** would say there was one.
  const masked = (text: string) => text.replace(/:(.*)$/s, (_, value: string) => (value.trim() === '' ? ':' : ': ***'));
  for (const text of given) {
    const parsed = parseHeader(text);
    if (parsed === undefined)
      throw new UsageError(
        `--header ${quote(masked(text))} is not Name: value; expected a header name, a colon and its value, e.g. --header 'X-Api-Key: KEY'`,
      );
    const problem = headerProblem(parsed.name, parsed.value);
    if (problem !== undefined) throw new UsageError(`--header ${quote(masked(text))}: ${problem}`);
    if (Object.keys(headers).some((name) => name.toLowerCase() === parsed.name.toLowerCase()))
      throw new UsageError(`--header ${parsed.name} is given twice; expected each name once`);
    headers[parsed.name] = parsed.value;
  }
  return headers;
}

/** A path of the site (`/about`): it must begin with `/`. */
function sitePath(path: string, option: string): string {
  if (!path.startsWith('/'))
    throw new UsageError(`${option} ${quote(path)} is not a path of the site; expected one beginning with /, e.g. /about`);
  return path;
}

/** The options named otherwise than their ContractOptions key. */
const OPTION_OF: Readonly<Record<string, string>> = {
  'behaviourSite.main': '--behaviour-site',
  'behaviourSite.external': '--behaviour-external',
  'behaviourSite.subdomain': '--behaviour-subdomain',
};

/** `--option-name` of a ContractOptions key named in a RangeError of the kit (`siteUrl ...` → `--site-url ...`). */
const asOption = (message: string) =>
  message.replace(/^([\w.]+)/, (name) => OPTION_OF[name] ?? `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);

/** The site valid requests point at: an address a crawl of each version may start at. */
function siteUrlOption(kit: Kit, value: string, versions: readonly ('v1' | 'v2')[]): string {
  for (const version of versions) {
    const result = kit.validate(`${version}/CrawlRequest`, { url: value });
    if (!result.valid)
      throw new UsageError(
        `--site-url ${quote(value)} is not an address a ${version} crawl may start at (${result.errors[0]!.message}); expected an http or https address with a top-level domain or an IP address, e.g. https://example.com`,
      );
  }
  return value;
}

export async function contractCommand(args: string[]): Promise<number> {
  if (args[0] === 'replay') return (await import('./replay.js')).replayCommand(args.slice(1));
  if (args[0] !== undefined && !args[0].startsWith('-'))
    throw new UsageError(`unexpected argument ${quote(args[0])}; contract takes options, or replay and a recording (contract replay FILE)`);
  // The options of crawlspec.config.json (or --config FILE) first: the command line overrides them.
  const configured = await withConfig('contract', args);
  return contractRun(configured.args).catch((error: unknown) => {
    throw configured.blame(error);
  });
}

async function contractRun(args: string[]): Promise<number> {
  const { values } = parseCommand('contract', args, CONTRACT_OPTIONS, false);
  const versions = ({ v1: ['v1'], v2: ['v2'], both: ['v1', 'v2'] } as const)[values.version as 'v1' | 'v2' | 'both'];
  if (!Object.hasOwn({ v1: 1, v2: 1, both: 1 }, values.version))
    throw new UsageError(`--version takes v1, v2 or both, not ${quote(values.version)}`);
  if (values['list-checks']) {
    if (values.json) throw new UsageError('--list-checks prints the table of checks as Markdown; --json does not apply to it');
    process.stdout.write((await import('../contract/checks/table.js')).checkTable(versions));
    return 0;
  }
  if (values.level !== 'interface' && values.level !== 'service')
    throw new UsageError(`--level takes interface or service, not ${quote(values.level)}`);
  const level = values.level;

  // A token may come from the environment, so it stays out of shell history and CI logs; --no-auth ignores it.
  const fromEnvironment = values.token === undefined && !values['no-auth'] ? process.env.CRAWLSPEC_TOKEN : undefined;
  const given = values.token ?? (fromEnvironment === undefined ? undefined : tokenOption(fromEnvironment, 'CRAWLSPEC_TOKEN'));
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined) baseAddress(baseUrl, '--base-url');
  if (baseUrl !== undefined && given === undefined && !values['no-auth'])
    throw new UsageError('a target needs --token T (or CRAWLSPEC_TOKEN), or --no-auth for one without authentication');
  const auth = authOption({ token: given, 'no-auth': values['no-auth'] }, values.token === undefined ? 'CRAWLSPEC_TOKEN' : '--token');

  const seed = integer(values.seed, '--seed', Date.now() % 2 ** 31, ...LIMITS.seed);
  const runs = integer(values.runs, '--runs', DEFAULTS.runs, ...LIMITS.runs);
  const maxRequests =
    values['max-requests'] === undefined ? undefined : integer(values['max-requests'], '--max-requests', 0, ...LIMITS.maxRequests);
  const concurrency = integer(values.concurrency, '--concurrency', DEFAULTS.concurrency, ...LIMITS.concurrency);
  const maxResponseBytes = integer(
    values['max-response-bytes'],
    '--max-response-bytes',
    DEFAULTS.maxResponseBytes,
    ...LIMITS.maxResponseBytes,
  );
  const timeoutSeconds = values.timeout === undefined ? undefined : integer(values.timeout, '--timeout', 0, ...LIMITS.timeoutSeconds);
  const maxDurationSeconds =
    values['max-duration'] === undefined ? undefined : integer(values['max-duration'], '--max-duration', 0, ...LIMITS.maxDurationSeconds);
  const headers = headersOption(values.header ?? []);
  const waitSeconds =
    values['wait-for-target'] === undefined
      ? undefined
      : integer(values['wait-for-target'], '--wait-for-target', 0, ...LIMITS.waitForTargetSeconds);
  const confirm = values.confirm === undefined ? undefined : integer(values.confirm, '--confirm', 0, ...LIMITS.confirm);
  if (values['site-url'] !== undefined) httpAddress(values['site-url'], '--site-url', 'https://example.com');
  // --site-page and --site-failing tell what the site of --site-url (or the copy of --behaviour-site) has, so
  // that jobs have something to show.
  const pages = values['site-page']?.map((page) => sitePath(page, '--site-page'));
  const failing = values['site-failing'] === undefined ? undefined : sitePath(values['site-failing'], '--site-failing');
  if ((pages !== undefined || failing !== undefined) && values['site-url'] === undefined && values['behaviour-site'] === undefined)
    throw new UsageError(
      `${pages !== undefined ? '--site-page' : '--site-failing'} describes the site of --site-url (or the copy of --behaviour-site); give one too`,
    );
  if (pages !== undefined && pages.length < 2)
    throw new UsageError(
      '--site-page names one page; expected at least two (--site-page /a --site-page /b), so that pagination has two results',
    );
  for (const pattern of values.only ?? [])
    if (pattern === '') throw new UsageError('--only is empty; expected a check name or pattern, e.g. v2.crawl.behaviour.*');
  for (const pattern of values.skip ?? [])
    if (pattern === '')
      throw new UsageError("--skip is empty; expected a check name or pattern, e.g. 'v*.crawl.behaviour.allowSubdomains'");

  if (values.behaviour && values['no-behaviour']) throw new UsageError('--behaviour and --no-behaviour exclude each other');
  const siteHost = values['site-host'] === undefined ? undefined : hostName(values['site-host'], '--site-host');
  const sitePort = values['site-port'] === undefined ? undefined : integer(values['site-port'], '--site-port', 0, ...LIMITS.sitePort);
  const copy = (name: 'behaviour-site' | 'behaviour-external' | 'behaviour-subdomain') => {
    const value = values[name];
    if (value !== undefined) httpAddress(value, `--${name}`, 'https://crawlspec-site.example.org');
    return value;
  };
  const [behaviourSite, behaviourExternal, behaviourSubdomain] = [
    copy('behaviour-site'),
    copy('behaviour-external'),
    copy('behaviour-subdomain'),
  ];
  if ((behaviourSite === undefined) !== (behaviourExternal === undefined))
    throw new UsageError(
      '--behaviour-site and --behaviour-external go together: the addresses of a deployed copy of the test site (crawlspec site export)',
    );
  if (behaviourSubdomain !== undefined && behaviourSite === undefined)
    throw new UsageError('--behaviour-subdomain goes with --behaviour-site and --behaviour-external: the subdomain of that deployed copy');
  if (values['no-behaviour'] && (behaviourSite !== undefined || siteHost !== undefined))
    throw new UsageError(
      `--no-behaviour leaves out the behaviour checks (crawl, scrape, batch); ${siteHost === undefined ? '--behaviour-site' : '--site-host'} is for them`,
    );
  if (behaviourSite !== undefined && (siteHost !== undefined || sitePort !== undefined))
    throw new UsageError(
      `${siteHost !== undefined ? '--site-host' : '--site-port'} is for the test site the kit serves; with --behaviour-site it crawls that copy and serves none`,
    );
  if (values['webhook-url'] !== undefined) httpAddress(values['webhook-url'], '--webhook-url', 'http://hooks.example.org:8787');
  // The secret the target signs its deliveries with: --webhook-secret, else CRAWLSPEC_WEBHOOK_SECRET (kept out of the process list).
  const secretGiven = values['webhook-secret'] ?? process.env.CRAWLSPEC_WEBHOOK_SECRET;
  const secret =
    secretGiven === undefined
      ? undefined
      : webhookSecret(secretGiven, values['webhook-secret'] === undefined ? 'CRAWLSPEC_WEBHOOK_SECRET' : '--webhook-secret');
  const report = values.report === undefined ? undefined : await outputFile(values.report, '--report', 'JUnit XML', 'junit.xml');
  const record =
    values.record === undefined ? undefined : await outputFile(values.record, '--record', 'the exchanges of the run (HAR 1.2)', 'run.har');
  const html = values.html === undefined ? undefined : await outputFile(values.html, '--html', 'the HTML report', 'report.html');
  const markdown =
    values.markdown === undefined ? undefined : await outputFile(values.markdown, '--markdown', 'the Markdown summary', 'summary.md');
  // --min-coverage N (the overall figure) or MEASURE=N, each 0 to 100 (scripts/coverage/threshold.ts).
  const { parseThreshold, unmet } = await import('../coverage/threshold.js');
  const thresholds = (values['min-coverage'] ?? []).map((text) => {
    const threshold = parseThreshold(text);
    if (typeof threshold === 'string') throw new UsageError(threshold);
    return threshold;
  });
  const known = await knownDeviations(values);
  const outputs = [
    ['--record', record],
    ['--report', report],
    ['--html', html],
    ['--markdown', markdown],
    ['--baseline', known?.written],
  ].filter((o): o is [string, string] => o[1] !== undefined);
  for (const [i, [option, file]] of outputs.entries())
    for (const [other, second] of outputs.slice(i + 1))
      if (resolve(file) === resolve(second))
        throw new UsageError(`${option} and ${other} name the same file ${quote(file)}; expected two files`);

  // What needs the kit to be checked.
  const kit = await loadKit();
  const siteUrl = values['site-url'] === undefined ? undefined : siteUrlOption(kit, values['site-url'], versions);
  const names = kit.checkNames(versions);
  for (const [option, patterns] of [
    ['--only', values.only],
    ['--skip', values.skip],
  ] as const)
    for (const pattern of patterns ?? [])
      if (!names.some((name) => kit.matchesGlob(pattern, name))) {
        const meant = closestPattern(pattern, names, kit.matchesGlob);
        throw new UsageError(
          `${option} ${quote(pattern)} names no check of ${versions.join(' and ')}; ${meant === undefined ? '' : `did you mean ${quote(meant)}? `}expected a name or pattern of crawlspec contract --list-checks`,
        );
      }

  const options: Omit<ContractOptions, 'baseUrl'> = {
    token: auth === 'none' ? undefined : auth.token,
    versions: [...versions],
    level,
    seed,
    runs,
    ...(maxRequests === undefined ? {} : { maxRequests }),
    concurrency,
    // Without --site-url, the kit's default: its test site (the copy given, or the site served for a loopback
    // target), else https://example.com. What --site-page and --site-failing say is of the one the jobs use.
    ...(siteUrl === undefined ? {} : { siteUrl }),
    ...(pages === undefined && failing === undefined
      ? {}
      : {
          site: {
            pages: pages ?? (siteUrl === undefined ? kit.COPY_PROFILE : kit.UNKNOWN_SITE).pages,
            ...(failing === undefined ? {} : { failing }),
          },
        }),
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    ...(maxDurationSeconds === undefined ? {} : { maxDurationMs: maxDurationSeconds * 1000 }),
    maxResponseBytes,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(waitSeconds === undefined ? {} : { waitForTargetMs: waitSeconds * 1000 }),
    ...(confirm === undefined ? {} : { confirm }),
    onlyNoJob: values['only-no-job'],
    ...(record === undefined ? {} : { record }),
    ...(values.only === undefined ? {} : { only: values.only }),
    ...(values.skip === undefined ? {} : { skip: values.skip }),
    ...(values.behaviour ? { behaviour: true } : values['no-behaviour'] ? { behaviour: false } : {}),
    ...(siteHost === undefined ? {} : { siteHost }),
    ...(sitePort === undefined ? {} : { sitePort }),
    ...(values['webhook-url'] === undefined ? {} : { webhookUrl: values['webhook-url'] }),
    ...(secret === undefined ? {} : { webhookSecret: secret }),
    ...(behaviourSite === undefined || behaviourExternal === undefined
      ? {}
      : {
          behaviourSite: {
            main: behaviourSite,
            external: behaviourExternal,
            ...(behaviourSubdomain === undefined ? {} : { subdomain: behaviourSubdomain }),
          },
        }),
  };
  // The built-in target (without --base-url): the kit's jobs crawl the server's own site, which has pages and a
  // page that fails; the test site is served under a host name the server resolves to loopback, so that every
  // behaviour check runs (allowSubdomains needs a subdomain), with no DNS set up.
  const builtInSiteHost = options.siteHost ?? kit.BUILT_IN_SITE_HOST;
  // It signs its webhook deliveries with the secret given, else with one made for the run, so that the signature check runs.
  const builtInSecret = secret ?? randomBytes(16).toString('hex');
  const builtIn = (target: string): Partial<ContractOptions> =>
    baseUrl !== undefined
      ? {}
      : {
          webhookSecret: builtInSecret,
          ...(options.behaviourSite !== undefined
            ? {}
            : {
                ...(siteUrl === undefined ? { siteUrl: `${target}/site`, site: kit.REFERENCE_SITE_PROFILE } : {}),
                ...(options.behaviour === false ? {} : { siteHost: builtInSiteHost }),
              }),
        };
  // What the kit itself checks, asked before anything starts (a placeholder stands for the built-in target).
  const placeholder = 'http://127.0.0.1:8080';
  try {
    kit.resolveOptions({ ...options, baseUrl: baseUrl ?? placeholder, ...builtIn(placeholder) });
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(asOption(error.message));
    throw error;
  }

  // Without a target, the built-in reference server is started on 127.0.0.1 for the run.
  let embedded: { close(): Promise<void> } | undefined;
  let target = baseUrl;
  if (target === undefined) {
    let publicUrl = '';
    // The kit's test site: its names mapped to loopback, and its addresses allowed on every port (the kit picks
    // the site's port when it serves it); the server fetches from no other loopback port.
    const [{ createReferenceApp }, { listen }] = await Promise.all([import('../server/app.js'), import('../server/http.js')]);
    const app = createReferenceApp({
      auth,
      publicUrl: () => publicUrl,
      resolveHosts: kit.siteNamesOnLoopback(builtInSiteHost),
      allowFetchHost: kit.isSiteAddress,
      webhookSecret: builtInSecret,
    });
    const server = await listen(app);
    publicUrl = server.url;
    target = server.url;
    embedded = { close: async () => (await server.close(), app.close()) };
  }
  try {
    // The header at once, then a line per check as it ends (on stderr when stdout carries the JSON report), then
    // the summary: the text report, its check list in the order the checks ended (reporters/text.ts), or the JSON
    // report; then the report files. Each output is a listener of the run's events (contract/engine/events.ts).
    const progress = (line: string) => (values.json ? process.stderr : process.stdout).write(`${printable(line)}\n`);
    progress(kit.formatHeader({ target, versions, level, seed, runs }));
    // First: every other output asks it for the coverage once the run has ended.
    const coverage = kit.coverageReporter();
    const outputs = [
      coverage,
      kit.progressPrinter(progress, level),
      values.json
        ? kit.jsonPrinter(
            (json) => process.stdout.write(`${printableJson(json)}\n`),
            // With --json, the verdict also ends what a person watching sees (stderr), as it ends the text report.
            (verdict) => process.stderr.write(`${verdict}\n`),
            coverage.coverage,
          )
        : kit.summaryPrinter((text) => process.stdout.write(printable(text)), coverage.coverage),
      // The verdict first: a report file that then cannot be written (a full disk) loses no result.
      ...(report === undefined ? [] : [kit.junitReporter(report)]),
      ...(html === undefined ? [] : [kit.htmlReporter(html, coverage.coverage)]),
      ...(markdown === undefined ? [] : [kit.markdownReporter(markdown, coverage.coverage)]),
    ];
    // Held against its known deviations (--baseline; the file written first with --update-baseline), the outputs say so.
    const judged = known === undefined ? undefined : kit.knownDeviationsListener((ran) => known.apply(ran), outputs);
    const listeners = judged === undefined ? outputs : [judged];
    const result = await kit.runContract({ ...options, baseUrl: target, ...builtIn(target) }, listeners).catch((error: unknown) => {
      // A recording (--record) or a report file that could not be written: the file's fault, not the kit's.
      if (error instanceof kit.RecordingFailed || error instanceof kit.ReportNotWritten) throw new InputError(error.message);
      // The known deviations that --update-baseline could not write (knownDeviations.ts says which file).
      if (error instanceof InputError) throw error;
      // The site's port (--site-port) taken: checked when the site is served, before anything is sent.
      if (error instanceof kit.SiteNotServed)
        throw new InputError(`--site-port ${error.port}: ${error.message}; expected a free port, or no --site-port for any free one`);
      throw error;
    });
    // Coverage below --min-coverage fails the run (exit 1), unless the target could not be reached at all (2: its
    // coverage says nothing then, and is not told).
    const exit = kit.exitCode(judged?.report ?? result);
    if (exit === 2) return exit;
    const below = unmet(coverage.coverage()!, thresholds);
    for (const line of below) process.stderr.write(`${printable(`crawlspec contract: ${line}`)}\n`);
    return below.length > 0 ? 1 : exit;
  } finally {
    await embedded?.close();
  }
}
