/**
 * The webhook receiver: where the contract kit's jobs deliver their webhook events, and where the kit reads them
 * back. The kit runs one on 127.0.0.1 for a loopback target; for any other target the user runs one where the
 * target can reach it and the kit too (`crawlspec webhook-receiver`), and gives its address (`--webhook-url`).
 *
 * Every path is an inbox. `POST <path>` is a delivery: kept as it came, its headers and its body as bytes (a
 * signature is computed over the raw body), and answered 200. `GET <path>?after=N&wait=MS` answers the inbox's
 * deliveries after the N-th, and when there is none yet waits up to MS (at most `maxWaitMs`) for one: a long
 * poll, so that the kit learns of a delivery as it arrives rather than on a clock. `DELETE <path>` forgets the
 * inbox. The kit's inboxes are `<receiver>/<128 random bits>/<check name>`: whoever knows an inbox's address can
 * read it, and nobody can guess one (what it holds is the test site's pages and what the kit sent).
 *
 * Everything is bounded (`RECEIVER_LIMITS`): a delivery's body (past it: 413, counted as `refused`), the
 * deliveries of an inbox and the bytes held in all (past them: 507, counted as `dropped`), the inboxes at once
 * (past it: 507), the connections at once (past it: closed unanswered), how long an inbox untouched is kept, how
 * long and how many reads wait, how much one answer holds (the rest on the next read, `more`), and how long a
 * connection may take to send its request, its body included (node:http's timeouts: past them it is closed). The
 * bytes of a delivery are charged to the total as they arrive, before they are held, whether it ends or not: a
 * delivery that would pass the total is answered 507 at once (from its Content-Length when it gives one), its
 * bytes given back, and its connection closed; a connection that goes away gives back what it held.
 *
 * Below the server: how the kit reads an inbox (`InboxReader`, `collectDeliveries`). Its answers are checked
 * against their TypeBox schema (`InboxAnswer`) before they are believed, and read up to the run's
 * `--max-response-bytes`: the address is the user's, and may not be a receiver at all.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Wire, type Answer } from './wire.js';

const MIB = 1024 * 1024;

export interface ReceiverLimits {
  /** Longest delivery body kept, in bytes; a longer one is answered 413 and counted in its inbox's `refused`. */
  readonly deliveryBytes: number;
  /** Deliveries kept per inbox; a later one is answered 507 and counted in `dropped`. */
  readonly deliveriesPerInbox: number;
  /** Inboxes at once; a delivery to one more is answered 507. */
  readonly inboxes: number;
  /**
   * Bytes of bodies held in all, kept and still arriving: each byte is charged as it arrives; a delivery past it is
   * answered 507, counted in `dropped`, and its connection closed.
   */
  readonly totalBytes: number;
  /**
   * Connections at once (node:http's `maxConnections`); one more is closed unanswered. The kit holds one per
   * webhook check running (its reads: at most 64 at once) and a target a few per job, so 256 leave room; each
   * costs node:http a few tens of KiB, the bodies being charged to `totalBytes`.
   */
  readonly connections: number;
  /** A request's headers must have come within this, in ms; else its connection is closed. */
  readonly headersMs: number;
  /** A whole request, its body included, must have come within this, in ms: a delivery trickling in is cut (its connection closed). */
  readonly requestMs: number;
  /** An inbox neither written to nor read for this long is forgotten, in ms. */
  readonly inboxTtlMs: number;
  /** Longest a read waits for a delivery, in ms. */
  readonly maxWaitMs: number;
  /** Reads waiting at once; one more is answered at once. */
  readonly waiters: number;
  /** Bytes of bodies one answer holds at most (at least one delivery): the rest come on the next read. */
  readonly answerBytes: number;
}

export const RECEIVER_LIMITS: ReceiverLimits = {
  deliveryBytes: 4 * MIB,
  deliveriesPerInbox: 1000,
  inboxes: 256,
  totalBytes: 256 * MIB,
  connections: 256,
  headersMs: 10_000,
  requestMs: 30_000,
  inboxTtlMs: 15 * 60_000,
  maxWaitMs: 30_000,
  waiters: 64,
  answerBytes: 8 * MIB,
};

/** The longest inbox path taken; a longer one is answered 414. */
const MAX_PATH = 2048;
/** What every read answer says it comes from, so that the kit knows it reads a receiver and not something else. */
export const RECEIVER_NAME = 'crawlspec webhook-receiver';

/** One delivery as a read answers it: its place in the inbox, when it came, its headers (names in lower case), its body in base64. */
const ReceivedJson = Type.Object({
  seq: Type.Integer({ minimum: 1 }),
  receivedAt: Type.String(),
  headers: Type.Record(Type.String(), Type.String()),
  body: Type.String(),
});

/** A read's answer: deliveries in the order they came, whether more wait, and what the inbox could not keep. */
const InboxAnswer = Type.Object({
  receiver: Type.Literal(RECEIVER_NAME),
  deliveries: Type.Array(ReceivedJson),
  more: Type.Boolean(),
  refused: Type.Integer({ minimum: 0 }),
  dropped: Type.Integer({ minimum: 0 }),
});
export type InboxAnswer = Static<typeof InboxAnswer>;

interface Kept {
  readonly seq: number;
  readonly receivedAt: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

interface Inbox {
  readonly deliveries: Kept[];
  refused: number;
  dropped: number;
  touched: number;
}

export interface WebhookReceiver {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

export interface WebhookReceiverOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  readonly limits?: Partial<ReceiverLimits>;
}

/** A request's headers, names in lower case, a repeated one joined as HTTP joins them. */
const headersOf = (request: IncomingMessage): Record<string, string> =>
  Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );

function answer(response: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}

/** A whole number from a query parameter, `fallback` when it is absent, undefined when it is no whole number. */
function whole(value: string | null, fallback: number): number | undefined {
  if (value === null) return fallback;
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

export function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const limits = { ...RECEIVER_LIMITS, ...options.limits };
  const inboxes = new Map<string, Inbox>();
  /** Reads waiting for a delivery, by inbox: each is woken (and answers) when one comes, or when its time is up. */
  const waiting = new Map<string, Set<() => void>>();
  let waiters = 0;
  let bytes = 0;

  const forget = (path: string): void => {
    const inbox = inboxes.get(path);
    if (inbox === undefined) return;
    for (const kept of inbox.deliveries) bytes -= kept.body.length;
    inboxes.delete(path);
  };
  const sweep = (): void => {
    const now = Date.now();
    for (const [path, inbox] of inboxes) if (now - inbox.touched > limits.inboxTtlMs) forget(path);
  };
  const sweeper = setInterval(sweep, Math.min(limits.inboxTtlMs, 60_000));
  sweeper.unref();

  /** The inbox at `path`, made if there is room; undefined when there is none. */
  const inboxAt = (path: string): Inbox | undefined => {
    let inbox = inboxes.get(path);
    if (inbox === undefined) {
      if (inboxes.size >= limits.inboxes) sweep();
      if (inboxes.size >= limits.inboxes) return undefined;
      inbox = { deliveries: [], refused: 0, dropped: 0, touched: Date.now() };
      inboxes.set(path, inbox);
    }
    inbox.touched = Date.now();
    return inbox;
  };

  const wake = (path: string): void => {
    for (const wakeUp of waiting.get(path) ?? []) wakeUp();
  };

  /** Answers a delivery that is not read further (413, 507), then closes its connection: the rest of its body is not read. */
  const refuse = (request: IncomingMessage, response: ServerResponse, status: 413 | 507, error: string): void => {
    answer(response, status, { error }, true);
    response.once('finish', () => request.destroy());
  };
  const refuseTooLarge = (request: IncomingMessage, response: ServerResponse, path: string): void => {
    const inbox = inboxAt(path);
    if (inbox !== undefined) inbox.refused += 1;
    refuse(request, response, 413, `a delivery is kept up to ${limits.deliveryBytes} bytes`);
    wake(path);
  };
  const refuseFull = (request: IncomingMessage, response: ServerResponse, path: string): void => {
    const inbox = inboxAt(path);
    if (inbox !== undefined) inbox.dropped += 1;
    refuse(request, response, 507, `the receiver holds ${limits.totalBytes} bytes of deliveries, the most it keeps`);
    wake(path);
  };

  const receive = (request: IncomingMessage, response: ServerResponse, path: string): void => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.deliveryBytes) return refuseTooLarge(request, response, path);
    if (Number.isFinite(declared) && bytes + declared > limits.totalBytes) return refuseFull(request, response, path);
    const chunks: Buffer[] = [];
    /** Bytes of this delivery held, charged to `bytes` until it is kept (then its inbox's) or given up. */
    let size = 0;
    let settled = false;
    const giveBack = (): void => {
      if (settled) return;
      settled = true;
      bytes -= size;
      chunks.length = 0;
    };
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.length > limits.deliveryBytes) {
        giveBack();
        refuseTooLarge(request, response, path);
      } else if (bytes + chunk.length > limits.totalBytes) {
        giveBack();
        refuseFull(request, response, path);
      } else {
        // Charged before it is held.
        bytes += chunk.length;
        size += chunk.length;
        chunks.push(chunk);
      }
    });
    request.on('error', () => request.socket.destroy());
    // A delivery cut off (its connection lost, or closed by the request timeout) gives back what it held.
    request.once('close', giveBack);
    request.on('end', () => {
      if (settled) return;
      const inbox = inboxAt(path);
      if (inbox === undefined) {
        giveBack();
        return answer(response, 507, { error: `the receiver holds ${limits.inboxes} inboxes, the most it keeps` });
      }
      if (inbox.deliveries.length >= limits.deliveriesPerInbox) {
        giveBack();
        inbox.dropped += 1;
        wake(path);
        return answer(response, 507, { error: `an inbox keeps ${limits.deliveriesPerInbox} deliveries, the most it keeps` });
      }
      settled = true;
      const seq = inbox.deliveries.length + 1;
      inbox.deliveries.push({ seq, receivedAt: new Date().toISOString(), headers: headersOf(request), body: Buffer.concat(chunks, size) });
      chunks.length = 0;
      answer(response, 200, { received: true, seq });
      wake(path);
    });
  };

  /** The deliveries of `path` after the `after`-th, up to `answerBytes` of bodies (at least one). */
  const contents = (path: string, after: number): InboxAnswer => {
    const inbox = inboxes.get(path);
    if (inbox !== undefined) inbox.touched = Date.now();
    const past = inbox?.deliveries.slice(after) ?? [];
    const shown: Kept[] = [];
    let size = 0;
    for (const kept of past) {
      if (shown.length > 0 && size + kept.body.length > limits.answerBytes) break;
      shown.push(kept);
      size += kept.body.length;
    }
    return {
      receiver: RECEIVER_NAME,
      deliveries: shown.map((k) => ({ seq: k.seq, receivedAt: k.receivedAt, headers: { ...k.headers }, body: k.body.toString('base64') })),
      more: shown.length < past.length,
      refused: inbox?.refused ?? 0,
      dropped: inbox?.dropped ?? 0,
    };
  };

  const read = (response: ServerResponse, path: string, query: URLSearchParams): void => {
    const after = whole(query.get('after'), 0);
    const wait = whole(query.get('wait'), 0);
    if (after === undefined || wait === undefined)
      return answer(response, 400, { error: 'after and wait take whole numbers (the deliveries seen, and milliseconds)' });
    const now = contents(path, after);
    const news = (inboxes.get(path)?.deliveries.length ?? 0) > after;
    if (news || wait === 0 || waiters >= limits.waiters) return answer(response, 200, now);
    // Nothing yet: wait for a delivery (or a refusal) to this inbox, or for the time asked (at most maxWaitMs).
    let done = false;
    const set = waiting.get(path) ?? new Set<() => void>();
    waiting.set(path, set);
    waiters += 1;
    const finish = (reply: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      set.delete(answerNow);
      if (set.size === 0 && waiting.get(path) === set) waiting.delete(path);
      waiters -= 1;
      if (reply) answer(response, 200, contents(path, after));
    };
    const answerNow = (): void => finish(true);
    const timer = setTimeout(answerNow, Math.min(wait, limits.maxWaitMs));
    timer.unref();
    set.add(answerNow);
    // A reader that goes away stops waiting.
    response.once('close', () => finish(false));
  };

  const server = createServer(
    { headersTimeout: limits.headersMs, requestTimeout: limits.requestMs, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 },
    (request, response) => {
      let url: URL;
      try {
        url = new URL(request.url ?? '/', 'http://receiver');
      } catch {
        return answer(response, 400, { error: 'not a request path' });
      }
      const path = url.pathname;
      if (path.length > MAX_PATH) return answer(response, 414, { error: `an inbox path is at most ${MAX_PATH} characters` });
      switch (request.method) {
        case 'POST':
          return receive(request, response, path);
        case 'GET':
          return read(response, path, url.searchParams);
        case 'DELETE':
          forget(path);
          response.writeHead(204).end();
          return;
        default:
          response.setHeader('allow', 'POST, GET, DELETE');
          return answer(response, 405, { error: 'POST delivers, GET reads, DELETE forgets an inbox' });
      }
    },
  );
  server.maxConnections = limits.connections;
  server.on('clientError', (_error, socket) => socket.destroy());
  // A connection with no traffic either way for this long is closed (a waiting read sends nothing for at most maxWaitMs).
  server.timeout = limits.maxWaitMs + 30_000;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const { address, port } = server.address() as AddressInfo;
      resolve({
        url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(sweeper);
            for (const set of [...waiting.values()]) for (const wakeUp of [...set]) wakeUp();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// How the kit reads an inbox.

/** The receiver could not be read: what was asked, and what came back (or why nothing did). */
export class ReceiverUnreadable extends Error {
  override name = 'ReceiverUnreadable';
}

/** A delivery as the kit reads it: its place, its headers (lower-case names) and its body's bytes. */
export interface Received {
  readonly seq: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export class InboxReader {
  /** The reader's connection to the receiver, kept for its reads and closed when the inbox is forgotten. */
  private readonly wire = new Wire(1);

  constructor(
    /** The inbox's address: where the target delivers, and where the kit reads. */
    readonly url: string,
    private readonly limits: { readonly timeoutMs: number; readonly maxResponseBytes: number },
  ) {}

  /** The deliveries after the `after`-th, waiting up to `waitMs` for one when there is none yet. */
  async read(after: number, waitMs: number): Promise<InboxAnswer> {
    const wait = Math.max(0, Math.round(waitMs));
    const address = `${this.url}?after=${after}&wait=${wait}`;
    let answer: Answer;
    try {
      // Not followed: the inbox's address is the only one the kit reads (wire.ts follows no redirect).
      answer = await this.wire.send(
        { method: 'GET', url: address, headers: {} },
        wait + this.limits.timeoutMs,
        this.limits.maxResponseBytes,
      );
    } catch (error) {
      throw new ReceiverUnreadable(`GET ${address} got no answer (${(error as Error).message})`);
    }
    const text = await answer.body.catch(() => undefined);
    if (text === undefined)
      throw new ReceiverUnreadable(
        `GET ${address}: the answer was not read whole (longer than ${this.limits.maxResponseBytes} bytes, or cut off)`,
      );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (answer.head.status !== 200 || !Value.Check(InboxAnswer, json))
      throw new ReceiverUnreadable(
        `GET ${address} answered ${answer.head.status} ${JSON.stringify(text.slice(0, 120))}, not what ${RECEIVER_NAME} answers`,
      );
    return json;
  }

  /** Forgets the inbox (its deliveries are no more use); quietly, for a receiver that cannot be reached is no finding. */
  async forget(): Promise<void> {
    await this.wire
      .send({ method: 'DELETE', url: this.url, headers: {} }, this.limits.timeoutMs, 0)
      .then((answer) => answer.body)
      .catch(() => undefined);
    this.wire.close();
  }
}

/** Longest a single read waits: the waits are cut into reads of at most this, each answered as soon as a delivery comes. */
const READ_WAIT_MS = 10_000;

export interface Collected {
  readonly received: readonly Received[];
  /** Deliveries the receiver did not keep: too large (`refused`), or past its bounds (`dropped`). */
  readonly refused: number;
  readonly dropped: number;
  /** Whether `enough` was met before the time was up. */
  readonly complete: boolean;
}

/**
 * The deliveries of `reader`'s inbox, read as they come until `enough` says they are all there, or `waitMs` has
 * passed (then what came is returned, `complete: false`).
 */
export async function collectDeliveries(
  reader: InboxReader,
  enough: (received: readonly Received[]) => boolean,
  waitMs: number,
): Promise<Collected> {
  const deadline = performance.now() + waitMs;
  const received: Received[] = [];
  let more = false;
  for (;;) {
    const left = deadline - performance.now();
    // What is already there is read at once; otherwise the read waits for the next delivery (or the time left).
    const got = await reader.read(received.length, more ? 0 : Math.min(Math.max(0, left), READ_WAIT_MS));
    for (const d of got.deliveries)
      if (d.seq === received.length + 1) received.push({ seq: d.seq, headers: d.headers, body: Buffer.from(d.body, 'base64') });
    more = got.more;
    const state = { received, refused: got.refused, dropped: got.dropped };
    if (enough(received)) return { ...state, complete: true };
    if (!got.more && left <= 0) return { ...state, complete: false };
  }
}
