/**
 * The reference server beyond one version (scripts/server/): its demo site and robots.txt, what both versions share,
 * and closing in bounded time; split from test/referenceServer.test.ts (the servers and helpers:
 * test/support/referenceServers.ts).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createReferenceApp } from '../scripts/server/app.js';
import { listen } from '../scripts/server/http.js';
import {
  JSON_TYPE,
  TIMEOUT_MS,
  type Version,
  call,
  expectValid,
  publicUrl,
  server,
  site,
  slowUrl,
  startCrawl,
  useReferenceServers,
} from './support/referenceServers.js';

useReferenceServers();

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
