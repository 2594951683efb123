/**
 * What a contract run is told: the target, which versions, how many generated requests, and the limits
 * that keep a run safe against a real, paid service.
 */
import type { Version } from '../../schemas/registry.js';
import { validate } from '../../schemas/validate.js';
import { minimalRequest, SITE_PATHS } from './safeRequests.js';

export interface ContractOptions {
  /** The service's base address, without the version segment (e.g. `https://api.example.dev`). */
  baseUrl: string;
  /** Bearer token; `undefined` runs without authentication (`--no-auth`) and skips the auth checks. */
  token: string | undefined;
  versions: Version[];
  /** fast-check seed: the same seed gives the same requests. */
  seed: number;
  /** Generated requests per generated check. */
  runs: number;
  /** Hard cap on the requests sent; once reached, the remaining checks are skipped. */
  maxRequests: number;
  /** Requests in flight at once (and checks run at once). */
  concurrency: number;
  /** The only site valid requests point at. */
  siteUrl: string;
  /** Run only the checks that start no job on a conformant target. */
  onlyNoJob?: boolean;
  /** Per-request timeout, in milliseconds. */
  timeoutMs?: number;
}

export const DEFAULT_OPTIONS = {
  versions: ['v1', 'v2'] as Version[],
  runs: 10,
  maxRequests: 200,
  concurrency: 2,
  siteUrl: 'https://example.com',
  timeoutMs: 30_000,
} as const;

/** The options with every default applied and the addresses normalised (no trailing slash). */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly versions: readonly Version[];
  readonly seed: number;
  readonly runs: number;
  readonly maxRequests: number;
  readonly concurrency: number;
  readonly siteUrl: string;
  readonly onlyNoJob: boolean;
  readonly timeoutMs: number;
}

const positive = (value: number, name: string, min = 1): number => {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}, not ${value}`);
  return value;
};

export function resolveOptions(options: ContractOptions): ResolvedOptions {
  const versions = [...new Set(options.versions)];
  if (versions.length === 0) throw new RangeError('versions must name v1, v2 or both');
  const base = new URL(options.baseUrl);
  const site = new URL(options.siteUrl);
  const siteUrl = `${site.origin}${site.pathname.replace(/(?<!\/)\/+$/, '')}`;
  // Generated requests are valid crawls of the site's pages: a site that is no valid crawl URL (e.g.
  // `http://localhost`, which has no top-level domain) leaves nothing valid to send.
  for (const version of versions)
    for (const path of SITE_PATHS) {
      const result = validate(`${version}/CrawlRequest`, minimalRequest('crawl', siteUrl, path));
      if (!result.valid)
        throw new RangeError(`siteUrl ${options.siteUrl} is not a valid ${version} crawl address: ${result.errors[0]!.message}`);
    }
  return {
    baseUrl: base.href.replace(/(?<!\/)\/+$/, ''),
    token: options.token,
    versions: (['v1', 'v2'] as const).filter((v) => versions.includes(v)),
    seed: Number.isInteger(options.seed) ? options.seed : 0,
    runs: positive(options.runs, 'runs'),
    maxRequests: positive(options.maxRequests, 'maxRequests', 0),
    concurrency: positive(options.concurrency, 'concurrency'),
    siteUrl,
    onlyNoJob: options.onlyNoJob ?? false,
    timeoutMs: positive(options.timeoutMs ?? DEFAULT_OPTIONS.timeoutMs, 'timeoutMs'),
  };
}
