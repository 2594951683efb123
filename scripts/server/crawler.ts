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
 * (`failure`). Judging an address against robots.txt is paid from a budget of its own, refilled at the same
 * times (`ROBOTS_STEP_BUDGET`), at the cost `robots.ts` reckons before robots-parser runs, with a turn of the
 * event loop every `ROBOTS_TURN_STEPS`: an address the budget cannot pay for is not followed (a page's links
 * left out that way are listed as an error of that page), so a robots.txt, however hostile, costs a bounded
 * time per page and never holds the server up (issue 22, finding 2).
 *
 * Bounds besides the fetcher's: `MAX_PAGES_PER_JOB` pages fetched, `MAX_LINKS_PER_PAGE` links of a page
 * followed, robots.txt of at most `MAX_ORIGINS_PER_JOB` origins (pages of further origins are not
 * followed), each bounded by `robots.ts`; addresses found (links, sitemap entries, redirect targets) of at
 * most `MAX_LINK_CHARS` characters are followed, longer ones left out; at most as many pages queued as the
 * crawl may still fetch. What the crawl holds to go on (the addresses it has judged, their groups, the
 * queue, the sitemap's addresses, the robots.txt rules) is counted in bytes: at most
 * `MAX_CRAWL_STATE_BYTES`, and within what the server holds in all (`hold`, the server's holdings): past
 * either, the crawl stops taking new addresses and goes on with those it has, and says so on its errors
 * endpoint (issue 22, finding 3). `robotsBlocked` lists at most `MAX_ROBOTS_BLOCKED_LISTED` addresses; the
 * others are counted, and the count is listed as an error when the crawl ends (finding 5). When the job
 * ends, `release` drops everything but `robotsBlocked` and `failure` (finding 4: ended crawls kept every
 * parsed robots.txt for 24 hours).
 */
import { CrawlRules, type PageContext, type PatternMatcher } from '../../schemas/crawl/rules.js';
import type { CrawlSettings } from '../../schemas/crawl/settings.js';
import { pageKey } from '../../schemas/crawl/site.js';
import { turn } from './boundedParser.js';
import type { Fetched, Fetcher } from './fetcher.js';
import {
  MAX_PAGES_PER_JOB,
  normalizeAddress,
  type Notice,
  type PageSource,
  type PageTask,
  type ReadTask,
  type Settled,
} from './pageSource.js';
import { compilePathPatterns, PatternError, StepBudget } from './pathPattern.js';
import { boundRobots, MAX_ROBOTS_BYTES, type BoundedRobots } from './robots.js';
import { MAX_LOC_CHARS, sitemapPages } from './sitemaps.js';

export const MAX_LINKS_PER_PAGE = 1000;
export const MAX_ORIGINS_PER_JOB = 16;
/** Longest address found (a link, a sitemap entry, a redirect target) that a crawl follows: the sitemaps protocol's bound on an address. */
export const MAX_LINK_CHARS = MAX_LOC_CHARS;
/** Bytes a crawl holds to go on (addresses judged, groups, queue, sitemap addresses, robots.txt rules). */
export const MAX_CRAWL_STATE_BYTES = 32 * 1024 * 1024;
/** Addresses `robotsBlocked` lists; the others are counted. */
export const MAX_ROBOTS_BLOCKED_LISTED = 1000;
/** Steps (`robots.ts`: about a nanosecond each) of robots.txt matching per page read: about 100 ms. */
export const ROBOTS_STEP_BUDGET = 100_000_000;
/** Steps of robots.txt matching between two turns of the event loop. */
const ROBOTS_TURN_STEPS = 10_000_000;
/** What an entry of a set of addresses takes besides the address (the entry, the string's header), in bytes. */
const ENTRY_BYTES = 64;
/** What a queued page takes (its task object; its address is the judged one's), in bytes. */
const TASK_BYTES = 96;

/** A rule's reason, short enough for an error message (it quotes the caller's patterns, which may be long). */
const brief = (reason: string): string => (reason.length > 300 ? `${reason.slice(0, 300)}…` : reason);

/** Bytes an address takes in a set of addresses. */
const entryBytes = (address: string): number => ENTRY_BYTES + address.length;

export interface CrawlerOptions {
  /** The crawl's settings (`crawlSettings` of the request), its `url` the start, absolute. */
  readonly settings: CrawlSettings;
  /** The start as the caller sent it (the start page's `sourceURL`). */
  readonly sourceURL: string;
  /** Fetches robots.txt and sitemap files, and says which addresses may be followed. */
  readonly fetcher: Fetcher;
  /** Aborted when the job stops. */
  readonly signal: AbortSignal;
  /**
   * Asks the server's holdings for `bytes` more, held until the job ends (`until: 'end'`: what the crawl holds
   * to go on) or until it expires (`'expiry'`: `robotsBlocked`); false when the server holds as much as it keeps.
   */
  readonly hold: (bytes: number, until: 'end' | 'expiry') => boolean;
}

interface CrawlTask extends PageTask {
  readonly isStart: boolean;
  /** The filters may keep it among the results. */
  readonly candidate: boolean;
}

/** A robots.txt's rules, and what judging an address against them costs (`robots.ts`). */
interface OriginRules {
  readonly rules: CrawlRules;
  readonly cost: (url: URL) => number;
}

export class Crawler implements PageSource {
  readonly #options: CrawlerOptions;
  readonly #settings: CrawlSettings;
  readonly #start: string;
  readonly #budget = new StepBudget();
  readonly #robotsBudget = new StepBudget(ROBOTS_STEP_BUDGET);
  /** Robots steps spent since the last turn of the event loop. */
  #robotsSinceTurn = 0;
  readonly #matcher: PatternMatcher;
  /** The rules without robots.txt: what every other rule says. */
  readonly #free: CrawlRules | undefined;
  /** The rules of each origin, once its robots.txt is read (or ignored); undefined past MAX_ORIGINS_PER_JOB. */
  #rules = new Map<string, Promise<OriginRules | undefined>>();
  /** The start origin's robots.txt `Sitemap:` lines. */
  #startSitemaps: readonly string[] = [];
  #sitemap = new Set<string>();
  /** Addresses judged, each once. */
  #seen = new Set<string>();
  /** Groups (`sameGroup`) taken by a page. */
  #groups = new Set<string>();
  #queue: (CrawlTask | undefined)[] = [];
  #next = 0;
  /** Pages in flight, by depth. */
  readonly #inFlight = new Map<number, number>();
  #candidatesInFlight = 0;
  #results = 0;
  #fetches = 0;
  /** Bytes held to go on (see the module comment). */
  #stateBytes = 0;
  /** Why the crawl takes no new address, once it takes none. */
  #stopped: string | undefined;
  /** `remaining` when the job ended (`release`); undefined while it runs. */
  #remainingAtEnd: number | undefined;
  #notices: Notice[] = [];
  readonly robotsBlocked: string[] = [];
  /** Addresses robots.txt disallows that `robotsBlocked` does not list. */
  #unlisted = 0;
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

  #fetch(address: string, options: { readonly maxBytes?: number; readonly cut?: boolean } = {}): Promise<Fetched> {
    return this.#options.fetcher.fetch(address, { signal: this.#options.signal, ...options });
  }

  #context(url: string): PageContext {
    return { isStart: url === this.#start, fromSitemap: this.#sitemap.has(url) };
  }

  get #released(): boolean {
    return this.#remainingAtEnd !== undefined;
  }

  /** Takes `bytes` of what the crawl holds to go on; past a bound, the crawl stops taking new addresses (false). */
  #take(bytes: number): boolean {
    if (this.#stopped !== undefined || this.#released) return false;
    if (this.#stateBytes + bytes > MAX_CRAWL_STATE_BYTES)
      return this.#stop(
        `it holds ${MAX_CRAWL_STATE_BYTES / (1024 * 1024)} MiB of addresses and robots.txt rules, the most a crawl of the reference server holds`,
      );
    if (!this.#options.hold(bytes, 'end')) return this.#stop('the reference server holds as much as it keeps');
    this.#stateBytes += bytes;
    return true;
  }

  #stop(why: string): false {
    this.#stopped = why;
    this.#notices.push({ url: this.#start, message: `The crawl stopped taking new addresses (${why}); it went on with those it had.` });
    return false;
  }

  /** The rules of `origin`, its robots.txt read first; undefined past `MAX_ORIGINS_PER_JOB` origins (or when they cannot be held). */
  #rulesOf(origin: string): Promise<OriginRules | undefined> {
    let rules = this.#rules.get(origin);
    if (rules === undefined) {
      rules = this.#rules.size >= MAX_ORIGINS_PER_JOB ? Promise.resolve(undefined) : this.#loadRules(origin);
      this.#rules.set(origin, rules);
    }
    return rules;
  }

  /**
   * Reads the robots.txt of `origin` (unless `ignoreRobotsTxt`), bounded by `robots.ts` (cut at its byte bound
   * rather than dropped). Only one that is there counts: any other answer, or none, allows everything (as the service).
   */
  async #loadRules(origin: string): Promise<OriginRules | undefined> {
    const free = { rules: this.#free!, cost: () => 0 };
    if (this.#settings.ignoreRobotsTxt) return free;
    const fetched = await this.#fetch(`${origin}/robots.txt`, { maxBytes: MAX_ROBOTS_BYTES, cut: true });
    if (!fetched.ok || fetched.status !== 200) return free;
    const robots: BoundedRobots = boundRobots(fetched.body, fetched.cut === true);
    if (origin === new URL(this.#start).origin) this.#startSitemaps = robots.sitemaps;
    if (!this.#take(robots.bytes)) return undefined;
    return { rules: new CrawlRules(this.#settings, { [origin]: robots.text }, this.#matcher), cost: robots.cost };
  }

  /**
   * Pays for judging `url` against its origin's robots.txt `times` times (each rule reads it: `crawled` and
   * `result`), from the budget of the page read; false when the budget cannot pay.
   */
  #payRobots(origin: OriginRules, url: URL, times: number): boolean {
    const steps = times * origin.cost(url);
    if (!this.#robotsBudget.take(steps)) return false;
    this.#robotsSinceTurn += steps;
    return true;
  }

  #reachable = (address: string): boolean => {
    const url = normalizeAddress(address);
    return url !== undefined && this.#options.fetcher.sourceOf(url) !== 'synthetic';
  };

  /** Lists `address` in `robotsBlocked`, or counts it once the list is full. */
  #blocked(address: string): void {
    if (this.robotsBlocked.length < MAX_ROBOTS_BLOCKED_LISTED && this.#options.hold(entryBytes(address), 'expiry'))
      this.robotsBlocked.push(address);
    else this.#unlisted += 1;
  }

  /** Queues a page (false when the crawl cannot hold it). */
  #enqueue(task: CrawlTask, group: string): boolean {
    // The crawl never fetches more than MAX_PAGES_PER_JOB pages: a page queued past them would never be fetched.
    if (this.#queue.length - this.#next + this.#fetches >= MAX_PAGES_PER_JOB) return false;
    if (!this.#take(TASK_BYTES + (group === task.url ? 0 : entryBytes(group)))) return false;
    this.#groups.add(group);
    this.#queue.push(task);
    return true;
  }

  /**
   * Judges a page found at `address` (absolute), at `depth`: queued, blocked by robots.txt, or left out. False
   * when it could not be judged: robots.txt would cost more than the page's budget has left.
   */
  async #admit(address: string, depth: number): Promise<boolean> {
    if (this.#robotsSinceTurn >= ROBOTS_TURN_STEPS) {
      this.#robotsSinceTurn = 0;
      await turn();
    }
    if (this.#stopped !== undefined || this.#released || address.length > MAX_LINK_CHARS) return true;
    const key = pageKey(address);
    if (key === undefined || key.length > MAX_LINK_CHARS || this.#seen.has(key) || !this.#reachable(key)) return true;
    if (!this.#take(entryBytes(key))) return true;
    this.#seen.add(key);
    const context = this.#context(key);
    const free = this.#free!;
    const group = free.sameGroup(key);
    if (this.#groups.has(group) || free.crawled(key, context).service.tri === 'no') return true;
    const url = new URL(key);
    const origin = await this.#rulesOf(url.origin);
    if (origin === undefined || this.#groups.has(group) || this.#released) return true;
    if (!this.#payRobots(origin, url, 2)) return false; // seen: not judged again
    const { rules } = origin;
    if (rules.crawled(key, context).service.tri === 'no') {
      this.#blocked(key); // every other rule let it through
      return true;
    }
    this.#enqueue({ url: key, sourceURL: key, depth, isStart: false, candidate: rules.result(key, context).service.tri !== 'no' }, group);
    return true;
  }

  async prepare(): Promise<void> {
    if (this.failure !== undefined) return;
    const start = new URL(this.#start);
    if (this.#options.fetcher.sourceOf(start) === 'synthetic') {
      this.#queue.push({ url: this.#start, sourceURL: this.#options.sourceURL, depth: 0, isStart: true, candidate: true });
      return;
    }
    try {
      // The start origin's rules first: its robots.txt lists sitemaps.
      const origin = await this.#rulesOf(start.origin);
      const { sitemap } = this.#settings;
      const roots = [...new Set([...this.#startSitemaps, `${start.origin}/sitemap.xml`])];
      const listed = sitemap === 'skip' ? [] : await sitemapPages(roots, (a) => this.#fetch(a), this.#reachable, this.#options.signal);
      for (const page of listed) {
        const key = pageKey(page);
        if (key !== undefined && key.length <= MAX_LINK_CHARS && !this.#sitemap.has(key) && this.#take(entryBytes(key)))
          this.#sitemap.add(key);
      }
      const context = this.#context(this.#start);
      this.#seen.add(this.#start);
      if (origin === undefined)
        this.#notices.push({ url: this.#start, message: 'The crawl could not hold the robots.txt rules of its start.' });
      else if (!this.#payRobots(origin, start, 2))
        this.#notices.push({
          url: this.#start,
          message: `The crawl's start was not followed: judging it against ${start.origin}/robots.txt would take more than the ${ROBOTS_STEP_BUDGET} steps a crawl spends at a time.`,
        });
      else if (origin.rules.crawled(this.#start, context).service.tri === 'no') this.#blocked(this.#start);
      else {
        const candidate = origin.rules.result(this.#start, context).service.tri !== 'no';
        this.#groups.add(origin.rules.sameGroup(this.#start));
        this.#queue.push({ url: this.#start, sourceURL: this.#options.sourceURL, depth: 0, isStart: true, candidate });
      }
      // Sitemap pages are judged as a page's links are: up to MAX_LINKS_PER_PAGE with the whole budgets, then a turn.
      let unjudged = 0;
      for (let at = 0; at < listed.length; at += MAX_LINKS_PER_PAGE) {
        if (at > 0) await turn();
        this.#budget.refill();
        this.#robotsBudget.refill();
        for (const page of listed.slice(at, at + MAX_LINKS_PER_PAGE)) if (!(await this.#admit(page, 0))) unjudged += 1;
      }
      if (unjudged > 0) this.#notices.push({ url: this.#start, message: this.#unjudged(unjudged, 'sitemap addresses') });
    } catch (error) {
      if (!this.#options.signal.aborted) this.#fail(error);
    }
  }

  #unjudged(count: number, what: string): string {
    return `${count} ${what} were not followed: judging them against robots.txt would take more than the ${ROBOTS_STEP_BUDGET} steps a crawl spends on one page's links.`;
  }

  get #limitReached(): boolean {
    return this.#results >= this.#settings.limit;
  }

  next(): PageTask | undefined {
    if (this.failure !== undefined || this.#released || this.#limitReached || this.#fetches >= MAX_PAGES_PER_JOB) return undefined;
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
      return read === undefined || this.failure !== undefined || this.#released ? { result: false } : await this.#settleRead(task, read);
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
    this.#robotsBudget.refill();
    const final = pageKey(read.url) ?? task.url;
    let result = task.candidate;
    const errors: string[] = [];
    let follow = this.#options.fetcher.sourceOf(new URL(final)) !== 'synthetic';
    if (final !== task.url) {
      const group = this.#free!.sameGroup(final);
      if (this.#seen.has(final) || (this.#groups.has(group) && group !== this.#free!.sameGroup(task.url))) return { result: false };
      if (final.length > MAX_LINK_CHARS || !this.#take(entryBytes(final) + entryBytes(group))) {
        follow = false;
        result = false;
        if (!task.isStart)
          errors.push(
            `Redirected target URL is not followed: it is longer than ${MAX_LINK_CHARS} characters, or the crawl takes no new address.`,
          );
      } else {
        this.#seen.add(final);
        this.#groups.add(group);
        const url = new URL(final);
        const origin = await this.#rulesOf(url.origin);
        const context = this.#context(final);
        if (origin !== undefined && !this.#payRobots(origin, url, 3)) {
          follow = false;
          result = false;
          errors.push(`Redirected target URL is not followed: ${this.#unjudged(1, 'address')}`);
        } else {
          follow = origin !== undefined && origin.rules.crawled(final, context).service.tri !== 'no';
          result = follow && origin!.rules.result(final, context).service.tri !== 'no';
          if (!follow && !task.isStart && origin !== undefined)
            errors.push(
              `Redirected target URL is not allowed by crawlOptions: ${brief(origin.rules.crawled(final, context).service.reason ?? '')}`,
            );
        }
      }
    }
    // The start page is read for its links whatever the filters say; kept out of the results, it is listed as an error.
    if (task.isStart && !result) {
      const why = this.#free!.result(final, this.#context(final)).service.reason ?? 'the crawl filters';
      errors.push(`Source URL is not allowed by crawl configuration: ${brief(why)}`);
    }
    const { maxDiscoveryDepth, sitemap } = this.#settings;
    if (follow && sitemap !== 'only' && (maxDiscoveryDepth === undefined || task.depth < maxDiscoveryDepth)) {
      let unjudged = 0;
      for (const link of read.links.slice(0, MAX_LINKS_PER_PAGE)) if (!(await this.#admit(link, task.depth + 1))) unjudged += 1;
      if (unjudged > 0) errors.push(this.#unjudged(unjudged, 'links on this page'));
    }
    // A redirect may turn a page that was not a candidate into a result: the limit still holds.
    if (result && this.#results >= this.#settings.limit) result = false;
    if (result) this.#results += 1;
    return errors.length === 0 ? { result } : { result, error: errors.join(' ') };
  }

  takeNotices(): readonly Notice[] {
    const notices = this.#notices;
    this.#notices = [];
    return notices;
  }

  release(): readonly Notice[] {
    if (this.#released) return [];
    this.#remainingAtEnd = this.remaining;
    this.#rules = new Map();
    this.#startSitemaps = [];
    this.#sitemap = new Set();
    this.#seen = new Set();
    this.#groups = new Set();
    this.#queue = [];
    this.#next = 0;
    this.#stateBytes = 0;
    if (this.#unlisted > 0)
      this.#notices.push({
        url: this.#start,
        message: `robots.txt disallowed ${this.#unlisted} more addresses than robotsBlocked lists (it lists the first ${MAX_ROBOTS_BLOCKED_LISTED}).`,
      });
    return this.takeNotices();
  }

  get remaining(): number {
    if (this.#remainingAtEnd !== undefined) return this.#remainingAtEnd;
    let inFlight = 0;
    for (const count of this.#inFlight.values()) inFlight += count;
    if (this.failure !== undefined) return inFlight;
    const queued = this.#limitReached ? 0 : Math.min(this.#queue.length - this.#next, MAX_PAGES_PER_JOB - this.#fetches);
    return inFlight + Math.min(queued, Math.max(0, this.#settings.limit - this.#results - this.#candidatesInFlight));
  }

  get drained(): boolean {
    if (this.#released) return true;
    for (const count of this.#inFlight.values()) if (count > 0) return false;
    return this.failure !== undefined || this.#limitReached || this.#fetches >= MAX_PAGES_PER_JOB || this.#queue[this.#next] === undefined;
  }
}
