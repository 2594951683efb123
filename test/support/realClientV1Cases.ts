/**
 * The v1 cases of the real-client conformance test (test/realClient.test.ts): the options named in the crawl and
 * batch scrape spec, as the SDK's v1 client (asyncCrawlUrl, asyncBatchScrapeUrls, batchScrapeUrls) sends them.
 */
import {
  type Case,
  type V1Action,
  type V1CrawlScrapeOptions,
  type V1ScrapeParams,
  changelogSchema,
  productSchema,
  v1Actions,
  v1Batch,
  v1Crawl,
  v1ScrapeEverything,
  v1WebhookObject,
} from './realClientSdk.js';

// ---------------------------------------------------------------------------
// Cases: options named in the crawl / batch scrape spec
// ---------------------------------------------------------------------------

export const v1CrawlCases: Case[] = [
  v1Crawl('v1 crawl: url only', 'https://example.com/docs', {}),
  v1Crawl('v1 crawl: path filters, depth, limit, sitemap, query params', 'https://example.com/docs', {
    includePaths: ['^/docs/.*$', '^/guides/.*$'],
    excludePaths: ['^/docs/archive/.*$'],
    maxDepth: 3,
    maxDiscoveryDepth: 2,
    limit: 50,
    ignoreSitemap: true,
    ignoreQueryParameters: true,
  }),
  v1Crawl('v1 crawl: allowBackwardLinks + external links + subdomains', 'https://example.com/docs/api', {
    allowBackwardLinks: true,
    allowExternalLinks: false,
    allowSubdomains: true,
    ignoreSitemap: false,
  }),
  v1Crawl('v1 crawl: crawlEntireDomain', 'https://example.org/a', {
    crawlEntireDomain: true,
    allowExternalLinks: true,
    allowSubdomains: false,
    limit: 10,
  }),
  v1Crawl(
    'v1 crawl: delay, maxConcurrency, zeroDataRetention, idempotency key',
    'https://example.org/blog',
    {
      delay: 1.5,
      maxConcurrency: 2,
      zeroDataRetention: true,
      limit: 100,
    },
    { idempotencyKey: '0f8fad5b-d9cb-469f-a165-70867728950e' },
  ),
  v1Crawl('v1 crawl: webhook as string', 'https://example.com/docs', {
    webhook: 'https://example.com/hooks/firecrawl',
    limit: 5,
  }),
  v1Crawl('v1 crawl: webhook as object', 'https://example.com/docs', {
    webhook: v1WebhookObject,
    zeroDataRetention: false,
  }),
  v1Crawl('v1 crawl: scrapeOptions with every typed field', 'https://example.com/docs', {
    limit: 20,
    scrapeOptions: v1ScrapeEverything,
  }),
  v1Crawl('v1 crawl: screenshot@fullPage, basic proxy, mobile, parsePDF', 'https://example.org/a', {
    scrapeOptions: {
      formats: ['screenshot@fullPage', 'markdown'],
      proxy: 'basic',
      mobile: true,
      parsePDF: true,
      maxAge: 0,
    },
  }),
  v1Crawl('v1 crawl: enhanced proxy, storeInCache', 'https://example.org/a', {
    scrapeOptions: { formats: ['markdown'], proxy: 'enhanced', storeInCache: true },
  }),
  v1Crawl('v1 crawl: auto proxy, location without languages', 'https://example.org/a', {
    scrapeOptions: { formats: ['html'], proxy: 'auto', location: { country: 'GB' } },
  }),
  v1Crawl('v1 crawl: changeTracking format (with markdown)', 'https://example.com/changelog', {
    scrapeOptions: { formats: ['markdown', 'changeTracking'], onlyMainContent: true },
  }),
  // The v1 CrawlScrapeOptions *type* omits jsonOptions / changeTrackingOptions /
  // actions, but the SDK forwards scrapeOptions verbatim; cast to send them.
  v1Crawl('v1 crawl: scrapeOptions json + jsonOptions (untyped in SDK, cast)', 'https://example.com/shop', {
    scrapeOptions: {
      formats: ['json'],
      jsonOptions: {
        prompt: 'Extract the product title, price and currency.',
        schema: productSchema,
        systemPrompt: 'You extract structured product data from e-commerce pages.',
      },
    } as V1CrawlScrapeOptions,
  }),
  v1Crawl('v1 crawl: scrapeOptions changeTrackingOptions (untyped in SDK, cast)', 'https://example.com/changelog', {
    scrapeOptions: {
      formats: ['markdown', 'changeTracking'],
      changeTrackingOptions: {
        modes: ['git-diff', 'json'],
        schema: changelogSchema,
        prompt: 'Summarise what changed in the latest release.',
        tag: 'weekly',
      },
    } as V1CrawlScrapeOptions,
  }),
  v1Crawl('v1 crawl: scrapeOptions actions (untyped in SDK, cast)', 'https://example.com/app', {
    scrapeOptions: {
      formats: ['markdown', 'screenshot'],
      actions: v1Actions,
    } as V1CrawlScrapeOptions,
  }),
];

// v1 ScrapeParams is instantiated with ActionsSchema = undefined in the batch
// signatures, so actions have to be cast in too.
const withV1Actions = (params: V1ScrapeParams, actions: V1Action[]): V1ScrapeParams =>
  ({ ...params, actions }) as unknown as V1ScrapeParams;

export const v1BatchCases: Case[] = [
  v1Batch('v1 batch: urls only', ['https://example.com/docs', 'https://example.org/a'], {}),
  v1Batch('v1 batch: every typed scrape field', ['https://example.com/docs/intro', 'https://example.com/docs/setup'], {
    ...v1ScrapeEverything,
    zeroDataRetention: false,
  }),
  v1Batch('v1 batch: json format + jsonOptions', ['https://example.com/shop/item-1', 'https://example.com/shop/item-2'], {
    formats: ['json', 'markdown'],
    jsonOptions: {
      prompt: 'Extract the product title, price and currency.',
      schema: productSchema,
      systemPrompt: 'You extract structured product data from e-commerce pages.',
    },
  }),
  v1Batch('v1 batch: jsonOptions with prompt only', ['https://example.org/a'], {
    formats: ['json'],
    jsonOptions: { prompt: 'List the names of all people mentioned on the page.' },
  }),
  v1Batch('v1 batch: changeTracking + changeTrackingOptions', ['https://example.com/changelog'], {
    formats: ['markdown', 'changeTracking'],
    changeTrackingOptions: {
      prompt: 'Summarise what changed in the latest release.',
      schema: changelogSchema,
      modes: ['git-diff', 'json'],
      tag: 'weekly',
    },
  }),
  v1Batch('v1 batch: changeTrackingOptions with null tag', ['https://example.com/pricing'], {
    formats: ['markdown', 'changeTracking'],
    changeTrackingOptions: { modes: ['git-diff'], tag: null },
  }),
  v1Batch(
    'v1 batch: actions of every kind (untyped for batch in SDK, cast)',
    ['https://example.com/search'],
    withV1Actions({ formats: ['markdown', 'screenshot'], waitFor: 500 }, v1Actions),
  ),
  v1Batch(
    'v1 batch: webhook string, ignoreInvalidURLs, idempotency key',
    ['https://example.com/docs', 'https://example.org/a'],
    {
      formats: ['markdown'],
    },
    {
      webhook: 'https://example.com/hooks/batch',
      ignoreInvalidURLs: true,
      idempotencyKey: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    },
  ),
  v1Batch(
    'v1 batch: webhook object, ignoreInvalidURLs false',
    ['https://example.org/a', 'https://example.org/b'],
    {
      formats: ['links', 'html'],
      onlyMainContent: false,
    },
    { webhook: v1WebhookObject, ignoreInvalidURLs: false },
  ),
  v1Batch(
    'v1 batch: maxConcurrency (polling batchScrapeUrls), zeroDataRetention',
    ['https://example.com/docs/a', 'https://example.com/docs/b'],
    {
      formats: ['markdown'],
      zeroDataRetention: true,
    },
    { maxConcurrency: 3, webhook: 'https://example.com/hooks/batch' },
  ),
  v1Batch('v1 batch: screenshot@fullPage, basic proxy', ['https://example.org/a'], {
    formats: ['screenshot@fullPage'],
    proxy: 'basic',
    timeout: 60000,
  }),
  v1Batch('v1 batch: enhanced proxy, maxAge 0, storeInCache', ['https://example.org/a'], {
    formats: ['rawHtml'],
    proxy: 'enhanced',
    maxAge: 0,
    storeInCache: true,
  }),
  v1Batch('v1 batch: auto proxy, mobile, parsePDF', ['https://example.com/whitepaper.pdf'], {
    formats: ['markdown'],
    proxy: 'auto',
    mobile: true,
    parsePDF: true,
  }),
];
