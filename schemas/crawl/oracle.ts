/**
 * The crawl oracle: from a site (site.ts) and a v1 or v2 crawl request, what a conforming crawl must return,
 * as constraints where the interface leaves a choice. For every page of the site, and at each level of truth:
 *
 *   - `must`: the crawl returns it, whenever its `limit` leaves room for every page it may return;
 *   - `may`: it may return it or not (a choice the interface leaves open, or the limit);
 *   - `mustNot`: it does not return it, with the rule that keeps it out.
 *
 * How pages are found (interface §2.1): from the start page by the links on the pages the crawler scrapes
 * (not with `sitemap: "only"`), and from the origin's sitemap (not with `sitemap: "skip"`, v1
 * `ignoreSitemap`); the start page and sitemap pages are at discovery depth 0, a page linked from a page at
 * depth d at d + 1 (its smallest), and `maxDiscoveryDepth` keeps deeper pages out. A redirect leads to its
 * target at the same depth (for certain at service level only: the interface says nothing of redirects). A page is found for certain when every page on the way is certainly scraped
 * (rules.ts: `crawled` is `yes`), and maybe found when every page on the way may be scraped; a page maybe
 * found is at least `may`, one certainly found and certainly kept by the filters is `must`.
 *
 * Beside the pages: the crawl returns at most `limit` pages; with `ignoreQueryParameters`, at most one page of
 * each path (a group); when the limit is smaller than what it may return, it still returns as many as it
 * must, up to the limit. `judgeCrawl` (judge.ts) holds a crawl's results against all that.
 */
import type { Version } from '../registry.js';
import { CrawlRules, type CrawlLevel, type PageContext, type PatternMatcher, type RuleVerdict } from './rules.js';
import { crawlSettings, type CrawlSettings } from './settings.js';
import { pageKey, type SiteModel, type SitePageModel } from './site.js';

export type PageVerdict = 'must' | 'may' | 'mustNot';

export interface PageExpectation {
  readonly url: string;
  readonly verdict: Readonly<Record<CrawlLevel, PageVerdict>>;
  /** Why, per level, when the verdict is not `must`: the rule and where it comes from. */
  readonly why: Readonly<Partial<Record<CrawlLevel, { readonly reason: string; readonly cite: string }>>>;
  /** The group the page counts in (itself, or its path without query with `ignoreQueryParameters`). */
  readonly group: string;
}

export interface CrawlExpectation {
  readonly settings: CrawlSettings;
  readonly pages: readonly PageExpectation[];
  /** Interface §2.1 `limit`: at most this many pages. */
  readonly atMost: number;
}

const REACH_CITE = 'interface §2.1';

interface Reach {
  /** Smallest discovery depth, by page key. */
  readonly depth: Map<string, number>;
}

/** Pages found from `roots`, following the links of pages `expands` allows, within `maxDepth` (discovery depth). */
function discover(
  site: ReadonlyMap<string, SitePageModel>,
  roots: readonly string[],
  followLinks: boolean,
  expands: (url: string, fromSitemap: boolean) => boolean,
  maxDepth: number | undefined,
  sitemapRoots: ReadonlySet<string>,
  followRedirects: boolean,
): Reach {
  const depth = new Map<string, number>();
  const queue: string[] = [];
  for (const root of roots)
    if (!depth.has(root)) {
      depth.set(root, 0);
      queue.push(root);
    }
  for (let i = 0; i < queue.length; i++) {
    const url = queue[i]!;
    const d = depth.get(url)!;
    const page = site.get(url);
    if (page === undefined) continue;
    const next: [string, number][] = [];
    if (page.redirectTo !== undefined) {
      if (followRedirects) next.push([page.redirectTo, d]);
    }
    else if (followLinks && (maxDepth === undefined || d < maxDepth) && expands(url, sitemapRoots.has(url)))
      for (const link of page.links) next.push([link, d + 1]);
    for (const [target, at] of next) {
      const key = pageKey(target);
      if (key === undefined || (depth.has(key) && depth.get(key)! <= at)) continue;
      depth.set(key, at);
      queue.push(key);
    }
  }
  return { depth };
}

/** What a conforming crawl of `site` with `request` (valid for `version`) returns; `start` is its start address, absolute. */
export function expectedCrawl(
  site: SiteModel,
  version: Version,
  request: unknown,
  options: { readonly start: string; readonly matcher?: PatternMatcher },
): CrawlExpectation {
  const start = pageKey(options.start);
  if (start === undefined) throw new RangeError(`the start ${options.start} is no URL`);
  const settings = crawlSettings(version, request, start);
  const rules = new CrawlRules(settings, site.robots, options.matcher);
  const pages = new Map<string, SitePageModel>();
  for (const page of site.pages) {
    const key = pageKey(page.url);
    if (key !== undefined) pages.set(key, { ...page, links: page.links.flatMap((l) => pageKey(l) ?? []) });
  }
  const origin = new URL(start).origin;
  const sitemapPages = settings.sitemap === 'skip' ? [] : (site.sitemaps?.[origin] ?? []).flatMap((u) => pageKey(u) ?? []);
  const sitemapRoots = new Set(sitemapPages);
  const context = (url: string): PageContext => ({ isStart: url === start, fromSitemap: sitemapRoots.has(url) });
  const roots = [start, ...sitemapPages];
  const followLinks = settings.sitemap !== 'only';
  const maxDiscovery = settings.maxDiscoveryDepth;

  const verdicts = {} as Record<CrawlLevel, { certain: Reach; possible: Reach }>;
  for (const level of ['interface', 'service'] as const) {
    const crawled = (url: string) => rules.crawled(url, context(url))[level].tri;
    verdicts[level] = {
      // The interface says nothing of redirects: only the service certainly follows one.
      certain: discover(pages, roots, followLinks, (url) => crawled(url) === 'yes', maxDiscovery, sitemapRoots, level === 'service'),
      possible: discover(pages, roots, followLinks, (url) => crawled(url) !== 'no', maxDiscovery, sitemapRoots, true),
    };
  }

  const known = new Set([...pages.keys(), ...roots]);
  const out: PageExpectation[] = [];
  for (const url of known) {
    const page = pages.get(url);
    const filters = rules.result(url, context(url));
    const verdict = {} as Record<CrawlLevel, PageVerdict>;
    const why: Partial<Record<CrawlLevel, { reason: string; cite: string }>> = {};
    for (const level of ['interface', 'service'] as const) {
      const { certain, possible } = verdicts[level];
      const within = (reach: Reach) => reach.depth.has(url) && (maxDiscovery === undefined || reach.depth.get(url)! <= maxDiscovery);
      const filter: RuleVerdict = filters[level];
      const set = (v: PageVerdict, reason?: string, cite?: string) => {
        verdict[level] = v;
        if (reason !== undefined) why[level] = { reason, cite: cite ?? REACH_CITE };
      };
      if (filter.tri === 'no') set('mustNot', filter.reason, filter.cite);
      else if (!within(possible))
        set(
          'mustNot',
          possible.depth.has(url)
            ? `deeper than maxDiscoveryDepth ${maxDiscovery} in discovery order`
            : settings.sitemap === 'only'
              ? 'neither the start page nor in the sitemap (sitemap: "only")'
              : 'not reachable from the start page through the pages the crawl follows',
        );
      else if (page === undefined) set('may', 'not a page of the site', 'service');
      else if (page.redirectTo !== undefined) set('may', `a redirect to ${page.redirectTo}: its page is that one`, 'service');
      else if ((page.status ?? 200) >= 400) set('may', `answers HTTP ${page.status}: a document or an error, as the implementation decides`, 'service');
      else if (filter.tri === 'maybe') set('may', filter.reason, filter.cite);
      else if (!within(certain)) set('may', 'found only through pages the crawl may or may not scrape');
      else set('must');
    }
    out.push({ url, verdict, why, group: rules.sameGroup(url) });
  }
  out.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { settings, pages: out, atMost: Math.max(0, settings.limit) };
}
