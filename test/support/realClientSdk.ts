/**
 * What the real-client conformance cases (test/realClient.test.ts) are made of: the SDK's types (the v1 ones are
 * not exported by name, so derived), a case (the SDK call, the whole body it must send, what it must resolve to),
 * one case builder per SDK entry point whose expected body mirrors the SDK's code, and the realistic values the
 * cases share (schemas, webhooks, every scrape option, actions).
 */
import { expect } from 'vitest';
import Firecrawl, {
  FirecrawlAppV1,
  type ActionOption,
  type BatchScrapeOptions,
  type CrawlOptions,
  type WebhookConfig,
} from '@mendable/firecrawl-js';

// ---------------------------------------------------------------------------
// SDK types (the v1 ones are not exported by name, so derive them)
// ---------------------------------------------------------------------------

type V1CrawlParams = NonNullable<Parameters<FirecrawlAppV1['asyncCrawlUrl']>[1]>;
export type V1CrawlScrapeOptions = NonNullable<V1CrawlParams['scrapeOptions']>;
export type V1ScrapeParams = NonNullable<Parameters<FirecrawlAppV1['asyncBatchScrapeUrls']>[1]>;
type V1Webhook = NonNullable<V1CrawlParams['webhook']>;
/** `scrapeUrl` is generic over its actions; instantiating it yields the v1 Action union. */
export type V1Action = NonNullable<NonNullable<Parameters<FirecrawlAppV1['scrapeUrl']>[1]>['actions']>[number];
type V2ScrapeOptions = NonNullable<CrawlOptions['scrapeOptions']>;

type SchemaName = 'v1/CrawlRequest' | 'v2/CrawlRequest' | 'v1/BatchScrapeRequest' | 'v2/BatchScrapeRequest';

export interface Clients {
  v1: FirecrawlAppV1;
  v2: Firecrawl;
}

export interface Case {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The SDK stamps every body with origin "js-sdk@<version>" (npm_package_version when set). */
export const SDK_ORIGIN = expect.stringMatching(/^js-sdk@\d+\.\d+\.\d+/);

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
export function v1Crawl(
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
export function v1Batch(
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
export function v2Crawl(
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
export function v2Batch(
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

export const productSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    inStock: { type: 'boolean' },
  },
  required: ['title', 'price'],
};

export const changelogSchema = {
  type: 'object',
  properties: {
    version: { type: 'string' },
    releasedAt: { type: 'string' },
    highlights: { type: 'array', items: { type: 'string' } },
  },
};

export const v1WebhookObject: V1Webhook = {
  url: 'https://example.com/hooks/firecrawl',
  headers: { 'X-Webhook-Secret': 'whsec_5f2b9c1e' },
  metadata: { project: 'docs-site', requestedBy: 'nightly-ci' },
  events: ['started', 'page', 'completed', 'failed'],
};

export const v2WebhookObject: WebhookConfig = {
  url: 'https://example.org/webhooks/crawl',
  headers: { Authorization: 'Bearer hook-token-7d1e' },
  metadata: { tenant: 'acme', run: '2024-06-01' },
  events: ['completed', 'failed'],
};

export const v1ScrapeEverything: V1CrawlScrapeOptions = {
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

export const v1Actions: V1Action[] = [
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

export const v2ScrapeEverything: V2ScrapeOptions = {
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

export const v2Actions: ActionOption[] = [
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
