/**
 * The reference server's page cache (interface §2.3, §2.4: `maxAge`, "Return a cached page if younger than this
 * age; an older cached page is scraped again; 0 disables caching"; `storeInCache`, "Store the page in the
 * service's index and cache; forced to false when sensitive-scraping parameters (actions, headers) are used").
 *
 * What it keeps: a page as fetched (address after redirects, status, content type, body), by the address asked
 * for and the scrape options it was fetched and read with, all but the cache's own (`cacheVariant`: what makes
 * the site answer otherwise, such as `mobile` or `location`, what decides whether a fetch succeeds, such as
 * `timeout` or `skipTlsVerification`, and what shapes the record), so that a scrape is never given a page
 * scraped under other options. A scrape is answered from it when its `maxAge` is above 0 and the page is younger than that; it
 * stores what it fetched when it `stores` (`ScrapeSettings`), whatever its `maxAge`: so v1, whose `maxAge` is
 * 0 by default, stores pages that a later scrape with a `maxAge` may be given. A scrape with `headers` or
 * `actions` neither stores nor reads (the page it asks for is the one its headers make). Only an answer that
 * succeeded (2xx) is kept; the server's own demo site is answered in process and never cached.
 *
 * Bounds: at most `MAX_CACHED_PAGES` pages and `MAX_CACHE_BYTES` bytes, the least recently used dropped first
 * to make room; what it holds is counted in the server's holdings (`records.ts`, `MAX_HELD_BYTES`), and a page
 * that does not fit there is not kept. `clear()` (the server's `close()`) gives it all back.
 */
import { createHash } from 'node:crypto';
import type { Version } from '../../schemas/registry.js';
import { lookup } from '../../schemas/registry.js';
import { objectOf } from '../../schemas/rule.js';
import type { FetchedPage } from './fetcher.js';
import { stringifyJson } from './jsonText.js';

/** Pages the cache keeps at most. */
export const MAX_CACHED_PAGES = 1000;
/** Bytes the cache keeps at most (its pages' text, as the engine holds it: two bytes a character, and a PDF's bytes). */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** What an entry takes besides its texts, in bytes. */
const ENTRY_BYTES = 256;

export interface CachedPage {
  readonly page: FetchedPage;
  /** When it was fetched (ms since the epoch). */
  readonly cachedAt: number;
}

interface Entry extends CachedPage {
  readonly bytes: number;
}

/** The scrape options of each version a cached page is told apart by, in the order of their definition: all but `maxAge` and `storeInCache`. */
const KEYED: Readonly<Record<Version, readonly string[]>> = {
  v1: Object.keys(objectOf(lookup('v1/ScrapeOptions')!)!.properties).filter((name) => name !== 'maxAge' && name !== 'storeInCache'),
  v2: Object.keys(objectOf(lookup('v2/ScrapeOptions')!)!.properties).filter((name) => name !== 'maxAge' && name !== 'storeInCache'),
};

/**
 * What tells a job's cached pages apart from another's at the same address: a digest of its version and its
 * scrape options (`KEYED`, as given with the version's defaults filled in), made once per job.
 */
export function cacheVariant(version: Version, scrapeOptions: Readonly<Record<string, unknown>>): string {
  const keyed = KEYED[version].flatMap((name) => (scrapeOptions[name] === undefined ? [] : [[name, scrapeOptions[name]]]));
  return createHash('sha256')
    .update(stringifyJson([version, keyed]) ?? '')
    .digest('hex');
}

/** The key of the page at `url` scraped under the options of `variant`. */
export const cacheKey = (url: string, variant: string): string => `${url} ${variant}`;

export interface PageCacheOptions {
  /** Asks the server's holdings for `bytes` more: false when it holds as much as it keeps. */
  readonly hold: (bytes: number) => boolean;
  /** Gives bytes back to the server's holdings. */
  readonly release: (bytes: number) => void;
  readonly now: () => number;
}

const sizeOf = (key: string, page: FetchedPage): number =>
  ENTRY_BYTES + 2 * (key.length + page.url.length + page.contentType.length + page.body.length) + (page.bytes?.length ?? 0);

export class PageCache {
  readonly #options: PageCacheOptions;
  /** In order of use, the least recently used first (a Map keeps insertion order: a page used is put back at the end). */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(options: PageCacheOptions) {
    this.#options = options;
  }

  /** Pages and bytes kept. */
  get held(): { readonly pages: number; readonly bytes: number } {
    return { pages: this.#entries.size, bytes: this.#bytes };
  }

  /** The page kept under `key` if it is younger than `maxAgeMs` (never with 0); it becomes the most recently used. */
  get(key: string, maxAgeMs: number): CachedPage | undefined {
    if (maxAgeMs <= 0) return undefined;
    const entry = this.#entries.get(key);
    if (entry === undefined || this.#options.now() - entry.cachedAt >= maxAgeMs) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** Keeps `page` under `key` (replacing what was there) if it succeeded and fits, dropping the least recently used to make room. */
  put(key: string, page: FetchedPage): void {
    if (page.status < 200 || page.status > 299 || page.cut === true) return;
    this.#drop(key);
    const bytes = sizeOf(key, page);
    if (bytes > MAX_CACHE_BYTES) return;
    while (this.#entries.size > 0 && (this.#entries.size >= MAX_CACHED_PAGES || this.#bytes + bytes > MAX_CACHE_BYTES))
      this.#drop(this.#entries.keys().next().value!);
    if (!this.#options.hold(bytes)) return;
    this.#entries.set(key, { page, cachedAt: this.#options.now(), bytes });
    this.#bytes += bytes;
  }

  /** Drops every page, giving their bytes back. */
  clear(): void {
    for (const key of [...this.#entries.keys()]) this.#drop(key);
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    this.#options.release(entry.bytes);
  }
}
