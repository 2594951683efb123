/**
 * `npm run load` (`tsx scripts/load.ts [--duration <s>] [--json]`): the reference server under load. It keeps
 * answering correctly, loses nothing, drops slow clients in bounded time, and its memory stays bounded.
 *
 * The server runs in this process on 127.0.0.1, on a port the system picks, with a 64 KiB body limit (so
 * that bodies at the limit stay cheap) and short slow-client timeouts (so that their scenario fits its
 * time). autocannon drives it, one scenario after the other, each for `--duration` seconds (default 3):
 *   1. starts and polls: v1 and v2 crawl and batch scrape starts (valid bodies, a crawl with catastrophic
 *      path patterns among them), each followed by a status poll of the job it started: every start is a
 *      valid 200 start answer, every poll a valid 200 status;
 *   2. body size limits: bodies of exactly the limit (valid → 200, invalid → 400, one of them nothing but
 *      wrong batch entries) and one byte over (→ 413 with the error envelope); then, once each, a body past
 *      what the adapter reads (413, connection closed) and a server with the default 10 MiB limit (at it →
 *      200, one byte over → 413, 10 MiB of wrong batch entries → 400);
 *   3. malformed JSON: → 400 with exactly the BAD_REQUEST_INVALID_JSON body, whatever the token;
 *   4. slow clients: connections that send nothing, send their headers or body a byte at a time, stop
 *      halfway, or idle after a request, while others poll: every one is dropped within its timeout (plus
 *      node's check interval, at most 1 s, and a second of slack), and the others are all answered, none
 *      waiting as long as the headers timeout;
 *   5. nothing lost: every job any start answered for is found (200), ends `completed`, and following `next`
 *      (2 pages at a time) gives as many distinct pages as it reported (`completed` = `total`), at least as
 *      many as any poll saw, and as many as the same request gave on the idle server before the load;
 *   6. expiry: on a server whose jobs live 1 s, jobs started under load (some with idempotency keys) are all
 *      dropped from memory (`stats()`: jobs, expired ids, keys back to 0) within 2 × TTL plus two sweeps,
 *      without anyone touching them.
 * For each scenario it prints requests/s, latency p50/p99/max, answers by status and connection errors and
 * timeouts, then one PASS/FAIL line per check (`--json`: one JSON document instead); the exit status is 1 if
 * a check fails. Load generator and server share one thread, so the figures are what one core does for
 * both: compare runs on one machine, not with other servers.
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { MALFORMED_JSON_BODY } from '../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { createReferenceApp, DEFAULT_MAX_BODY_BYTES, type InMemoryReferenceApp } from './server/app.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  listen,
} from './server/http.js';

const TOKEN = 'load-token';
const LIMIT = 64 * 1024;
/** What the adapter reads of a body before answering 413 itself (http.ts): the limit plus at least 1 MiB. */
const READ_LIMIT = LIMIT + Math.max(LIMIT, 1024 * 1024);
const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 1000, idleTimeoutMs: 2000 } as const;
/** The longest node waits between two checks of the headers and request timeouts (http.ts). */
const CHECK_INTERVAL_MAX_MS = 1000;
/** Node 20 closes an idle keep-alive connection this long after the keep-alive timeout it advertises. */
const NODE_KEEP_ALIVE_BUFFER_MS = 1000;
const SLACK_MS = 1000;
const PAGE_INTERVAL_MS = 10;
const CONNECTIONS = 32;
const EXPIRY_TTL_MS = 1000;
/** The sweep interval app.ts uses for a TTL of 1 s. */
const EXPIRY_SWEEP_MS = 1000;

/** Fresh header objects each time: autocannon writes `Content-Length` into the headers it is given. */
const authHeaders = (): Record<string, string> => ({ authorization: `Bearer ${TOKEN}` });
const jsonHeaders = (): Record<string, string> => ({ ...authHeaders(), 'content-type': 'application/json' });

interface Figures {
  readonly requests: number;
  readonly perSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly statuses: Record<string, number>;
  readonly errors: number;
  readonly timeouts: number;
}

interface Check {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

interface ScenarioReport {
  readonly name: string;
  readonly figures: Figures | undefined;
  readonly notes: Record<string, number | string>;
  readonly checks: Check[];
}

/** One check fed one observation at a time; it passes when there was at least one and none was wrong. */
class Expectation {
  #seen = 0;
  #wrong = 0;
  readonly #examples: string[] = [];

  constructor(readonly name: string) {}

  observe(ok: boolean, what: () => string): void {
    this.#seen += 1;
    if (ok) return;
    this.#wrong += 1;
    if (this.#examples.length < 3) this.#examples.push(what());
  }

  check(): Check {
    const pass = this.#seen > 0 && this.#wrong === 0;
    const detail = pass ? `${this.#seen} of ${this.#seen}` : `${this.#wrong} of ${this.#seen} wrong; ${this.#examples.join(' | ')}`;
    return { name: this.name, pass, detail };
  }
}

const check = (name: string, pass: boolean, detail: string): Check => ({ name, pass, detail });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const parsed = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const valid = (name: SchemaName, value: unknown): boolean => value !== undefined && validate(name, value).valid;
const short = (text: string): string => (text.length > 160 ? `${text.slice(0, 160)}…` : text);

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs autocannon with `requests` for `duration` s; statuses are counted as answers arrive. */
function cannon(url: string, duration: number, requests: autocannon.Request[]): Promise<Figures> {
  const statuses: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration, timeout: 10, requests }, (error, result) => {
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      resolve({
        requests: result.requests.total,
        perSecond: Math.round(result.requests.average),
        latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        statuses,
        errors: result.errors,
        timeouts: result.timeouts,
      });
    });
    instance.on('response', (_client, status) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}

/** Figures of requests made with fetch: `latencies` in ms, over `elapsedMs`. */
function fetchFigures(latencies: number[], statuses: Record<string, number>, elapsedMs: number, errors: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: Math.round(latencies.length / (elapsedMs / 1000)),
    latencyMs: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? 0) },
    statuses,
    errors,
    timeouts: 0,
  };
}

const noErrors = (figures: Figures): Check =>
  check(
    'no connection errors or timeouts',
    figures.errors === 0 && figures.timeouts === 0,
    `${figures.errors} errors, ${figures.timeouts} timeouts`,
  );

// ---------------------------------------------------------------------------------------------------------
// Jobs: what to start, and reading one back whole

interface Variant {
  readonly name: string;
  readonly version: 'v1' | 'v2';
  readonly path: string;
  readonly text: string;
  readonly startSchema: SchemaName;
}

function variants(base: string): Variant[] {
  const site = (path: string) => `${base}/site${path}`;
  const crawl = (version: 'v1' | 'v2', name: string, body: object): Variant => ({
    name,
    version,
    path: `/${version}/crawl`,
    text: JSON.stringify(body),
    startSchema: `${version}/CrawlStartResponse`,
  });
  const batch = (version: 'v1' | 'v2', name: string, body: object): Variant => ({
    name,
    version,
    path: `/${version}/batch/scrape`,
    text: JSON.stringify(body),
    startSchema: `${version}/BatchScrapeStartResponse`,
  });
  return [
    crawl('v1', 'v1 crawl', { url: site('/docs/'), limit: 5 }),
    crawl('v2', 'v2 crawl', { url: site('/blog/'), limit: 5, scrapeOptions: { formats: ['markdown', 'links'] } }),
    batch('v1', 'v1 batch', { urls: [site('/about'), 'https://example.com/a'] }),
    batch('v2', 'v2 batch', { urls: [site('/products/widget'), site('/broken'), 'https://example.com/b'] }),
    // Backtracking would take 2^n steps on every path these do not match (pathPattern.ts).
    crawl('v2', 'v2 crawl, catastrophic patterns', {
      url: site('/'),
      limit: 5,
      includePaths: ['^(.|.)*/docs/(.|.)*$', '^(.|.)*X$'],
      excludePaths: ['(x+x+)+y'],
    }),
  ];
}

interface JobRead {
  readonly status: number;
  readonly state: string | undefined;
  readonly completed: number;
  readonly total: number;
  /** The scrape ids of the pages `next` led to, in order. */
  readonly pages: readonly string[];
  /** A problem with the answers on the way (invalid answer, a failed request), if any. */
  readonly problem: string | undefined;
}

/**
 * A job read back whole: its first 2 pages polled until it has ended (or `deadline`), then the rest walked
 * with `next`, 2 at a time. Every answer is validated. `onRequest` gets each request's latency and status.
 */
async function readJob(
  base: string,
  statusPath: string,
  version: 'v1' | 'v2',
  deadline: number,
  onRequest: (ms: number, status: number) => void,
): Promise<JobRead> {
  const get = async (target: string): Promise<{ status: number; body: any }> => {
    const started = performance.now();
    const response = await fetch(target.startsWith('http') ? target : `${base}${target}`, {
      headers: authHeaders(),
      signal: AbortSignal.timeout(10_000),
    });
    const body = parsed(await response.text());
    onRequest(performance.now() - started, response.status);
    return { status: response.status, body };
  };
  let answer = await get(`${statusPath}?limit=2`);
  while (answer.status === 200 && answer.body?.status === 'scraping' && Date.now() < deadline) {
    await sleep(20);
    answer = await get(`${statusPath}?limit=2`);
  }
  const { status, body: ended } = answer;
  const read = (pages: string[], problem: string | undefined): JobRead => ({
    status,
    state: ended?.status,
    completed: Number(ended?.completed ?? -1),
    total: Number(ended?.total ?? -1),
    pages,
    problem,
  });
  if (status !== 200) return read([], `status ${status}: ${short(JSON.stringify(ended))}`);

  const pages: string[] = [];
  for (let page = answer; ; page = await get(page.body.next as string)) {
    if (page.status !== 200 || !valid(`${version}/JobStatusResponse`, page.body)) return read(pages, `answered ${page.status}, or invalid`);
    for (const record of page.body.data as { metadata: { scrapeId: string } }[]) pages.push(record.metadata.scrapeId);
    if (page.body.data.length === 0 || page.body.next === undefined) return read(pages, undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Slow clients

interface SlowKind {
  readonly name: string;
  /** What drops it, in ms after it connected. */
  readonly limitMs: number;
  /** What it does once connected. */
  start(socket: Socket): void;
}

/** Writes `text` one byte every 100 ms while the socket is open. */
function trickle(socket: Socket, text: string): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]!);
  }, 100);
  socket.once('close', () => clearInterval(timer));
}

const SLOW_BODY = '{"url":"https://example.com/slow"}'.padEnd(1000, ' ');
const postHead = (length: number) =>
  `POST /v2/crawl HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

const SLOW_KINDS: readonly SlowKind[] = [
  { name: 'send nothing', limitMs: TIMEOUTS.headersTimeoutMs, start: () => {} },
  { name: 'send their headers a byte at a time', limitMs: TIMEOUTS.headersTimeoutMs, start: (s) => trickle(s, postHead(SLOW_BODY.length)) },
  {
    name: 'never finish their headers',
    limitMs: TIMEOUTS.headersTimeoutMs,
    start: (s) => s.write('GET /v2/crawl/active HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
  },
  {
    name: 'send their body a byte at a time',
    limitMs: TIMEOUTS.requestTimeoutMs,
    start: (s) => {
      s.write(postHead(SLOW_BODY.length));
      trickle(s, SLOW_BODY);
    },
  },
  {
    name: 'never finish their body',
    limitMs: Math.min(TIMEOUTS.requestTimeoutMs, TIMEOUTS.idleTimeoutMs),
    start: (s) => s.write(`${postHead(SLOW_BODY.length)}${SLOW_BODY.slice(0, 100)}`),
  },
  {
    name: 'go idle after one request',
    limitMs: TIMEOUTS.keepAliveTimeoutMs + NODE_KEEP_ALIVE_BUFFER_MS,
    start: (s) => s.write('GET /site/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
  },
];

/** Opens a connection of `kind`; resolves with the ms it stayed open (the server closed it), or Infinity at `giveUpMs`. */
function slowClient(port: number, kind: SlowKind, giveUpMs: number): Promise<number> {
  return new Promise((resolve) => {
    const opened = performance.now();
    const socket = connect(port, '127.0.0.1', () => kind.start(socket));
    const giveUp = setTimeout(() => {
      resolve(Infinity);
      socket.destroy();
    }, giveUpMs);
    socket.on('data', () => {}); // read whatever comes, as a real client would
    socket.on('error', () => {}); // a reset is a way of being dropped
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(performance.now() - opened);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Scenarios

interface Context {
  readonly base: string;
  readonly port: number;
  readonly app: InMemoryReferenceApp;
  readonly duration: number;
  /** Every job a start answered for: status path, version, variant, most pages any poll saw. */
  readonly started: Map<string, { statusPath: string; version: 'v1' | 'v2'; variant: string; maxSeen: number }>;
  /** Pages each variant's job had on the idle server. */
  readonly reference: Map<string, number>;
}

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
  const exact = new Expectation('every malformed body → 400 with exactly the BAD_REQUEST_INVALID_JSON body, before the token is checked');
  const expected = JSON.stringify(MALFORMED_JSON_BODY);
  const requests = texts.flatMap((text, i) =>
    paths.map((path, j) => ({
      method: 'POST' as const,
      path,
      headers: headers[(i + j) % headers.length]!,
      body: text,
      onResponse: (status: number, body: string) =>
        exact.observe(
          status === 400 && JSON.stringify(parsed(body)) === expected,
          () => `${path} ${JSON.stringify(text)}: ${status} ${short(body)}`,
        ),
    })),
  );
  const figures = await cannon(ctx.base, ctx.duration, requests);
  return { name: 'malformed JSON', figures, notes: {}, checks: [exact.check(), noErrors(figures)] };
}

async function slowClients(ctx: Context): Promise<ScenarioReport> {
  const PER_KIND = 40;
  const longest = Math.max(...SLOW_KINDS.map((k) => k.limitMs)) + CHECK_INTERVAL_MAX_MS + SLACK_MS;
  const clients = SLOW_KINDS.flatMap((kind) =>
    Array.from({ length: PER_KIND }, () =>
      slowClient(ctx.port, kind, Math.max(longest, ctx.duration * 1000) + SLACK_MS).then((ms) => ({ kind, ms })),
    ),
  );
  const others = new Expectation('everyone else answered 200 while they hung on');
  const figures = await cannon(ctx.base, ctx.duration, [
    {
      method: 'GET',
      path: '/v2/crawl/active',
      headers: authHeaders(),
      onResponse: (status: number, body: string) => others.observe(status === 200, () => `${status} ${short(body)}`),
    },
    {
      method: 'GET',
      path: '/site/docs/',
      onResponse: (status: number, body: string) => others.observe(status === 200, () => `${status} ${short(body)}`),
    },
  ]);
  const closed = await Promise.all(clients);
  const checks = SLOW_KINDS.map((kind) => {
    const times = closed.filter((c) => c.kind === kind).map((c) => c.ms);
    const bound = kind.limitMs + CHECK_INTERVAL_MAX_MS + SLACK_MS;
    const worst = Math.max(...times);
    return check(
      `${PER_KIND} connections that ${kind.name}: dropped within ${bound} ms (limit ${kind.limitMs} ms)`,
      worst <= bound,
      `dropped after ${Math.round(Math.min(...times))}–${worst === Infinity ? 'never' : Math.round(worst)} ms`,
    );
  });
  return {
    name: 'slow clients',
    figures,
    notes: { 'slow connections': closed.length },
    checks: [
      ...checks,
      others.check(),
      check(
        `nobody else waited as long as the headers timeout (${TIMEOUTS.headersTimeoutMs} ms)`,
        figures.latencyMs.max < TIMEOUTS.headersTimeoutMs,
        `max latency ${figures.latencyMs.max} ms`,
      ),
      noErrors(figures),
    ],
  };
}

/** Reads back every job a start answered for, 16 at a time. */
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

function printText(header: Record<string, string | number>, scenarios: readonly ScenarioReport[]): void {
  console.log(
    Object.entries(header)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  );
  for (const scenario of scenarios) {
    console.log(`\n== ${scenario.name}`);
    const f = scenario.figures;
    if (f !== undefined) {
      const non2xx = Object.entries(f.statuses).filter(([status]) => !status.startsWith('2'));
      console.log(
        `   ${f.requests} requests, ${f.perSecond} req/s, latency p50 ${f.latencyMs.p50} ms, p99 ${f.latencyMs.p99} ms, max ${f.latencyMs.max} ms`,
      );
      console.log(
        `   non-2xx: ${non2xx.length === 0 ? 'none' : non2xx.map(([s, n]) => `${s} × ${n}`).join(', ')}; errors ${f.errors}, timeouts ${f.timeouts}`,
      );
    }
    for (const [name, value] of Object.entries(scenario.notes)) console.log(`   ${name}: ${value}`);
    for (const c of scenario.checks) console.log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name} (${c.detail})`);
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } } });
  const duration = Number(values.duration);
  if (!(duration > 0 && duration <= 600)) throw new Error(`--duration must be a number of seconds in (0, 600], not ${values.duration}`);

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

  const header = {
    machine: `Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})`,
    run: `${duration} s per scenario, ${CONNECTIONS} connections, load generator and server in one process`,
    server: `127.0.0.1, body limit ${LIMIT} B, pages every ${PAGE_INTERVAL_MS} ms`,
    'timeouts (this run)': `headers ${TIMEOUTS.headersTimeoutMs} ms, request ${TIMEOUTS.requestTimeoutMs} ms, keep-alive ${TIMEOUTS.keepAliveTimeoutMs} ms, idle ${TIMEOUTS.idleTimeoutMs} ms`,
    'timeouts (defaults)': `headers ${DEFAULT_HEADERS_TIMEOUT_MS} ms, request ${DEFAULT_REQUEST_TIMEOUT_MS} ms, keep-alive ${DEFAULT_KEEP_ALIVE_TIMEOUT_MS} ms, idle ${DEFAULT_IDLE_TIMEOUT_MS} ms`,
  };
  const passed = scenarios.every((s) => s.checks.every((c) => c.pass));
  if (values.json) console.log(JSON.stringify({ ...header, passed, scenarios }, null, 2));
  else {
    printText(header, scenarios);
    console.log(
      `\n${passed ? 'PASS' : 'FAIL'}: ${scenarios.flatMap((s) => s.checks).filter((c) => c.pass).length} of ${scenarios.flatMap((s) => s.checks).length} checks`,
    );
  }
  return passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
