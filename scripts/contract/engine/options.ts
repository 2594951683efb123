/**
 * What a contract run is told: the target, which versions, at which level, how many generated requests, the
 * site valid requests point at, and the limits that keep a run safe against a real, paid service.
 */
import type { Version } from '../../../schemas/registry.js';
import { validate } from '../../../schemas/validate.js';
import type { Level } from '../spec/levels.js';
import type { SiteOrigins } from '../../site/testSite.js';
import { minimalRequest, SITE_PATHS } from '../generation/safeRequests.js';
import { checkedHeaders } from '../wire/headers.js';
import { DEFAULT_MAX_DURATION_MS } from '../wire/timeLimit.js';

/** What the kit knows of the site valid requests point at, to steer its jobs so that there is something to judge. */
export interface SiteProfile {
  /** Paths below the site address that are pages (each gives a page record), e.g. `/about`. At least two. */
  readonly pages: readonly string[];
  /** A path below the site address whose scrape fails (so a job has an error record), if the site has one. */
  readonly failing?: string;
}

/** A site the kit knows nothing of (e.g. `https://example.com`): its root and a few usual paths. */
export const UNKNOWN_SITE: SiteProfile = { pages: SITE_PATHS.filter((p) => p !== '') };

export interface ContractOptions {
  /** The service's base address, without the version segment (e.g. `https://api.example.dev`). */
  baseUrl: string;
  /** Bearer token; `undefined` runs without authentication (`--no-auth`) and skips the auth checks. */
  token: string | undefined;
  versions: Version[];
  /** Which expectations decide the verdict: `interface` (default) or `service` (both). */
  level?: Level;
  /** fast-check seed: the same seed gives the same request bodies. */
  seed: number;
  /** Generated requests per generated check. */
  runs: number;
  /**
   * Cap on the requests sent, shared among the checks in proportion to what each needs. By default exactly
   * what every check needs, so a default run is complete; a lower cap leaves checks incomplete (exit 3).
   */
  maxRequests?: number;
  /** Requests in flight at once (and checks run at once). */
  concurrency: number;
  /**
   * The only site valid requests point at. By default the kit's test site: the copy given (`behaviourSite`),
   * or the site the kit serves for the run (a loopback target), whose pages are known (and, served, its
   * failing page); else `https://example.com`.
   */
  siteUrl?: string;
  /** What the kit knows of that site (or of the copy, `behaviourSite`); by default its usual paths, or the test site's pages. */
  site?: SiteProfile;
  /** Run only the checks that start no job on a conformant target. */
  onlyNoJob?: boolean;
  /** Per-request timeout, in milliseconds. */
  timeoutMs?: number;
  /**
   * The whole run's time limit, in milliseconds (by default an hour): once reached, only the cancels of the jobs
   * started are sent, and every check not ended is not judged (timeLimit.ts).
   */
  maxDurationMs?: number;
  /** Longest answer the kit reads, in bytes; a longer one makes its check inconclusive. */
  maxResponseBytes?: number;
  /**
   * Run the crawl-behaviour checks (checks/behaviour.ts). By default they run when the target is on loopback
   * (the kit serves its test site there), with a copy of the site (`behaviourSite`), or when the site is asked
   * to be served (`siteHost`, `sitePort`); elsewhere they cannot run, which leaves the run incomplete. `false`
   * leaves them out of the run.
   */
  behaviour?: boolean;
  /**
   * Serve the kit's test site under this host name (its subdomain `sub.<host>`), which must resolve to the kit
   * for the target. A name with a public suffix (e.g. `crawlspec.example.com`): the site's address must be a
   * valid crawl address.
   */
  siteHost?: string;
  /** The port the kit serves its test site on (by default a free one): one that can be put on an allow-list. */
  sitePort?: number;
  /**
   * A copy of the test site deployed elsewhere (`crawlspec site export`): the kit crawls that instead of serving
   * its own, in the behaviour checks and (without `siteUrl`) every job.
   */
  behaviourSite?: SiteOrigins;
  /** Run only the checks whose name matches one of these (`*` stands for any run of characters), e.g. `v2.crawl.behaviour.*`. */
  only?: readonly string[];
  /** Leave out the checks whose name matches one of these (same patterns as `only`): out of the run's scope. */
  skip?: readonly string[];
  /**
   * Headers sent on every request to the target besides the kit's own (e.g. an API gateway's key): not
   * `Authorization`, `Content-Type`, `Host` nor a framing header (headers.ts). Their values are cleaned from
   * everything the kit writes, as the token is.
   */
  headers?: Readonly<Record<string, string>>;
  /** Before anything else, wait up to this long (milliseconds) for the target to give any HTTP answer (waitForTarget.ts). */
  waitForTargetMs?: number;
  /** Run each failing behaviour check this many times more, to tell a flaky target from a broken one (confirm.ts). */
  confirm?: number;
  /** Record every exchange of the run in this file, as HAR 1.2 (recording.ts), cleaned of the token and header values. */
  record?: string;
  /**
   * A webhook receiver (`crawlspec webhook-receiver`) the target can deliver to and the kit can read, for the
   * webhook checks (checks/webhooks.ts). By default, on a loopback target, the kit runs one on 127.0.0.1 for the
   * run; elsewhere those checks cannot run without it.
   */
  webhookUrl?: string;
  /** The secret the target signs its webhook deliveries with (`X-Firecrawl-Signature`); the signature check runs only with it. */
  webhookSecret?: string;
}

export const DEFAULT_OPTIONS = {
  versions: ['v1', 'v2'] as Version[],
  level: 'interface' as Level,
  runs: 10,
  concurrency: 2,
  siteUrl: 'https://example.com',
  timeoutMs: 30_000,
  // The service cuts a status page at 10 MiB of JSON; room above that, and bounded memory however the target answers.
  maxResponseBytes: 16 * 1024 * 1024,
} as const;

/** The longest per-request timeout taken (an hour); a longer one is cut to it. */
export const MAX_TIMEOUT_MS = 3_600_000;

/** The options with every default applied and the addresses normalised (no trailing slash). */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly versions: readonly Version[];
  readonly level: Level;
  readonly seed: number;
  readonly runs: number;
  /** Undefined: what the checks need. */
  readonly maxRequests: number | undefined;
  readonly concurrency: number;
  readonly siteUrl: string;
  readonly site: SiteProfile;
  readonly onlyNoJob: boolean;
  readonly timeoutMs: number;
  readonly maxDurationMs: number;
  readonly maxResponseBytes: number;
  readonly behaviour: boolean;
  /** The behaviour checks were left out on purpose (`behaviour: false`), not for want of a site. */
  readonly behaviourLeftOut: boolean;
  /** The kit serves its test site for the run (no copy given, and the behaviour checks or the jobs crawl it). */
  readonly servesSite: boolean;
  readonly siteHost: string | undefined;
  readonly sitePort: number | undefined;
  readonly behaviourSite: SiteOrigins | undefined;
  readonly only: readonly string[] | undefined;
  readonly skip: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  /** 0: the target is not waited for. */
  readonly waitForTargetMs: number;
  /** 0: failing behaviour checks are not run again. */
  readonly confirm: number;
  /** The file the run is recorded in (HAR 1.2), if any. */
  readonly record: string | undefined;
  /**
   * Where the webhook checks' jobs deliver: the receiver given, or (once the run has started it) the one the kit
   * runs, each job in an inbox below it (checks/webhooks.ts). Undefined: no receiver, the webhook checks cannot run.
   */
  readonly webhookUrl: string | undefined;
  /** The kit runs a webhook receiver on 127.0.0.1 for the run: a loopback target, and none given. */
  readonly servesWebhookReceiver: boolean;
  readonly webhookSecret: string | undefined;
}

/**
 * Whether `name` matches `pattern`, where `*` stands for any run of characters. Written out rather than as a
 * RegExp built from the pattern: linear in both lengths for any pattern, and nothing to escape.
 */
export function matchesGlob(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p += 1;
      n += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = n;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      n = resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

/** Whether `url` is on this machine's loopback (a target there can reach a site the kit serves on loopback). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The origin of `url` (an http or https address without a path: a copy's robots.txt and sitemap are at the
 * origin's root), or a RangeError naming the option.
 */
function originOption(url: string, name: string): string {
  const parsed = httpUrl(url, name);
  if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '')
    throw new RangeError(
      `${name} ${url} has a path; expected the origin the copy is served at (scheme, host and port only, e.g. https://crawlspec-site.example.org)`,
    );
  return parsed.origin;
}

/** Why `url` is no address a crawl of each of `versions` may start at, or undefined. */
function notCrawlable(url: string, versions: readonly Version[]): string | undefined {
  for (const version of versions) {
    const result = validate(`${version}/CrawlRequest`, { url });
    if (!result.valid) return `not a valid ${version} crawl address (${result.errors[0]!.message})`;
  }
  return undefined;
}

/**
 * `siteHost`: the served site's address (`http://<host>:<port>`, and `sub.<host>`) must be a valid crawl
 * address, so the name needs a public suffix (the validators take `example.com`'s `com` as one; `.test` is none).
 */
function siteHostOption(host: string, versions: readonly Version[]): string {
  const wrong = notCrawlable(`http://${host}/`, versions) ?? notCrawlable(`http://sub.${host}/`, versions);
  if (wrong !== undefined)
    throw new RangeError(
      `siteHost ${JSON.stringify(host)} gives the test site the address http://${host}:PORT, which is ${wrong}; expected a host name with a public suffix resolving to 127.0.0.1 for the target, e.g. crawlspec.example.com`,
    );
  return host;
}

/** The port the test site is served on: one a target's fetch connects to. */
function sitePortOption(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`sitePort must be an integer from 1 to 65535, not ${port}`);
  if (BAD_PORTS.has(port))
    throw new RangeError(
      `sitePort ${port} is a port fetch never connects to (the Fetch standard's bad ports), so a target built on fetch could not crawl the site there; use another port`,
    );
  return port;
}

const positive = (value: number, name: string, min = 1): number => {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}, not ${value}`);
  return value;
};

/**
 * The ports fetch refuses to connect to (the Fetch standard's "bad port" list, which Node's fetch applies): an
 * address the target is to fetch (the site, a webhook receiver) on one of them could never be reached by a
 * target built on fetch, so it is a usage error rather than a run that blames the target. The kit's own
 * requests (wire.ts) reach any port. Written out because undici does not export its copy.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** `url` as an http(s) address, or a RangeError naming the option; `fetched`: an address the target is to fetch. */
function httpUrl(url: string, name: string, fetched = true): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`${name} must be an http or https address, not ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new RangeError(`${name} must be an http or https address, not ${JSON.stringify(url)}`);
  if (fetched && parsed.port !== '' && BAD_PORTS.has(Number(parsed.port)))
    throw new RangeError(
      `${name} ${parsed.href} uses port ${parsed.port}, which a target built on fetch never connects to (the Fetch standard's bad ports); use another port`,
    );
  return parsed;
}

export function resolveOptions(options: ContractOptions): ResolvedOptions {
  const versions = [...new Set(options.versions)];
  if (versions.length === 0) throw new RangeError('versions must name v1, v2 or both');
  const level = options.level ?? DEFAULT_OPTIONS.level;
  if (level !== 'interface' && level !== 'service')
    throw new RangeError(`level must be interface or service, not ${JSON.stringify(level)}`);
  const base = httpUrl(options.baseUrl, 'baseUrl', false);
  const behaviourSite = behaviourSiteOption(options.behaviourSite, versions);
  const siteHost = options.siteHost === undefined ? undefined : siteHostOption(options.siteHost, versions);
  const sitePort = options.sitePort === undefined ? undefined : sitePortOption(options.sitePort);
  if (behaviourSite !== undefined && (siteHost !== undefined || sitePort !== undefined))
    throw new RangeError(
      `${siteHost === undefined ? 'sitePort' : 'siteHost'} is for the test site the kit serves; with behaviourSite it crawls the copy and serves none`,
    );
  // Asking for the site to be served (a name, a port) says the target can crawl it, as a copy does.
  const behaviour =
    options.behaviour ?? (behaviourSite !== undefined || isLoopbackUrl(base) || siteHost !== undefined || sitePort !== undefined);
  // The site is served for the behaviour checks (without a copy), and for every job of a loopback target
  // when no other site is given.
  const servesSite = behaviourSite === undefined && (behaviour || (options.siteUrl === undefined && isLoopbackUrl(base)));
  if (!servesSite && (siteHost !== undefined || sitePort !== undefined))
    throw new RangeError(
      `${siteHost === undefined ? 'sitePort' : 'siteHost'} is for the test site the kit serves, and this run serves none: the crawl-behaviour checks are left out (behaviour false) and the jobs point at another site`,
    );
  const { siteUrl, site } = siteOption(options.siteUrl ?? DEFAULT_OPTIONS.siteUrl, options.site ?? UNKNOWN_SITE, versions);
  return {
    baseUrl: base.href.replace(/(?<!\/)\/+$/, ''),
    token: options.token,
    versions: (['v1', 'v2'] as const).filter((v) => versions.includes(v)),
    level,
    seed: Number.isInteger(options.seed) ? options.seed : 0,
    runs: positive(options.runs, 'runs'),
    maxRequests: options.maxRequests === undefined ? undefined : positive(options.maxRequests, 'maxRequests', 0),
    concurrency: positive(options.concurrency, 'concurrency'),
    siteUrl,
    site,
    onlyNoJob: options.onlyNoJob ?? false,
    timeoutMs: Math.min(positive(options.timeoutMs ?? DEFAULT_OPTIONS.timeoutMs, 'timeoutMs'), MAX_TIMEOUT_MS),
    maxDurationMs: positive(options.maxDurationMs ?? DEFAULT_MAX_DURATION_MS, 'maxDurationMs'),
    maxResponseBytes: positive(options.maxResponseBytes ?? DEFAULT_OPTIONS.maxResponseBytes, 'maxResponseBytes'),
    behaviour,
    behaviourLeftOut: options.behaviour === false,
    servesSite,
    siteHost,
    sitePort,
    only: options.only === undefined ? undefined : [...options.only],
    skip: [...(options.skip ?? [])],
    headers: checkedHeaders(options.headers ?? {}),
    waitForTargetMs: positive(options.waitForTargetMs ?? 0, 'waitForTargetMs', 0),
    confirm: positive(options.confirm ?? 0, 'confirm', 0),
    record: options.record,
    behaviourSite,
    webhookUrl: options.webhookUrl === undefined ? undefined : webhookUrlOption(options.webhookUrl),
    servesWebhookReceiver: options.webhookUrl === undefined && isLoopbackUrl(base),
    webhookSecret: webhookSecretOption(options.webhookSecret),
  };
}

function webhookSecretOption(secret: string | undefined): string | undefined {
  if (secret === '') throw new RangeError('webhookSecret is empty; expected the secret the target signs its webhook deliveries with');
  return secret;
}

/** A receiver's address, without a trailing slash: the kit puts an inbox path below it, so it takes no query or fragment. */
function webhookUrlOption(url: string): string {
  const parsed = httpUrl(url, 'webhookUrl');
  if (parsed.search !== '' || parsed.hash !== '')
    throw new RangeError(
      `webhookUrl ${url} has a query or a fragment; expected the receiver's address, below which the kit puts a path for each job`,
    );
  // Trailing slashes trimmed by hand: /\/+$/ backtracks quadratically on a long run of slashes not at the end.
  let end = parsed.href.length;
  while (end > 0 && parsed.href[end - 1] === '/') end -= 1;
  return parsed.href.slice(0, end);
}

/** The site valid requests point at, normalised (no trailing slash), and what it has; a RangeError naming what is wrong. */
function siteOption(url: string, profile: SiteProfile, versions: readonly Version[]): { siteUrl: string; site: SiteProfile } {
  const parsed = httpUrl(url, 'siteUrl');
  const siteUrl = `${parsed.origin}${parsed.pathname.replace(/(?<!\/)\/+$/, '')}`;
  if (profile.pages.length < 2) throw new RangeError('site.pages must name at least two pages (pagination needs two results)');
  // Generated requests are valid crawls of the site's pages: a site that is no valid crawl URL (e.g.
  // `http://localhost`, which has no top-level domain) leaves nothing valid to send.
  for (const version of versions)
    for (const path of ['', ...profile.pages]) {
      const result = validate(`${version}/CrawlRequest`, minimalRequest('crawl', siteUrl, path));
      if (!result.valid)
        throw new RangeError(`siteUrl ${siteUrl}${path} is not a valid ${version} crawl address: ${result.errors[0]!.message}`);
    }
  return { siteUrl, site: profile };
}

/** `options` with the site every job points at replaced: the test site the run crawls (served, or a copy). */
export const withSite = (options: ResolvedOptions, url: string, profile: SiteProfile): ResolvedOptions => ({
  ...options,
  ...siteOption(url, profile, options.versions),
});

/** The copy of the test site given, each address an origin, its main one a valid crawl address. */
function behaviourSiteOption(copy: SiteOrigins | undefined, versions: readonly Version[]): SiteOrigins | undefined {
  if (copy === undefined) return undefined;
  const main = originOption(copy.main, 'behaviourSite.main');
  const wrong = notCrawlable(main, versions);
  if (wrong !== undefined)
    throw new RangeError(`behaviourSite.main ${main} is ${wrong}; expected the address of a copy a crawl may start at`);
  return {
    main,
    external: originOption(copy.external, 'behaviourSite.external'),
    ...(copy.subdomain === undefined ? {} : { subdomain: originOption(copy.subdomain, 'behaviourSite.subdomain') }),
  };
}
