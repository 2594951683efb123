/**
 * The reference server (scripts/server/), over HTTP with fetch, for v1 and v2: start answers, auth, malformed
 * and invalid bodies, the batch invalidURLs rule, job progress and pagination, cancel, errors, active crawls,
 * not-found ids, webhooks, body size, and closing in bounded time. Every answer and event is validated with
 * the package's own validators.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedInvalidUrls, partitionBatch } from '../schemas/batchPartition.js';
import { MALFORMED_JSON_BODY } from '../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { createReferenceApp, type ReferenceApp } from '../scripts/server/app.js';
import { listen, type Listening } from '../scripts/server/http.js';

const TOKEN = 'test-token';
/** A safety net on every request and every wait for a job: far past what a loaded machine needs. */
const TIMEOUT_MS = 60_000;
const VERSIONS = ['v1', 'v2'] as const;
/** The Content-Type a start must carry. */
const JSON_TYPE = { 'content-type': 'application/json' };
type Version = (typeof VERSIONS)[number];

let publicUrl = '';
let app: ReferenceApp;
let server: Listening;
/**
 * A server whose pages take a second each, so that a job is still running when a test looks at it right after
 * starting it: a crawl of three pages runs three seconds, of the whole site (30 pages) thirty.
 */
let slowUrl = '';
let slowApp: ReferenceApp;
let slowServer: Listening;

beforeAll(async () => {
  app = createReferenceApp({ auth: { token: TOKEN }, publicUrl: () => publicUrl, pageIntervalMs: 5 });
  server = await listen(app);
  publicUrl = server.url;
  slowApp = createReferenceApp({ auth: { token: TOKEN }, publicUrl: () => slowUrl, pageIntervalMs: 1000 });
  slowServer = await listen(slowApp);
  slowUrl = slowServer.url;
});

afterAll(async () => {
  await Promise.all([server.close(), slowServer.close()]);
  app.close();
  slowApp.close();
});

interface Answer {
  status: number;
  contentType: string | null;
  body: any;
}

interface CallOptions {
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  rawBody?: string;
  /** `Authorization` header; default `Bearer <TOKEN>`; null for none. */
  authorization?: string | null;
  headers?: Record<string, string>;
}

/** One request to the server (a path, or an absolute address), with a time limit. */
async function call(method: string, target: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const authorization = options.authorization === undefined ? `Bearer ${TOKEN}` : options.authorization;
  if (authorization !== null) headers['authorization'] = authorization;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(target.startsWith('http') ? target : `${publicUrl}${target}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  return { status: response.status, contentType, body: contentType?.startsWith('application/json') ? JSON.parse(text) : text };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectValid(name: SchemaName, value: unknown): void {
  const result = validate(name, value);
  expect(result.valid ? [] : result.errors.map((e) => `${e.path}: ${e.message}`), name).toEqual([]);
}

const site = (path: string) => `${publicUrl}/site${path}`;

/** Polls `read` until `holds` says yes of its answer (every 10 ms; past `TIMEOUT_MS`, fails saying what did not happen). */
async function until<T>(what: string, read: () => Promise<T>, holds: (answer: T) => boolean): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const answer = await read();
    if (holds(answer)) return answer;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${TIMEOUT_MS / 1000} s`);
    await sleep(10);
  }
}

/** Polls a job's status until it is no longer scraping, validating every answer on the way. */
async function untilDone(version: Version, jobUrl: string): Promise<Answer> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const answer = await call('GET', jobUrl);
    expect(answer.status).toBe(200);
    expectValid(`${version}/JobStatusResponse`, answer.body);
    if (answer.body.status !== 'scraping') return answer;
    if (Date.now() > deadline) throw new Error(`job ${jobUrl} still scraping after ${TIMEOUT_MS / 1000} s`);
    await sleep(10);
  }
}

async function startCrawl(version: Version, body: Record<string, unknown>, on = publicUrl): Promise<{ id: string; url: string }> {
  const answer = await call('POST', `${on}/${version}/crawl`, { body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expectValid(`${version}/CrawlStartResponse`, answer.body);
  return answer.body;
}

/** Starts a receiver of webhook events on 127.0.0.1. */
async function startReceiver(): Promise<{
  url: string;
  events: { headers: Record<string, unknown>; body: any }[];
  close(): Promise<void>;
}> {
  const events: { headers: Record<string, unknown>; body: any }[] = [];
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      events.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        receiver.close(() => resolve());
        receiver.closeAllConnections();
      }),
  };
}

describe.each(VERSIONS)('reference server %s', (version) => {
  it('starts a crawl and a batch with valid start answers', async () => {
    const crawl = await startCrawl(version, { url: site('/docs/') });
    expect(crawl.url).toBe(`${publicUrl}/${version}/crawl/${crawl.id}`);
    expect(crawl.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const batch = await call('POST', `/${version}/batch/scrape`, { body: { urls: ['https://example.com/a', site('/about')] } });
    expect(batch.status).toBe(200);
    expectValid(`${version}/BatchScrapeStartResponse`, batch.body);
    expect(batch.body.url).toBe(`${publicUrl}/${version}/batch/scrape/${batch.body.id}`);
    expect(batch.contentType).toBe('application/json; charset=utf-8');

    const done = await untilDone(version, batch.body.url);
    expect(done.body).toMatchObject({ status: 'completed', completed: 2, total: 2, creditsUsed: 2 });
    expect(done.body.data.map((d: any) => d.metadata.sourceURL)).toEqual(['https://example.com/a', site('/about')]);
    for (const page of done.body.data) expectValid(`${version}/Document`, page);
  });

  it('refuses requests without a valid bearer token', async () => {
    const cases = [
      { authorization: null, error: 'Unauthorized' },
      { authorization: 'Bearer', error: 'Unauthorized: Token missing' },
      { authorization: 'Bearer wrong-token', error: 'Unauthorized: Invalid token' },
    ];
    for (const { authorization, error } of cases) {
      for (const [method, path] of [
        ['POST', `/${version}/crawl`],
        ['POST', `/${version}/batch/scrape`],
        ['GET', `/${version}/crawl/active`],
        ['GET', `/${version}/crawl/0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e`],
      ] as const) {
        const answer = await call(method, path, { authorization, ...(method === 'POST' ? { body: { url: 'https://example.com' } } : {}) });
        expect(answer.status, `${method} ${path} ${authorization}`).toBe(401);
        expect(answer.body).toEqual({ success: false, error });
        expectValid(`${version}/ErrorResponse`, answer.body);
      }
    }
  });

  it('checks the token before the body (the service parses first), then answers malformed JSON with the exact 400 body', async () => {
    for (const path of [`/${version}/crawl`, `/${version}/batch/scrape`]) {
      const unauthenticated = await call('POST', path, { rawBody: '{"url": ', authorization: null });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body).toEqual({ success: false, error: 'Unauthorized' });
      const answer = await call('POST', path, { rawBody: '{"url": ' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(MALFORMED_JSON_BODY);
    }
  });

  it('answers an invalid body with a 400 naming the path', async () => {
    const crawl = await call('POST', `/${version}/crawl`, { body: { url: 'ftp://example.com', limit: 'many' } });
    expect(crawl.status).toBe(400);
    expectValid(`${version}/ErrorResponse`, crawl.body);
    expect(crawl.body.code).toBe('BAD_REQUEST');
    const paths = crawl.body.details.map((d: any) => JSON.stringify(d.path));
    expect(paths).toContain('["limit"]');

    const batch = await call('POST', `/${version}/batch/scrape`, { body: { urls: ['https://example.com'], formats: ['changeTracking'] } });
    expect(batch.status).toBe(400);
    expectValid(`${version}/ErrorResponse`, batch.body);
    expect(batch.body.details).toContainEqual(expect.objectContaining({ path: ['formats'] }));
  });

  it('follows the invalidURLs rule of the version', async () => {
    const urlLists = [
      ['https://example.com/a', 'not a url', 'example.org/b', 'ftp://example.com/c'],
      ['https://example.com/a', 'example.org/b'],
      ['not a url'],
    ];
    for (const urls of urlLists) {
      for (const ignoreInvalidURLs of [true, false, undefined]) {
        const body = { urls, ...(ignoreInvalidURLs === undefined ? {} : { ignoreInvalidURLs }) };
        const answer = await call('POST', `/${version}/batch/scrape`, { body });
        const label = JSON.stringify(body);
        if (partitionBatch(version, body).outcome === 'rejected') {
          expect(answer.status, label).toBe(400);
          expectValid(`${version}/ErrorResponse`, answer.body);
          continue;
        }
        expect(answer.status, label).toBe(200);
        expectValid(`${version}/BatchScrapeStartResponse`, answer.body);
        const expected = expectedInvalidUrls(version, body);
        if (expected === undefined) expect(answer.body, label).not.toHaveProperty('invalidURLs');
        else expect(answer.body.invalidURLs, label).toEqual(expected);
      }
    }
  });

  it('crawls the synthetic site: valid answers, limit honoured, next visits every page once', async () => {
    const limited = await startCrawl(version, { url: site('/'), limit: 7 });
    const done = await untilDone(version, limited.url);
    expect(done.body).toMatchObject({ status: 'completed', completed: 7, total: 7 });
    expect(done.body.data).toHaveLength(7);
    expect(done.body).not.toHaveProperty('next');

    const job = await startCrawl(version, { url: site('/'), scrapeOptions: { formats: ['markdown', 'links'] } });
    // Walk `next` from the first answer while the job runs, a few pages at a time.
    const seen: string[] = [];
    let target: string | undefined = `${job.url}?limit=4`;
    const deadline = Date.now() + TIMEOUT_MS;
    while (target !== undefined) {
      const answer = await call('GET', target);
      expect(answer.status).toBe(200);
      expectValid(`${version}/JobStatusResponse`, answer.body);
      expect(answer.body.data.length).toBeLessThanOrEqual(4);
      for (const page of answer.body.data) {
        expectValid(`${version}/Document`, page);
        expect(Object.keys(page).sort()).toEqual(['links', 'markdown', 'metadata']);
        expect(page.metadata.statusCode).toBe(200);
        seen.push(page.metadata.scrapeId);
      }
      if (answer.body.status === 'scraping') expect(answer.body.next).toEqual(expect.any(String));
      target = answer.body.next;
      if (answer.body.data.length === 0) await sleep(5);
      if (Date.now() > deadline) throw new Error(`next still led somewhere after ${TIMEOUT_MS / 1000} s`);
    }
    const final = await untilDone(version, job.url);
    expect(final.body.total).toBe(30);
    expect(final.body.data).toHaveLength(30);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(final.body.data.map((d: any) => d.metadata.scrapeId));
    const urls: string[] = final.body.data.map((d: any) => d.metadata.url);
    expect(urls[0]).toBe(site('/'));
    expect(urls).not.toContain(site('/private'));
    expect(urls).not.toContain(site('/broken'));
    expect(urls.every((u) => u.startsWith(site('/')))).toBe(true);

    // Odd skip/limit values are the defaults, never an error.
    const odd = await call('GET', `${job.url}?skip=-3&limit=abc`);
    expect(odd.status).toBe(200);
    expect(odd.body.data).toHaveLength(30);
    const tail = await call('GET', `${job.url}?skip=28&limit=10`);
    expect(tail.body.data).toHaveLength(2);
    expect(tail.body).not.toHaveProperty('next');
  });

  it('reports errors and robots.txt blocks on the errors endpoint', async () => {
    const job = await startCrawl(version, { url: site('/') });
    await untilDone(version, job.url);
    const errors = await call('GET', `${job.url}/errors`);
    expect(errors.status).toBe(200);
    expectValid(`${version}/JobErrorsResponse`, errors.body);
    expect(errors.body.errors).toEqual([expect.objectContaining({ url: site('/broken'), code: 'SCRAPE_SITE_ERROR' })]);
    expect(errors.body.robotsBlocked).toEqual([site('/private')]);

    const ignoring = await startCrawl(version, { url: site('/'), ignoreRobotsTxt: true, limit: 100 });
    const done = await untilDone(version, ignoring.url);
    expect(done.body.data.map((d: any) => d.metadata.url)).toContain(site('/private'));
    expect((await call('GET', `${ignoring.url}/errors`)).body.robotsBlocked).toEqual([]);
  });

  it('cancels a running job, keeps its pages, and refuses to cancel a completed one', async () => {
    const job = await startCrawl(version, { url: `${slowUrl}/site/` }, slowUrl);
    await until(
      'the crawl made a page',
      () => call('GET', job.url),
      (answer) => answer.body.completed > 0,
    );
    const cancelled = await call('DELETE', job.url);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ status: 'cancelled' });
    expectValid(`${version}/CancelResponse`, cancelled.body);
    const after = await call('GET', job.url);
    expectValid(`${version}/JobStatusResponse`, after.body);
    expect(after.body.status).toBe('cancelled');
    expect(after.body.completed).toBeGreaterThan(0);
    expect(after.body.completed).toBeLessThan(30);
    // Nothing more is made once cancelled: meanwhile, a crawl started after the cancel makes two pages on the same ticks.
    const control = await startCrawl(version, { url: `${slowUrl}/site/` }, slowUrl);
    await until(
      'the control crawl made two pages',
      () => call('GET', control.url),
      (answer) => answer.body.completed >= 2,
    );
    expect((await call('DELETE', control.url)).status).toBe(200);
    expect((await call('GET', job.url)).body.completed).toBe(after.body.completed);

    const small = await startCrawl(version, { url: 'https://example.com/one' });
    await untilDone(version, small.url);
    const refused = await call('DELETE', small.url);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'Crawl is already completed' });
    expectValid(`${version}/CancelErrorResponse`, refused.body);
  });

  it('lists a running crawl as active, and not once it has ended', async () => {
    const job = await startCrawl(version, { url: `${slowUrl}/site/docs/`, limit: 3 }, slowUrl);
    for (const path of ['active', 'ongoing']) {
      const answer = await call('GET', `${slowUrl}/${version}/crawl/${path}`);
      expect(answer.status).toBe(200);
      expectValid(`${version}/ActiveCrawlsResponse`, answer.body);
      const listed = answer.body.crawls.find((c: any) => c.id === job.id);
      expect(listed).toMatchObject({ teamId: 'reference', url: `${slowUrl}/site/docs/`, options: { limit: 3 } });
      expect(listed.options).toHaveProperty('scrapeOptions');
      expect(listed.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    await untilDone(version, job.url);
    const later = await call('GET', `${slowUrl}/${version}/crawl/active`);
    expect(later.body.crawls.map((c: any) => c.id)).not.toContain(job.id);
  });

  it('answers for a batch on the crawl endpoints and for a crawl on the batch ones, never for the other version', async () => {
    // The service runs one status controller and one errors controller for both paths (facts §8.1): the
    // v1 SDK's batchScrapeUrls polls GET /v1/crawl/{id} with the batch's id.
    const batch = await call('POST', `/${version}/batch/scrape`, {
      body: { urls: [site('/about'), site('/broken'), 'https://example.com/a'] },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const { id } = batch.body;
    const done = await untilDone(version, `/${version}/crawl/${id}`);
    expect(done.body).toMatchObject({ status: 'completed', completed: 2, total: 2 });
    expect(done.body.data.map((d: any) => d.metadata.sourceURL)).toEqual([site('/about'), 'https://example.com/a']);
    const paged = await call('GET', `/${version}/crawl/${id}?limit=1`);
    expect(paged.body.next, 'next keeps the path it was asked on').toBe(`${publicUrl}/${version}/crawl/${id}?skip=1&limit=1`);
    const errors = await call('GET', `/${version}/crawl/${id}/errors`);
    expect(errors.status).toBe(200);
    expectValid(`${version}/JobErrorsResponse`, errors.body);
    expect(errors.body.errors).toEqual([expect.objectContaining({ url: site('/broken'), code: 'SCRAPE_SITE_ERROR' })]);

    const crawl = await startCrawl(version, { url: site('/docs/'), limit: 3 });
    await untilDone(version, crawl.url);
    const asBatch = await call('GET', `/${version}/batch/scrape/${crawl.id}?limit=2`);
    expect(asBatch.status).toBe(200);
    expectValid(`${version}/JobStatusResponse`, asBatch.body);
    expect(asBatch.body).toMatchObject({
      status: 'completed',
      completed: 3,
      next: `${publicUrl}/${version}/batch/scrape/${crawl.id}?skip=2&limit=2`,
    });
    expect((await call('GET', `/${version}/batch/scrape/${crawl.id}/errors`)).status).toBe(200);

    const other = version === 'v1' ? 'v2' : 'v1';
    for (const path of [
      `/${other}/crawl/${id}`,
      `/${other}/batch/scrape/${id}`,
      `/${other}/crawl/${id}/errors`,
      `/${other}/crawl/${crawl.id}`,
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ success: false, error: 'Job not found' });
    }
  });

  it('cancels a running batch on the crawl endpoint and a running crawl on the batch endpoint', async () => {
    // One cancel controller for both paths (facts §8.1); the v1 SDK has cancelCrawl and no batch cancel.
    const urls = Array.from({ length: 20 }, (_, i) => `https://example.com/page-${i}`);
    const batch = await call('POST', `${slowUrl}/${version}/batch/scrape`, { body: { urls } });
    expect(batch.status).toBe(200);
    const cancelBatch = await call('DELETE', `${slowUrl}/${version}/crawl/${batch.body.id}`);
    expect(cancelBatch.status, JSON.stringify(cancelBatch.body)).toBe(200);
    expect(cancelBatch.body).toEqual({ status: 'cancelled' });
    expect((await call('GET', batch.body.url)).body.status).toBe('cancelled');

    const crawl = await startCrawl(version, { url: `${slowUrl}/site/` }, slowUrl);
    const cancelCrawl = await call('DELETE', `${slowUrl}/${version}/batch/scrape/${crawl.id}`);
    expect(cancelCrawl.status, JSON.stringify(cancelCrawl.body)).toBe(200);
    expect((await call('GET', crawl.url)).body.status).toBe('cancelled');
  });

  it('answers unknown ids, unknown routes and ids that are not UUIDs', async () => {
    const unknown = '0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e';
    for (const path of [`/${version}/crawl/${unknown}`, `/${version}/batch/scrape/${unknown}`, `/${version}/crawl/${unknown}/errors`]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ success: false, error: 'Job not found' });
    }
    const cancel = await call('DELETE', `/${version}/batch/scrape/${unknown}`);
    expect(cancel.status).toBe(404);
    expect(cancel.body).toEqual({ error: 'Job not found' });

    // Both versions' status reads since 2025-12-02 (the rest: test/serviceAnswers.test.ts).
    const notUuid = await call('GET', `/${version}/crawl/not-a-uuid`);
    expect(notUuid.status).toBe(400);
    expect(notUuid.body).toEqual({ success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' });

    const route = await call('GET', `/${version}/nothing-here`);
    expect(route.status).toBe(404);
    expect(route.body).toEqual({ success: false, error: 'Not found' });
  });

  it('delivers webhook events in order, validating, with metadata and headers', async () => {
    const receiver = await startReceiver();
    try {
      const webhook = { url: receiver.url, metadata: { project: 'docs' }, headers: { 'x-secret': 's3cret' } };
      const batch = await call('POST', `/${version}/batch/scrape`, { body: { urls: ['https://example.com/a', site('/about')], webhook } });
      expect(batch.status).toBe(200);
      await untilDone(version, batch.body.url);
      const crawl = await startCrawl(version, { url: site('/docs/'), limit: 3, webhook: receiver.url });
      await untilDone(version, crawl.url);

      await until(
        'the 9 webhook events delivered',
        async () => receiver.events.length,
        (delivered) => delivered >= 4 + 5,
      );
      for (const { body } of receiver.events) expectValid(`${version}/WebhookEvent`, body);

      const batchEvents = receiver.events.filter((e) => e.body.id === batch.body.id);
      expect(batchEvents.map((e) => e.body.type)).toEqual([
        'batch_scrape.started',
        'batch_scrape.page',
        'batch_scrape.page',
        'batch_scrape.completed',
      ]);
      for (const event of batchEvents) {
        expect(event.body.metadata).toEqual({ project: 'docs' });
        expect(event.headers['x-secret']).toBe('s3cret');
        expect(event.body.data).toHaveLength(event.body.type.endsWith('.page') ? 1 : 0);
      }
      expect(new Set(batchEvents.map((e) => e.body.webhookId)).size).toBe(4);

      const crawlEvents = receiver.events.filter((e) => e.body.id === crawl.id);
      expect(crawlEvents.map((e) => e.body.type)).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed']);
      expect(crawlEvents.every((e) => JSON.stringify(e.body.metadata) === '{}')).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a body over the size limit with 413', async () => {
    const body = JSON.stringify({ url: 'https://example.com', pad: 'x'.repeat(10 * 1024 * 1024) });
    const answer = await call('POST', `/${version}/crawl`, { rawBody: body });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ success: false, error: 'Request body is too large' });
  });
});

describe('reference server, beyond one version', () => {
  it('serves the demo site and its robots.txt without auth', async () => {
    const home = await call('GET', '/site/', { authorization: null });
    expect(home.status).toBe(200);
    expect(home.contentType).toMatch(/^text\/html/);
    expect(home.body).toContain(`href="${site('/docs/')}"`);
    const robots = await call('GET', '/robots.txt', { authorization: null });
    expect(robots.body).toContain('Disallow: /site/private');
    const broken = await fetch(site('/broken'), { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    expect(broken.status).toBe(302);
    expect(broken.headers.get('location')).toBe('/site/broken');
  });

  it('lists the running crawls of every version, each in the words of the version asked, and no batch', async () => {
    // Facts §8.6: the team's crawls (batch scrapes excluded), options in the calling version's vocabulary
    // plus scrapeOptions, which the service keeps v2-shaped.
    const v1 = await startCrawl(
      'v1',
      {
        url: `${slowUrl}/site/docs/`,
        limit: 3,
        ignoreSitemap: true,
        allowBackwardLinks: true,
        maxDepth: 5,
        scrapeOptions: { formats: ['markdown', 'screenshot@fullPage'] },
      },
      slowUrl,
    );
    const v2 = await startCrawl(
      'v2',
      {
        url: `${slowUrl}/site/blog/`,
        limit: 3,
        sitemap: 'skip',
        crawlEntireDomain: true,
        robotsUserAgent: 'crawlspec',
        scrapeOptions: { formats: [{ type: 'screenshot', fullPage: true }] },
      },
      slowUrl,
    );
    const batch = await call('POST', `${slowUrl}/v1/batch/scrape`, { body: { urls: ['https://example.com/a', 'https://example.com/b'] } });
    expect(batch.status).toBe(200);

    const listed = async (version: Version): Promise<Map<string, any>> => {
      const answer = await call('GET', `${slowUrl}/${version}/crawl/active`);
      expect(answer.status).toBe(200);
      expectValid(`${version}/ActiveCrawlsResponse`, answer.body);
      return new Map(answer.body.crawls.map((c: any) => [c.id, c]));
    };
    const [inV1, inV2] = [await listed('v1'), await listed('v2')];
    for (const [version, list] of [
      ['v1', inV1],
      ['v2', inV2],
    ] as const) {
      expect(list.has(batch.body.id), `${version} lists a batch`).toBe(false);
      expect(list.get(v1.id), `${version} lists the v1 crawl`).toMatchObject({ teamId: 'reference', url: `${slowUrl}/site/docs/` });
      expect(list.get(v2.id), `${version} lists the v2 crawl`).toMatchObject({ teamId: 'reference', url: `${slowUrl}/site/blog/` });
    }

    expect(inV1.get(v1.id).options).toMatchObject({ limit: 3, ignoreSitemap: true, allowBackwardLinks: true, maxDepth: 5 });
    const v2InV1 = inV1.get(v2.id).options;
    expect(v2InV1).toMatchObject({ limit: 3, ignoreSitemap: true, crawlEntireDomain: true, allowBackwardLinks: true });
    for (const key of ['sitemap', 'robotsUserAgent']) expect(v2InV1, `v1 words for a v2 crawl: ${key}`).not.toHaveProperty(key);
    expect(v2InV1.scrapeOptions.formats).toEqual([{ type: 'screenshot', fullPage: true }]);

    const v1InV2 = inV2.get(v1.id).options;
    expect(v1InV2).toMatchObject({ limit: 3, sitemap: 'skip', crawlEntireDomain: true });
    for (const key of ['ignoreSitemap', 'allowBackwardLinks', 'maxDepth'])
      expect(v1InV2, `v2 words for a v1 crawl: ${key}`).not.toHaveProperty(key);
    expect(v1InV2.scrapeOptions.formats).toEqual(['markdown', { type: 'screenshot', fullPage: true }]);
  });

  it('stops reading a body far past the limit (adapter) and answers 413', async () => {
    const small = createReferenceApp({ auth: 'none', publicUrl: () => 'http://127.0.0.1', maxBodyBytes: 1000 });
    const listening = await listen(small);
    try {
      const response = await fetch(`${listening.url}/v2/crawl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(3 * 1024 * 1024),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ success: false, error: 'Request body is too large' });
    } finally {
      await listening.close();
      small.close();
    }
  });

  it('answers expired jobs with 404 Job expired, and an unexpected exception with a 500', async () => {
    let clock = 1_000_000;
    const timed = createReferenceApp({ auth: 'none', publicUrl: () => 'http://127.0.0.1:1', jobTtlMs: 1000, now: () => clock });
    try {
      const started = await timed.handle({ method: 'POST', url: '/v2/crawl', headers: JSON_TYPE, body: '{"url":"https://example.com"}' });
      const { id } = JSON.parse(started.body) as { id: string };
      clock += 1000;
      const expired = await timed.handle({ method: 'GET', url: `/v2/crawl/${id}`, headers: {}, body: '' });
      expect(expired.status).toBe(404);
      expect(JSON.parse(expired.body)).toEqual({ success: false, error: 'Job expired' });
    } finally {
      timed.close();
    }

    const broken = createReferenceApp({
      auth: 'none',
      publicUrl: () => {
        throw new Error('boom');
      },
    });
    const answer = await broken.handle({ method: 'POST', url: '/v1/crawl', headers: JSON_TYPE, body: '{"url":"https://example.com"}' });
    broken.close();
    expect(answer.status).toBe(500);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ success: false, code: 'UNKNOWN_ERROR' });
    expect(body.error).toMatch(/^An unexpected error occurred\. Your exception ID is [0-9a-f-]{36}$/);
    expectValid('v1/ErrorResponse', body);
  });

  it('closes its keep-alive connections instead of waiting for them to end', async () => {
    const keeping = createReferenceApp({ auth: 'none', publicUrl: () => 'http://127.0.0.1' });
    // An idle connection kept ten minutes: a close() that waited for it would not end within the safety net.
    const listening = await listen(keeping, { keepAliveTimeoutMs: 600_000, idleTimeoutMs: 600_000 });
    const socket = connect(Number(new URL(listening.url).port), '127.0.0.1');
    try {
      socket.on('error', () => {}); // a reset is one way of being closed
      const closedByServer = new Promise((resolve) => socket.once('close', resolve));
      const answered = new Promise((resolve) => socket.once('data', resolve));
      socket.write('GET /v2/crawl/active HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await answered;
      let ceiling: NodeJS.Timeout | undefined;
      await Promise.race([
        listening.close(),
        new Promise((_, reject) => {
          ceiling = setTimeout(
            () => reject(new Error(`close() did not end within ${TIMEOUT_MS / 1000} s while a keep-alive connection was open`)),
            TIMEOUT_MS,
          );
        }),
      ]).finally(() => clearTimeout(ceiling));
      await closedByServer;
    } finally {
      socket.destroy();
      keeping.close();
    }
  });
});
