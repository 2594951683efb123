/**
 * The bodies the benchmark measures: realistic crawl and batch scrape requests of both versions, from
 * minimal to fully loaded, and the same requests as the official JS SDK (@mendable/firecrawl-js, a dev
 * dependency) puts them on the wire, captured from a local server (test/support/captureServer.ts, the one
 * test/realClient.test.ts uses). Every body must be valid: the benchmark measures the path a server takes
 * for the requests it accepts.
 */
import Firecrawl, { type WebhookConfig } from '@mendable/firecrawl-js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { startCaptureServer } from '../../test/support/captureServer.js';

export interface BenchBody {
  readonly name: string;
  readonly schema: SchemaName;
  /** The body as a client sends it. */
  readonly text: string;
  /** The body the targets are about: a typical v2 crawl request, as the SDK sends it. */
  readonly typical?: true;
}

type Body = Record<string, unknown>;

const site = (n: number) => Array.from({ length: n }, (_, i) => `https://docs.example.com/guides/page-${i + 1}`);

const webhook: WebhookConfig = {
  url: 'https://hooks.example.com/crawl',
  headers: { Authorization: 'Bearer whsec_5f2b9c1e' },
  metadata: { project: 'docs', run: 'nightly' },
  events: ['started', 'page', 'completed', 'failed'],
};

const productSchema = {
  type: 'object',
  properties: { title: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } },
  required: ['title', 'price'],
};

const commonScrapeOptions = {
  headers: { 'User-Agent': 'Mozilla/5.0 (compatible; DocsBot/2.0)', 'Accept-Language': 'en-US' },
  includeTags: ['main', 'article'],
  excludeTags: ['nav', 'footer', '#cookie-banner'],
  onlyMainContent: true,
  waitFor: 1000,
  timeout: 30000,
  location: { country: 'DE', languages: ['de-DE', 'en'] },
  mobile: false,
  removeBase64Images: true,
  blockAds: true,
};

const actions = [
  { type: 'wait', milliseconds: 1500 },
  { type: 'click', selector: 'button#accept-cookies' },
  { type: 'write', text: 'pricing' },
  { type: 'press', key: 'Enter' },
  { type: 'scroll', direction: 'down' },
  { type: 'screenshot', fullPage: true, quality: 80 },
  { type: 'scrape' },
];

const v1Typical: Body = {
  url: 'https://docs.example.com/guides',
  limit: 100,
  maxDepth: 3,
  includePaths: ['^/guides/.*$'],
  excludePaths: ['^/guides/archive/.*$'],
  scrapeOptions: { formats: ['markdown'], onlyMainContent: true },
};

const v2Typical: Body = {
  url: 'https://docs.example.com/guides',
  limit: 100,
  maxDiscoveryDepth: 3,
  includePaths: ['^/guides/.*$'],
  excludePaths: ['^/guides/archive/.*$'],
  scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: true },
};

const v1Scrape: Body = {
  ...commonScrapeOptions,
  formats: ['markdown', 'html', 'links', 'json', 'screenshot@fullPage'],
  jsonOptions: { prompt: 'Extract the product title, price and currency.', schema: productSchema },
  actions,
  proxy: 'stealth',
  maxAge: 3600000,
};

const v2Scrape: Body = {
  ...commonScrapeOptions,
  formats: [
    'markdown',
    'html',
    'links',
    { type: 'json', prompt: 'Extract the product.', schema: productSchema },
    { type: 'screenshot', fullPage: true },
  ],
  parsers: ['pdf'],
  actions,
  proxy: 'auto',
  maxAge: 172800000,
};

const HAND: readonly { name: string; schema: SchemaName; body: Body }[] = [
  { name: 'v1 crawl, minimal', schema: 'v1/CrawlRequest', body: { url: 'https://docs.example.com' } },
  { name: 'v1 crawl, typical', schema: 'v1/CrawlRequest', body: v1Typical },
  {
    name: 'v1 crawl, fully loaded',
    schema: 'v1/CrawlRequest',
    body: {
      ...v1Typical,
      allowBackwardLinks: true,
      allowSubdomains: true,
      ignoreSitemap: true,
      delay: 2,
      webhook,
      scrapeOptions: v1Scrape,
    },
  },
  { name: 'v1 batch, 2 URLs', schema: 'v1/BatchScrapeRequest', body: { urls: site(2), formats: ['markdown'] } },
  { name: 'v1 batch, 100 URLs, fully loaded', schema: 'v1/BatchScrapeRequest', body: { urls: site(100), webhook, ...v1Scrape } },
  { name: 'v2 crawl, minimal', schema: 'v2/CrawlRequest', body: { url: 'https://docs.example.com' } },
  { name: 'v2 crawl, typical', schema: 'v2/CrawlRequest', body: v2Typical },
  {
    name: 'v2 crawl, fully loaded',
    schema: 'v2/CrawlRequest',
    body: { ...v2Typical, sitemap: 'include', crawlEntireDomain: true, allowSubdomains: true, delay: 2, webhook, scrapeOptions: v2Scrape },
  },
  { name: 'v2 batch, 2 URLs', schema: 'v2/BatchScrapeRequest', body: { urls: site(2), formats: ['markdown'] } },
  { name: 'v2 batch, 100 URLs, fully loaded', schema: 'v2/BatchScrapeRequest', body: { urls: site(100), webhook, ...v2Scrape } },
];

/** What the SDK sends for some of the requests above (it adds `origin`, and moves batch options around). */
async function sdkBodies(): Promise<BenchBody[]> {
  const server = await startCaptureServer();
  try {
    const client = new Firecrawl({ apiKey: 'fc-bench', apiUrl: server.baseUrl, maxRetries: 1 });
    const { url: v1Url, ...v1Options } = v1Typical;
    const { url: v2Url, ...v2Options } = v2Typical;
    const calls: readonly [name: string, schema: SchemaName, send: () => Promise<unknown>, typical?: true][] = [
      ['v1 crawl, typical (SDK)', 'v1/CrawlRequest', () => client.v1.asyncCrawlUrl(v1Url as string, v1Options)],
      [
        'v1 batch, 100 URLs, fully loaded (SDK)',
        'v1/BatchScrapeRequest',
        () => client.v1.asyncBatchScrapeUrls(site(100), v1Scrape, undefined, webhook),
      ],
      ['v2 crawl, typical (SDK)', 'v2/CrawlRequest', () => client.startCrawl(v2Url as string, v2Options), true],
      [
        'v2 batch, 100 URLs, fully loaded (SDK)',
        'v2/BatchScrapeRequest',
        () => client.startBatchScrape(site(100), { options: v2Scrape, webhook }),
      ],
    ];
    const bodies: BenchBody[] = [];
    for (const [name, schema, send, typical] of calls) {
      const before = server.requests.length;
      await send();
      const posted = server.requests.slice(before).filter((r) => r.method === 'POST');
      if (posted.length !== 1) throw new Error(`${name}: the SDK sent ${posted.length} requests, expected one`);
      bodies.push({ name, schema, text: posted[0]!.rawBody, ...(typical ? { typical } : {}) });
    }
    return bodies;
  } finally {
    await server.close();
  }
}

/** The whole corpus; fails, naming the body and its problems, if any body is not valid. */
export async function corpus(): Promise<BenchBody[]> {
  const bodies = [...HAND.map(({ name, schema, body }) => ({ name, schema, text: JSON.stringify(body) })), ...(await sdkBodies())];
  for (const { name, schema, text } of bodies) {
    const result = validate(schema, JSON.parse(text));
    if (!result.valid) throw new Error(`bench corpus: "${name}" is not a valid ${schema}: ${JSON.stringify(result.errors)}`);
  }
  return bodies;
}
