/**
 * The official JS SDK (@mendable/firecrawl-js, a devDependency) end to end against the reference server, for
 * both of its clients: the v2 client (`new Firecrawl(...)`) and the v1 client it embeds (`.v1`, a
 * FirecrawlAppV1). Each drives crawl-and-wait, batch-scrape-and-wait, start, status with pagination, cancel,
 * errors and the active list, and the tests assert on what the SDK returns.
 *
 * The server runs in this process (`createReferenceApp` + `listen`) on 127.0.0.1 and a port of its own, so
 * that jobs can be paced (`pageIntervalMs`) and status answers hold 5 page records unless asked otherwise
 * (`statusPageSize`): the v2 client cannot choose a page size, and follows `next` only when there is one.
 * Jobs crawl the server's own site (`<base>/site/`, about 30 pages; `/site/broken` always fails) or synthetic
 * pages on example.com, which the server never fetches. A job that must still be running when it is looked at
 * is a crawl with a `delay` of 1 s per page or a batch of many pages; each is cancelled before its test ends.
 *
 * What the SDK sends (read from its dist/index.js):
 *   - v2: `crawl` / `batchScrape` start the job, then read `GET /v2/crawl/{id}` (`/v2/batch/scrape/{id}`) every
 *     `pollInterval` (at least 1 s) until it has ended; `getCrawlStatus` / `getBatchScrapeStatus` follow `next`
 *     unless `autoPaginate` is false (`maxPages`, `maxResults` bound it); cancel is DELETE, errors and active
 *     are GETs.
 *   - v1: `crawlUrl` and `batchScrapeUrls` both poll `GET /v1/crawl/{id}` every `pollInterval` (at least 2 s)
 *     and follow `next` once the job has completed; `checkCrawlStatus` / `checkBatchScrapeStatus` take
 *     (id, getAllData, nextURL, skip, limit); `cancelCrawl` is `DELETE /v1/crawl/{id}` (there is no batch
 *     cancel: the shared cancel endpoint serves). It has no method for the active list, and its
 *     `checkCrawlErrors` / `checkBatchScrapeErrors` send DELETE to `…/errors`, a route the service does not
 *     have (it answers GET there): those two are read with the client's own `getRequest` and headers.
 *
 * Last, both clients batch-scrape the test site's scrape pages (scripts/site/scrapePages.ts, served by
 * `serveSite` on 127.0.0.1) through `crawlspec serve` in a child process, allowed to fetch from the site's
 * address (`--allow-host 127.0.0.1`), and every record they return is held against the scrape oracle
 * (`judgeScrapeRecord(scrapeExpectation(...))`): no constraint broken, at interface or at service level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl, { SdkError, type FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { createReferenceApp, type InMemoryReferenceApp } from '../scripts/server/app.js';
import { listen, type Listening } from '../scripts/server/http.js';
import { judgeScrapeRecord, type ScrapeFinding } from '../schemas/scrape/judge.js';
import { scrapeExpectation } from '../schemas/scrape/oracle.js';
import { scrapePage, type ScrapePageName } from '../scripts/site/scrapePages.js';
import { serveSite, type ServedSite } from '../scripts/site/server.js';
import { startServerProcess, type ServerProcess } from './support/serverProcess.js';

const TOKEN = 'fc-sdk-end-to-end';
/** Page records in a status answer that gives no `limit`, so a 12-page crawl takes three answers. */
const PAGE_SIZE = 5;
/** Longest wait for a job to end (the v1 client polls every 2 s at the least): a safety net, far past what a loaded machine needs. */
const WAIT_MS = 60_000;
/** Longest a request may take: a safety net likewise. */
const REQUEST_MS = 60_000;
const TEST_TIMEOUT_MS = 2 * WAIT_MS;
/** Enough synthetic pages (as many as a job may have) to keep a batch running, 20 ms each, 20 s in all, while a test looks at it. */
const LONG_BATCH = Array.from({ length: 1000 }, (_, i) => `https://example.com/page-${i}`);
/** `count` synthetic pages, in order. */
const examplePages = (count: number): string[] => Array.from({ length: count }, (_, i) => `https://example.com/${i + 1}`);

let app: InMemoryReferenceApp;
let server: Listening;
let base = '';
let v2: Firecrawl;
let v1: FirecrawlAppV1;

beforeAll(async () => {
  app = createReferenceApp({ auth: { token: TOKEN }, publicUrl: () => base, pageIntervalMs: 20, statusPageSize: PAGE_SIZE });
  server = await listen(app, { host: '127.0.0.1', port: 0 });
  base = server.url;
  v2 = new Firecrawl({ apiKey: TOKEN, apiUrl: base, timeoutMs: REQUEST_MS, maxRetries: 1 });
  v1 = v2.v1;
});

afterAll(async () => {
  await server.close();
  app.close();
});

const site = (path: string): string => `${base}/site${path}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads a job's status until it is no longer `scraping`. */
async function untilEnded<T extends { status: string }>(what: string, read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const answer = await read();
    if (answer.status !== 'scraping') return answer;
    if (Date.now() > deadline) throw new Error(`${what} still scraping after ${WAIT_MS} ms`);
    await sleep(25);
  }
}

/** The v1 methods answer `X | ErrorResponse`: the X, once the test has checked it is one. */
function succeeded<T extends { success: boolean }>(result: T, what: string): Exclude<T, { success: false }> {
  expect(result.success, `${what} answered ${JSON.stringify(result)}`).toBe(true);
  return result as Exclude<T, { success: false }>;
}

type Page = { metadata?: { [key: string]: unknown } };
const scrapeIds = (pages: readonly Page[]): unknown[] => pages.map((page) => page.metadata?.['scrapeId']);
const sourceUrls = (pages: readonly Page[]): unknown[] => pages.map((page) => page.metadata?.['sourceURL']);

/** Pages of a crawl of the whole site: every address on the site, none twice, as many as the job completed. */
function expectSitePages(pages: readonly Page[], completed: number, what: string): void {
  expect(pages, what).toHaveLength(completed);
  expect(new Set(scrapeIds(pages)).size, `${what}: a page came back twice`).toBe(completed);
  for (const url of sourceUrls(pages)) expect(String(url), `${what}: a page off the site`).toMatch(new RegExp(`^${base}/site/`));
}

/** The SdkError a v2 call rejects with. */
async function sdkError(call: Promise<unknown>): Promise<SdkError> {
  const error: unknown = await call.then(
    (value) => new Error(`expected the call to fail, it answered ${JSON.stringify(value)}`),
    (reason: unknown) => reason,
  );
  if (!(error instanceof SdkError)) throw error;
  return error;
}

describe('the v2 client', () => {
  it('crawl waits for the crawl and returns every page, following next', { timeout: TEST_TIMEOUT_MS }, async () => {
    const job = await v2.crawl(site('/'), { limit: 12, pollInterval: 1, timeout: WAIT_MS / 1000 });
    expect(job).toMatchObject({ status: 'completed', completed: 12, total: 12, next: null });
    expectSitePages(job.data, 12, 'crawl');
    expect(job.data.every((page) => typeof page.markdown === 'string')).toBe(true);
  });

  it('batchScrape waits for the batch; its errors list the page that failed', { timeout: TEST_TIMEOUT_MS }, async () => {
    const urls = [site('/about'), site('/broken'), 'https://example.com/a'];
    const job = await v2.batchScrape(urls, { options: { formats: ['markdown'] }, pollInterval: 1, timeout: WAIT_MS / 1000 });
    expect(job).toMatchObject({ status: 'completed', completed: 2, total: 2 });
    expect(sourceUrls(job.data)).toEqual([site('/about'), 'https://example.com/a']);

    const errors = await v2.getBatchScrapeErrors(job.id);
    expect(errors.errors).toEqual([expect.objectContaining({ url: site('/broken'), code: 'SCRAPE_SITE_ERROR' })]);
    expect(errors.robotsBlocked).toEqual([]);
  });

  it('start, then status page by page: next is followed, every page once', { timeout: TEST_TIMEOUT_MS }, async () => {
    const started = await v2.startCrawl(site('/'), { limit: 12 });
    expect(started.url).toBe(`${base}/v2/crawl/${started.id}`);
    const ended = await untilEnded('v2 crawl', () => v2.getCrawlStatus(started.id, { autoPaginate: false }));
    expect(ended).toMatchObject({ status: 'completed', completed: 12, total: 12 });

    const first = await v2.getCrawlStatus(started.id, { autoPaginate: false });
    expect(first.data).toHaveLength(PAGE_SIZE);
    expect(first.next).toBe(`${base}/v2/crawl/${started.id}?skip=${PAGE_SIZE}`);
    expect((await v2.getCrawlStatus(started.id, { maxPages: 1 })).data, 'the first answer and one more').toHaveLength(2 * PAGE_SIZE);
    expect((await v2.getCrawlStatus(started.id, { maxResults: 7 })).data).toHaveLength(7);

    const all = await v2.getCrawlStatus(started.id);
    expect(all.next).toBeNull();
    expectSitePages(all.data, all.completed, 'getCrawlStatus');
    expect(scrapeIds(all.data).slice(0, PAGE_SIZE)).toEqual(scrapeIds(first.data));

    const batch = await v2.startBatchScrape(examplePages(7));
    expect(batch.url).toBe(`${base}/v2/batch/scrape/${batch.id}`);
    await untilEnded('v2 batch', () => v2.getBatchScrapeStatus(batch.id, { autoPaginate: false }));
    const pages = await v2.getBatchScrapeStatus(batch.id);
    expect(pages).toMatchObject({ status: 'completed', completed: 7, next: null });
    expect(sourceUrls(pages.data), 'pages of the batch, followed by next').toEqual(examplePages(7));
  });

  it('cancels a running crawl and a running batch, and refuses to cancel an ended one', { timeout: TEST_TIMEOUT_MS }, async () => {
    const crawl = await v2.startCrawl(site('/'), { delay: 1 });
    expect(await v2.cancelCrawl(crawl.id)).toBe(true);
    const crawlStatus = await v2.getCrawlStatus(crawl.id);
    expect(crawlStatus.status).toBe('cancelled');
    expect(crawlStatus.completed).toBeLessThan(30);

    const batch = await v2.startBatchScrape(LONG_BATCH);
    expect(await v2.cancelBatchScrape(batch.id)).toBe(true);
    const batchStatus = await v2.getBatchScrapeStatus(batch.id, { autoPaginate: false });
    expect(batchStatus.status).toBe('cancelled');
    expect(batchStatus.completed).toBeLessThan(LONG_BATCH.length);

    const ended = await v2.batchScrape(['https://example.com/done'], { pollInterval: 1, timeout: WAIT_MS / 1000 });
    const refused = await sdkError(v2.cancelBatchScrape(ended.id));
    expect({ status: refused.status, message: refused.message }).toEqual({ status: 409, message: 'Crawl is already completed' });
  });
});

describe('the v1 client', () => {
  it('crawlUrl waits for the crawl and returns every page, following next', { timeout: TEST_TIMEOUT_MS }, async () => {
    const job = succeeded(await v1.crawlUrl(site('/'), { limit: 12 }, 1), 'crawlUrl');
    expect(job).toMatchObject({ status: 'completed', completed: 12, total: 12 });
    expectSitePages(job.data, 12, 'crawlUrl');
  });

  it('batchScrapeUrls waits for the batch, polling its status on the crawl endpoint', { timeout: TEST_TIMEOUT_MS }, async () => {
    const job = succeeded(await v1.batchScrapeUrls([site('/about'), site('/broken'), 'https://example.com/a'], { formats: ['markdown'] }, 1), 'batchScrapeUrls');
    expect(job).toMatchObject({ status: 'completed', completed: 2, total: 2 });
    expect(sourceUrls(job.data)).toEqual([site('/about'), 'https://example.com/a']);
  });

  it('start, then status page by page with a limit: next is followed, every page once', { timeout: TEST_TIMEOUT_MS }, async () => {
    const started = succeeded(await v1.asyncCrawlUrl(site('/'), { limit: 12 }), 'asyncCrawlUrl');
    expect(started.url).toBe(`${base}/v1/crawl/${started.id}`);
    const id = String(started.id);
    await untilEnded('v1 crawl', async () => succeeded(await v1.checkCrawlStatus(id), 'checkCrawlStatus'));

    const pages: Page[] = [];
    const sizes: number[] = [];
    let answer = succeeded(await v1.checkCrawlStatus(id, false, undefined, undefined, 4), 'checkCrawlStatus limit 4');
    expect(answer.next).toBe(`${base}/v1/crawl/${id}?skip=4&limit=4`);
    for (;;) {
      pages.push(...answer.data);
      sizes.push(answer.data.length);
      if (answer.next === undefined) break;
      answer = succeeded(await v1.checkCrawlStatus(id, false, answer.next), `checkCrawlStatus ${answer.next}`);
    }
    expect(sizes).toEqual([4, 4, 4]);
    expectSitePages(pages, answer.completed, 'pages followed by next');

    const all = succeeded(await v1.checkCrawlStatus(id, true), 'checkCrawlStatus getAllData');
    expect(scrapeIds(all.data)).toEqual(scrapeIds(pages));

    const batch = succeeded(await v1.asyncBatchScrapeUrls(examplePages(3), {}), 'asyncBatchScrapeUrls');
    expect(batch.url).toBe(`${base}/v1/batch/scrape/${batch.id}`);
    const batchId = String(batch.id);
    await untilEnded('v1 batch', async () => succeeded(await v1.checkBatchScrapeStatus(batchId), 'checkBatchScrapeStatus'));
    const firstTwo = succeeded(await v1.checkBatchScrapeStatus(batchId, false, undefined, undefined, 2), 'checkBatchScrapeStatus limit 2');
    expect(firstTwo.next).toBe(`${base}/v1/batch/scrape/${batchId}?skip=2&limit=2`);
    const rest = succeeded(await v1.checkBatchScrapeStatus(batchId, false, firstTwo.next), 'checkBatchScrapeStatus next');
    expect(rest.next).toBeUndefined();
    expect(sourceUrls([...firstTwo.data, ...rest.data])).toEqual(examplePages(3));
  });

  it('cancels a running crawl, and a running batch through the shared cancel endpoint', { timeout: TEST_TIMEOUT_MS }, async () => {
    const crawl = succeeded(await v1.asyncCrawlUrl(site('/'), { delay: 1 }), 'asyncCrawlUrl');
    expect(await v1.cancelCrawl(String(crawl.id))).toEqual({ status: 'cancelled' });
    expect(succeeded(await v1.checkCrawlStatus(String(crawl.id)), 'checkCrawlStatus').status).toBe('cancelled');

    const batch = succeeded(await v1.asyncBatchScrapeUrls(LONG_BATCH, {}), 'asyncBatchScrapeUrls');
    expect(await v1.cancelCrawl(String(batch.id))).toEqual({ status: 'cancelled' });
    const batchStatus = succeeded(await v1.checkBatchScrapeStatus(String(batch.id)), 'checkBatchScrapeStatus');
    expect(batchStatus.status).toBe('cancelled');
    expect(batchStatus.completed).toBeLessThan(LONG_BATCH.length);
  });

  it("lists a batch's failed page on GET …/errors; the SDK's own errors methods send DELETE, which is not routed", { timeout: TEST_TIMEOUT_MS }, async () => {
    const batch = succeeded(await v1.asyncBatchScrapeUrls([site('/about'), site('/broken')], {}), 'asyncBatchScrapeUrls');
    const id = String(batch.id);
    await untilEnded('v1 batch', async () => succeeded(await v1.checkBatchScrapeStatus(id), 'checkBatchScrapeStatus'));

    const errors = await v1.getRequest(`${v1.apiUrl}/v1/batch/scrape/${id}/errors`, v1.prepareHeaders());
    expect(errors.status).toBe(200);
    expect(errors.data).toEqual({ errors: [expect.objectContaining({ url: site('/broken'), code: 'SCRAPE_SITE_ERROR' })], robotsBlocked: [] });

    await expect(v1.checkBatchScrapeErrors(id)).rejects.toThrow(/check batch scrape errors\. Status code: 404/);
    await expect(v1.checkCrawlErrors(id)).rejects.toThrow(/check crawl errors\. Status code: 404/);
  });
});

describe('both clients', () => {
  it("list every running crawl, whichever version started it, each in the client's own words", { timeout: TEST_TIMEOUT_MS }, async () => {
    const fromV2 = await v2.startCrawl(site('/'), { delay: 1, sitemap: 'skip' });
    const fromV1 = succeeded(await v1.asyncCrawlUrl(site('/blog/'), { delay: 1, ignoreSitemap: true }), 'asyncCrawlUrl');
    const v1Id = String(fromV1.id);
    const listedByV1 = async () => {
      const answer = await v1.getRequest(`${v1.apiUrl}/v1/crawl/active`, v1.prepareHeaders());
      expect(answer.status).toBe(200);
      return (answer.data as { crawls: { id: string; url: string; options: Record<string, unknown> }[] }).crawls;
    };
    try {
      const byV2 = new Map((await v2.getActiveCrawls()).crawls.map((crawl) => [crawl.id, crawl]));
      expect(byV2.get(fromV2.id)).toMatchObject({ teamId: 'reference', url: site('/'), options: { sitemap: 'skip' } });
      expect(byV2.get(v1Id)).toMatchObject({ teamId: 'reference', url: site('/blog/'), options: { sitemap: 'skip' } });
      expect(byV2.get(v1Id)?.options).not.toHaveProperty('ignoreSitemap');

      const byV1 = new Map((await listedByV1()).map((crawl) => [crawl.id, crawl]));
      expect(byV1.get(v1Id)).toMatchObject({ url: site('/blog/'), options: { ignoreSitemap: true } });
      expect(byV1.get(fromV2.id)).toMatchObject({ url: site('/'), options: { ignoreSitemap: true } });
      expect(byV1.get(fromV2.id)?.options).not.toHaveProperty('sitemap');
    } finally {
      await v2.cancelCrawl(fromV2.id);
      await v1.cancelCrawl(v1Id);
    }
    const afterwards = [...(await v2.getActiveCrawls()).crawls, ...(await listedByV1())].map((crawl) => crawl.id);
    expect(afterwards, 'a cancelled crawl is listed').not.toContain(fromV2.id);
    expect(afterwards, 'a cancelled crawl is listed').not.toContain(v1Id);
  });
});

describe('both clients batch-scrape the scrape pages through crawlspec serve, and every record passes the scrape oracle', () => {
  const SERVE_TOKEN = 'fc-sdk-scrape-pages';
  /** The pages a batch asks for: every scrape page but the slow one and the counter (their meanings need a pair, a timeout). */
  const PAGES: readonly ScrapePageName[] = ['article', 'image', 'pdf', 'headers', 'gone', 'secure'];
  /** Option sets, as the SDK is given them: the defaults with every text format, some changed, the tag filters. */
  const SETS: readonly { readonly name: string; readonly pages: readonly ScrapePageName[]; readonly options: Record<string, unknown> }[] = [
    { name: 'defaults', pages: PAGES, options: { formats: ['markdown', 'html', 'rawHtml', 'links'] } },
    {
      name: 'changed',
      pages: ['article', 'image', 'headers'],
      options: {
        formats: ['markdown', 'html'],
        onlyMainContent: false,
        removeBase64Images: false,
        headers: { 'X-Crawlspec-Probe': 'sent by the SDK' },
        mobile: true,
      },
    },
    {
      name: 'tags',
      pages: ['article'],
      options: { formats: ['markdown', 'html'], includeTags: ['section', 'blockquote'], excludeTags: ['h2'] },
    },
  ];
  let site: ServedSite;
  let served: ServerProcess;
  let clients: { v1: FirecrawlAppV1; v2: Firecrawl };

  beforeAll(async () => {
    site = await serveSite();
    served = await startServerProcess(SERVE_TOKEN, 60_000, ['--allow-host', '127.0.0.1']);
    const client = new Firecrawl({ apiKey: SERVE_TOKEN, apiUrl: served.url, timeoutMs: REQUEST_MS, maxRetries: 1 });
    clients = { v2: client, v1: client.v1 };
  }, 120_000);
  afterAll(async () => {
    await served?.stop();
    await site?.close();
  });

  /** What the oracle says of each page's record (none: undefined) under `options`, and what it found broken or held. */
  function judged(version: 'v1' | 'v2', pages: readonly ScrapePageName[], options: Record<string, unknown>, records: readonly Page[]) {
    return pages.map((name) => {
      const model = scrapePage(site.origins, name);
      const record = records.find((r) => r.metadata?.['sourceURL'] === model.url);
      const findings = judgeScrapeRecord(scrapeExpectation(model, { version, options }), record);
      return { name, record, findings };
    });
  }
  const broken = (findings: readonly ScrapeFinding[]) =>
    findings.filter((f) => f.outcome === 'violated').map((f) => `[${f.level}] ${f.constraint.id}: ${f.constraint.why}: ${f.seen}`);

  it.each(['v1', 'v2'] as const)('the %s client', { timeout: TEST_TIMEOUT_MS }, async (version) => {
    const batches = await Promise.all(
      SETS.map(async (set) => {
        const urls = set.pages.map((name) => scrapePage(site.origins, name).url);
        const job =
          version === 'v2'
            ? await clients.v2.batchScrape(urls, { options: set.options, pollInterval: 1, timeout: WAIT_MS / 1000 })
            : succeeded(await clients.v1.batchScrapeUrls(urls, set.options, 1), `${set.name} batchScrapeUrls`);
        expect(job.status, set.name).toBe('completed');
        return { set, records: job.data as Page[] };
      }),
    );
    for (const { set, records } of batches)
      for (const { name, record, findings } of judged(version, set.pages, set.options, records)) {
        const what = `${version} ${set.name} ${name}`;
        expect(broken(findings), what).toEqual([]);
        // Each record was judged: the oracle held something of it (its main text, its status...).
        expect(findings.filter((f) => f.outcome === 'holds').length, what).toBeGreaterThan(0);
        // The TLS page with its self-signed certificate: v1 verifies by default (no record), v2 does not.
        if (name === 'secure') expect(record === undefined, what).toBe(version === 'v1');
        else expect(record, what).toBeDefined();
      }
  });
});
