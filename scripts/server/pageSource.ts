/**
 * What a job fetches, page after page: a crawl's pages as it discovers them (`crawler.ts`), or a batch's
 * addresses (here). `jobPages.ts` asks its source for the next page whenever the job may start one, fetches
 * and reads it, then tells the source what it found there, and the source says whether the page is one of
 * the job's results.
 */

import { normalizeCrawlUrl } from '../../schemas/shared/crawlUrl.js';

/** Pages a job fetches at most (its own site's and other hosts'; synthetic pages are not fetched). */
export const MAX_PAGES_PER_JOB = 1000;

export interface PageTask {
  /** The absolute address to fetch, without fragment. */
  readonly url: string;
  /** The address as sent (a batch entry, the crawl's start) or as discovered. */
  readonly sourceURL: string;
  /** Discovery depth (crawls: the start and sitemap pages 0, a page linked from depth d is d + 1). */
  readonly depth: number;
  /** Fetching it would go past `MAX_PAGES_PER_JOB`: the task is an error, not a fetch. */
  readonly overCap?: true;
}

/** A page fetched and read: where it was read from (after redirects) and the links on it. */
export interface ReadTask {
  readonly url: string;
  readonly links: readonly string[];
}

export interface Settled {
  /** The page is one of the job's results (a page record). */
  readonly result: boolean;
  /** Why the page is listed on the job's errors endpoint although it was read. */
  readonly error?: string;
}

/** Something a source reports on its job's errors endpoint that is no page's error (a bound it reached). */
export interface Notice {
  /** The address it is about (a crawl's start when it is about the whole crawl). */
  readonly url: string;
  readonly message: string;
}

export interface PageSource {
  /** What must be known before the first page (a crawl's robots.txt and sitemaps). Never rejects. */
  prepare(): Promise<void>;
  /** The next page to fetch now, if the job may start one (a crawl may have to wait for the pages in flight). */
  next(): PageTask | undefined;
  /** What a started page turned out to be; `read` undefined when it could not be fetched. Never rejects. */
  settle(task: PageTask, read: ReadTask | undefined): Promise<Settled>;
  /** Batches only: more addresses (`appendToId`). */
  append?(addresses: readonly string[]): void;
  /** Pages started and not settled, and pages still to start that may become results. */
  readonly remaining: number;
  /** Nothing left to start, nor in flight. */
  readonly drained: boolean;
  /** Addresses robots.txt kept the job from. */
  readonly robotsBlocked: readonly string[];
  /** Why the job cannot go on (a crawl's path patterns cannot be run), once it cannot. */
  readonly failure: string | undefined;
  /** What it has to report since it was last asked (each notice once). */
  takeNotices?(): readonly Notice[];
  /**
   * The job ended (completed, cancelled, failed or expired): the source drops what it held to go on (a
   * crawl's addresses and robots.txt rules), keeps what the job's answers need, and gives its last notices.
   */
  release?(): readonly Notice[];
}

/** The URL of an address as the service reads it (scheme-less means http), without its fragment. */
export function normalizeAddress(address: string): URL | undefined {
  try {
    const url = new URL(normalizeCrawlUrl(address));
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

/** A batch: one page per address, in order, each a result. */
export class BatchSource implements PageSource {
  /** Every address given, in order; a slot is emptied once handed out. */
  readonly #queue: (PageTask | undefined)[] = [];
  /** Whether an address is fetched (not a synthetic page): those count against `MAX_PAGES_PER_JOB`. */
  readonly #fetched: (url: URL) => boolean;
  #next = 0;
  #inFlight = 0;
  /** Addresses that will be fetched (not synthetic, not over the cap). */
  #fetches = 0;
  readonly robotsBlocked: readonly string[] = [];
  readonly failure = undefined;

  constructor(addresses: readonly string[], fetched: (url: URL) => boolean) {
    this.#fetched = fetched;
    this.append(addresses);
  }

  append(addresses: readonly string[]): void {
    for (const address of addresses) {
      const url = normalizeAddress(address);
      if (url === undefined) continue;
      const counted = this.#fetched(url);
      if (counted && this.#fetches >= MAX_PAGES_PER_JOB) this.#queue.push({ url: url.href, sourceURL: address, depth: 0, overCap: true });
      else {
        if (counted) this.#fetches += 1;
        this.#queue.push({ url: url.href, sourceURL: address, depth: 0 });
      }
    }
  }

  prepare(): Promise<void> {
    return Promise.resolve();
  }

  next(): PageTask | undefined {
    const task = this.#queue[this.#next];
    if (task === undefined) return undefined;
    this.#queue[this.#next] = undefined;
    this.#next += 1;
    this.#inFlight += 1;
    return task;
  }

  settle(_task: PageTask, read: ReadTask | undefined): Promise<Settled> {
    this.#inFlight -= 1;
    return Promise.resolve({ result: read !== undefined });
  }

  get remaining(): number {
    return this.#queue.length - this.#next + this.#inFlight;
  }

  get drained(): boolean {
    return this.remaining === 0;
  }
}
