/**
 * The scenario stage: the reference server in this process under autocannon, one scenario after another (see
 * `../main.ts` for what each one checks).
 */
import { randomUUID } from 'node:crypto';
import { MALFORMED_JSON_BODY } from '../../../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import { createReferenceApp, DEFAULT_MAX_BODY_BYTES } from '../../server/app.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  listen,
} from '../../server/http.js';
import {
  authHeaders,
  cannon,
  check,
  CONNECTIONS,
  Expectation,
  fetchFigures,
  jsonHeaders,
  noErrors,
  parsed,
  short,
  sleep,
  TOKEN,
  valid,
  type ScenarioReport,
} from '../shared.js';
import { readJob, variants, type Variant } from './jobs.js';
import { EXPIRY_SWEEP_MS, EXPIRY_TTL_MS, LIMIT, PAGE_INTERVAL_MS, READ_LIMIT, SLACK_MS, TIMEOUTS, type Context } from './settings.js';
import { slowClients } from './slowClients.js';

async function startsAndPolls(ctx: Context): Promise<ScenarioReport> {
  const all = variants(ctx.base);
  const starts = new Expectation('every start answered 200 with a valid start answer');
  const polls = new Expectation('every poll of a started job answered 200 with a valid status');
  let turn = 0;
  interface Turn {
    variant?: Variant;
    statusPath?: string | undefined;
  }
  const figures = await cannon(ctx.base, ctx.duration, [
    {
      setupRequest: (request, context) => {
        const variant = all[turn++ % all.length]!;
        (context as Turn).variant = variant;
        return { ...request, method: 'POST', path: variant.path, headers: jsonHeaders(), body: variant.text };
      },
      onResponse: (status, body, context) => {
        const state = context as Turn;
        const variant = state.variant!;
        const answer = parsed(body);
        starts.observe(status === 200 && valid(variant.startSchema, answer), () => `${variant.name}: ${status} ${short(body)}`);
        state.statusPath = undefined;
        if (status !== 200 || typeof answer?.id !== 'string') return;
        state.statusPath = new URL(answer.url as string).pathname;
        ctx.started.set(answer.id, { statusPath: state.statusPath, version: variant.version, variant: variant.name, maxSeen: 0 });
      },
    },
    {
      setupRequest: (request, context) => ({
        ...request,
        method: 'GET',
        path: (context as Turn).statusPath ?? '/v2/crawl/active',
        headers: authHeaders(),
        body: '',
      }),
      onResponse: (status, body, context) => {
        const { variant, statusPath } = context as Turn;
        if (variant === undefined || statusPath === undefined) return; // its start failed, and counts there
        const answer = parsed(body);
        polls.observe(
          status === 200 && valid(`${variant.version}/JobStatusResponse`, answer),
          () => `${statusPath}: ${status} ${short(body)}`,
        );
        const job = ctx.started.get(statusPath.slice(statusPath.lastIndexOf('/') + 1));
        if (job !== undefined && typeof answer?.completed === 'number') job.maxSeen = Math.max(job.maxSeen, answer.completed);
      },
    },
  ]);
  return {
    name: 'starts and polls',
    figures,
    notes: { 'jobs started': ctx.started.size, 'jobs in memory': ctx.app.stats().jobs },
    checks: [starts.check(), polls.check(), noErrors(figures)],
  };
}

/** A body of exactly `bytes` bytes: `body` as JSON, padded with spaces (JSON allows them after the value). */
const padded = (body: object, bytes: number): string => JSON.stringify(body).padEnd(bytes, ' ');

/** A body of exactly `bytes` bytes made of problems: a batch whose every entry, `1`, is of the wrong type. */
const allProblems = (bytes: number): string => {
  const entries = Math.floor((bytes - '{"urls":[]}'.length + 1) / 2);
  return `{"urls":[${Array<string>(entries).fill('1').join(',')}]}`.padEnd(bytes, ' ');
};

async function bodySizeLimits(ctx: Context): Promise<ScenarioReport> {
  interface SizedBody {
    readonly name: string;
    readonly version: 'v1' | 'v2';
    readonly path: string;
    readonly startSchema: SchemaName;
    readonly text: string;
    /** What the app answers this body: 413 past the limit, else 200 or 400 as the package's validator says. */
    readonly expected: number;
  }
  const sized = (name: string, version: 'v1' | 'v2', kind: 'crawl' | 'batch', text: string): SizedBody => {
    const [path, request, start] =
      kind === 'crawl'
        ? ['crawl', 'CrawlRequest', 'CrawlStartResponse']
        : ['batch/scrape', 'BatchScrapeRequest', 'BatchScrapeStartResponse'];
    const expected =
      Buffer.byteLength(text) > LIMIT ? 413 : validate(`${version}/${request}` as SchemaName, JSON.parse(text)).valid ? 200 : 400;
    return { name, version, path: `/${version}/${path}`, startSchema: `${version}/${start}` as SchemaName, text, expected };
  };
  const url = 'https://example.com/at-the-limit';
  const bodies = [
    sized('v1 crawl', 'v1', 'crawl', padded({ url }, LIMIT)),
    sized('v2 batch', 'v2', 'batch', padded({ urls: [url] }, LIMIT)),
    sized('v2 crawl', 'v2', 'crawl', padded({ url, limit: 'many' }, LIMIT)),
    sized('v1 batch of wrong entries', 'v1', 'batch', allProblems(LIMIT)),
    sized('v1 crawl', 'v1', 'crawl', padded({ url }, LIMIT + 1)),
    sized('v2 batch', 'v2', 'batch', padded({ urls: [url] }, LIMIT + 1)),
  ];
  const groups: Record<number, string> = {
    200: `bodies of exactly ${LIMIT} bytes, valid → 200 with a valid start answer`,
    400: `bodies of exactly ${LIMIT} bytes, invalid → 400 BAD_REQUEST with a valid error body`,
    413: `bodies of ${LIMIT + 1} bytes → 413 {"success":false,"error":"Request body is too large"}`,
  };
  const expectations = new Map(
    Object.entries(groups).map(([status, text]) => {
      const which = bodies.filter((b) => b.expected === Number(status)).map((b) => b.name);
      return [Number(status), new Expectation(`${text} (${which.join(', ')})`)] as const;
    }),
  );
  const TOO_LARGE = { success: false, error: 'Request body is too large' };
  const figures = await cannon(
    ctx.base,
    ctx.duration,
    bodies.map((b) => ({
      method: 'POST',
      path: b.path,
      headers: jsonHeaders(),
      body: b.text,
      onResponse: (status: number, text: string) => {
        const answer = parsed(text);
        const ok =
          status === b.expected &&
          (status === 200
            ? valid(b.startSchema, answer)
            : status === 400
              ? valid(`${b.version}/ErrorResponse`, answer) && answer.code === 'BAD_REQUEST'
              : JSON.stringify(answer) === JSON.stringify(TOO_LARGE));
        expectations.get(b.expected)!.observe(ok, () => `${b.name}: ${status} ${short(text)}`);
        if (status === 200 && typeof answer?.id === 'string') {
          ctx.started.set(answer.id, {
            statusPath: new URL(answer.url as string).pathname,
            version: b.version,
            variant: `${b.name} of ${LIMIT} bytes`,
            maxSeen: 0,
          });
        }
      },
    })),
  );

  // Past what the adapter reads: it answers 413 itself and closes the connection.
  const far = await fetch(`${ctx.base}/v2/crawl`, {
    method: 'POST',
    headers: jsonHeaders(),
    body: padded({ url }, READ_LIMIT + 1),
    signal: AbortSignal.timeout(10_000),
  });
  const farBody = await far.text();
  const farOk =
    far.status === 413 && far.headers.get('connection') === 'close' && JSON.stringify(parsed(farBody)) === JSON.stringify(TOO_LARGE);

  // The default limit, honoured once: exactly 10 MiB is read and started, one byte more is refused, and
  // 10 MiB of problems is refused with the error envelope (validation's work is bounded by the body).
  const plain = createReferenceApp({ auth: { token: TOKEN }, publicUrl: () => 'http://127.0.0.1' });
  const server = await listen(plain);
  const statusFor = async (path: string, body: string, expected: number) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: jsonHeaders(),
      body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    const ok = response.status === expected && (expected !== 400 || valid('v1/ErrorResponse', parsed(text)));
    return ok ? String(response.status) : `${response.status} ${short(text)}`;
  };
  const atDefault = await statusFor('/v2/crawl', padded({ url }, DEFAULT_MAX_BODY_BYTES), 200);
  const overDefault = await statusFor('/v2/crawl', padded({ url }, DEFAULT_MAX_BODY_BYTES + 1), 413);
  const problemsAtDefault = await statusFor('/v1/batch/scrape', allProblems(DEFAULT_MAX_BODY_BYTES), 400);
  await server.close();
  plain.close();

  return {
    name: 'body size limits',
    figures,
    notes: {},
    checks: [
      ...[...expectations.values()].map((e) => e.check()),
      check(`${READ_LIMIT + 1} bytes (past what the adapter reads) → 413, connection closed`, farOk, `${far.status} ${short(farBody)}`),
      check(
        `default limit: ${DEFAULT_MAX_BODY_BYTES} bytes → 200, one more → 413, ${DEFAULT_MAX_BODY_BYTES} bytes of wrong batch entries → 400`,
        atDefault === '200' && overDefault === '413' && problemsAtDefault === '400',
        `${atDefault}, ${overDefault}, ${problemsAtDefault}`,
      ),
      noErrors(figures),
    ],
  };
}

async function malformedJson(ctx: Context): Promise<ScenarioReport> {
  const texts = ['{"url": ', "{'url': 'https://example.com'}", '[1, 2', '{"url":"https://example.com"}}', 'nul', '{"limit": 1,}', ''];
  const paths = ['/v1/crawl', '/v2/crawl', '/v1/batch/scrape', '/v2/batch/scrape'];
  const headers = [
    jsonHeaders(),
    { 'content-type': 'application/json' },
    { 'content-type': 'application/json', authorization: 'Bearer wrong' },
  ];
  const exact = new Expectation(
    'every malformed body → 400 with exactly the BAD_REQUEST_INVALID_JSON body with the token, 401 unread without it',
  );
  const expected = JSON.stringify(MALFORMED_JSON_BODY);
  const requests = texts.flatMap((text, i) =>
    paths.map((path, j) => {
      const chosen = headers[(i + j) % headers.length]!;
      const authorized = chosen === headers[0];
      return {
        method: 'POST' as const,
        path,
        headers: chosen,
        body: text,
        onResponse: (status: number, body: string) =>
          exact.observe(
            authorized
              ? status === 400 && JSON.stringify(parsed(body)) === expected
              : status === 401 && valid('v2/ErrorResponse', parsed(body)),
            () => `${path} ${JSON.stringify(text)} (${authorized ? 'with' : 'without'} the token): ${status} ${short(body)}`,
          ),
      };
    }),
  );
  const figures = await cannon(ctx.base, ctx.duration, requests);
  return { name: 'malformed JSON', figures, notes: {}, checks: [exact.check(), noErrors(figures)] };
}

async function nothingLost(ctx: Context): Promise<ScenarioReport> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const onRequest = (ms: number, status: number) => {
    latencies.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  const found = new Expectation('every started job found (200) and completed');
  const whole = new Expectation('every job: pages via next = completed = total, all distinct, ≥ any poll saw, = the idle run');
  const jobs = [...ctx.started.entries()];
  const deadline = Date.now() + 60_000;
  const began = performance.now();
  let errors = 0;
  let index = 0;
  const worker = async () => {
    while (index < jobs.length) {
      const [id, job] = jobs[index++]!;
      try {
        const read = await readJob(ctx.base, job.statusPath, job.version, deadline, onRequest);
        found.observe(
          read.status === 200 && read.state === 'completed',
          () => `${job.variant} ${id}: ${read.status} ${read.state} ${read.problem ?? ''}`,
        );
        const reference = ctx.reference.get(job.variant);
        whole.observe(
          read.problem === undefined &&
            read.pages.length === read.completed &&
            read.completed === read.total &&
            new Set(read.pages).size === read.pages.length &&
            read.pages.length >= job.maxSeen &&
            (reference === undefined || read.pages.length === reference),
          () =>
            `${job.variant} ${id}: ${read.pages.length} pages, completed ${read.completed}, total ${read.total}, poll saw ${job.maxSeen}, idle run ${reference}`,
        );
      } catch (error) {
        errors += 1;
        found.observe(false, () => `${job.variant} ${id}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const figures = fetchFigures(latencies, statuses, performance.now() - began, errors);
  return { name: 'nothing lost', figures, notes: { 'jobs read back': jobs.length }, checks: [found.check(), whole.check()] };
}

async function expiry(duration: number): Promise<ScenarioReport> {
  let base = '';
  const app = createReferenceApp({
    auth: { token: TOKEN },
    publicUrl: () => base,
    pageIntervalMs: PAGE_INTERVAL_MS,
    jobTtlMs: EXPIRY_TTL_MS,
  });
  const server = await listen(app, TIMEOUTS);
  base = server.url;
  try {
    let peak = 0;
    const body = JSON.stringify({ urls: [`${base}/site/about`, 'https://example.com/expiring'] });
    const figures = await cannon(base, Math.min(duration, 2), [
      { method: 'POST', path: '/v2/batch/scrape', headers: jsonHeaders(), body },
      {
        method: 'POST',
        path: '/v1/batch/scrape',
        setupRequest: (request) => ({ ...request, headers: { ...jsonHeaders(), 'x-idempotency-key': randomUUID() }, body }),
        onResponse: () => {
          peak = Math.max(peak, app.stats().jobs);
        },
      },
    ]);
    const held = app.stats();
    const lastStart = performance.now();
    const bound = 2 * EXPIRY_TTL_MS + 2 * EXPIRY_SWEEP_MS + SLACK_MS;
    let stats = app.stats();
    while (stats.jobs + stats.expiredIds + stats.idempotencyKeys > 0 && performance.now() - lastStart < bound) {
      await sleep(50);
      stats = app.stats();
    }
    const emptiedAfter = Math.round(performance.now() - lastStart);
    return {
      name: `expiry (jobs live ${EXPIRY_TTL_MS} ms)`,
      figures,
      notes: {
        'jobs held at the end of the load': held.jobs,
        'idempotency keys held': held.idempotencyKeys,
        'memory emptied after (ms)': emptiedAfter,
      },
      checks: [
        check(
          `every job, expired id and idempotency key dropped within ${bound} ms, untouched`,
          peak > 0 && held.idempotencyKeys > 0 && stats.jobs + stats.expiredIds + stats.idempotencyKeys === 0,
          `peak ${peak} jobs; after ${emptiedAfter} ms: ${JSON.stringify(stats)}`,
        ),
        noErrors(figures),
      ],
    };
  } finally {
    await server.close();
    app.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Running and reporting

/** Each variant's job on the idle server, read back whole: the page counts the loaded ones must have. */
async function referenceCounts(ctx: Context): Promise<void> {
  for (const variant of variants(ctx.base)) {
    const response = await fetch(`${ctx.base}${variant.path}`, { method: 'POST', headers: jsonHeaders(), body: variant.text });
    const answer = (await response.json()) as { url: string };
    const read = await readJob(ctx.base, new URL(answer.url).pathname, variant.version, Date.now() + 10_000, () => {});
    ctx.reference.set(variant.name, read.pages.length);
  }
}

/** The stage's description of itself, for the report's header. */
export function scenarioHeader(duration: number): Record<string, string> {
  return {
    run: `${duration} s per scenario, ${CONNECTIONS} connections, load generator and server in one process`,
    server: `127.0.0.1, body limit ${LIMIT} B, pages every ${PAGE_INTERVAL_MS} ms`,
    'timeouts (this run)': `headers ${TIMEOUTS.headersTimeoutMs} ms, request ${TIMEOUTS.requestTimeoutMs} ms, keep-alive ${TIMEOUTS.keepAliveTimeoutMs} ms, idle ${TIMEOUTS.idleTimeoutMs} ms`,
    'timeouts (defaults)': `headers ${DEFAULT_HEADERS_TIMEOUT_MS} ms, request ${DEFAULT_REQUEST_TIMEOUT_MS} ms, keep-alive ${DEFAULT_KEEP_ALIVE_TIMEOUT_MS} ms, idle ${DEFAULT_IDLE_TIMEOUT_MS} ms`,
  };
}

/** Every scenario, `duration` s each: the server in this process, then the expiry scenario on its own server. */
export async function runScenarios(duration: number): Promise<ScenarioReport[]> {
  let base = '';
  const app = createReferenceApp({ auth: { token: TOKEN }, publicUrl: () => base, pageIntervalMs: PAGE_INTERVAL_MS, maxBodyBytes: LIMIT });
  const server = await listen(app, TIMEOUTS);
  base = server.url;
  const ctx: Context = { base, port: Number(new URL(base).port), app, duration, started: new Map(), reference: new Map() };
  const scenarios: ScenarioReport[] = [];
  try {
    await referenceCounts(ctx);
    scenarios.push(await startsAndPolls(ctx));
    scenarios.push(await bodySizeLimits(ctx));
    scenarios.push(await malformedJson(ctx));
    scenarios.push(await slowClients(ctx));
    scenarios.push(await nothingLost(ctx));
  } finally {
    await server.close();
    app.close();
  }
  scenarios.push(await expiry(duration));
  return scenarios;
}
