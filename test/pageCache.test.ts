/**
 * The reference server's page cache (scripts/server/pageCache.ts) on its own: a page younger than `maxAge` is
 * given, never with 0; only answers that succeeded are kept; pages scraped under other options are told
 * apart; and what it keeps is bounded in pages and bytes, the least recently used dropped first, counted in
 * the server's holdings and given back. What a scrape does with it: test/scrapeOptions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '../scripts/server/fetcher.js';
import { cacheKey, cacheVariant, MAX_CACHE_BYTES, MAX_CACHED_PAGES, PageCache } from '../scripts/server/pageCache.js';

const page = (body: string, status = 200): FetchedPage => ({
  ok: true,
  url: 'http://127.0.0.1:1/p',
  status,
  contentType: 'text/html',
  body,
});

/** A cache on a clock the test moves, its holdings counted here. */
function cache(room = Number.POSITIVE_INFINITY) {
  let now = 1_000;
  let held = 0;
  const c = new PageCache({
    hold: (bytes) => (held + bytes > room ? false : ((held += bytes), true)),
    release: (bytes) => void (held -= bytes),
    now: () => now,
  });
  return { c, held: () => held, later: (ms: number) => void (now += ms) };
}

describe('the page cache', () => {
  it('gives a page younger than maxAge, never with maxAge 0, and keeps only answers that succeeded', () => {
    const { c, later } = cache();
    c.put('a', page('A'));
    c.put('gone', page('G', 404));
    expect(c.get('a', 0)).toBeUndefined();
    expect(c.get('a', 500)).toMatchObject({ page: { body: 'A' }, cachedAt: 1_000 });
    later(500);
    expect(c.get('a', 500)).toBeUndefined();
    expect(c.get('a', 501)?.page.body).toBe('A');
    expect(c.get('gone', 60_000)).toBeUndefined();
  });

  it('tells apart pages of one address scraped under other options, but not the cache options themselves', () => {
    const options = { formats: ['markdown'], mobile: false, maxAge: 0, storeInCache: true };
    const key = cacheKey('http://x/p', cacheVariant('v2', options));
    expect(cacheKey('http://x/p', cacheVariant('v2', { ...options, maxAge: 60_000, storeInCache: false }))).toBe(key);
    expect(cacheKey('http://x/p', cacheVariant('v2', { ...options, mobile: true }))).not.toBe(key);
    expect(cacheKey('http://x/p', cacheVariant('v2', { ...options, timeout: 1000 }))).not.toBe(key);
    expect(cacheKey('http://x/p', cacheVariant('v1', options))).not.toBe(key);
    expect(cacheKey('http://x/q', cacheVariant('v2', options))).not.toBe(key);
  });

  it(`keeps at most ${MAX_CACHED_PAGES} pages and ${MAX_CACHE_BYTES / 1024 / 1024} MiB, the least recently used dropped first`, () => {
    const { c, held } = cache();
    for (let i = 0; i < MAX_CACHED_PAGES + 3; i++) {
      c.put(`p${i}`, page(`page ${i}`));
      if (i === 5) c.get('p0', 60_000); // used: it stays
    }
    expect(c.held.pages).toBe(MAX_CACHED_PAGES);
    expect(c.get('p0', 60_000)).toBeDefined();
    expect(c.get('p1', 60_000)).toBeUndefined();
    expect(held()).toBe(c.held.bytes);
    // Pages of a quarter of the bound: four fit at most, and a page past the bound is not kept at all.
    const quarter = 'x'.repeat(MAX_CACHE_BYTES / 8 - 1000);
    for (let i = 0; i < 6; i++) c.put(`big${i}`, page(quarter));
    expect(c.held.bytes).toBeLessThanOrEqual(MAX_CACHE_BYTES);
    expect(c.get('big5', 60_000)).toBeDefined();
    expect(c.get('big0', 60_000)).toBeUndefined();
    c.put('huge', page('x'.repeat(MAX_CACHE_BYTES / 2)));
    expect(c.get('huge', 60_000)).toBeUndefined();
    c.clear();
    expect(c.held).toEqual({ pages: 0, bytes: 0 });
    expect(held()).toBe(0);
  });

  it('keeps nothing the server holdings have no room for', () => {
    const { c, held } = cache(1_000);
    c.put('small', page('s'));
    c.put('large', page('x'.repeat(1_000)));
    expect(c.get('small', 60_000)).toBeDefined();
    expect(c.get('large', 60_000)).toBeUndefined();
    expect(held()).toBe(c.held.bytes);
  });
});
