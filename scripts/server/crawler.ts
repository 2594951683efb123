/**
 * A crawl's pages, as the reference server discovers them: which page to fetch next, and what a page read
 * means for the crawl. Every decision is the crawl oracle's rule at service level (`schemas/crawl/rules.ts`,
 * `verdicts.service`), so the server and the oracle that judges crawls cannot drift apart:
 *
 *   - a discovered page is fetched when `crawled` is not `no` (the service never scrapes what a filter keeps
 *     out; `maybe`, another site with `allowExternalLinks`, is followed), and is a result when `result` is
 *     not `no`; the start page is always fetched unless robots.txt disallows it (its links are followed),
 *     and when the filters keep it out of the results it is listed on the errors endpoint, as the service
 *     does;
 *   - pages are found from the start page and the origin's sitemaps (`sitemaps.ts`; not with `sitemap:
 *     "skip"` / v1 `ignoreSitemap`), all at discovery depth 0, and through the links of pages read (not
 *     with `sitemap: "only"`), a link from depth d at d + 1; a page at `maxDiscoveryDepth` has its links
 *     ignored. Depths are exact: a page of depth d + 1 starts only once no page of smaller depth is in
 *     flight, so every page is first found at its smallest depth (breadth first, whatever the concurrency);
 *   - a redirect leads to its target at the same depth: the target is judged by the same rules, and a
 *     target the crawl already has is dropped silently (the service's "raced redirect");
 *   - `ignoreQueryParameters`: one page per path (the rules' `sameGroup`), the first found, whatever its query;
 *   - robots.txt is read per origin before its first page is judged (unless `ignoreRobotsTxt`); a page it
 *     disallows, and that the other rules let through, is listed in `robotsBlocked`;
 *   - `limit`: pages that may be results are started only while the results so far and those in flight
 *     are fewer than it; the crawl ends at it;
 *   - addresses the server may not fetch (`reach.ts`) are never followed; a crawl whose start is on such a
 *     host gives today's one synthetic page, filters aside.
 * Path patterns run on the linear-time matcher of `pathPattern.ts`, with a step budget refilled per page
 * read (and per `MAX_LINKS_PER_PAGE` sitemap pages); patterns it cannot run within the budget fail the crawl
 * (`failure`).
 *
 * Bounds besides the fetcher's: `MAX_PAGES_PER_JOB` pages fetched, `MAX_LINKS_PER_PAGE` links of a page
 * followed, robots.txt of at most `MAX_ORIGINS_PER_JOB` origins (pages of further origins are not
 * followed), each at most `MAX_ROBOTS_BYTES`.
 */
import { CrawlRules, type PageContext, type PatternMatcher } from '../../schemas/crawl/rules.js';
import type { CrawlSettings } from '../../schemas/crawl/settings.js';
import { pageKey } from '../../schemas/crawl/site.js';
import robotsModule from 'robots-parser';
import { turn } from './boundedParser.js';
import type { Fetched, Fetcher } from './fetcher.js';
import { MAX_PAGES_PER_JOB, normalizeAddress, type PageSource, type PageTask, type ReadTask, type Settled } from './pageSource.js';
import { compilePathPatterns, PatternError, StepBudget } from './pathPattern.js';
import { sitemapPages } from './sitemaps.js';

export const MAX_LINKS_PER_PAGE = 1000;
export const MAX_ORIGINS_PER_JOB = 16;
export const MAX_ROBOTS_BYTES = 512 * 1024;

/** A rule's reason, short enough for an error message (it quotes the caller's patterns, which may be long). */
const brief = (reason: string): string => (reason.length > 300 ? `${reason.slice(0, 300)}…` : reason);

// robots-parser is CommonJS with types that declare an ES default export (as in rules.ts).
type RobotsParser = (typeof robotsModule)['default'];
const robotsParser = robotsModule as unknown as RobotsParser;

export interface CrawlerOptions {
  /** The crawl's settings (`crawlSettings` of the request), its `url` the start, absolute. */
  readonly settings: CrawlSettings;
  /** The start as the caller sent it (the start page's `sourceURL`). */
  readonly sourceURL: string;
  /** Fetches robots.txt and sitemap files, and says which addresses may be followed. */
  readonly fetcher: Fetcher;
  /** Aborted when the job stops. */
  readonly signal: AbortSignal;
}

interface CrawlTask extends PageTask {
  readonly isStart: boolean;
  /** The filters may keep it among the results. */
  readonly candidate: boolean;
}

export class Crawler implements PageSource {
  readonly #options: CrawlerOptions;
  readonly #settings: CrawlSettings;
  readonly #start: string;
  readonly #budget = new StepBudget();
  readonly #matcher: PatternMatcher;
  /** The rules without robots.txt: what every other rule says. */
  readonly #free: CrawlRules | undefined;
  /** The rules of each origin, once its robots.txt is read (or ignored). */
  readonly #rules = new Map<string, Promise<CrawlRules | undefined>>();
  /** The robots.txt of each origin read (undefined: there is none). */
  readonly #robots = new Map<string, Promise<string | undefined>>();
  readonly #sitemap = new Set<string>();
  /** Addresses judged, each once. */
  readonly #seen = new Set<string>();
  /** Groups (`sameGroup`) taken by a page. */
  readonly #groups = new Set<string>();
  readonly #queue: (CrawlTask | undefined)[] = [];
  #next = 0;
  /** Pages in flight, by depth. */
  readonly #inFlight = new Map<number, number>();
  #candidatesInFlight = 0;
  #results = 0;
  #fetches = 0;
  readonly robotsBlocked: string[] = [];
  failure: string | undefined;

  constructor(options: CrawlerOptions) {
    this.#options = options;
    this.#settings = options.settings;
    this.#start = options.settings.url;
    let compiled: ReadonlyMap<readonly string[], (subject: string) => boolean> = new Map();
    try {
      const { includePaths, excludePaths } = this.#settings;
      const includes = compilePathPatterns('includePaths', includePaths, this.#budget);
      const excludes = compilePathPatterns('excludePaths', excludePaths, this.#budget);
      compiled = new Map([
        [includePaths, (subject) => includes.test(subject)],
        [excludePaths, (subject) => excludes.test(subject)],
      ]);
    } catch (error) {
      this.#fail(error);
    }
    // CrawlRules asks for its two pattern lists by identity; they are compiled once, above.
    this.#matcher = (patterns) => compiled.get(patterns) ?? (() => false);
    this.#free = this.failure === undefined ? new CrawlRules(this.#settings, {}, this.#matcher) : undefined;
  }

  #fail(error: unknown): void {
    this.failure ??=
      error instanceof PatternError
        ? `The crawl's includePaths/excludePaths cannot be run: ${error.message}.`
        : `The crawl failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
  }

  #fetch(address: string, maxBytes?: number): Promise<Fetched> {
    return this.#options.fetcher.fetch(address, { signal: this.#options.signal, ...(maxBytes === undefined ? {} : { maxBytes }) });
  }

  #context(url: string): PageContext {
    return { isStart: url === this.#start, fromSitemap: this.#sitemap.has(url) };
  }

  /** The rules of `origin`, its robots.txt read first; undefined past `MAX_ORIGINS_PER_JOB` origins. */
  #rulesOf(origin: string): Promise<CrawlRules | undefined> {
    let rules = this.#rules.get(origin);
    if (rules === undefined) {
      rules = this.#rules.size >= MAX_ORIGINS_PER_JOB ? Promise.resolve(undefined) : this.#loadRules(origin);
      this.#rules.set(origin, rules);
    }
    return rules;
  }

  /** The robots.txt of `origin`, read once. Only one that is there counts: any other answer, or none, allows everything (as the service). */
  #robotsOf(origin: string): Promise<string | undefined> {
    let text = this.#robots.get(origin);
    if (text === undefined) {
      text = this.#fetch(`${origin}/robots.txt`, MAX_ROBOTS_BYTES).then((f) => (f.ok && f.status === 200 ? f.body : undefined));
      this.#robots.set(origin, text);
    }
    return text;
  }

  async #loadRules(origin: string): Promise<CrawlRules> {
    const text = this.#settings.ignoreRobotsTxt ? undefined : await this.#robotsOf(origin);
    return text === undefined ? this.#free! : new CrawlRules(this.#settings, { [origin]: text }, this.#matcher);
  }

  /** The sitemap files of the start's origin: its robots.txt's `Sitemap:` lines, then `/sitemap.xml`. */
  async #sitemapRoots(origin: string): Promise<string[]> {
    const roots = [`${origin}/sitemap.xml`];
    const text = this.#settings.ignoreRobotsTxt ? undefined : await this.#robotsOf(origin);
    return text === undefined ? roots : [...new Set([...robotsParser(`${origin}/robots.txt`, text).getSitemaps(), ...roots])];
  }

  #reachable = (address: string): boolean => {
    const url = normalizeAddress(address);
    return url !== undefined && this.#options.fetcher.sourceOf(url) !== 'synthetic';
  };

  /** Judges a page found at `address` (absolute), at `depth`: queued, blocked by robots.txt, or left out. */
  async #admit(address: string, depth: number): Promise<void> {
    const key = pageKey(address);
    if (key === undefined || this.#seen.has(key) || !this.#reachable(key)) return;
    this.#seen.add(key);
    const context = this.#context(key);
    const free = this.#free!;
    const group = free.sameGroup(key);
    if (this.#groups.has(group) || free.crawled(key, context).service.tri === 'no') return;
    const rules = await this.#rulesOf(new URL(key).origin);
    if (rules === undefined || this.#groups.has(group)) return;
    if (rules.crawled(key, context).service.tri === 'no') {
      this.robotsBlocked.push(key); // every other rule let it through
      return;
    }
    this.#groups.add(group);
    this.#queue.push({ url: key, sourceURL: key, depth, isStart: false, candidate: rules.result(key, context).service.tri !== 'no' });
  }

  async prepare(): Promise<void> {
    if (this.failure !== undefined) return;
    const start = new URL(this.#start);
    if (this.#options.fetcher.sourceOf(start) === 'synthetic') {
      this.#queue.push({ url: this.#start, sourceURL: this.#options.sourceURL, depth: 0, isStart: true, candidate: true });
      return;
    }
    try {
      const { sitemap } = this.#settings;
      const listed =
        sitemap === 'skip'
          ? []
          : await sitemapPages(await this.#sitemapRoots(start.origin), (a) => this.#fetch(a), this.#reachable, this.#options.signal);
      for (const page of listed) {
        const key = pageKey(page);
        if (key !== undefined) this.#sitemap.add(key);
      }
      const rules = await this.#rulesOf(start.origin);
      const context = this.#context(this.#start);
      this.#seen.add(this.#start);
      if (rules!.crawled(this.#start, context).service.tri === 'no') this.robotsBlocked.push(this.#start);
      else {
        this.#groups.add(rules!.sameGroup(this.#start));
        const candidate = rules!.result(this.#start, context).service.tri !== 'no';
        this.#queue.push({ url: this.#start, sourceURL: this.#options.sourceURL, depth: 0, isStart: true, candidate });
      }
      // Sitemap pages are judged as a page's links are: up to MAX_LINKS_PER_PAGE with the whole budget, then a turn.
      for (let at = 0; at < listed.length; at += MAX_LINKS_PER_PAGE) {
        if (at > 0) await turn();
        this.#budget.refill();
        for (const page of listed.slice(at, at + MAX_LINKS_PER_PAGE)) await this.#admit(page, 0);
      }
    } catch (error) {
      if (!this.#options.signal.aborted) this.#fail(error);
    }
  }

  get #limitReached(): boolean {
    return this.#results >= this.#settings.limit;
  }

  next(): PageTask | undefined {
    if (this.failure !== undefined || this.#limitReached || this.#fetches >= MAX_PAGES_PER_JOB) return undefined;
    const task = this.#queue[this.#next];
    if (task === undefined) return undefined;
    // Breadth first: a deeper page waits until no shallower one is in flight (its depth is then final).
    for (const [depth, count] of this.#inFlight) if (count > 0 && depth < task.depth) return undefined;
    if (task.candidate && this.#results + this.#candidatesInFlight >= this.#settings.limit) return undefined;
    this.#queue[this.#next] = undefined;
    this.#next += 1;
    this.#fetches += 1;
    this.#inFlight.set(task.depth, (this.#inFlight.get(task.depth) ?? 0) + 1);
    if (task.candidate) this.#candidatesInFlight += 1;
    return task;
  }

  async settle(started: PageTask, read: ReadTask | undefined): Promise<Settled> {
    const task = started as CrawlTask;
    try {
      return read === undefined || this.failure !== undefined ? { result: false } : await this.#settleRead(task, read);
    } catch (error) {
      if (!this.#options.signal.aborted) this.#fail(error);
      return { result: false };
    } finally {
      this.#inFlight.set(task.depth, this.#inFlight.get(task.depth)! - 1);
      if (task.candidate) this.#candidatesInFlight -= 1;
    }
  }

  async #settleRead(task: CrawlTask, read: ReadTask): Promise<Settled> {
    this.#budget.refill();
    const final = pageKey(read.url) ?? task.url;
    let result = task.candidate;
    let error: string | undefined;
    let follow = this.#options.fetcher.sourceOf(new URL(final)) !== 'synthetic';
    if (final !== task.url) {
      const group = this.#free!.sameGroup(final);
      if (this.#seen.has(final) || (this.#groups.has(group) && group !== this.#free!.sameGroup(task.url))) return { result: false };
      this.#seen.add(final);
      this.#groups.add(group);
      const rules = await this.#rulesOf(new URL(final).origin);
      const context = this.#context(final);
      follow = rules !== undefined && rules.crawled(final, context).service.tri !== 'no';
      result = follow && rules!.result(final, context).service.tri !== 'no';
      if (!follow && !task.isStart && rules !== undefined)
        error = `Redirected target URL is not allowed by crawlOptions: ${brief(rules.crawled(final, context).service.reason ?? '')}`;
    }
    // The start page is read for its links whatever the filters say; kept out of the results, it is listed as an error.
    if (task.isStart && !result) {
      const why = this.#free!.result(final, this.#context(final)).service.reason ?? 'the crawl filters';
      error = `Source URL is not allowed by crawl configuration: ${brief(why)}`;
    }
    const { maxDiscoveryDepth, sitemap } = this.#settings;
    if (follow && sitemap !== 'only' && (maxDiscoveryDepth === undefined || task.depth < maxDiscoveryDepth))
      for (const link of read.links.slice(0, MAX_LINKS_PER_PAGE)) await this.#admit(link, task.depth + 1);
    // A redirect may turn a page that was not a candidate into a result: the limit still holds.
    if (result && this.#results >= this.#settings.limit) result = false;
    if (result) this.#results += 1;
    return error === undefined ? { result } : { result, error };
  }

  get remaining(): number {
    let inFlight = 0;
    for (const count of this.#inFlight.values()) inFlight += count;
    if (this.failure !== undefined) return inFlight;
    const queued = this.#limitReached ? 0 : Math.min(this.#queue.length - this.#next, MAX_PAGES_PER_JOB - this.#fetches);
    return inFlight + Math.min(queued, Math.max(0, this.#settings.limit - this.#results - this.#candidatesInFlight));
  }

  get drained(): boolean {
    for (const count of this.#inFlight.values()) if (count > 0) return false;
    return this.failure !== undefined || this.#limitReached || this.#fetches >= MAX_PAGES_PER_JOB || this.#queue[this.#next] === undefined;
  }
}
