/**
 * The v2 cases of the real-client conformance test (test/realClient.test.ts): the options named in the crawl and
 * batch scrape spec, as the SDK's v2 client (startCrawl, startBatchScrape) sends them.
 */
import {
  type Case,
  SDK_ORIGIN,
  changelogSchema,
  productSchema,
  v2Actions,
  v2Batch,
  v2Crawl,
  v2ScrapeEverything,
  v2WebhookObject,
} from './realClientSdk.js';

export const v2CrawlCases: Case[] = [
  v2Crawl('v2 crawl: url only', 'https://example.com/docs', {}),
  v2Crawl('v2 crawl: path filters, discovery depth, limit, sitemap include', 'https://example.com/docs', {
    includePaths: ['^/docs/.*$'],
    excludePaths: ['^/docs/v1/.*$', '^/docs/archive/.*$'],
    maxDiscoveryDepth: 3,
    sitemap: 'include',
    ignoreQueryParameters: true,
    limit: 200,
  }),
  v2Crawl('v2 crawl: sitemap skip, crawlEntireDomain, external links, subdomains', 'https://example.org/a', {
    sitemap: 'skip',
    crawlEntireDomain: true,
    allowExternalLinks: false,
    allowSubdomains: true,
    ignoreQueryParameters: false,
  }),
  v2Crawl('v2 crawl: sitemap only', 'https://example.com', { sitemap: 'only', limit: 1000 }),
  v2Crawl('v2 crawl: prompt, delay, maxConcurrency, zeroDataRetention', 'https://example.com/blog', {
    prompt: 'Only crawl blog posts published in 2024, skip tag and author pages.',
    delay: 2,
    maxConcurrency: 4,
    zeroDataRetention: true,
    allowExternalLinks: true,
  }),
  v2Crawl('v2 crawl: webhook as string', 'https://example.com/docs', {
    webhook: 'https://example.org/webhooks/crawl',
    limit: 25,
  }),
  v2Crawl('v2 crawl: webhook as object', 'https://example.com/docs', { webhook: v2WebhookObject }),
  v2Crawl(
    'v2 crawl: null-valued options are dropped by the SDK',
    'https://example.org/a',
    {
      prompt: null,
      includePaths: null,
      excludePaths: null,
      maxDiscoveryDepth: null,
      limit: null,
      delay: null,
      maxConcurrency: null,
      webhook: null,
      scrapeOptions: null,
    },
    { expectedBody: { url: 'https://example.org/a', origin: SDK_ORIGIN } },
  ),
  v2Crawl('v2 crawl: scrapeOptions with every spec field', 'https://example.com/docs', {
    limit: 20,
    scrapeOptions: v2ScrapeEverything,
  }),
  v2Crawl('v2 crawl: json format object (prompt + schema)', 'https://example.com/shop', {
    scrapeOptions: {
      formats: ['markdown', { type: 'json', prompt: 'Extract the product title, price and currency.', schema: productSchema }],
    },
  }),
  v2Crawl('v2 crawl: json format object (schema only)', 'https://example.com/shop', {
    scrapeOptions: { formats: [{ type: 'json', schema: productSchema }] },
  }),
  v2Crawl('v2 crawl: changeTracking format object + markdown', 'https://example.com/changelog', {
    scrapeOptions: {
      formats: [
        'markdown',
        {
          type: 'changeTracking',
          modes: ['git-diff', 'json'],
          schema: changelogSchema,
          prompt: 'Summarise what changed in the latest release.',
          tag: 'weekly',
        },
      ],
    },
  }),
  v2Crawl('v2 crawl: changeTracking format string + markdown', 'https://example.com/pricing', {
    scrapeOptions: { formats: ['markdown', 'changeTracking'] },
  }),
  v2Crawl('v2 crawl: screenshot format object (fullPage, quality, viewport)', 'https://example.org/a', {
    scrapeOptions: {
      formats: [{ type: 'screenshot', fullPage: true, quality: 80, viewport: { width: 1440, height: 900 } }],
    },
  }),
  v2Crawl('v2 crawl: screenshot format string', 'https://example.org/a', {
    scrapeOptions: { formats: ['screenshot', 'links'] },
  }),
  v2Crawl('v2 crawl: generic { type } format objects', 'https://example.org/a', {
    scrapeOptions: { formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'links' }, { type: 'summary' }] },
  }),
  v2Crawl('v2 crawl: actions of every kind', 'https://example.com/app', {
    scrapeOptions: { formats: ['markdown'], actions: v2Actions },
  }),
  v2Crawl('v2 crawl: pdf parser object (ocr, maxPages)', 'https://example.com/reports', {
    scrapeOptions: { formats: ['markdown'], parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 20 }] },
  }),
  v2Crawl('v2 crawl: pdf parser object (fast)', 'https://example.com/reports', {
    scrapeOptions: { formats: ['markdown'], parsers: [{ type: 'pdf', mode: 'fast' }] },
  }),
  v2Crawl('v2 crawl: parsers disabled', 'https://example.com/reports', {
    scrapeOptions: { parsers: [], proxy: 'basic' },
  }),
  v2Crawl('v2 crawl: stealth proxy, maxAge 0', 'https://example.org/a', {
    scrapeOptions: { proxy: 'stealth', maxAge: 0, storeInCache: false },
  }),
  v2Crawl('v2 crawl: enhanced proxy, location country only', 'https://example.org/a', {
    scrapeOptions: { proxy: 'enhanced', location: { country: 'JP' }, parsers: [{ type: 'pdf', mode: 'auto' }] },
  }),
];

export const v2BatchCases: Case[] = [
  v2Batch('v2 batch: urls only', ['https://example.com/docs', 'https://example.org/a'], {}),
  v2Batch('v2 batch: every spec scrape field (flattened)', ['https://example.com/docs/intro', 'https://example.com/docs/setup'], {
    options: v2ScrapeEverything,
  }),
  v2Batch('v2 batch: json format object', ['https://example.com/shop/item-1', 'https://example.com/shop/item-2'], {
    options: {
      formats: [{ type: 'json', prompt: 'Extract the product title, price and currency.', schema: productSchema }],
      onlyMainContent: true,
    },
  }),
  v2Batch('v2 batch: json format object (prompt only)', ['https://example.org/a'], {
    options: { formats: [{ type: 'json', prompt: 'List every person named on the page.' }] },
  }),
  v2Batch('v2 batch: changeTracking format object', ['https://example.com/changelog'], {
    options: {
      formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'daily' }],
    },
  }),
  v2Batch('v2 batch: screenshot object + string formats', ['https://example.org/a'], {
    options: {
      formats: ['markdown', 'links', 'images', { type: 'screenshot', fullPage: false, quality: 60 }],
    },
  }),
  v2Batch('v2 batch: actions of every kind', ['https://example.com/search'], {
    options: { formats: ['markdown', 'screenshot'], actions: v2Actions, waitFor: 500 },
  }),
  v2Batch(
    'v2 batch: webhook string, ignoreInvalidURLs, maxConcurrency, ZDR, idempotency key',
    ['https://example.com/docs', 'https://example.org/a'],
    {
      options: { formats: ['markdown'] },
      webhook: 'https://example.org/webhooks/batch',
      ignoreInvalidURLs: true,
      maxConcurrency: 5,
      zeroDataRetention: true,
      idempotencyKey: '16fd2706-8baf-433b-82eb-8c7fada847da',
    },
  ),
  v2Batch('v2 batch: webhook object, ignoreInvalidURLs false', ['https://example.org/a', 'https://example.org/b'], {
    options: { formats: ['html'] },
    webhook: v2WebhookObject,
    ignoreInvalidURLs: false,
  }),
  v2Batch('v2 batch: pdf parsers, basic proxy', ['https://example.com/whitepaper.pdf'], {
    options: { formats: ['markdown'], parsers: ['pdf', { type: 'pdf', mode: 'ocr', maxPages: 5 }], proxy: 'basic' },
  }),
  v2Batch('v2 batch: parsers disabled, stealth proxy', ['https://example.com/whitepaper.pdf'], {
    options: { parsers: [], proxy: 'stealth', timeout: 60000 },
  }),
  v2Batch('v2 batch: enhanced proxy, maxAge 0, no cache', ['https://example.org/a'], {
    options: { proxy: 'enhanced', maxAge: 0, storeInCache: false, mobile: true },
  }),
];
