/**
 * Real-client conformance: drive the official JS SDK (@mendable/firecrawl-js)
 * against a local capture server and check that every crawl / batch scrape
 * request body it POSTs (v1 and v2) validates against our schemas.
 *
 * Nothing here fights the SDK: the expected bodies below are exactly what the
 * SDK puts on the wire (including the `origin` it injects and the way v2
 * batch scrape flattens scrape options to the top level).
 *
 * SDK entry points used (all "start" calls, so no polling happens, except the
 * one v1 batch case that needs `batchScrapeUrls` to send `maxConcurrency`; its
 * status poll goes to GET /v1/crawl/:id and is answered "completed"):
 *   v1: new Firecrawl(...).v1 (a FirecrawlAppV1) -> asyncCrawlUrl, asyncBatchScrapeUrls, batchScrapeUrls
 *   v2: new Firecrawl(...)                         -> startCrawl, startBatchScrape
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl, {
  FirecrawlAppV1,
  type ActionOption,
  type BatchScrapeOptions,
  type CrawlOptions,
  type WebhookConfig,
} from '@mendable/firecrawl-js';
import { validate } from '../schemas/validate.js';
import { startCaptureServer, type Captured, type CaptureServer } from './support/captureServer.js';

// ---------------------------------------------------------------------------
// SDK types (the v1 ones are not exported by name, so derive them)
// ---------------------------------------------------------------------------

type V1CrawlParams = NonNullable<Parameters<FirecrawlAppV1['asyncCrawlUrl']>[1]>;
type V1CrawlScrapeOptions = NonNullable<V1CrawlParams['scrapeOptions']>;
type V1ScrapeParams = NonNullable<Parameters<FirecrawlAppV1['asyncBatchScrapeUrls']>[1]>;
type V1Webhook = NonNullable<V1CrawlParams['webhook']>;
/** `scrapeUrl` is generic over its actions; instantiating it yields the v1 Action union. */
type V1Action = NonNullable<NonNullable<Parameters<FirecrawlAppV1['scrapeUrl']>[1]>['actions']>[number];
type V2ScrapeOptions = NonNullable<CrawlOptions['scrapeOptions']>;

type SchemaName = 'v1/CrawlRequest' | 'v2/CrawlRequest' | 'v1/BatchScrapeRequest' | 'v2/BatchScrapeRequest';

interface Clients {
  v1: FirecrawlAppV1;
  v2: Firecrawl;
}

interface Case {
  name: string;
  schema: SchemaName;
  path: '/v1/crawl' | '/v2/crawl' | '/v1/batch/scrape' | '/v2/batch/scrape';
  run(clients: Clients): Promise<unknown>;
  /** The whole body the SDK must send (compared with toEqual). */
  expectedBody: Record<string, unknown>;
  /** Keys that must be absent from the body (options the SDK drops). */
  absentKeys?: string[] | undefined;
  /** Extra request headers the SDK must send. */
  expectedHeaders?: Record<string, string> | undefined;
  /** What the SDK call must resolve to (proves it parsed the server's answer). */
  expectedResult: unknown;
  /** Whether the SDK call polls the job status afterwards. */
  polls?: boolean | undefined;
  /**
   * Keys the SDK's types offer but the service does not accept, so the spec rejects them as unknown
   * fields (JSON paths). Every other key of the body must validate.
   */
  rejectedPaths?: string[] | undefined;
}

interface Outcome {
  requests: Captured[];
  result?: unknown;
  error?: unknown;
}

const API_KEY = 'fc-test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The SDK stamps every body with origin "js-sdk@<version>" (npm_package_version when set). */
const SDK_ORIGIN = expect.stringMatching(/^js-sdk@\d+\.\d+\.\d+/);

const clone = <T>(value: T): T => structuredClone(value);

// ---------------------------------------------------------------------------
// Case builders: one per SDK entry point; expected body mirrors the SDK code
// ---------------------------------------------------------------------------

const v1Started = (kind: 'crawl' | 'batch/scrape'): unknown =>
  expect.objectContaining({
    success: true,
    id: expect.stringMatching(UUID),
    url: expect.stringMatching(new RegExp(`/v1/${kind}/`)),
  });

const v2Started = (kind: 'crawl' | 'batch/scrape'): unknown =>
  expect.objectContaining({
    id: expect.stringMatching(UUID),
    url: expect.stringMatching(new RegExp(`/v2/${kind}/`)),
  });

/** v1 asyncCrawlUrl: body = { url, ...params, origin }. */
function v1Crawl(
  name: string,
  url: string,
  params: V1CrawlParams,
  opts: { idempotencyKey?: string; expectedBody?: Record<string, unknown> } = {},
): Case {
  return {
    name,
    schema: 'v1/CrawlRequest',
    path: '/v1/crawl',
    run: ({ v1 }) => v1.asyncCrawlUrl(url, params, opts.idempotencyKey),
    expectedBody: opts.expectedBody ?? { url, ...clone(params), origin: SDK_ORIGIN },
    expectedHeaders: opts.idempotencyKey ? { 'x-idempotency-key': opts.idempotencyKey } : undefined,
    expectedResult: v1Started('crawl'),
  };
}

/**
 * v1 asyncBatchScrapeUrls: body = { urls, webhook, ignoreInvalidURLs, ...params, origin }
 * (scrape params are flattened to the top level). With `maxConcurrency` the
 * polling batchScrapeUrls is used, since only it takes that argument.
 */
function v1Batch(
  name: string,
  urls: string[],
  params: V1ScrapeParams,
  opts: {
    idempotencyKey?: string;
    webhook?: V1Webhook;
    ignoreInvalidURLs?: boolean;
    maxConcurrency?: number;
    expectedBody?: Record<string, unknown>;
  } = {},
): Case {
  const polls = opts.maxConcurrency !== undefined;
  return {
    name,
    schema: 'v1/BatchScrapeRequest',
    path: '/v1/batch/scrape',
    run: ({ v1 }) =>
      polls
        ? v1.batchScrapeUrls(urls, params, 1, opts.idempotencyKey, opts.webhook, opts.ignoreInvalidURLs, opts.maxConcurrency)
        : v1.asyncBatchScrapeUrls(urls, params, opts.idempotencyKey, opts.webhook, opts.ignoreInvalidURLs),
    expectedBody: opts.expectedBody ?? {
      urls,
      webhook: clone(opts.webhook),
      ignoreInvalidURLs: opts.ignoreInvalidURLs,
      maxConcurrency: opts.maxConcurrency,
      ...clone(params),
      origin: SDK_ORIGIN,
    },
    expectedHeaders: opts.idempotencyKey ? { 'x-idempotency-key': opts.idempotencyKey } : undefined,
    expectedResult: polls ? expect.objectContaining({ success: true, status: 'completed', data: [] }) : v1Started('batch/scrape'),
    polls,
  };
}

/** v2 startCrawl: body = { url, <non-null options>, origin } with scrapeOptions nested. */
function v2Crawl(
  name: string,
  url: string,
  options: CrawlOptions,
  opts: { expectedBody?: Record<string, unknown>; absentKeys?: string[] } = {},
): Case {
  return {
    name,
    schema: 'v2/CrawlRequest',
    path: '/v2/crawl',
    run: ({ v2 }) => v2.startCrawl(url, options),
    expectedBody: opts.expectedBody ?? { url, ...clone(options), origin: SDK_ORIGIN },
    absentKeys: opts.absentKeys,
    expectedResult: v2Started('crawl'),
  };
}

/** v2 startBatchScrape: body = { urls, ...options (flattened), webhook, ..., origin }. */
function v2Batch(
  name: string,
  urls: string[],
  batch: BatchScrapeOptions,
  opts: { expectedBody?: Record<string, unknown>; absentKeys?: string[] } = {},
): Case {
  const { options, idempotencyKey, ...rest } = clone(batch);
  return {
    name,
    schema: 'v2/BatchScrapeRequest',
    path: '/v2/batch/scrape',
    run: ({ v2 }) => v2.startBatchScrape(urls, batch),
    expectedBody: opts.expectedBody ?? { urls, ...options, ...rest, origin: SDK_ORIGIN },
    absentKeys: ['options', 'idempotencyKey', ...(opts.absentKeys ?? [])],
    expectedHeaders: idempotencyKey ? { 'x-idempotency-key': idempotencyKey } : undefined,
    expectedResult: v2Started('batch/scrape'),
  };
}

// ---------------------------------------------------------------------------
// Shared realistic values
// ---------------------------------------------------------------------------

const productSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    inStock: { type: 'boolean' },
  },
  required: ['title', 'price'],
};

const changelogSchema = {
  type: 'object',
  properties: {
    version: { type: 'string' },
    releasedAt: { type: 'string' },
    highlights: { type: 'array', items: { type: 'string' } },
  },
};

const v1WebhookObject: V1Webhook = {
  url: 'https://example.com/hooks/firecrawl',
  headers: { 'X-Webhook-Secret': 'whsec_5f2b9c1e' },
  metadata: { project: 'docs-site', requestedBy: 'nightly-ci' },
  events: ['started', 'page', 'completed', 'failed'],
};

const v2WebhookObject: WebhookConfig = {
  url: 'https://example.org/webhooks/crawl',
  headers: { Authorization: 'Bearer hook-token-7d1e' },
  metadata: { tenant: 'acme', run: '2024-06-01' },
  events: ['completed', 'failed'],
};

const v1ScrapeEverything: V1CrawlScrapeOptions = {
  formats: ['markdown', 'html', 'rawHtml', 'links', 'screenshot'],
  headers: { 'User-Agent': 'Mozilla/5.0 (compatible; DocsBot/1.0)', 'Accept-Language': 'en-US' },
  includeTags: ['main', 'article', '.content'],
  excludeTags: ['nav', 'footer', '#cookie-banner'],
  onlyMainContent: true,
  waitFor: 1000,
  timeout: 30000,
  location: { country: 'US', languages: ['en-US'] },
  mobile: false,
  skipTlsVerification: true,
  removeBase64Images: true,
  blockAds: true,
  proxy: 'stealth',
  storeInCache: false,
  maxAge: 3600000,
  parsePDF: false,
};

const v1Actions: V1Action[] = [
  { type: 'wait', milliseconds: 1500 },
  { type: 'wait', selector: '#main-content' },
  { type: 'click', selector: 'button#accept-cookies' },
  { type: 'click', selector: 'a.load-more', all: true },
  { type: 'click', selector: 'input[name="q"]' },
  { type: 'write', text: 'pricing' },
  { type: 'press', key: 'Enter' },
  { type: 'scroll', direction: 'down' },
  { type: 'scroll', direction: 'up', selector: '#sidebar' },
  { type: 'scroll' },
  { type: 'screenshot', fullPage: true, quality: 80 },
  { type: 'screenshot' },
  { type: 'scrape' },
  { type: 'executeJavascript', script: "document.querySelector('#newsletter-modal')?.remove();" },
];

const v2ScrapeEverything: V2ScrapeOptions = {
  formats: ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary'],
  headers: { 'User-Agent': 'Mozilla/5.0 (compatible; DocsBot/2.0)', Cookie: 'locale=en' },
  includeTags: ['main', 'article'],
  excludeTags: ['nav', 'footer', '.ads'],
  onlyMainContent: false,
  timeout: 45000,
  waitFor: 2000,
  mobile: true,
  parsers: ['pdf'],
  location: { country: 'DE', languages: ['de-DE', 'en'] },
  skipTlsVerification: false,
  removeBase64Images: true,
  blockAds: true,
  proxy: 'auto',
  maxAge: 172800000,
  storeInCache: true,
};

const v2Actions: ActionOption[] = [
  { type: 'wait', milliseconds: 1000 },
  { type: 'wait', selector: '#search' },
  { type: 'click', selector: '#search' },
  { type: 'write', text: 'crawl api' },
  { type: 'press', key: 'Enter' },
  { type: 'scroll', direction: 'down' },
  { type: 'scroll', direction: 'up', selector: '.results' },
  { type: 'screenshot', fullPage: false, quality: 75, viewport: { width: 1280, height: 800 } },
  { type: 'screenshot' },
  { type: 'scrape' },
  { type: 'executeJavascript', script: 'return document.title;' },
  { type: 'pdf', format: 'A4', landscape: false, scale: 1 },
  { type: 'pdf', format: 'Letter', landscape: true, scale: 0.8 },
  { type: 'pdf' },
];

// ---------------------------------------------------------------------------
// Cases: options named in the crawl / batch scrape spec
// ---------------------------------------------------------------------------

const v1CrawlCases: Case[] = [
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

const v1BatchCases: Case[] = [
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

const v2CrawlCases: Case[] = [
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

const v2BatchCases: Case[] = [
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

// ---------------------------------------------------------------------------
// Cases: options the SDK's types expose beyond the spec list above. They are
// kept apart so a schema decision about them shows up as its own failures.
// ---------------------------------------------------------------------------

/** The spec rejects these keys: the service does not know them (unknown keys are rejected, as it does). */
const rejecting = (c: Case, rejectedPaths: string[]): Case => ({ ...c, rejectedPaths });

const typedExtraCases: Case[] = [
  // auditMetadata is a v2 scrape option of the service; v1 does not accept it.
  rejecting(
    v1Crawl('v1 crawl extra: deduplicateSimilarURLs, regexOnFullURL, scrapeOptions.auditMetadata', 'https://example.com/docs', {
      deduplicateSimilarURLs: true,
      regexOnFullURL: true,
      includePaths: ['https://example\\.com/docs/.*'],
      scrapeOptions: { formats: ['markdown'], auditMetadata: { username: 'jane.doe' } },
    }),
    ['$.scrapeOptions.auditMetadata'],
  ),
  v1Batch('v1 batch extra: extract format + extract options', ['https://example.com/shop/item-1'], {
    formats: ['extract'],
    extract: { prompt: 'Extract the product title and price.', schema: productSchema, systemPrompt: 'Be concise.' },
  }),
  // The service takes `agent` only on single-page scrapes, and auditMetadata only in v2.
  rejecting(
    v1Batch('v1 batch extra: jsonOptions.checkPromptInjection, agent, auditMetadata', ['https://example.com/shop/item-1'], {
      formats: ['json'],
      jsonOptions: { prompt: 'Extract the product title and price.', checkPromptInjection: true },
      agent: { model: 'FIRE-1', prompt: 'Open the specifications tab before extracting.' },
      auditMetadata: { username: 'jane.doe' },
    }),
    ['$.agent', '$.auditMetadata'],
  ),
  v1Batch(
    'v1 batch extra: origin containing "mcp" is kept',
    ['https://example.org/a'],
    {
      formats: ['markdown'],
      origin: 'mcp-server',
    } as V1ScrapeParams,
    {
      expectedBody: { urls: ['https://example.org/a'], formats: ['markdown'], origin: 'mcp-server' },
    },
  ),
  v2Crawl(
    'v2 crawl extra: deduplicateSimilarURLs, robotsUserAgent, regexOnFullURL, integration',
    'https://example.com/docs',
    {
      deduplicateSimilarURLs: true,
      robotsUserAgent: 'DocsBot',
      regexOnFullURL: true,
      includePaths: ['https://example\\.com/docs/.*'],
      integration: '  langchain  ',
    },
    {
      expectedBody: {
        url: 'https://example.com/docs',
        deduplicateSimilarURLs: true,
        robotsUserAgent: 'DocsBot',
        regexOnFullURL: true,
        includePaths: ['https://example\\.com/docs/.*'],
        integration: 'langchain',
        origin: SDK_ORIGIN,
      },
    },
  ),
  v2Crawl(
    'v2 crawl extra: ignoreRobotsTxt is typed but dropped by the SDK',
    'https://example.org/a',
    {
      ignoreRobotsTxt: true,
      limit: 10,
    },
    {
      expectedBody: { url: 'https://example.org/a', limit: 10, origin: SDK_ORIGIN },
      absentKeys: ['ignoreRobotsTxt'],
    },
  ),
  v2Crawl('v2 crawl extra: newer format strings', 'https://example.com/shop', {
    scrapeOptions: { formats: ['branding', 'product', 'menu', 'audio', 'video'] },
  }),
  v2Crawl('v2 crawl extra: attributes / question / highlights / query formats', 'https://example.com/docs', {
    scrapeOptions: {
      formats: [
        { type: 'attributes', selectors: [{ selector: 'a.download', attribute: 'href' }] },
        { type: 'question', question: 'Which plans include SSO?' },
        { type: 'highlights', query: 'rate limits' },
        { type: 'query', prompt: 'What is the refund policy?', mode: 'directQuote' },
        { type: 'json', prompt: 'Extract the plan names.', checkPromptInjection: true },
      ],
    },
  }),
  v2Crawl('v2 crawl extra: image parser, pdf parser page options', 'https://example.com/reports', {
    scrapeOptions: {
      parsers: ['pdf', 'image', { type: 'image' }, { type: 'pdf', pages: true, blocks: true, pageMarkers: true, pageMarkdown: true }],
    },
  }),
  // domainTools, and integration/origin inside scrapeOptions, are not scrape options of the service.
  rejecting(
    v2Crawl(
      'v2 crawl extra: scrapeOptions fastMode, minAge, lockdown, redactPII, threatProtection, profile, auditMetadata',
      'https://example.com/docs',
      {
        scrapeOptions: {
          fastMode: true,
          minAge: 60000,
          lockdown: false,
          redactPII: { mode: 'accurate', entities: ['EMAIL', 'PHONE'], replaceStyle: 'mask' },
          threatProtection: { mode: 'normal', riskScoreThreshold: 70, blockedTlds: ['zip'], failurePolicy: 'closed' },
          profile: { name: 'docs-login', saveChanges: false },
          auditMetadata: { username: 'jane.doe' },
          domainTools: false,
          useMock: 'docs-fixture',
          integration: 'zapier',
          origin: 'js-sdk-wrapper',
        },
      },
    ),
    ['$.scrapeOptions.domainTools', '$.scrapeOptions.integration', '$.scrapeOptions.origin'],
  ),
  v2Batch('v2 batch extra: appendToId, integration, redactPII true', ['https://example.org/c'], {
    options: { formats: ['markdown'], redactPII: true },
    appendToId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
    integration: 'n8n',
  }),
  v2Batch(
    'v2 batch extra: origin containing "mcp" is kept',
    ['https://example.org/a'],
    {
      options: { formats: ['markdown'] },
      origin: 'firecrawl-mcp',
    },
    {
      expectedBody: { urls: ['https://example.org/a'], formats: ['markdown'], origin: 'firecrawl-mcp' },
    },
  ),
];

const groups: Array<{ title: string; cases: Case[] }> = [
  { title: 'v1 crawl (asyncCrawlUrl -> POST /v1/crawl)', cases: v1CrawlCases },
  { title: 'v1 batch scrape (asyncBatchScrapeUrls -> POST /v1/batch/scrape)', cases: v1BatchCases },
  { title: 'v2 crawl (startCrawl -> POST /v2/crawl)', cases: v2CrawlCases },
  { title: 'v2 batch scrape (startBatchScrape -> POST /v2/batch/scrape)', cases: v2BatchCases },
  { title: 'options typed by the SDK beyond the spec list', cases: typedExtraCases },
];
const allCases = groups.flatMap((g) => g.cases);

// ---------------------------------------------------------------------------
// Drive the SDK once, record what each case sent
// ---------------------------------------------------------------------------

let server: CaptureServer | undefined;
let clients: Clients | undefined;
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  server = await startCaptureServer();
  const v2 = new Firecrawl({ apiKey: API_KEY, apiUrl: server.baseUrl, maxRetries: 1 });
  clients = { v2, v1: v2.v1 };
  for (const c of allCases) {
    const before = server.requests.length;
    const outcome: Outcome = { requests: [] };
    try {
      outcome.result = await c.run(clients);
    } catch (error) {
      outcome.error = error;
    }
    outcome.requests = server.requests.slice(before);
    outcomes.set(c.name, outcome);
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
});

function capturedFor(c: Case): { outcome: Outcome; request: Captured } {
  const outcome = outcomes.get(c.name);
  if (!outcome) throw new Error(`case "${c.name}" did not run`);
  expect(outcome.error).toBeUndefined();
  const posts = outcome.requests.filter((r) => r.method === 'POST');
  expect(posts, 'exactly one POST per SDK call').toHaveLength(1);
  return { outcome, request: posts[0]! };
}

describe('capture harness', () => {
  it('case names are unique', () => {
    expect(new Set(allCases.map((c) => c.name)).size).toBe(allCases.length);
  });

  it('the unified client exposes the v1 client as FirecrawlAppV1', () => {
    expect(clients?.v1).toBeInstanceOf(FirecrawlAppV1);
  });

  it('captured exactly one POST per case, and nothing but status polls besides', () => {
    const requests = server?.requests ?? [];
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(allCases.length);
    const polling = allCases.filter((c) => c.polls).length;
    const others = requests.filter((r) => r.method !== 'POST');
    expect(others).toHaveLength(polling);
    for (const r of others) {
      expect(r.method).toBe('GET');
      expect(r.path).toMatch(/^\/v1\/crawl\/[0-9a-f-]{36}$/);
    }
  });

  it('v2 SDK refuses a bare "json" format client-side and sends nothing', async () => {
    const before = server?.requests.length;
    await expect(clients!.v2.startCrawl('https://example.com/docs', { scrapeOptions: { formats: ['json'] } })).rejects.toThrow(
      /json format must be an object/,
    );
    expect(server?.requests.length).toBe(before);
  });
});

for (const group of groups) {
  describe(group.title, () => {
    for (const c of group.cases) {
      describe(c.name, () => {
        it('SDK call resolves with the started job', () => {
          const { outcome } = capturedFor(c);
          expect(outcome.result).toEqual(c.expectedResult);
        });

        it(`POSTs the options to ${c.path} with the API key`, () => {
          const { request } = capturedFor(c);
          expect(request.path).toBe(c.path);
          expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
          expect(request.headers['content-type']).toMatch(/^application\/json/);
          for (const [name, value] of Object.entries(c.expectedHeaders ?? {})) {
            expect(request.headers[name]).toBe(value);
          }
          expect(request.body).toEqual(c.expectedBody);
          for (const key of c.absentKeys ?? []) {
            expect(request.body).not.toHaveProperty(key);
          }
        });

        if (c.rejectedPaths) {
          const rejected = c.rejectedPaths;
          it(`body is rejected as ${c.schema} exactly at ${rejected.join(', ')}`, () => {
            const { request } = capturedFor(c);
            const result = validate(c.schema, request.body);
            const errors = 'errors' in result ? result.errors : [];
            expect(errors.map((e) => [e.path, e.rule]).sort()).toEqual(rejected.map((p) => [p, 'additionalProperties']).sort());
          });
        } else {
          it(`body validates as ${c.schema}`, () => {
            const { request } = capturedFor(c);
            const result = validate(c.schema, request.body);
            const errors = 'errors' in result ? result.errors : [];
            expect(errors).toEqual([]);
            expect(result.valid).toBe(true);
          });
        }
      });
    }
  });
}
