/**
 * The reference server (scripts/server/), over HTTP with fetch, for v1 and v2: start answers, auth, malformed
 * and invalid bodies, the batch invalidURLs rule, job progress and pagination, cancel, errors, active crawls,
 * not-found ids, webhooks, body size, and closing in bounded time. Every answer and event is validated with
 * the package's own validators.
 */
import { describe, expect, it } from 'vitest';
import { expectedInvalidUrls, partitionBatch } from '../schemas/batchPartition.js';
import { MALFORMED_JSON_BODY } from '../schemas/errorEnvelope.js';
import {
  TIMEOUT_MS,
  VERSIONS,
  call,
  expectValid,
  publicUrl,
  server,
  site,
  sleep,
  slowUrl,
  startCrawl,
  startReceiver,
  until,
  untilDone,
  useReferenceServers,
} from './support/referenceServers.js';

useReferenceServers();

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
