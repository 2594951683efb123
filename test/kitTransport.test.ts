/**
 * Lost connections (scripts/contract/engine/transport.ts): a request whose connection is lost before an answer is
 * never a failure. Against the reference server behind a proxy that drops one start connection in nine (the
 * job started, the answer never relayed), the run is conformant or incomplete, and no failure says "no
 * answer": every loss is counted, and sent again. A lost crawl start's job is found in the active list and
 * cancelled before the start is sent again; a lost batch start's job cannot be found, and the report says one
 * may exist. A request lost twice leaves its check inconclusive (transport), never failed. An answer that
 * comes while the kit is still sending is read and used, not taken for a loss.
 */
import { createServer as createNetServer } from 'node:net';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { exitCode, formatText, runContract, type ContractReport } from '../scripts/contract/index.js';
import { ConnectionLost, HttpClient } from '../scripts/contract/wire/http.js';
import { RequestBudget } from '../scripts/contract/wire/budget.js';
import { droppingProxy, type ProxyEntry } from './support/droppingProxy.js';
import { kitTarget } from './support/kitTarget.js';

const TOKEN = 'transport-test-token';

/** Every failure and difference of a report, as text. */
const entries = (report: ContractReport) =>
  report.checks.flatMap((c) => [...c.failures, ...c.differences].map((f) => `${c.name}: ${f.message}`));

describe('a proxy that drops every ninth start connection (after the target started its job)', () => {
  it('exit 0 or 3, no failure says "no answer", every loss counted and sent again', async () => {
    const server = await kitTarget({ token: TOKEN });
    const proxy = await droppingProxy(server.url, ({ n }) => n % 9 === 0);
    try {
      const only = [
        'v1.crawl.start.valid',
        'v1.batch.start.valid',
        'v2.crawl.start.valid',
        'v2.batch.start.valid',
        'v2.crawl.start.invalid.wrongType',
      ];
      const report = await runContract(server.options({ baseUrl: proxy.url, only, runs: 6 }));
      const dropped = proxy.log.filter((e) => e.dropped);
      expect(dropped.length, 'the run sends enough starts for the proxy to drop some').toBeGreaterThanOrEqual(3);
      expect([0, 3], formatText(report)).toContain(exitCode(report));
      expect(entries(report).filter((e) => /no answer|connection lost|other side closed|UND_ERR/i.test(e))).toEqual([]);
      expect(report.transport.lost).toBe(dropped.length);
      // Each loss in a check is sent again; a start lost twice (the resend the ninth too) leaves its check inconclusive.
      expect(report.transport.retried).toBeGreaterThanOrEqual(1);
      const lostTwice = report.checks.filter((c) => c.status === 'inconclusive' && /^transport: /.test(c.detail ?? ''));
      expect(lostTwice.length).toBeLessThanOrEqual(report.transport.inconclusive);
      expect(formatText(report)).toContain(
        `transport: ${dropped.length} connection${dropped.length === 1 ? '' : 's'} lost before an answer`,
      );
      // The batches the lost starts started cannot be found: the jobs line says they may exist.
      const lostBatches = report.jobs.mayHaveStarted?.filter((m) => / batch of .*no list of batch jobs/.test(m)) ?? [];
      expect(lostBatches.length).toBeLessThanOrEqual(dropped.filter((e) => e.path.endsWith('/batch/scrape')).length);
      if (lostBatches.length > 0)
        expect(formatText(report)).toMatch(/; \d+ lost starts? may have started (a job|jobs) the kit could not find to cancel: /);
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 120_000);
});

/**
 * A target whose crawls run until they are cancelled: the active list shows every crawl not cancelled, the
 * status answers completed with one page (so that nothing waits on them), a cancel answers 200. A batch is
 * started and cancelled the same way. Enough of the interface for the start checks and the kit's preflight.
 */
async function endlessCrawls(): Promise<{ url: string; running: Map<string, string>; close(): Promise<void> }> {
  const running = new Map<string, string>();
  let base = '';
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '/';
      const start = /^\/(v[12])\/(crawl|batch\/scrape)$/.exec(path);
      if (req.method === 'POST' && start) {
        const id = randomUUID();
        const body = JSON.parse(text) as { url?: string; urls?: string[] };
        running.set(id, body.url ?? body.urls?.[0] ?? '');
        return json(res, 200, { success: true, id, url: `${base}/${start[1]}/${start[2]}/${id}` });
      }
      if (req.method === 'GET' && /^\/v[12]\/crawl\/active$/.test(path))
        return json(res, 200, { success: true, crawls: [...running].map(([id, url]) => ({ id, teamId: 'team', url, options: {} })) });
      const job = /^\/v[12]\/(?:crawl|batch\/scrape)\/([^/?]+)/.exec(path);
      if (req.method === 'DELETE' && job) {
        running.delete(job[1]!);
        return json(res, 200, { status: 'cancelled' });
      }
      if (req.method === 'GET' && job)
        return json(res, 200, {
          success: true,
          status: 'completed',
          completed: 1,
          total: 1,
          creditsUsed: 1,
          expiresAt: new Date().toISOString(),
          data: [{ markdown: 'a page', metadata: { sourceURL: running.get(job[1]!) ?? '', statusCode: 200 } }],
        });
      json(res, 404, { success: false, error: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url: base, running, close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())) };
}

/** The options of a run of `only` against `url` (a target without auth, its jobs pointing at example.com). */
const against = (url: string, only: string[]) => ({
  baseUrl: url,
  token: undefined,
  versions: ['v2' as const],
  seed: 1,
  runs: 1,
  concurrency: 1,
  only,
  behaviour: false,
});

/** The first start whose body has `key`: a body of the fieldAlone check, which the kit's preflight never sends. */
const firstWith = (key: string) => {
  let done = false;
  return ({ body }: { body: string }) => !done && key in (JSON.parse(body) as object) && (done = true);
};

const indexOf = (log: readonly ProxyEntry[], test: (e: ProxyEntry) => boolean) => log.findIndex(test);

describe('a lost start', () => {
  it('a crawl: the job it started is found in the active list and cancelled before the start is sent again', async () => {
    const target = await endlessCrawls();
    const proxy = await droppingProxy(target.url, firstWith('maxDiscoveryDepth'));
    try {
      const report = await runContract(against(proxy.url, ['v2.crawl.start.fieldAlone']));
      const lost = proxy.log.find((e) => e.dropped)!;
      expect(lost, 'the proxy dropped a start').toBeDefined();
      const lostId = (JSON.parse(lost.answer) as { id: string }).id;
      const at = proxy.log.indexOf(lost);
      const listed = indexOf(proxy.log, (e) => e.method === 'GET' && e.path === '/v2/crawl/active');
      const cancelled = indexOf(proxy.log, (e) => e.method === 'DELETE' && e.path === `/v2/crawl/${lostId}`);
      const resent = proxy.log.findIndex((e, i) => i > at && e.method === 'POST' && e.body === lost.body);
      expect(listed).toBeGreaterThan(at);
      expect(cancelled).toBeGreaterThan(listed);
      expect(resent).toBeGreaterThan(cancelled);
      expect(target.running.has(lostId)).toBe(false);
      expect(report.transport).toEqual({ lost: 1, retried: 1, inconclusive: 0 });
      expect(report.jobs.mayHaveStarted).toBeUndefined();
      expect(report.checks.find((c) => c.name === 'v2.crawl.start.fieldAlone')?.status, formatText(report)).toBe('pass');
      // The job found counts among the jobs started and cancelled.
      expect(report.jobs.notCancelled).toEqual([]);
      expect(report.jobs.cancelled).toBe(report.jobs.started);
    } finally {
      await proxy.close();
      await target.close();
    }
  }, 60_000);

  it('a batch: there is no list to find its job in, so the jobs line says one may have been started', async () => {
    const target = await endlessCrawls();
    const proxy = await droppingProxy(target.url, firstWith('maxConcurrency'));
    try {
      const report = await runContract(against(proxy.url, ['v2.batch.start.fieldAlone']));
      expect(proxy.log.filter((e) => e.dropped).length).toBe(1);
      expect(report.transport).toEqual({ lost: 1, retried: 1, inconclusive: 0 });
      expect(report.jobs.mayHaveStarted).toEqual(['v2 batch of v2.batch.start.fieldAlone (there is no list of batch jobs to find it in)']);
      expect(formatText(report)).toMatch(
        /jobs: .*; 1 lost start may have started a job the kit could not find to cancel: v2 batch of v2\.batch\.start\.fieldAlone/,
      );
    } finally {
      await proxy.close();
      await target.close();
    }
  }, 60_000);

  it('lost twice: the check is inconclusive (transport), not failed, and counted', async () => {
    const target = await endlessCrawls();
    // The start with maxDiscoveryDepth and the same start sent again are both dropped.
    let dropped = 0;
    const proxy = await droppingProxy(target.url, ({ body }) => 'maxDiscoveryDepth' in (JSON.parse(body) as object) && (dropped += 1) <= 2);
    try {
      const report = await runContract(against(proxy.url, ['v2.crawl.start.fieldAlone']));
      const check = report.checks.find((c) => c.name === 'v2.crawl.start.fieldAlone')!;
      expect(check.status, formatText(report)).toBe('inconclusive');
      expect(check.failures).toEqual([]);
      expect(check.detail).toMatch(
        /^transport: the connection of POST http:\/\/127\.0\.0\.1:\d+\/v2\/crawl was lost twice before an answer \(.*socket hang up.*ECONNRESET.*\); nothing came back to judge$/,
      );
      expect(report.transport).toEqual({ lost: 2, retried: 1, inconclusive: 1 });
      expect(exitCode(report)).toBe(3);
      // Both jobs the lost starts started were found and cancelled.
      expect(target.running.size).toBe(0);
    } finally {
      await proxy.close();
      await target.close();
    }
  }, 60_000);
});

describe('the reserve', () => {
  it('under --max-requests with nothing left over for a resend: the lost start leaves its check inconclusive, saying why', async () => {
    const target = await endlessCrawls();
    try {
      // What the run needs, from a run that loses nothing (its budget is exactly that).
      const plain = await runContract(against(target.url, ['v2.crawl.start.fieldAlone']));
      expect(plain.transport.lost).toBe(0);
      const proxy = await droppingProxy(target.url, firstWith('maxDiscoveryDepth'));
      try {
        const report = await runContract({ ...against(proxy.url, ['v2.crawl.start.fieldAlone']), maxRequests: plain.maxRequests });
        const check = report.checks.find((c) => c.name === 'v2.crawl.start.fieldAlone')!;
        expect(check.status, formatText(report)).toBe('inconclusive');
        expect(check.detail).toMatch(
          /^transport: the connection of POST \S+ was lost \(.*\) and the budget \(--max-requests\) leaves no room to send it again; /,
        );
        expect(report.transport).toEqual({ lost: 1, retried: 0, inconclusive: 1 });
        expect(report.maxRequests).toBe(plain.maxRequests);
        expect(report.requests).toBeLessThanOrEqual(plain.maxRequests);
        // Without room to look for it, the crawl the lost start started is named as one that may exist.
        expect(report.jobs.mayHaveStarted).toEqual([
          'v2 crawl of v2.crawl.start.fieldAlone (the budget (--max-requests) leaves no room to look for it)',
        ]);
      } finally {
        await proxy.close();
      }
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('an answer that comes while the kit is still sending', () => {
  it('is read and used, whether the server then closes by FIN, destroy() or RST', async () => {
    for (const close of ['end', 'destroy', 'reset'] as const) {
      // A server that answers 413 as soon as it has the head, without reading the body, and closes.
      const server = createNetServer((socket) => {
        let head = '';
        socket.on('error', () => {});
        socket.on('data', (chunk) => {
          if (head.includes('\r\n\r\n')) return;
          head += chunk.toString('latin1');
          if (!head.includes('\r\n\r\n')) return;
          const body = '{"success":false,"error":"Payload too large"}';
          const answer = `HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
          if (close === 'end') socket.end(answer);
          else socket.write(answer, () => (close === 'destroy' ? socket.destroy() : socket.resetAndDestroy()));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v2/crawl`;
      try {
        const client = new HttpClient({ token: TOKEN, timeoutMs: 10_000, concurrency: 1, maxResponseBytes: 1 << 20 });
        const exchange = await client.send({ method: 'POST', url, body: { raw: 'x'.repeat(8 << 20) } }, new RequestBudget(1));
        expect(exchange.status, close).toBe(413);
        expect(exchange.json, close).toEqual({ success: false, error: 'Payload too large' });
        expect(client.lost).toBe(0);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    }
  }, 60_000);

  it('a connection closed before any answer is a ConnectionLost, counted, not a timeout', async () => {
    const server = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new HttpClient({ token: TOKEN, timeoutMs: 10_000, concurrency: 1, maxResponseBytes: 1 << 20 });
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v2/crawl/active`;
      await expect(client.send({ method: 'GET', url }, new RequestBudget(1))).rejects.toBeInstanceOf(ConnectionLost);
      expect(client.lost).toBe(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a compressed answer', () => {
  it('is decoded (gzip, deflate, br) and read within --max-response-bytes of its decoded text; a coding the kit does not know is read as it came', async () => {
    const text = JSON.stringify({ success: true, id: 'x'.repeat(2000) });
    const codings: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync, zstd: (b) => b };
    const server = createServer((request, response) => {
      request.resume();
      const coding = request.url!.slice(1);
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(codings[coding]!(Buffer.from(text)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const coding of Object.keys(codings)) {
        const client = new HttpClient({ token: TOKEN, timeoutMs: 10_000, concurrency: 1, maxResponseBytes: 1 << 20 });
        const exchange = await client.send({ method: 'GET', url: `${url}/${coding}` }, new RequestBudget(1));
        expect(exchange.text, coding).toBe(text);
        client.close();
      }
      // The bound is on the decoded text: 2 KB compressed to a few dozen bytes is still too long for 1000.
      const small = new HttpClient({ token: TOKEN, timeoutMs: 10_000, concurrency: 1, maxResponseBytes: 1000 });
      await expect(small.send({ method: 'GET', url: `${url}/gzip` }, new RequestBudget(1))).rejects.toThrow(/longer than 1000 bytes/);
      small.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
