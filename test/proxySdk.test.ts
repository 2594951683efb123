/**
 * The validating proxy (`crawlspec proxy`, scripts/proxy/) with the official SDK's traffic through it: to the
 * reference server (nothing to report), an invalid crawl (reported with its path, level and section), and to a
 * broken variant of the server (each status answer's problem reported).
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from './support/brokenServers.js';
import { kitTarget, type KitTarget } from './support/kitTarget.js';
import { TOKEN, eventually, proxyFor } from './support/proxyRuns.js';

describe('the official SDK through the proxy', () => {
  let target: KitTarget;
  let broken: KitTarget;
  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN });
    broken = await kitTarget({ token: TOKEN, wrap: BROKEN_SERVERS.find((v) => v.name === 'status.completedAsString')!.wrap });
  });
  afterAll(async () => {
    await target.close();
    await broken.close();
  });

  it('to the reference server: a crawl started, read and cancelled; nothing to report', async () => {
    const { proxy, seen } = await proxyFor(target.url);
    try {
      const sdk = new Firecrawl({ apiKey: TOKEN, apiUrl: proxy.url, maxRetries: 1 });
      const started = await sdk.startCrawl(`${target.url}/site/`, { limit: 3 });
      expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
      const status = await sdk.getCrawlStatus(started.id, { autoPaginate: false });
      expect(['scraping', 'completed']).toContain(status.status);
      // The crawl may have ended by now (409, already completed): both answers are the spec's, and go through.
      const cancelled = await sdk.cancelCrawl(started.id).then(
        () => 'cancelled',
        (error: Error) => error.message,
      );
      expect(['cancelled', 'Crawl is already completed']).toContain(cancelled);
      expect(seen).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('an invalid crawl: forwarded, refused by the server, and reported with its path, level and section', async () => {
    const { proxy, seen } = await proxyFor(target.url);
    try {
      const sdk = new Firecrawl({ apiKey: TOKEN, apiUrl: proxy.url, maxRetries: 1 });
      await expect(sdk.startCrawl(`${target.url}/site/`, { scrapeOptions: { timeout: 300001 } })).rejects.toThrow();
      expect(seen.map((s) => s.violation)).toEqual([
        expect.objectContaining({
          side: 'request',
          method: 'POST',
          path: '/v2/crawl',
          at: '$.scrapeOptions.timeout',
          message: 'must be <= 300000, not 300001',
          level: 'interface',
          section: 'interface §2.4',
        }),
      ]);
      expect(seen[0]!.refused).toBe(false);
    } finally {
      await proxy.close();
    }
  });

  it("to a broken variant (completed as a string): each status answer's problem is reported, at $.completed", async () => {
    const { proxy, seen } = await proxyFor(broken.url);
    try {
      const sdk = new Firecrawl({ apiKey: TOKEN, apiUrl: proxy.url, maxRetries: 1 });
      const started = await sdk.startCrawl(`${broken.url}/site/`, { limit: 2 });
      await sdk.getCrawlStatus(started.id, { autoPaginate: false });
      await eventually(() => seen.length > 0);
      // Clean-up: the crawl may have ended already (409), which is no concern of this test.
      await sdk.cancelCrawl(started.id).catch(() => undefined);
      const found = seen.map((s) => s.violation);
      expect(found.length).toBeGreaterThan(0);
      for (const v of found) expect(v).toMatchObject({ side: 'answer', method: 'GET', status: 200, at: '$.completed' });
      expect(found[0]!.path).toBe(`/v2/crawl/${started.id}`);
      expect(found[0]!.message).toMatch(/^must be integer/);
    } finally {
      await proxy.close();
    }
  });
});
