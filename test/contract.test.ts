/**
 * The contract kit (scripts/contract/) against the reference server (scripts/server/), in process on
 * 127.0.0.1: every check passes against it, every started job is cancelled, the request cap holds, a seed
 * reproduces its requests, `--no-auth` skips the auth checks, an unreachable target is reported as such,
 * a deviating server is caught (with a shrunk, runnable request), and the JUnit output is well formed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceApp, type AppRequest, type AppResponse, type ReferenceApp } from '../scripts/server/app.js';
import { listen } from '../scripts/server/http.js';
import { retryAfterMs } from '../scripts/contract/http.js';
import { escapeXml, type CheckResult, type ContractReport } from '../scripts/contract/report.js';
import { checkNames, exitCode, formatJunit, formatText, runContract, type ContractOptions } from '../scripts/contract/run.js';
import { toCurl } from '../scripts/contract/curl.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';

const TOKEN = 'contract-test-secret-token';
const SEED = 42;

interface Logged {
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly authorization: string | undefined;
  readonly status: number;
  readonly answer: string;
}

type Handler = (request: AppRequest, next: (request: AppRequest) => Promise<AppResponse>) => Promise<AppResponse>;

/** The reference server on a free port, behind a wrapper that records every request (and may deviate). */
async function serve(auth: { token: string } | 'none' = { token: TOKEN }, deviate?: Handler) {
  let base = '';
  const app = createReferenceApp({ auth, publicUrl: () => base, pageIntervalMs: 50 });
  const log: Logged[] = [];
  const next = (request: AppRequest) => app.handle(request);
  const recording: ReferenceApp = {
    ...(app.maxBodyBytes === undefined ? {} : { maxBodyBytes: app.maxBodyBytes }),
    async handle(request) {
      const answer = await (deviate ? deviate(request, next) : next(request));
      log.push({
        method: request.method,
        url: request.url,
        body: request.body,
        authorization: request.headers['authorization'],
        status: answer.status,
        answer: answer.body,
      });
      return answer;
    },
    close: () => app.close(),
  };
  const server = await listen(recording, { host: '127.0.0.1', port: 0 });
  base = server.url;
  return {
    url: server.url,
    log,
    async close() {
      await server.close();
      app.close();
    },
  };
}

const options = (baseUrl: string, extra: Partial<ContractOptions> = {}): ContractOptions => ({
  baseUrl,
  token: TOKEN,
  versions: ['v1', 'v2'],
  seed: SEED,
  runs: 5,
  maxRequests: 5000,
  concurrency: 2,
  siteUrl: 'https://example.com',
  ...extra,
});

const START = /^\/v[12]\/(crawl|batch\/scrape)$/;
const JOB = /^\/v[12]\/(?:crawl|batch\/scrape)\/([^/?]+)$/;

/** Ids of the jobs the server started (200 answers to a start), and ids the kit sent a DELETE for. */
function startedAndCancelled(log: readonly Logged[]) {
  const started = log
    .filter((e) => e.method === 'POST' && START.test(e.url) && e.status === 200)
    .map((e) => (JSON.parse(e.answer) as { id: string }).id);
  const cancelled = log.filter((e) => e.method === 'DELETE').map((e) => JOB.exec(e.url)?.[1]);
  return { started, cancelled: new Set(cancelled) };
}

const byName = (report: ContractReport) => new Map(report.checks.map((c) => [c.name, c]));
const statuses = (report: ContractReport) => Object.fromEntries(report.checks.map((c) => [c.name, c.status]));
const failing = (report: ContractReport): CheckResult[] => report.checks.filter((c) => c.status === 'fail');

describe('against the reference server, both versions', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let report: ContractReport;

  beforeAll(async () => {
    server = await serve();
    report = await runContract(options(server.url));
  });
  afterAll(() => server.close());

  it('every check passes', () => {
    expect(failing(report), formatText(report)).toEqual([]);
    expect(
      Object.values(statuses(report)).every((s) => s === 'pass'),
      formatText(report),
    ).toBe(true);
    expect(exitCode(report)).toBe(0);
    expect(report.unreachable).toBe(false);
  });

  it('reports every check, by its stable name, in order', () => {
    expect(report.checks.map((c) => c.name)).toEqual(checkNames(['v1', 'v2']));
    for (const name of [
      'auth.missing',
      'auth.wrongToken',
      'json.malformed',
      'v2.crawl.start.valid',
      'v1.batch.start.valid',
      'v2.crawl.start.invalid.unknownKey',
      'v1.batch.start.invalid.otherVersionField',
      'v1.batch.invalidURLs.ignoring',
      'v2.batch.invalidURLs.notIgnoring',
      'v2.batch.invalidURLs.default',
      'v2.status',
      'v2.status.pagination',
      'v2.status.undocumentedStatus',
      'v2.cancel',
      'v1.errors',
      'v1.active',
      'v2.rule.changeTrackingNeedsMarkdown',
      'v1.rule.urlDepthWithinMaxDepth',
      'v2.rule.timeout.maximum',
    ])
      expect(report.checks.map((c) => c.name)).toContain(name);
  });

  it('cancels every job it started', () => {
    const { started, cancelled } = startedAndCancelled(server.log);
    expect(started.length).toBeGreaterThan(20);
    expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
    expect(report.jobs).toEqual({ started: started.length, cancelled: started.length, notCancelled: [] });
  });

  it('counts what it sent, sends the token, and never a job beyond the site', () => {
    expect(report.requests).toBe(server.log.length);
    expect(report.requestsPerSecond).toBeGreaterThan(0);
    const authorized = server.log.filter((e) => e.authorization === `Bearer ${TOKEN}`);
    expect(authorized.length).toBeGreaterThan(server.log.length / 2);
    // Valid starts point at the site only, crawl one page, carry no webhook, and batches have at most two URLs.
    for (const e of server.log.filter((x) => x.method === 'POST' && START.test(x.url) && x.status === 200)) {
      const body = JSON.parse(e.body) as Record<string, unknown>;
      expect(body).not.toHaveProperty('webhook');
      expect(body['zeroDataRetention']).not.toBe(true);
      if (e.url.endsWith('/crawl')) {
        expect(body['limit']).toBe(1);
        expect(String(body['url'])).toMatch(/^https:\/\/example\.com/);
        expect(body['scrapeOptions'] ?? {}).not.toHaveProperty('actions');
      } else {
        const valid = (body['urls'] as string[]).filter((u) => u.startsWith('https://example.com'));
        expect(valid.length).toBeLessThanOrEqual(2);
        expect(body).not.toHaveProperty('actions');
      }
    }
  });

  it('renders text and JUnit', () => {
    const text = formatText(report);
    for (const check of report.checks) expect(text).toContain(check.name);
    expect(text).toMatch(/\d+ requests \(cap 5000\) in [\d.]+ s: [\d.]+ requests per second/);
    expect(text).toContain(`seed ${SEED}`);
    const xml = formatJunit(report);
    expectWellFormedXml(xml);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
  });
});

describe('the same seed sends the same requests', () => {
  /** What a run sent, ids made neutral, as a sorted set (polling repeats identical requests a varying number of times). */
  async function sent(seed: number): Promise<string[]> {
    const server = await serve();
    try {
      const report = await runContract(options(server.url, { seed, runs: 3, versions: ['v2'] }));
      expect(failing(report)).toEqual([]);
      const neutral = (s: string) => s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>');
      return [...new Set(server.log.map((e) => `${e.method} ${neutral(e.url)} ${neutral(e.body)}`))].sort();
    } finally {
      await server.close();
    }
  }

  it('twice with one seed: the same set; another seed: another set', async () => {
    const first = await sent(7);
    expect(await sent(7)).toEqual(first);
    expect(await sent(8)).not.toEqual(first);
  });
});

describe('limits and modes', () => {
  it('respects maxRequests: the checks left are skipped, started jobs are still cancelled', async () => {
    const server = await serve();
    try {
      const cap = 40;
      const report = await runContract(options(server.url, { maxRequests: cap }));
      expect(report.requests).toBeLessThanOrEqual(cap);
      expect(server.log.length).toBeLessThanOrEqual(cap);
      expect(failing(report), formatText(report)).toEqual([]);
      const skipped = report.checks.filter((c) => c.status === 'skipped');
      expect(skipped.length).toBeGreaterThan(report.checks.length / 2);
      expect(skipped.every((c) => c.detail?.includes('maxRequests'))).toBe(true);
      expect(report.checks[report.checks.length - 1]!.status).toBe('skipped');
      const { started, cancelled } = startedAndCancelled(server.log);
      expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
      expect(exitCode(report)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('--no-auth against a server without auth: the auth checks are skipped, no token is sent', async () => {
    const server = await serve('none');
    try {
      const report = await runContract(options(server.url, { token: undefined, versions: ['v2'], runs: 2 }));
      expect(failing(report), formatText(report)).toEqual([]);
      const checks = byName(report);
      for (const name of ['auth.missing', 'auth.wrongToken']) {
        expect(checks.get(name)?.status).toBe('skipped');
        expect(checks.get(name)?.detail).toContain('--no-auth');
      }
      expect(report.checks.filter((c) => !c.name.startsWith('auth.')).every((c) => c.status === 'pass')).toBe(true);
      expect(server.log.every((e) => e.authorization === undefined)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('onlyNoJob: no job is started, the checks that would start one are skipped', async () => {
    const server = await serve();
    try {
      const report = await runContract(options(server.url, { onlyNoJob: true, runs: 2 }));
      expect(failing(report)).toEqual([]);
      expect(startedAndCancelled(server.log).started).toEqual([]);
      const checks = byName(report);
      expect(checks.get('v2.crawl.start.valid')?.detail).toContain('onlyNoJob');
      expect(checks.get('v2.crawl.start.invalid.wrongType')?.status).toBe('pass');
      expect(checks.get('auth.missing')?.status).toBe('pass');
    } finally {
      await server.close();
    }
  });

  it('a request that gets no answer in time fails its check (network), and the run goes on', async () => {
    const hang: Handler = (request, next) =>
      request.method === 'GET' && request.url.startsWith('/v2/crawl/c0ffee00') ? new Promise<AppResponse>(() => {}) : next(request);
    const server = await serve({ token: TOKEN }, hang);
    try {
      const report = await runContract(options(server.url, { versions: ['v2'], runs: 1, onlyNoJob: true, timeoutMs: 300 }));
      expect(failing(report).map((c) => c.name)).toEqual(['v2.status.undocumentedStatus']);
      const [failure] = failing(report)[0]!.failures;
      expect(failure).toMatchObject({ kind: 'network', got: { status: null } });
      expect(failure!.request).toContain(`${server.url}/v2/crawl/c0ffee00`);
      expect(report.unreachable).toBe(false);
      expect(exitCode(report)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('an unreachable target (a closed port) is reported as unreachable, exit 2', async () => {
    const server = await serve();
    const url = server.url;
    await server.close();
    const report = await runContract(options(url));
    expect(report.unreachable).toBe(true);
    expect(report.unreachableReason).toMatch(/ECONNREFUSED/);
    expect(exitCode(report)).toBe(2);
    expect(report.checks.every((c) => c.status === 'skipped')).toBe(true);
    expect(report.requests).toBeLessThanOrEqual(2);
    expect(formatText(report)).toContain('target unreachable');
  });
});

describe('a deviating server', () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): AppResponse => ({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  let rateLimited = false;
  /**
   * v2 crawl starts with an unknown top-level key are accepted (the key dropped: a job starts); every v1
   * request is answered 402; the v2 batch errors endpoint answers 418; the first authorised v2 active
   * list answers 429 with Retry-After: 0.
   */
  const deviate: Handler = async (request, next) => {
    if (request.method === 'POST' && request.url === '/v2/crawl') {
      try {
        const body = JSON.parse(request.body) as Record<string, unknown>;
        if (typeof body === 'object' && body !== null && 'unknownKey' in body) {
          delete body['unknownKey'];
          return next({ ...request, body: JSON.stringify(body) });
        }
      } catch {
        // not JSON: the server answers
      }
    }
    if (request.url.startsWith('/v1/')) return json(402, { success: false, error: 'Insufficient credits to perform this request.' });
    if (request.method === 'GET' && /^\/v2\/batch\/scrape\/[^/]+\/errors$/.test(request.url))
      return { status: 418, headers: {}, body: "I'm a teapot <&>" };
    if (request.url === '/v2/crawl/active' && request.headers['authorization'] === `Bearer ${TOKEN}` && !rateLimited) {
      rateLimited = true;
      return json(429, { success: false, error: 'Rate limit exceeded. Please retry after 0s.' }, { 'retry-after': '0' });
    }
    return next(request);
  };

  let server: Awaited<ReturnType<typeof serve>>;
  let report: ContractReport;
  /** What the server saw during the run (the curl test below adds to the live log). */
  let log: Logged[];
  beforeAll(async () => {
    server = await serve({ token: TOKEN }, deviate);
    report = await runContract(options(server.url, { runs: 10 }));
    log = [...server.log];
  });
  afterAll(() => server.close());

  it('fails the checks it breaks, and only those; the account-dependent answers are inconclusive', () => {
    expect(failing(report).map((c) => c.name)).toEqual(['v2.status.undocumentedStatus', 'v2.errors', 'v2.crawl.start.invalid.unknownKey']);
    expect(exitCode(report)).toBe(1);
    const checks = byName(report);
    expect(checks.get('v1.crawl.start.valid')?.status).toBe('inconclusive');
    expect(checks.get('v1.crawl.start.valid')?.detail).toContain('402');
    expect(report.checks.filter((c) => c.name.startsWith('v1.')).every((c) => c.status === 'inconclusive')).toBe(true);
  });

  it('shrinks a failing generated request to a minimal one, with the seed, the section and a redacted curl line', () => {
    const [failure, ...rest] = byName(report).get('v2.crawl.start.invalid.unknownKey')!.failures;
    expect(rest).toEqual([]);
    expect(failure).toMatchObject({
      check: 'v2.crawl.start.invalid.unknownKey',
      kind: 'status',
      got: { status: 200 },
      section: 'interface §2.1',
      counterexample: { seed: SEED },
    });
    expect(failure!.expected).toContain('400');
    expect(failure!.request).toBe(
      `curl -sS -X POST '${server.url}/v2/crawl' -H 'Authorization: Bearer ***' -H 'Content-Type: application/json' --data-raw '{"url":"https://example.com","limit":1,"unknownKey":1}'`,
    );
    expect(JSON.stringify(report)).not.toContain(TOKEN);
    expect(formatText(report)).not.toContain(TOKEN);
    expect(formatJunit(report)).not.toContain(TOKEN);
  });

  it('the curl line runs as it is (with the token put back)', async () => {
    const failure = byName(report).get('v2.crawl.start.invalid.unknownKey')!.failures[0]!;
    const line = `${failure.request!.replace('Bearer ***', `Bearer ${TOKEN}`)} -o /dev/null -w '%{http_code}'`;
    const { stdout } = await promisify(execFile)('sh', ['-c', line]);
    expect(stdout).toBe('200');
  });

  it('an undocumented status fails as undocumentedStatus, naming the operation and its section', () => {
    const failure = byName(report).get('v2.errors')!.failures[0]!;
    expect(failure).toMatchObject({ kind: 'undocumentedStatus', section: 'service', got: { status: 418 } });
    expect(failure.message).toContain('getBatchScrapeErrorsV2');
  });

  it('honours Retry-After on a 429 and retries once', () => {
    const active = log.filter((e) => e.url === '/v2/crawl/active' && e.authorization === `Bearer ${TOKEN}`);
    expect(active.map((e) => e.status).slice(0, 2)).toEqual([429, 200]);
    expect(byName(report).get('v2.active')?.status).toBe('pass');
  });

  it('cancels every job it started, the ones it did not mean to start included', () => {
    const { started, cancelled } = startedAndCancelled(log);
    const unintended = log.filter((e) => e.method === 'POST' && e.url === '/v2/crawl' && e.body.includes('unknownKey') && e.status === 200);
    expect(unintended.length).toBeGreaterThan(1);
    expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
    expect(report.jobs.notCancelled).toEqual([]);
  });

  it('JUnit escapes what came back', () => {
    const xml = formatJunit(report);
    expectWellFormedXml(xml);
    expect(xml).toContain('I&apos;m a teapot &lt;&amp;&gt;');
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    expect(xml.match(/<failure /g)?.length).toBe(failing(report).reduce((n, c) => n + c.failures.length, 0));
  });
});

describe('pieces', () => {
  it('Retry-After: seconds or a date, bounded', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('3600')).toBe(30_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5000);
    expect(retryAfterMs('soon')).toBe(1000);
  });

  it('curl: single quotes survive the shell, the token is redacted', async () => {
    const line = toCurl({
      method: 'POST',
      url: 'http://127.0.0.1:1/v2/crawl',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: `{"url":"https://example.com/it's"}`,
    });
    expect(line).not.toContain(TOKEN);
    expect(line).toContain(`-H 'Authorization: Bearer ***'`);
    const { stdout } = await promisify(execFile)('sh', ['-c', `printf '%s\\n' ${line.slice('curl '.length)}`]);
    expect(stdout.split('\n')).toContain(`{"url":"https://example.com/it's"}`);
  });

  it('a site that is no valid crawl address is refused before anything is sent', async () => {
    await expect(runContract(options('http://127.0.0.1:1', { siteUrl: 'http://localhost:8080' }))).rejects.toThrow(
      /siteUrl http:\/\/localhost:8080 is not a valid v1 crawl address: URL must have a valid top-level domain/,
    );
  });

  it('XML escaping drops what XML cannot hold', () => {
    const nasty = `a<b>&"'\u0000\u0007\uD800z`;
    expect(escapeXml(nasty)).toBe('a&lt;b&gt;&amp;&quot;&apos;\uFFFDz');
  });
});
