/**
 * What a job will scrape, decided when it starts: the steps (one per page, in the order they complete) and
 * the addresses robots.txt kept it from. The synthetic site (site.ts) is static, so a crawl's whole walk is
 * known at once; the job then works through the steps over time.
 *
 * A crawl whose start address is on the synthetic site walks it breadth-first from there:
 *   - a page is part of the results when it passes the crawl's filters: `includePaths` / `excludePaths`
 *     (regular expressions on the path, or on the full address with `regexOnFullURL`), v1 `maxDepth`
 *     (slashes in the path), and, without `crawlEntireDomain` (v1: nor `allowBackwardLinks`), being below the
 *     start path. Links are followed only to such pages, so every result passes the filters. The start page is
 *     always visited to discover links, and is a result only when it passes the filters itself;
 *   - `maxDiscoveryDepth` bounds the discovery level (the start page is level 0); v2 `sitemap: "only"` means no
 *     link discovery (the site has no sitemap, so only the start page);
 *   - `ignoreQueryParameters` drops the query of discovered links, so addresses that differ only in their query
 *     are one page; fragments never count;
 *   - links to other sites are never followed (there is no internet), whatever `allowExternalLinks` says;
 *   - robots.txt-disallowed pages are not scraped but listed, unless `ignoreRobotsTxt`;
 *   - `limit` bounds the number of result pages; a page that fails (`/site/broken`) is a step that yields an
 *     error instead of a page, and counts neither in `limit` nor in `total`;
 *   - path patterns run with a linear-time matcher within a budget of steps (`pathPattern.ts`), never by
 *     backtracking, so no pattern can stall the server: patterns it cannot run within the budget make the
 *     crawl fail (the plan's `failure`, no steps).
 * A crawl from any other address yields exactly one synthetic page for that address.
 * A batch has one step per valid address, in request order; `/site/broken` fails there as well.
 */
import { urlDepth } from '../../schemas/codeRules/crawlUrl.js';
import { normalizeCrawlUrl } from '../../schemas/shared/crawlUrl.js';
import { compilePathPatterns, PatternError, StepBudget } from './pathPattern.js';
import { absoluteLink, robotsDisallows, sitePage, type SitePage } from './site.js';

export interface Step {
  /** The address as the caller sent it (batch entries, the crawl's start), or as discovered. */
  readonly sourceURL: string;
  /** The absolute address. */
  readonly url: string;
  /** The site page behind the address; undefined for an address off the synthetic site. */
  readonly page: SitePage | undefined;
  /** The step fails (no page, an error on the errors endpoint). */
  readonly fails: boolean;
}

export interface Plan {
  readonly steps: readonly Step[];
  readonly robotsBlocked: readonly string[];
  /** Why the job fails at once instead of scraping (its path patterns cannot be run). */
  readonly failure?: string;
}

/** The server path of an address on the synthetic site (`/site/...`), or undefined. `base` has no trailing slash. */
export function sitePathOf(url: URL, base: string): string | undefined {
  const here = `${url.origin}${url.pathname}`;
  const root = `${base}/site`;
  if (here === root) return '/site/';
  return here.startsWith(`${root}/`) ? `/site/${here.slice(root.length + 1)}` : undefined;
}

/** The URL of an address as the service reads it (scheme-less means http), without its fragment. */
function parse(address: string): URL | undefined {
  try {
    const url = new URL(normalizeCrawlUrl(address));
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

const stepFor = (sourceURL: string, url: URL, base: string): Step => {
  const path = sitePathOf(url, base);
  const page = path === undefined ? undefined : sitePage(path);
  return { sourceURL, url: url.href, page, fails: page?.broken === true };
};

/** A batch's steps: one per valid address, in request order. */
export function planBatch(urls: readonly string[], base: string): Plan {
  const steps: Step[] = [];
  for (const address of urls) {
    const url = parse(address);
    if (url !== undefined) steps.push(stepFor(address, url, base));
  }
  return { steps, robotsBlocked: [] };
}

/** The crawler options a walk needs, read from the effective (defaults filled) request. */
export interface CrawlSettings {
  readonly url: string;
  readonly limit: number;
  readonly includePaths: readonly string[];
  readonly excludePaths: readonly string[];
  readonly regexOnFullURL: boolean;
  readonly maxDepth: number | undefined;
  readonly maxDiscoveryDepth: number | undefined;
  readonly ignoreQueryParameters: boolean;
  readonly crawlEntireDomain: boolean;
  readonly ignoreRobotsTxt: boolean;
  readonly discoverLinks: boolean;
}

/** The steps of a crawl. */
export function planCrawl(settings: CrawlSettings, base: string): Plan {
  const start = parse(settings.url);
  if (start === undefined) return { steps: [], robotsBlocked: [] };
  const startPath = sitePathOf(start, base);
  if (startPath === undefined) return { steps: [stepFor(settings.url, start, base)], robotsBlocked: [] };
  if (!settings.ignoreRobotsTxt && robotsDisallows(startPath)) return { steps: [], robotsBlocked: [start.href] };
  try {
    return walk(settings, base, start, startPath);
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    return { steps: [], robotsBlocked: [], failure: `The crawl's includePaths/excludePaths cannot be run: ${error.message}.` };
  }
}

/** The breadth-first walk of the synthetic site from `start` (on it); throws `PatternError`. */
function walk(settings: CrawlSettings, base: string, start: URL, startPath: string): Plan {
  const budget = new StepBudget();
  const includes = compilePathPatterns('includePaths', settings.includePaths, budget);
  const excludes = compilePathPatterns('excludePaths', settings.excludePaths, budget);
  const key = (url: URL) => (settings.ignoreQueryParameters ? `${url.origin}${url.pathname}` : url.href);
  const passes = (url: URL, path: string): boolean => {
    const subject = settings.regexOnFullURL ? url.href : url.pathname;
    if (excludes.test(subject)) return false;
    if (includes.count > 0 && !includes.test(subject)) return false;
    if (settings.maxDepth !== undefined && urlDepth(url.href) > settings.maxDepth) return false;
    if (!settings.crawlEntireDomain && !path.startsWith(startPath)) return false;
    return true;
  };

  const steps: Step[] = [];
  const robotsBlocked: string[] = [];
  const seen = new Set<string>([key(start)]);
  const queue: { url: URL; path: string; level: number; sourceURL: string }[] = [
    { url: start, path: startPath, level: 0, sourceURL: settings.url },
  ];
  let results = 0;
  for (let i = 0; i < queue.length && results < settings.limit; i++) {
    const { url, path, level, sourceURL } = queue[i]!;
    const step = stepFor(sourceURL, url, base);
    if (step.fails) {
      steps.push(step);
      continue;
    }
    if (i > 0 || passes(url, path)) {
      steps.push(step);
      results += 1;
    }
    if (!settings.discoverLinks || step.page === undefined) continue;
    if (settings.maxDiscoveryDepth !== undefined && level >= settings.maxDiscoveryDepth) continue;
    for (const link of step.page.links) {
      const next = parse(absoluteLink(link, base));
      if (next !== undefined && settings.ignoreQueryParameters) next.search = '';
      const nextPath = next === undefined ? undefined : sitePathOf(next, base);
      if (next === undefined || nextPath === undefined || seen.has(key(next)) || !passes(next, nextPath)) continue;
      seen.add(key(next));
      if (!settings.ignoreRobotsTxt && robotsDisallows(nextPath)) robotsBlocked.push(next.href);
      else queue.push({ url: next, path: nextPath, level: level + 1, sourceURL: next.href });
    }
  }
  return { steps, robotsBlocked };
}
