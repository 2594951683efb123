/**
 * Issue 40, the validating proxy judges each answer against its request: a refused valid request, a level-aware
 * verdict, an exchange still open when the proxy stops (named unchecked and counted), and a bounded --log line.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Violation } from '../scripts/proxy/exchangeChecks.js';
import { LOGGED_PROBLEMS, logLine } from '../scripts/proxy/exchangeLog.js';
import { kitTarget, type KitTarget } from './support/kitTarget.js';
import { TOKEN, eventually, post, proxyFor } from './support/proxyRuns.js';

describe('issue 40: each answer judged against its request', () => {
  const JOB = '0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e';
  const json = { 'content-type': 'application/json; charset=utf-8' };
  let broken: KitTarget;
  beforeAll(async () => {
    // A target that fails a valid crawl (500), refuses a valid `images` format (400), and has no errors endpoint (an HTML 404).
    broken = await kitTarget({
      token: TOKEN,
      deviate: async (request, next) => {
        const path = request.url.split('?', 1)[0]!;
        if (request.method === 'POST' && path === '/v2/crawl')
          return { status: 500, headers: json, body: JSON.stringify({ success: false, error: 'Internal error' }) };
        if (request.method === 'POST' && path === '/v2/batch/scrape' && request.body.includes('"images"'))
          return { status: 400, headers: json, body: JSON.stringify({ success: false, error: 'Unsupported format: images' }) };
        if (request.method === 'GET' && path.endsWith('/errors'))
          return { status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body>Cannot GET</body></html>' };
        return next(request);
      },
    });
  });
  afterAll(() => broken.close());

  it('a 500 to a valid crawl, a 400 to a valid images format, an HTML 404 on the errors endpoint: all three reported; a clean exchange nothing', async () => {
    const { proxy, seen, records } = await proxyFor(broken.url);
    const crawl = await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${broken.url}/site/` }));
    expect(crawl.status).toBe(500);
    const images = await post(proxy.url, '/v2/batch/scrape', JSON.stringify({ urls: [`${broken.url}/site/`], formats: ['images'] }));
    expect(images.status).toBe(400);
    const errors = await fetch(`${proxy.url}/v2/crawl/${JOB}/errors`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([errors.status, await errors.text()]).toEqual([404, '<html><body>Cannot GET</body></html>']);
    const active = await fetch(`${proxy.url}/v2/crawl/active`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(active.status).toBe(200);
    await eventually(() => records.length === 4);
    expect(seen.map((s) => s.violation)).toEqual([
      {
        side: 'answer',
        method: 'POST',
        path: '/v2/crawl',
        status: 500,
        at: 'status',
        message: '500: the implementation failed to answer POST /v2/crawl',
        expected: 'an answer that is not a server error (200 or 400 or 401 or 402 or 403 or 409 or 413 or 429)',
        level: 'interface',
        section: 'HTTP (RFC 9110 §15.6: a 5xx says the server failed)',
      },
      expect.objectContaining({
        method: 'POST',
        path: '/v2/batch/scrape',
        status: 400,
        at: 'status',
        message: '400: a valid request refused (its body breaks no rule of the spec)',
        level: 'interface',
        section: 'interface §4',
      }),
      expect.objectContaining({
        method: 'GET',
        path: `/v2/crawl/${JOB}/errors`,
        status: 404,
        message: 'not implemented: GET /v2/crawl/{id}/errors answered 404, not JSON',
        level: 'service',
        section: 'service',
      }),
    ]);
    expect(records.map((r) => [r.method, r.path, r.verdict])).toEqual([
      ['POST', '/v2/crawl', 'problems'],
      ['POST', '/v2/batch/scrape', 'problems'],
      ['GET', `/v2/crawl/${JOB}/errors`, 'problems'],
      ['GET', '/v2/crawl/active', 'passed'],
    ]);
    expect(await proxy.close()).toEqual({ exchanges: 4, problems: { interface: 2, service: 1 }, unchecked: 0 });
  });

  it('at service level a refused valid request is of service level; a body that breaks a rule of any level is not judged valid', async () => {
    const { proxy, seen } = await proxyFor(broken.url, { level: 'service' });
    try {
      await post(proxy.url, '/v2/batch/scrape', JSON.stringify({ urls: [`${broken.url}/site/`], formats: ['images'] }));
      await post(proxy.url, '/v2/batch/scrape', JSON.stringify({ urls: [`${broken.url}/site/`], formats: ['images'], delay: -1 }));
      await eventually(() => seen.length >= 2);
      expect(seen.map((s) => [s.violation.side, s.violation.at, s.violation.level])).toEqual([
        ['answer', 'status', 'service'],
        ['request', '$.delay', expect.any(String)],
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('an exchange still open when the proxy stops is named unchecked, and counted', async () => {
    let asked = false;
    // A target that takes the request and never answers.
    const silent: Server = createServer(() => (asked = true));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { proxy, records } = await proxyFor(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    const hanging = fetch(`${proxy.url}/v2/crawl/${JOB}`).catch((error: Error) => error);
    await eventually(() => asked);
    expect(await proxy.close()).toEqual({ exchanges: 1, problems: { interface: 0, service: 0 }, unchecked: 1 });
    expect(records).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: `/v2/crawl/${JOB}`,
        verdict: 'unchecked',
        why: 'the proxy stopped before the exchange ended',
      }),
    ]);
    expect(await hanging).toBeInstanceOf(Error);
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('a --log line is bounded: bodies cut as the kit cuts them, ten problems at most, the rest counted', () => {
    const problem: Violation = {
      side: 'answer',
      method: 'GET',
      path: '/v2/crawl/x',
      status: 200,
      at: '$.data[0]',
      message: 'm'.repeat(5000),
      expected: 'e',
      level: 'service',
      section: 'service',
    };
    const line = logLine(
      {
        startedAt: new Date(0),
        durationMs: 0,
        method: 'GET',
        path: `/v2/crawl/${'p'.repeat(5000)}`,
        status: 200,
        verdict: 'problems',
        problems: Array(50).fill(problem),
        refused: false,
        requestBody: 'b'.repeat(10_000),
        answerBody: 'a'.repeat(10_000),
      },
      'interface',
    );
    expect(line.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(line) as {
      problems: { message: string; decides: boolean }[];
      moreProblems: number;
      requestBody: string;
      answerBody: string;
      path: string;
    };
    expect(parsed.problems).toHaveLength(LOGGED_PROBLEMS);
    expect(parsed.moreProblems).toBe(40);
    expect(parsed.problems[0]!.decides).toBe(false);
    expect(Buffer.byteLength(parsed.requestBody)).toBeLessThanOrEqual(600);
    expect(parsed.answerBody).toMatch(/\.\.\. \d+ bytes more$/);
    expect(Buffer.byteLength(parsed.path)).toBeLessThanOrEqual(1000);
    expect(Buffer.byteLength(line)).toBeLessThan(50_000);
  });
});
