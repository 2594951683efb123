/**
 * The validating proxy (`crawlspec proxy`, scripts/proxy/): the official SDK's traffic through it to the reference
 * server and to a broken variant of it; what it reports (one problem per line, with its path, level and section),
 * what it forwards and what it answers itself (`--errors`), its bounds, and the token never in its output.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Violation } from '../scripts/proxy/exchangeChecks.js';
import type { ExchangeRecord } from '../scripts/proxy/exchanges.js';
import { LOGGED_PROBLEMS, logLine } from '../scripts/proxy/exchangeLog.js';
import { startProxy, type ProxyOptions, type RunningProxy } from '../scripts/proxy/proxy.js';
import { BROKEN_SERVERS } from './support/brokenServers.js';
import { builtCli } from './support/build.js';
import { startCaptureServer } from './support/captureServer.js';
import { kitTarget, type KitTarget } from './support/kitTarget.js';
import { ROOT } from './support/runCli.js';
import { untilEnded } from './support/untilEnded.js';
import { startServerProcess, type ServerProcess } from './support/serverProcess.js';

const TOKEN = 'proxy-test-token-0123456789';

interface Seen {
  readonly violation: Violation;
  readonly refused: boolean;
}

/** A proxy in front of `target`, collecting what it reports. */
async function proxyFor(
  target: string,
  extra: Partial<ProxyOptions> = {},
): Promise<{ proxy: RunningProxy; seen: Seen[]; notices: string[]; records: ExchangeRecord[] }> {
  const seen: Seen[] = [];
  const notices: string[] = [];
  const records: ExchangeRecord[] = [];
  const proxy = await startProxy({
    target,
    level: 'interface',
    errors: false,
    onViolation: (violation, refused) => seen.push({ violation, refused }),
    onExchange: (record) => records.push(record),
    onNotice: (line) => notices.push(line),
    ...extra,
  });
  return { proxy, seen, notices, records };
}

const post = (base: string, path: string, body: string) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });

/**
 * A request sent as written: node:http sends the request target and the Host header as given (fetch would
 * normalise the one and set the other).
 */
function rawRequest(
  base: string,
  target: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A loopback port nothing listens on (one the system gave, then let go). */
async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return port;
}

/** Until `check` holds: the proxy reports an answer after the client has it. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

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

describe('issue 41: where the proxy forwards, to whom it answers, what it writes', () => {
  let target: KitTarget;
  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN });
  });
  afterAll(() => target.close());
  const auth = { authorization: `Bearer ${TOKEN}` };

  it('finding 1: a request target that would leave the target (//host, /\\host, a full address, dot segments) is refused 400 and sent nowhere', async () => {
    const other = await startCaptureServer();
    const { proxy } = await proxyFor(target.url);
    const prefixed = await proxyFor(`${other.baseUrl}/api`);
    try {
      const before = target.log.length;
      const host = new URL(other.baseUrl).host;
      const refused = [
        [proxy.url, `//${host}/admin`],
        [proxy.url, `/\\${host}/x`],
        [proxy.url, `${other.baseUrl}/admin`],
        [prefixed.proxy.url, '/../admin'],
        [prefixed.proxy.url, '/v2/%2E%2e/%2e%2E/admin'],
        // A client whose base address ends in `/`: refused, not normalised (the path is never read as an authority).
        [proxy.url, '//v2/crawl'],
      ] as const;
      for (const [base, path] of refused) {
        const answer = await rawRequest(base, path, { headers: auth });
        expect(answer.status, path).toBe(400);
        expect(JSON.parse(answer.body), path).toEqual({
          success: false,
          error: expect.stringMatching(/^crawlspec proxy: the request target ".*" .*; expected a path on the target/),
        });
      }
      expect(other.requests).toEqual([]);
      expect(target.log.length).toBe(before);
      // A path on the target goes through, under the prefix.
      expect((await rawRequest(prefixed.proxy.url, '/v2/crawl/active', { headers: auth })).status).toBe(404);
      expect(other.requests.map((r) => r.path)).toEqual(['/api/v2/crawl/active']);
    } finally {
      await proxy.close();
      await prefixed.proxy.close();
      await other.close();
    }
  });

  it("finding 7: a Host that is not the proxy's own is answered 421 and not forwarded (DNS rebinding), starts included", async () => {
    const { proxy } = await proxyFor(target.url);
    try {
      const before = target.log.length;
      const body = JSON.stringify({ url: `${target.url}/site/`, limit: 1 });
      const headers = { ...auth, 'content-type': 'application/json', host: 'rebound.example' };
      for (const [method, path] of [
        ['POST', '/v2/crawl'],
        ['GET', '/v2/crawl/active'],
      ] as const) {
        const answer = await rawRequest(proxy.url, path, { method, headers, ...(method === 'POST' ? { body } : {}) });
        expect(answer.status).toBe(421);
        expect(JSON.parse(answer.body)).toEqual({
          success: false,
          error: `Misdirected request: this server does not answer to Host "rebound.example"; expected one of its own names, e.g. ${new URL(proxy.url).host}`,
        });
      }
      expect(target.log.length).toBe(before);
      // Its own names, on any port: localhost, the address it listens on.
      const local = await rawRequest(proxy.url, '/v2/crawl/active', { headers: { ...auth, host: `localhost:${new URL(proxy.url).port}` } });
      expect(local.status).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('finding 11: the token is redacted in everything it reports: a body key (at), the path, a notice', async () => {
    const { proxy, seen } = await proxyFor(target.url);
    const nowhere = await proxyFor(`http://127.0.0.1:${await closedPort()}`);
    try {
      await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, [TOKEN]: 1 }));
      expect(seen.map((s) => s.violation)).toEqual([expect.objectContaining({ side: 'request', at: expect.stringContaining('***') })]);
      await rawRequest(nowhere.proxy.url, `/v2/crawl/${TOKEN}`, { headers: auth });
      expect(nowhere.notices).toEqual([expect.stringMatching(/^GET \/v2\/crawl\/\*\*\*: the target did not answer/)]);
      for (const text of [JSON.stringify(seen), ...nowhere.notices]) expect(text).not.toContain(TOKEN);
    } finally {
      await proxy.close();
      await nowhere.proxy.close();
    }
  });
});

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

describe('crawlspec proxy, the command', () => {
  // The two commands as users run them: `crawlspec serve` in its own process, and the proxy in front of it.
  let target: ServerProcess;
  let scratch: string;
  beforeAll(async () => {
    target = await startServerProcess(TOKEN);
    scratch = await mkdtemp(join(tmpdir(), 'crawlspec-proxy-'));
  });
  afterAll(async () => {
    await target.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('in front of crawlspec serve: a valid crawl forwarded (200), an invalid one reported with its path; the token never written', async () => {
    const jsonl = join(scratch, 'problems.jsonl');
    const logged = join(scratch, 'exchanges.jsonl');
    const child = spawn(process.execPath, [builtCli(), 'proxy', '--target', target.url, '--json', jsonl, '--log', logged], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const url = await new Promise<string>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (found) resolve(found[1]!);
      }),
    );
    const valid = await post(url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, limit: 1 }));
    expect(valid.status).toBe(200);
    const { id } = (await valid.json()) as { id: string };
    const invalid = await post(
      url,
      '/v2/crawl',
      JSON.stringify({
        url: `${target.url}/site/`,
        scrapeOptions: { timeout: 300001 },
        webhook: { url: 'https://hooks.example.com/x', headers: { 'X-Key': TOKEN } },
      }),
    );
    expect(invalid.status).toBe(400);
    await (await fetch(`${url}/v2/crawl/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } })).text();
    await new Promise<void>((resolve) => {
      const wait = () => (stdout.includes('$.scrapeOptions.timeout') ? resolve() : setTimeout(wait, 25));
      wait();
    });
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
      '✗ request POST /v2/crawl: $.scrapeOptions.timeout: must be <= 300000, not 300001. Expected: Request timeout in milliseconds, at most 300000. The default applies only when `waitFor` is not sent. [interface §2.4]',
    ]);
    expect(lines.at(-1)).toBe(
      'crawlspec proxy: 3 exchange(s); 1 problem(s), 1 of interface level and 0 of service level (1 decide at interface level); 0 exchange(s) unchecked',
    );
    const log = await readFile(logged, 'utf8');
    expect(
      log
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { method: string; path: string; status: number; verdict: string; requestBody?: string }),
    ).toEqual([
      expect.objectContaining({ method: 'POST', path: '/v2/crawl', status: 200, verdict: 'passed' }),
      expect.objectContaining({
        method: 'POST',
        path: '/v2/crawl',
        status: 400,
        verdict: 'problems',
        requestBody: expect.stringContaining('"X-Key":"***"'),
      }),
      expect.objectContaining({ method: 'DELETE', path: `/v2/crawl/${id}`, verdict: 'passed' }),
    ]);
    const written = await readFile(jsonl, 'utf8');
    expect(
      written
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { at: string }),
    ).toEqual([expect.objectContaining({ at: '$.scrapeOptions.timeout' })]);
    for (const text of [stdout, stderr, written, log]) expect(text).not.toContain(TOKEN);
  }, 60_000);

  it('--json on a file that fails mid-run (/dev/full: no space): said once on stderr, the proxy goes on answering', async () => {
    const child = spawn(process.execPath, [builtCli(), 'proxy', '--target', target.url, '--json', '/dev/full'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const said = new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('\n')) resolve();
      }),
    );
    const url = await new Promise<string>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (found) resolve(found[1]!);
      }),
    );
    expect((await post(url, '/v2/crawl', JSON.stringify({ url: 5 }))).status).toBe(400);
    await said;
    expect((await post(url, '/v2/crawl', JSON.stringify({ url: 6 }))).status).toBe(400);
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    expect(stderr).toBe('crawlspec proxy: cannot write --json "/dev/full" (ENOSPC); the problems are printed here only from now on\n');
    expect(stdout.split('\n').filter((l) => l.startsWith('✗ request POST /v2/crawl: $.url'))).toHaveLength(2);
  }, 60_000);
});
