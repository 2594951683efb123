/**
 * The reference server under load, bounded and deterministic (the full run is `npm run load`): jobs expire as
 * `expiresAt` says and memory returns to zero on its own (fake timers and the app's clock); concurrent
 * starts lose no job and no page; bodies at the size limit get the answer their validity calls for and past
 * it a 413; malformed JSON always gets the exact 400; slow clients are cut after the configured timeouts
 * while everyone else is answered; catastrophic path patterns cannot stall the server (watched from outside:
 * that server runs in a child process), and the matcher that runs them agrees with RegExp. Every server
 * binds 127.0.0.1 on a port the system picks and is closed after its tests. Nothing here measures speed:
 * only answers, counts and the bounds the server promises.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MALFORMED_JSON_BODY } from '../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { createReferenceApp, type AppResponse, type InMemoryReferenceApp } from '../scripts/server/app.js';
import { listen, type ListenOptions, type Listening } from '../scripts/server/http.js';
import { compilePathPatterns, StepBudget } from '../scripts/server/pathPattern.js';
import { sitePages } from '../scripts/server/site.js';
import { readJob } from './support/readJob.js';
import { startServerProcess, type ServerProcess } from './support/serverProcess.js';
import { openSlowClient, type SlowBehaviour } from './support/slowClient.js';

const TOKEN = 'load-test-token';
/** A safety net on every request and every wait for a job: far past what a loaded machine needs. */
const TIMEOUT_MS = 60_000;
/**
 * What answering "promptly" means here: a ceiling, not a latency figure (those are the load script's,
 * scripts/load/): far more than the step budget's ~50 ms on a loaded machine, far less than backtracking's minutes.
 */
const PROMPTLY_MS = 30_000;
type Version = 'v1' | 'v2';

function expectValid(name: SchemaName, value: unknown): void {
  const result = validate(name, value);
  expect(result.valid ? [] : result.errors.map((e) => `${e.path}: ${e.message}`), name).toEqual([]);
}

/** A reference app on 127.0.0.1, its public URL its own address. */
async function startServer(
  options: { pageIntervalMs?: number; maxBodyBytes?: number } = {},
  listenOptions: ListenOptions = {},
): Promise<{ app: InMemoryReferenceApp; server: Listening; base: string; close(): Promise<void> }> {
  let base = '';
  const app = createReferenceApp({
    auth: { token: TOKEN },
    publicUrl: () => base,
    pageIntervalMs: options.pageIntervalMs ?? 5,
    ...options,
  });
  const server = await listen(app, listenOptions);
  base = server.url;
  return {
    app,
    server,
    base,
    close: async () => {
      await server.close();
      app.close();
    },
  };
}

async function post(url: string, body: string, authorization: string | null = `Bearer ${TOKEN}`): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }) },
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

async function get(url: string, timeoutMs = TIMEOUT_MS): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` }, signal: AbortSignal.timeout(timeoutMs) });
  return { status: response.status, text: await response.text() };
}

/** What the app holds once every job has expired, besides jobs, ids and keys: nothing (records.ts, webhooks.ts, pageCache.ts). */
const HELD_NOTHING = { heldPages: 0, heldBytes: 0, webhookJobs: 0, webhookEventsQueued: 0, cachedPages: 0, cachedBytes: 0 };

describe('job expiry and memory', () => {
  const BASE = 'http://127.0.0.1:1';
  // A body is sent as JSON, as a start must be.
  const request = (app: InMemoryReferenceApp, method: string, url: string, body = '', headers: Record<string, string> = {}) =>
    app.handle({ method, url, headers: body === '' ? headers : { 'content-type': 'application/json', ...headers }, body });
  const json = (answer: AppResponse): any => JSON.parse(answer.body);

  afterEach(() => {
    vi.useRealTimers();
  });

  it('drops expired jobs, their remembered ids and idempotency keys on its own, when expiresAt says', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const TTL = 60_000; // the sweep then runs every 60 s
    const app = createReferenceApp({ auth: 'none', publicUrl: () => BASE, jobTtlMs: TTL, pageIntervalMs: 10, now: () => Date.now() });
    try {
      const createdAt = Date.now();
      const jobs: { url: string; version: Version }[] = [];
      for (const version of ['v1', 'v2'] as const) {
        for (let i = 0; i < 5; i++) {
          const crawl = json(await request(app, 'POST', `/${version}/crawl`, JSON.stringify({ url: `${BASE}/site/docs/`, limit: 3 })));
          const key = { 'x-idempotency-key': randomUUID() };
          const batch = json(await request(app, 'POST', `/${version}/batch/scrape`, '{"urls":["https://example.com/a"]}', key));
          jobs.push({ url: new URL(crawl.url).pathname, version }, { url: new URL(batch.url).pathname, version });
        }
      }
      expect(app.stats()).toMatchObject({ jobs: 20, expiredIds: 0, idempotencyKeys: 5, webhookJobs: 0 });
      expect(app.stats().heldPages).toBeGreaterThan(0);

      // Every job ends long before it expires; pages are fetched and read asynchronously, between timers.
      await vi.advanceTimersByTimeAsync(1000);
      for (const job of jobs) {
        const answer = await request(app, 'GET', job.url);
        expect(answer.status).toBe(200);
        expectValid(`${job.version}/JobStatusResponse`, json(answer));
        expect(json(answer)).toMatchObject({ status: 'completed', expiresAt: new Date(createdAt + TTL).toISOString() });
      }

      vi.advanceTimersByTime(TTL - 1001); // 1 ms before expiresAt: all still there
      expect(app.stats()).toMatchObject({ jobs: 20, expiredIds: 0, idempotencyKeys: 5, webhookJobs: 0 });
      expect(app.stats().heldPages).toBeGreaterThan(0);
      vi.advanceTimersByTime(1); // at expiresAt: the sweep drops them, nobody asked
      expect(app.stats()).toEqual({ jobs: 0, expiredIds: 20, idempotencyKeys: 0, ...HELD_NOTHING });
      expect(json(await request(app, 'GET', jobs[0]!.url))).toEqual({ success: false, error: 'Job expired' });

      vi.advanceTimersByTime(TTL); // the remembered ids go too
      expect(app.stats()).toEqual({ jobs: 0, expiredIds: 0, idempotencyKeys: 0, ...HELD_NOTHING });
      const gone = await request(app, 'GET', jobs[0]!.url);
      expect(gone.status).toBe(404);
      expect(json(gone)).toEqual({ success: false, error: 'Job not found' });
    } finally {
      app.close();
    }
  });

  it('holds no more than the jobs of one TTL plus one sweep under a steady stream of starts, then nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const TTL = 5000; // the sweep then runs every 5 s
    const PER_SECOND = 10;
    // A page a second: what is held depends on the TTL, not on how fast jobs go. The clock moves a second at a time
    // without a turn for I/O, so a job's fetch never settles within it and the job ticks on: at 10 ms a page, the
    // fake timers fired over a hundred thousand ticks, 3.9 s of CPU (0.3 s so).
    const app = createReferenceApp({ auth: 'none', publicUrl: () => BASE, jobTtlMs: TTL, pageIntervalMs: 1000, now: () => Date.now() });
    try {
      let most = { jobs: 0, expiredIds: 0 };
      // Six TTLs: what it holds is at its most after two (a TTL, then a sweep a TTL later), and steady after.
      for (let second = 0; second < 6 * (TTL / 1000); second++) {
        for (let i = 0; i < PER_SECOND; i++) {
          const answer = await request(app, 'POST', '/v2/batch/scrape', '{"urls":["https://example.com/a"]}');
          expect(answer.status).toBe(200);
        }
        vi.advanceTimersByTime(1000);
        const { jobs, expiredIds } = app.stats();
        most = { jobs: Math.max(most.jobs, jobs), expiredIds: Math.max(most.expiredIds, expiredIds) };
      }
      // A job lives until the first sweep at or after its expiry; its id, until the first one a TTL later.
      const bound = PER_SECOND * ((TTL + TTL) / 1000 + 1);
      expect(most.jobs).toBeGreaterThanOrEqual(PER_SECOND * (TTL / 1000));
      expect(most.jobs).toBeLessThanOrEqual(bound);
      expect(most.expiredIds).toBeLessThanOrEqual(bound);

      vi.advanceTimersByTime(2 * TTL + TTL);
      expect(app.stats()).toEqual({ jobs: 0, expiredIds: 0, idempotencyKeys: 0, ...HELD_NOTHING });
    } finally {
      app.close();
    }
  });
});

describe('under concurrent load', () => {
  const LIMIT = 4096;
  let ctx: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    ctx = await startServer({ maxBodyBytes: LIMIT });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('starts 200 jobs at once, polled while they run, and loses none of them nor any of their pages', async () => {
    const site = (path: string) => `${ctx.base}/site${path}`;
    const variants = [
      { version: 'v1', path: '/v1/crawl', body: { url: site('/docs/'), limit: 5 }, pages: 5 },
      { version: 'v2', path: '/v2/crawl', body: { url: site('/blog/'), limit: 5 }, pages: 5 },
      { version: 'v1', path: '/v1/batch/scrape', body: { urls: [site('/about'), 'https://example.com/a'] }, pages: 2 },
      {
        version: 'v2',
        path: '/v2/batch/scrape',
        body: { urls: [site('/products/widget'), site('/broken'), 'https://example.com/b'] },
        pages: 2,
      },
    ] as const;
    const started = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const variant = variants[i % variants.length]!;
        const answer = await post(`${ctx.base}${variant.path}`, JSON.stringify(variant.body));
        expect(answer.status).toBe(200);
        expectValid(
          `${variant.version}/${variant.path.endsWith('crawl') ? 'CrawlStartResponse' : 'BatchScrapeStartResponse'}`,
          answer.body,
        );
        const poll = await get(answer.body.url);
        expect(poll.status).toBe(200);
        return {
          ...variant,
          id: answer.body.id as string,
          url: answer.body.url as string,
          polled: JSON.parse(poll.text).completed as number,
        };
      }),
    );
    expect(new Set(started.map((s) => s.id)).size).toBe(200);
    expect(ctx.app.stats().jobs).toBeGreaterThanOrEqual(200);

    const reads = await Promise.all(
      started.map(async (job) => ({
        job,
        read: await readJob(job.url, job.version, { token: TOKEN, pageSize: 2, timeoutMs: TIMEOUT_MS }),
      })),
    );
    for (const { job, read } of reads) {
      expect(read.invalid, job.id).toEqual([]);
      expect(read.status, job.id).toBe(200);
      expect(read.body, job.id).toMatchObject({ status: 'completed', completed: job.pages, total: job.pages });
      expect(read.scrapeIds, job.id).toHaveLength(job.pages);
      expect(new Set(read.scrapeIds).size, job.id).toBe(job.pages);
      expect(read.scrapeIds.length, job.id).toBeGreaterThanOrEqual(job.polled);
    }
  });

  it('answers bodies at the limit by their validity, one byte over with the 413 envelope, and far over by closing', async () => {
    const padded = (body: object, bytes: number) => JSON.stringify(body).padEnd(bytes, ' ');
    const url = 'https://example.com/at-the-limit';
    const tooLarge = { success: false, error: 'Request body is too large' };
    const cases = [
      { path: '/v2/crawl', text: padded({ url }, LIMIT), status: 200, schema: 'v2/CrawlStartResponse' },
      { path: '/v1/batch/scrape', text: padded({ urls: [url] }, LIMIT), status: 200, schema: 'v1/BatchScrapeStartResponse' },
      { path: '/v1/crawl', text: padded({ url, limit: 'many' }, LIMIT), status: 400, schema: 'v1/ErrorResponse' },
      // Nothing but problems: 2000 entries of the wrong type.
      { path: '/v1/batch/scrape', text: padded({ urls: Array<number>(2000).fill(1) }, LIMIT), status: 400, schema: 'v1/ErrorResponse' },
      { path: '/v2/crawl', text: padded({ url }, LIMIT + 1), status: 413, schema: 'v2/ErrorResponse' },
      { path: '/v1/batch/scrape', text: padded({ urls: [url] }, LIMIT + 1), status: 413, schema: 'v1/ErrorResponse' },
    ] as const;
    expect(cases.map((c) => Buffer.byteLength(c.text))).toEqual([LIMIT, LIMIT, LIMIT, LIMIT, LIMIT + 1, LIMIT + 1]);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => cases.map(async (c) => ({ c, answer: await post(`${ctx.base}${c.path}`, c.text) }))).flat(),
    );
    for (const { c, answer } of answers) {
      expect(answer.status, `${c.path} ${c.text.length}`).toBe(c.status);
      expectValid(c.schema, answer.body);
      if (c.status === 400) expect(answer.body.code).toBe('BAD_REQUEST');
      // The body of problems: its first one, and that no other was looked for.
      if (c.text.startsWith('{"urls":[1,'))
        expect((answer.body.details as { path: unknown[] }[]).map((d) => d.path)).toEqual([['urls', 0], []]);
      if (c.status === 413) expect(answer.body).toEqual(tooLarge);
    }

    // Past what the adapter reads (the limit plus 1 MiB), it answers itself and closes the connection.
    const far = await fetch(`${ctx.base}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: padded({ url }, LIMIT + 1024 * 1024 + 1),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    expect(far.status).toBe(413);
    expect(far.headers.get('connection')).toBe('close');
    expect(await far.json()).toEqual(tooLarge);
  });

  it('answers every malformed body with exactly the invalid-JSON 400 when the token is right, and 401 unread when it is not', async () => {
    const texts = ['{"url": ', "{'url': 'https://example.com'}", '[1, 2', '{"url":"https://example.com"}}', 'nul', '{"limit": 1,}', ''];
    const paths = ['/v1/crawl', '/v2/crawl', '/v1/batch/scrape', '/v2/batch/scrape'];
    const tokens = [`Bearer ${TOKEN}`, null, 'Bearer wrong'];
    const answers = await Promise.all(
      texts.flatMap((text) =>
        paths.flatMap((path) =>
          tokens.map(async (token) => ({ text, path, token, answer: await post(`${ctx.base}${path}`, text, token) })),
        ),
      ),
    );
    expect(answers).toHaveLength(texts.length * paths.length * tokens.length);
    // The token is checked before the body is read (issue 13, finding 9), where the service parses first.
    for (const { text, path, token, answer } of answers) {
      const where = `${path} ${JSON.stringify(text)} ${String(token)}`;
      if (token === `Bearer ${TOKEN}`) {
        expect(answer.status, where).toBe(400);
        expect(answer.body).toEqual(MALFORMED_JSON_BODY);
      } else {
        expect(answer.status, where).toBe(401);
        expect(answer.body, where).toEqual({ success: false, error: token === null ? 'Unauthorized' : 'Unauthorized: Invalid token' });
      }
    }
  });
});

describe('slow clients', () => {
  /**
   * Long enough that the twenty other requests are answered, even on a loaded machine, while every slow client is
   * still connected; short enough to keep the test to seconds. How soon after its timeout a client is dropped is a
   * figure for the load script (scripts/load/), not a test: here each must be dropped, not before its timeout.
   */
  const TIMEOUTS = { headersTimeoutMs: 3000, requestTimeoutMs: 6000, idleTimeoutMs: 4500, keepAliveTimeoutMs: 1500 };
  /** Node 20 closes an idle keep-alive connection 1 s after the timeout it advertises. */
  const KEEP_ALIVE_BUFFER_MS = 1000;
  /** A safety net on the wait for a slow client to be dropped. */
  const DROPPED_WITHIN_MS = 60_000;

  it('drops each kind of slow client after its timeout, and answers everyone else meanwhile', async () => {
    const ctx = await startServer({}, TIMEOUTS);
    const port = Number(new URL(ctx.base).port);
    const head = (length: number) =>
      `POST /v2/crawl HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const body = '{"url":"https://example.com/slow"}'.padEnd(400, ' ');
    const kinds: { name: string; behaviour: SlowBehaviour; limitMs: number }[] = [
      { name: 'sends nothing', behaviour: { kind: 'silent' }, limitMs: TIMEOUTS.headersTimeoutMs },
      {
        name: 'trickles its headers',
        behaviour: { kind: 'trickle', text: head(body.length), everyMs: 50 },
        limitMs: TIMEOUTS.headersTimeoutMs,
      },
      {
        name: 'trickles its body',
        behaviour: { kind: 'trickleAfter', head: head(body.length), tail: body, everyMs: 50 },
        limitMs: TIMEOUTS.requestTimeoutMs,
      },
      {
        name: 'stops in the middle of its body',
        behaviour: { kind: 'stall', text: `${head(body.length)}${body.slice(0, 100)}` },
        limitMs: TIMEOUTS.idleTimeoutMs,
      },
      {
        name: 'idles after a request',
        behaviour: { kind: 'stall', text: 'GET /site/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' },
        limitMs: TIMEOUTS.keepAliveTimeoutMs + KEEP_ALIVE_BUFFER_MS,
      },
    ];
    const clients = kinds.flatMap((kind) => Array.from({ length: 5 }, () => ({ kind, client: openSlowClient(port, kind.behaviour) })));
    try {
      const others = await Promise.all(
        Array.from({ length: 20 }, (_, i) => get(i % 2 === 0 ? `${ctx.base}/v2/crawl/active` : `${ctx.base}/site/docs/`)),
      );
      expect(others.map((o) => o.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(clients.filter(({ client }) => !client.isOpen())).toEqual([]); // answered while every slow client hung on

      for (const { kind, client } of clients) {
        let ceiling: NodeJS.Timeout | undefined;
        const openFor = await Promise.race([
          client.closed,
          new Promise<never>((_, reject) => {
            ceiling = setTimeout(
              () => reject(new Error(`a client that ${kind.name} was not dropped within ${DROPPED_WITHIN_MS / 1000} s`)),
              DROPPED_WITHIN_MS,
            );
          }),
        ]).finally(() => clearTimeout(ceiling));
        expect(openFor, `${kind.name}: dropped before its timeout`).toBeGreaterThanOrEqual(kind.limitMs - 5);
      }
      expect((await get(`${ctx.base}/v2/crawl/active`)).status).toBe(200);
    } finally {
      for (const { client } of clients) client.destroy();
      await ctx.close();
    }
  });
});

describe('hostile path patterns', () => {
  /** In a child process: were the server's thread stalled, these requests would time out rather than hang the test. */
  let child: ServerProcess;
  beforeAll(async () => {
    child = await startServerProcess(TOKEN);
  });
  afterAll(async () => {
    await child.stop();
  });

  const crawl = async (version: Version, body: object) => {
    const answer = await post(`${child.url}/${version}/crawl`, JSON.stringify(body));
    expect(answer.status).toBe(200);
    return readJob(answer.body.url, version, { token: TOKEN, pageSize: 100, timeoutMs: TIMEOUT_MS });
  };

  it('runs catastrophic patterns without stalling: same pages as tame ones, other requests answered meanwhile', async () => {
    const site = (path: string) => `${child.url}/site${path}`;
    // With backtracking, each of these takes 2^n steps on a subject of n characters it does not match: minutes
    // on the site's longest path (33), far longer on full addresses and on the 20 000-character start path.
    const hostile = { includePaths: ['^(.|.)*/docs/(.|.)*$', '^(.|.)*X$'], excludePaths: ['(x+x+)+y', '^(a|a)*$'] };
    const [pathOnly, fullUrl, longStart, ...others] = await Promise.all([
      crawl('v2', { url: site('/'), ...hostile }),
      crawl('v1', { url: site('/'), ...hostile, regexOnFullURL: true }),
      crawl('v2', { url: site(`/${'a'.repeat(20_000)}!`), includePaths: ['^/site/(a|a)*$'] }),
      ...Array.from({ length: 10 }, () => get(`${child.url}/v2/crawl/active`, PROMPTLY_MS)),
    ]);
    expect(others.map((o) => o.status)).toEqual(Array.from({ length: 10 }, () => 200));

    const tame = await crawl('v2', { url: site('/'), includePaths: ['/docs/'] });
    expect(tame.urls.length).toBeGreaterThan(1);
    for (const read of [pathOnly, fullUrl]) {
      expect(read.invalid).toEqual([]);
      expect(read.body.status).toBe('completed');
      expect(read.urls).toEqual(tame.urls);
    }
    expect(longStart.body).toMatchObject({ status: 'completed', completed: 0, total: 0 });
  });

  it('fails a crawl whose patterns would take more than the step budget, and keeps answering', async () => {
    // Within the validator's bounds (2000 characters a pattern, 100 000 together), together past the step budget.
    const read = await crawl('v2', {
      url: `${child.url}/site/`,
      includePaths: Array.from({ length: 40 }, () => `(?:${'a*'.repeat(990)}b)`),
    });
    expectValid('v2/JobStatusResponse', read.body);
    expect(read.body).toMatchObject({ success: false, status: 'failed', completed: 0, total: 0 });
    expect(read.body.error).toMatch(/^The crawl's includePaths\/excludePaths cannot be run: running them takes more than \d+ steps\.$/);
    expect((await get(`${child.url}/v2/crawl/active`, PROMPTLY_MS)).status).toBe(200);
  });

  it('matches as RegExp does on every address of the synthetic site (property)', () => {
    const base = 'http://127.0.0.1:54321';
    const subjects = [...new Set(sitePages().flatMap((p) => [p.path, `${base}${p.path}`, `${base}${p.path}?ref=home#top`]))];
    const char = fc.constantFrom(
      '/',
      's',
      'i',
      't',
      'e',
      'd',
      'o',
      'c',
      'a',
      'b',
      'g',
      '-',
      '0',
      '2',
      '4',
      '\\?',
      '=',
      ':',
      '\\.',
      'p',
      'A',
    );
    const set = fc.constantFrom(
      '.',
      '\\d',
      '\\D',
      '\\w',
      '\\W',
      '\\s',
      '\\S',
      '[a-z]',
      '[^/]',
      '[^a-z0-9]',
      '[/?=]',
      '[\\d-]',
      '[^]',
      '[]',
    );
    const atom = fc.oneof(char, set);
    const assertion = fc.constantFrom('^', '$', '\\b', '\\B');
    // Unbounded repetition only at the top, so that RegExp itself stays fast on these subjects.
    const inner = fc.oneof({ weight: 4, arbitrary: fc.tuple(atom, fc.constantFrom('', '?', '{0,2}')).map(([a, q]) => a + q) }, assertion);
    const group = fc
      .tuple(fc.array(fc.array(inner, { maxLength: 4 }), { minLength: 1, maxLength: 3 }), fc.constantFrom('', '?'), fc.boolean())
      .map(([alternatives, q, capturing]) => `(${capturing ? '' : '?:'}${alternatives.map((a) => a.join('')).join('|')})${q}`);
    const top = fc.tuple(atom, fc.constantFrom('', '*', '+', '?', '*?', '{1,3}')).map(([a, q]) => a + q);
    const pattern = fc.array(fc.oneof(top, top, group, assertion), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));

    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 2 }), (patterns) => {
        const compiled = compilePathPatterns('includePaths', patterns, new StepBudget());
        const native = patterns.map((p) => new RegExp(p));
        for (const subject of subjects)
          expect(compiled.test(subject), `${patterns.join(' , ')} on ${subject}`).toBe(native.some((r) => r.test(subject)));
      }),
      { seed: 20_240_601, numRuns: 300 },
    );
  });
});
