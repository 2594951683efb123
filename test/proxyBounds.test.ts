/**
 * What the validating proxy forwards, answers itself (`--errors`: 400 with the service error body) and bounds: a
 * body over the bound (413), an unreachable target (502), what it holds at once (503 past the budget), and an
 * answer it does not understand (passed through untouched, counted unchecked).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitTarget, type KitTarget } from './support/kitTarget.js';
import { untilEnded } from './support/untilEnded.js';
import { TOKEN, closedPort, eventually, post, proxyFor } from './support/proxyRuns.js';

describe('what the proxy forwards, answers itself, and bounds', () => {
  let target: KitTarget;
  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN });
  });
  afterAll(() => target.close());

  it('--errors: an invalid request is answered 400 with the service error body and never reaches the target', async () => {
    const { proxy, seen } = await proxyFor(target.url, { errors: true });
    try {
      const before = target.log.length;
      const answer = await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, scrapeOptions: { timeout: 300001 } }));
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        success: false,
        code: 'BAD_REQUEST',
        error: 'Bad Request',
        details: [{ code: 'too_big', message: 'must be <= 300000, not 300001', path: ['scrapeOptions', 'timeout'] }],
      });
      expect(target.log.length).toBe(before);
      expect(seen.map((s) => s.refused)).toEqual([true]);
      // A rule of the service alone decides nothing at interface level: forwarded.
      const delay = await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, delay: 61 }));
      expect(delay.status).toBe(400); // the reference server refuses it, as the service does
      expect(target.log.length).toBe(before + 1);
      expect(seen.at(-1)).toMatchObject({ refused: false, violation: { level: 'service', at: '$.delay' } });
      // A start without a body is one problem, of the interface's (§4: a JSON body).
      const empty = await fetch(`${proxy.url}/v2/crawl`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(empty.status).toBe(400);
      expect(seen.at(-1)).toMatchObject({
        refused: true,
        violation: { side: 'request', at: '$', level: 'interface', section: 'interface §4' },
      });
    } finally {
      await proxy.close();
    }
  });

  it('a body over the bound is answered 413 and not forwarded; an unreachable target is a 502 and a notice', async () => {
    const { proxy, notices } = await proxyFor(target.url, { maxBodyBytes: 1024 });
    try {
      const before = target.log.length;
      const big = await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, prompt: 'x'.repeat(5000) }));
      expect(big.status).toBe(413);
      expect(await big.json()).toMatchObject({ success: false });
      expect(target.log.length).toBe(before);
    } finally {
      await proxy.close();
    }
    const nowhere = await proxyFor(`http://127.0.0.1:${await closedPort()}`);
    try {
      const answer = await post(nowhere.proxy.url, '/v2/crawl', '{}');
      expect(answer.status).toBe(502);
      expect(await answer.json()).toMatchObject({
        success: false,
        error: expect.stringMatching(/^crawlspec proxy: the target did not answer: /),
      });
      expect(nowhere.notices).toEqual([expect.stringMatching(/^POST \/v2\/crawl: the target did not answer \(.*\); answered 502$/)]);
    } finally {
      await nowhere.proxy.close();
    }
  });

  it('what it holds at once is bounded: past the budget a request is answered 503, an answer passes through unchecked', async () => {
    const { proxy, seen, records } = await proxyFor(target.url, { maxHeldBytes: 300 });
    try {
      const before = target.log.length;
      const busy = await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, prompt: 'x'.repeat(400) }));
      expect(busy.status).toBe(503);
      expect(await busy.json()).toMatchObject({ success: false });
      expect(target.log.length).toBe(before);
      // Within the budget the body is checked and forwarded; its answer (the status page below) is over it.
      const started = await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, limit: 5 }));
      expect(started.status).toBe(200);
      const { id } = (await started.json()) as { id: string };
      // Read straight from the target until the crawl has ended and its pages make a status answer of some KB.
      const headers = { authorization: `Bearer ${TOKEN}` };
      const read = async () => (await fetch(`${target.url}/v2/crawl/${id}`, { headers })).json() as Promise<{ status: string }>;
      await untilEnded(read, id, { timeoutMs: 60_000 });
      const status = await fetch(`${proxy.url}/v2/crawl/${id}`, { headers });
      expect(status.status).toBe(200);
      expect((await status.text()).length).toBeGreaterThan(300);
      await eventually(() => records.length === 3);
      expect(records.map((r) => [r.status, r.method, r.verdict, r.why])).toEqual([
        [503, 'POST', 'unchecked', 'refused by the proxy: its held-bytes bound spent'],
        [200, 'POST', 'passed', undefined],
        [200, 'GET', 'unchecked', 'the proxy held too much at once for checking (its held-bytes bound)'],
      ]);
      expect(proxy.totals()).toEqual({ exchanges: 3, problems: { interface: 0, service: 0 }, unchecked: 2 });
      expect(seen).toEqual([]);
      await fetch(`${proxy.url}/v2/crawl/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } });
    } finally {
      await proxy.close();
    }
  });

  it('an answer it does not understand passes through untouched and is counted unchecked', async () => {
    const stream: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: one\n\ndata: two\n\n');
    });
    await new Promise<void>((resolve) => stream.listen(0, '127.0.0.1', resolve));
    const { proxy, seen, records } = await proxyFor(`http://127.0.0.1:${(stream.address() as AddressInfo).port}`);
    try {
      const answer = await fetch(`${proxy.url}/v2/crawl/0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e`);
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      expect(await answer.text()).toBe('data: one\n\ndata: two\n\n');
      expect(records).toEqual([
        expect.objectContaining({
          method: 'GET',
          path: '/v2/crawl/0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e',
          status: 200,
          verdict: 'unchecked',
          why: 'its answer is not JSON (Content-Type: "text/event-stream")',
        }),
      ]);
      expect(seen).toEqual([]);
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => stream.close(() => resolve()));
    }
  });
});
