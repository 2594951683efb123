/**
 * migrateToV2 turns a v1 crawl or batch scrape body into the v2 body that asks for the same thing, field by field:
 * one example per mapping (exact output and warnings), for the crawl's fields and the scrape options (in a crawl's
 * scrapeOptions and at a batch's top level); the defaults come from the definitions, and the service's own v1
 * defaults are warned about where v1's differ.
 */
import { describe, expect, it } from 'vitest';
import { migrateToV2 } from '../schemas/migrate.js';
import { definitions } from '../schemas/registry.js';
import { objectOf } from '../schemas/rule.js';
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

const V1_BATCH_DEFAULTS = { ignoreInvalidURLs: false, ...V1_SCRAPE_DEFAULTS };

const crawl = (body: Record<string, unknown>) => mapped(migrateToV2({ url, ...body }));
const batch = (body: Record<string, unknown>) => mapped(migrateToV2({ urls, ...body }));

describe('migrateToV2: the defaults come from the definitions', () => {
  it('the values the examples expect are the v1 definitions’ defaults, and v2’s differ', () => {
    const v1 = objectOf(definitions.v1.get('BatchScrapeRequest')!)!.properties as Record<string, { default?: unknown }>;
    const v2 = objectOf(definitions.v2.get('BatchScrapeRequest')!)!.properties as Record<string, { default?: unknown }>;
    for (const [key, value] of Object.entries(V1_BATCH_DEFAULTS)) {
      expect(v1[key]?.default, key).toEqual(value);
      expect(v2[key]?.default, key).not.toEqual(value);
    }
  });
});

describe('migrateToV2: crawl fields', () => {
  it('ignoreSitemap true → sitemap skip; false → include', () => {
    expect(expectValid(crawl({ ignoreSitemap: true }), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: { url, sitemap: 'skip', scrapeOptions: V1_SCRAPE_DEFAULTS },
      warnings: [],
    });
    expect(crawl({ ignoreSitemap: false })).toEqual({
      kind: 'crawl',
      request: { url, sitemap: 'include', scrapeOptions: V1_SCRAPE_DEFAULTS },
      warnings: [],
    });
  });

  it('allowBackwardLinks → crawlEntireDomain; an explicit crawlEntireDomain wins', () => {
    expect(crawl({ allowBackwardLinks: true })).toEqual({
      kind: 'crawl',
      request: { url, crawlEntireDomain: true, scrapeOptions: V1_SCRAPE_DEFAULTS },
      warnings: [],
    });
    expect(expectValid(crawl({ allowBackwardLinks: true, crawlEntireDomain: false }), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: { url, crawlEntireDomain: false, scrapeOptions: V1_SCRAPE_DEFAULTS },
      warnings: ['allowBackwardLinks: dropped; crawlEntireDomain is given too and wins, as it does in v1'],
    });
    // Agreeing values lose nothing: no warning.
    expect(crawl({ crawlEntireDomain: true, allowBackwardLinks: true }).warnings).toEqual([]);
  });

  it('maxDepth is dropped with a warning (maxDiscoveryDepth is another measure, and is not set)', () => {
    expect(expectValid(crawl({ maxDepth: 3 }), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: { url, scrapeOptions: V1_SCRAPE_DEFAULTS },
      warnings: [MAX_DEPTH_WARNING('3')],
    });
    expect(crawl({ maxDepth: 3, maxDiscoveryDepth: 2 }).request).toEqual({ url, maxDiscoveryDepth: 2, scrapeOptions: V1_SCRAPE_DEFAULTS });
  });

  it('a crawl without scrapeOptions gets the v1 scrape defaults; given ones are kept', () => {
    expect(expectValid(crawl({}), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: { url, scrapeOptions: V1_SCRAPE_DEFAULTS },
      warnings: [],
    });
    expect(crawl({ scrapeOptions: { maxAge: 5000, proxy: 'auto' } }).request).toEqual({
      url,
      scrapeOptions: { maxAge: 5000, proxy: 'auto', skipTlsVerification: false },
    });
    expect(crawl({ scrapeOptions: { maxAge: 5000, proxy: 'stealth', skipTlsVerification: true } }).request).toEqual({
      url,
      scrapeOptions: { maxAge: 5000, proxy: 'stealth', skipTlsVerification: true },
    });
  });

  it('everything else passes through unchanged', () => {
    const rest = {
      includePaths: ['^/docs/.*'],
      excludePaths: ['^/docs/old/.*'],
      maxDiscoveryDepth: 4,
      limit: 50,
      allowExternalLinks: true,
      allowSubdomains: true,
      ignoreQueryParameters: true,
      delay: 1.5,
      webhook: { url: 'https://hooks.example.com/crawl', events: ['page'], metadata: { a: 'b' } },
      maxConcurrency: 2,
      zeroDataRetention: true,
      origin: 'my-app',
      integration: 'zapier',
      ignoreRobotsTxt: true,
      deduplicateSimilarURLs: false,
      regexOnFullURL: true,
    };
    expect(expectValid(crawl(rest), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: { url, ...rest, scrapeOptions: V1_SCRAPE_DEFAULTS },
      warnings: [],
    });
  });
});

describe('migrateToV2: scrape options (in a crawl’s scrapeOptions and at a batch’s top level)', () => {
  it('parsePDF true → parsers [pdf]; false → []', () => {
    expect(expectValid(crawl({ scrapeOptions: { parsePDF: true } }), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: { url, scrapeOptions: { parsers: ['pdf'], ...V1_SCRAPE_DEFAULTS } },
      warnings: [],
    });
    expect(expectValid(batch({ parsePDF: false }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, parsers: [], ...V1_BATCH_DEFAULTS },
      warnings: [],
    });
  });

  it('screenshot@fullPage → { type: screenshot, fullPage: true }', () => {
    expect(expectValid(batch({ formats: ['markdown', 'screenshot@fullPage'] }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, formats: ['markdown', { type: 'screenshot', fullPage: true }], ...V1_BATCH_DEFAULTS },
      warnings: [],
    });
  });

  it('json + jsonOptions → one json format; systemPrompt, mode, temperature are dropped with warnings', () => {
    const jsonOptions = {
      schema: { type: 'object', properties: { title: { type: 'string' } } },
      prompt: 'Extract the title',
      systemPrompt: 'You are terse',
      mode: 'llm',
      temperature: 0.2,
      checkPromptInjection: true,
    };
    expect(expectValid(crawl({ scrapeOptions: { formats: ['markdown', 'json'], jsonOptions } }), 'v2/CrawlRequest')).toEqual({
      kind: 'crawl',
      request: {
        url,
        scrapeOptions: {
          formats: ['markdown', { type: 'json', schema: jsonOptions.schema, prompt: 'Extract the title', checkPromptInjection: true }],
          ...V1_SCRAPE_DEFAULTS,
        },
      },
      warnings: [
        'scrapeOptions.jsonOptions.systemPrompt: dropped; the v2 json format has no systemPrompt',
        'scrapeOptions.jsonOptions.mode: dropped; the v2 json format has no mode',
        'scrapeOptions.jsonOptions.temperature: dropped; the v2 json format has no temperature',
      ],
    });
  });

  it('the deprecated extract format + extract options → one json format', () => {
    expect(expectValid(batch({ formats: ['extract'], extract: { prompt: 'Extract the price' } }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, formats: [{ type: 'json', prompt: 'Extract the price' }], ...V1_BATCH_DEFAULTS },
      warnings: [],
    });
  });

  it('json and extract together → one json format, made from jsonOptions', () => {
    expect(
      expectValid(
        batch({ formats: ['extract', 'links', 'json'], jsonOptions: { prompt: 'a' }, extract: { prompt: 'b' } }),
        'v2/BatchScrapeRequest',
      ),
    ).toEqual({
      kind: 'batch',
      request: { urls, formats: [{ type: 'json', prompt: 'a' }, 'links'], ...V1_BATCH_DEFAULTS },
      warnings: ['extract: dropped; jsonOptions is given too, and the one v2 json format is made from it'],
    });
    expect(batch({ formats: ['json', 'extract'], jsonOptions: { prompt: 'a' }, extract: { prompt: 'a' } }).warnings).toEqual([]);
  });

  it('changeTracking + changeTrackingOptions → one changeTracking format', () => {
    const changeTrackingOptions = { modes: ['git-diff', 'json'], schema: { type: 'object' }, prompt: 'Compare prices', tag: 'daily' };
    expect(
      expectValid(crawl({ scrapeOptions: { formats: ['markdown', 'changeTracking'], changeTrackingOptions } }), 'v2/CrawlRequest'),
    ).toEqual({
      kind: 'crawl',
      request: {
        url,
        scrapeOptions: { formats: ['markdown', { type: 'changeTracking', ...changeTrackingOptions }], ...V1_SCRAPE_DEFAULTS },
      },
      warnings: [],
    });
    // Without options, the name stays a name.
    expect(batch({ formats: ['markdown', 'changeTracking'] }).request).toEqual({
      urls,
      formats: ['markdown', 'changeTracking'],
      ...V1_BATCH_DEFAULTS,
    });
  });

  it('changeTrackingOptions without the changeTracking format are dropped with a warning', () => {
    expect(expectValid(batch({ formats: ['markdown'], changeTrackingOptions: { modes: ['git-diff'] } }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, formats: ['markdown'], ...V1_BATCH_DEFAULTS },
      warnings: ['changeTrackingOptions: dropped; the changeTracking format is not requested, and v2 has no separate options'],
    });
  });

  it('geolocation → location; with a location given, geolocation is dropped with a warning', () => {
    expect(expectValid(batch({ geolocation: { country: 'DE', languages: ['de-DE'] } }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, location: { country: 'DE', languages: ['de-DE'] }, ...V1_BATCH_DEFAULTS },
      warnings: [],
    });
    expect(
      expectValid(crawl({ scrapeOptions: { geolocation: { country: 'DE' }, location: { country: 'FR' } } }), 'v2/CrawlRequest'),
    ).toEqual({
      kind: 'crawl',
      request: { url, scrapeOptions: { location: { country: 'FR' }, ...V1_SCRAPE_DEFAULTS } },
      warnings: ['scrapeOptions.geolocation: dropped; location is given too and wins, as it does in v1'],
    });
  });

  it('__experimental_cache true → maxAge 4 hours when no maxAge is sent; otherwise (and false) it asks for nothing and is dropped; onlyCleanContent is kept', () => {
    const { maxAge: _v1Default, ...otherDefaults } = V1_BATCH_DEFAULTS;
    expect(expectValid(batch({ __experimental_cache: true, onlyCleanContent: true }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, onlyCleanContent: true, maxAge: 14400000, ...otherDefaults },
      warnings: [],
    });
    expect(expectValid(crawl({ scrapeOptions: { __experimental_cache: true, maxAge: 5000 } }), 'v2/CrawlRequest').request).toEqual({
      url,
      scrapeOptions: { ...V1_SCRAPE_DEFAULTS, maxAge: 5000 },
    });
    expect(expectValid(batch({ __experimental_cache: false }), 'v2/BatchScrapeRequest').request).toEqual({ urls, ...V1_BATCH_DEFAULTS });
  });

  it('other format names are unchanged (summary included)', () => {
    const formats = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'summary'];
    expect(expectValid(batch({ formats }), 'v2/BatchScrapeRequest').request).toEqual({ urls, formats, ...V1_BATCH_DEFAULTS });
  });

  it('maxAge, skipTlsVerification, proxy (and for a batch ignoreInvalidURLs) are set to v1’s defaults only when absent', () => {
    expect(batch({}).request).toEqual({ urls, ...V1_BATCH_DEFAULTS });
    const given = { ignoreInvalidURLs: true, maxAge: 1, skipTlsVerification: true, proxy: 'enhanced' };
    expect(batch(given)).toEqual({ kind: 'batch', request: { urls, ...given }, warnings: [] });
  });

  it('timeout above the v2 maximum is clamped to 300000 with a warning', () => {
    expect(expectValid(batch({ timeout: 600000 }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, timeout: 300000, ...V1_BATCH_DEFAULTS },
      warnings: ['timeout: 600000 is above the v2 maximum of 300000; clamped to 300000'],
    });
    expect(crawl({ scrapeOptions: { timeout: 300000 } })).toEqual({
      kind: 'crawl',
      request: { url, scrapeOptions: { timeout: 300000, ...V1_SCRAPE_DEFAULTS } },
      warnings: [],
    });
  });

  it('a format named twice is kept once (v2 accepts one screenshot format)', () => {
    expect(validate('v1/BatchScrapeRequest', { urls, formats: ['screenshot@fullPage', 'screenshot@fullPage'] }).valid).toBe(true);
    expect(expectValid(batch({ formats: ['screenshot@fullPage', 'markdown', 'screenshot@fullPage'] }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: { urls, formats: [{ type: 'screenshot', fullPage: true }, 'markdown'], ...V1_BATCH_DEFAULTS },
      warnings: ['formats: duplicate "screenshot@fullPage" removed'],
    });
  });

  it('a viewport on a v1 screenshot action (ignored by v1, read by v2) is dropped with a warning', () => {
    const actions = [{ type: 'wait', milliseconds: 500 }, { type: 'screenshot', fullPage: true, viewport: 'wide' }, { type: 'scrape' }];
    expect(validate('v1/BatchScrapeRequest', { urls, actions }).valid).toBe(true);
    expect(expectValid(batch({ actions }), 'v2/BatchScrapeRequest')).toEqual({
      kind: 'batch',
      request: {
        urls,
        actions: [{ type: 'wait', milliseconds: 500 }, { type: 'screenshot', fullPage: true }, { type: 'scrape' }],
        ...V1_BATCH_DEFAULTS,
      },
      warnings: ['actions[1].viewport: dropped; v1 ignores viewport on screenshot actions, v2 would apply it'],
    });
  });
});

describe("migrateToV2: the service's own v1 defaults (as of 2026-08-21) are warned about where v1's are written out", () => {
  it('a v1 body without maxAge and skipTlsVerification: both written as the interface states, each with a warning', () => {
    const result = migrateToV2({ url });
    expect(result.request).toEqual({ url, scrapeOptions: V1_SCRAPE_DEFAULTS });
    expect(result.warnings).toEqual([MAX_AGE_WARNING('scrapeOptions.'), SKIP_TLS_WARNING('scrapeOptions.')]);
  });

  it('no warning where the service would have done the same: maxAge sent, or headers making its skipTlsVerification false', () => {
    expect(migrateToV2({ urls, maxAge: 0, headers: { Cookie: 'a=1' } }).warnings).toEqual([]);
    // Empty headers are no headers: the service's default is true there.
    expect(migrateToV2({ urls, maxAge: 0, headers: {} }).warnings).toEqual([SKIP_TLS_WARNING('')]);
    expect(migrateToV2({ urls, maxAge: 5, skipTlsVerification: false }).warnings).toEqual([]);
  });
});
