/** Slow clients: connections that send their request slowly or not at all, or idle, while others are served. */
import { connect, type Socket } from 'node:net';
import { authHeaders, cannon, check, Expectation, noErrors, short, TOKEN, type ScenarioReport } from '../shared.js';
import { CHECK_INTERVAL_MAX_MS, NODE_KEEP_ALIVE_BUFFER_MS, SLACK_MS, TIMEOUTS, type Context } from './settings.js';

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

export async function slowClients(ctx: Context): Promise<ScenarioReport> {
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
