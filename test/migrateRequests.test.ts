/**
 * migrateToV2 on whole requests (a whole crawl and a whole batch, exact output and warnings) and on inputs that
 * are not v1 requests (answered, never thrown).
 */
import { describe, expect, it } from 'vitest';
import { migrateToV2 } from '../schemas/migrate.js';
import { validate } from '../schemas/validate.js';
import {
  MAX_AGE_WARNING,
  MAX_DEPTH_WARNING,
  SKIP_TLS_WARNING,
  V1_SCRAPE_DEFAULTS,
  expectValid,
  mapped,
  url,
  urls,
} from './support/migrateCases.js';

describe('migrateToV2: whole requests', () => {
  it('a crawl', () => {
    const v1 = {
      url,
      includePaths: ['^/docs/.*'],
      maxDepth: 4,
      limit: 100,
      ignoreSitemap: true,
      allowBackwardLinks: true,
      webhook: 'https://hooks.example.com/crawl',
      scrapeOptions: {
        formats: ['markdown', 'json', 'screenshot@fullPage'],
        jsonOptions: { prompt: 'Extract the title', systemPrompt: 'Be brief' },
        onlyMainContent: true,
        parsePDF: false,
        geolocation: { country: 'US' },
        timeout: 400000,
        waitFor: 1000,
        maxAge: 3600000,
      },
    };
    expect(validate('v1/CrawlRequest', v1).valid).toBe(true);
    expect(expectValid(migrateToV2(v1), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: {
        url,
        includePaths: ['^/docs/.*'],
        limit: 100,
        sitemap: 'skip',
        crawlEntireDomain: true,
        webhook: 'https://hooks.example.com/crawl',
        scrapeOptions: {
          formats: ['markdown', { type: 'json', prompt: 'Extract the title' }, { type: 'screenshot', fullPage: true }],
          onlyMainContent: true,
          parsers: [],
          location: { country: 'US' },
          timeout: 300000,
          waitFor: 1000,
          maxAge: 3600000,
          skipTlsVerification: false,
          proxy: 'basic',
        },
      },
      warnings: [
        MAX_DEPTH_WARNING('4'),
        'scrapeOptions.jsonOptions.systemPrompt: dropped; the v2 json format has no systemPrompt',
        'scrapeOptions.timeout: 400000 is above the v2 maximum of 300000; clamped to 300000',
        SKIP_TLS_WARNING('scrapeOptions.'),
      ],
    });
  });

  it('a batch scrape', () => {
    const v1 = {
      urls,
      formats: ['markdown', 'changeTracking', 'extract', 'summary'],
      changeTrackingOptions: { modes: ['git-diff'] },
      extract: { schema: { type: 'object' }, mode: 'llm' },
      parsePDF: true,
      proxy: 'stealth',
      ignoreInvalidURLs: true,
      maxConcurrency: 3,
      zeroDataRetention: false,
      actions: [{ type: 'click', selector: '#more' }],
    };
    expect(validate('v1/BatchScrapeRequest', v1).valid).toBe(true);
    expect(expectValid(migrateToV2(v1), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: {
        urls,
        formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }, { type: 'json', schema: { type: 'object' } }, 'summary'],
        parsers: ['pdf'],
        proxy: 'stealth',
        ignoreInvalidURLs: true,
        maxConcurrency: 3,
        zeroDataRetention: false,
        actions: [{ type: 'click', selector: '#more' }],
        maxAge: 0,
        skipTlsVerification: false,
      },
      // The actions make the service's own skipTlsVerification false too: only maxAge differs.
      warnings: ['extract.mode: dropped; the v2 json format has no mode', MAX_AGE_WARNING('')],
    });
  });
});

describe('migrateToV2: inputs that are not v1 requests', () => {
  it('neither crawl nor batch: kind unknown, no request, a warning', () => {
    expect(migrateToV2('https://example.com')).toEqual({
      kind: 'unknown',
      request: undefined,
      warnings: ['input is not an object (string); expected a v1 crawl request (with url) or batch scrape request (with urls)'],
    });
    expect(migrateToV2(null).kind).toBe('unknown');
    expect(migrateToV2([url]).warnings).toEqual([
      'input is not an object (an array); expected a v1 crawl request (with url) or batch scrape request (with urls)',
    ]);
    expect(migrateToV2({ limit: 5 })).toEqual({
      kind: 'unknown',
      request: undefined,
      warnings: ['input has neither url (crawl request) nor urls (batch scrape request)'],
    });
    expect(migrateToV2({ url, urls }).warnings).toEqual([
      'input has both url (crawl) and urls (batch scrape); cannot tell which request it is',
    ]);
  });

  it('an invalid v1 body is migrated as far as possible, with a warning, and wrong-typed values left in place', () => {
    const result = migrateToV2({ url, ignoreSitemap: 'yes', scrapeOptions: { parsePDF: 1, formats: ['markdown'] } });
    expect(result.kind).toBe('crawl');
    expect(result.request).toEqual({
      url,
      ignoreSitemap: 'yes',
      scrapeOptions: { parsePDF: 1, formats: ['markdown'], ...V1_SCRAPE_DEFAULTS },
    });
    expect(mapped(result).warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(
      /^input is not a valid v1 crawl request \(2 problems, first: \$\.ignoreSitemap: .*\); it is migrated as far as possible/,
    );
    expect(validate('v2/CrawlRequest', result.request).valid).toBe(false);
  });
});
