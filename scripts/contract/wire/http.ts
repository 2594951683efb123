/**
 * The HTTP client of a contract run: bounded concurrency, a per-request timeout, a request budget per check,
 * one bounded retry after a 429 (honouring `Retry-After`, until the target has answered 429 to every retry a
 * few times running), answers read up to `maxResponseBytes` and no further, the run's `--header`s on every
 * request, and what went wrong without an answer told apart: the target cannot be reached at all
 * (`TargetUnreachable`), the connection was lost before a whole answer came (`ConnectionLost`, which the
 * caller may send again: transport.ts), or the target held the request past the timeout (`NoAnswerInTime`).
 * Redirects are not followed, so the token is never sent anywhere else.
 *
 * The exchanges themselves go over node:http (wire.ts).
 */
import { BudgetExhausted, type RequestBudget, type Reservation } from './budget.js';
import type { SentRequest } from './curl.js';
import { OutOfTime, type TimeLimit } from './timeLimit.js';
import { Wire, type Answer, type AnswerHead } from './wire.js';

export type { SentRequest };

/** Who the request says it is. */
export type Auth = 'token' | 'none' | { readonly bearer: string };

export interface OutgoingRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  /** A JSON value to send, or the raw text (e.g. malformed JSON). */
  readonly body?: { readonly json: unknown } | { readonly raw: string };
  readonly auth?: Auth;
}

export interface Exchange {
  readonly request: SentRequest;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  readonly json: unknown;
  readonly isJson: boolean;
  /** True when this is the answer to the retry after a 429. */
  readonly retried: boolean;
}

/** The target cannot be reached at all (connection refused, unknown host). */
export class TargetUnreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`target unreachable: ${reason}`);
    this.name = 'TargetUnreachable';
  }
}

/** The answer is longer than the run reads (`maxResponseBytes`); it was not read to its end. */
export class AnswerTooLarge extends Error {
  constructor(
    readonly request: SentRequest,
    readonly limit: number,
  ) {
    super(`the answer to ${request.method} ${request.url} is longer than ${limit} bytes (--max-response-bytes); it was not read`);
    this.name = 'AnswerTooLarge';
  }
}

/** The request went out but no whole answer came back: its connection was lost, or the timeout passed. */
export class NetworkFailure extends Error {
  constructor(
    readonly request: SentRequest,
    message: string,
  ) {
    super(message);
    this.name = 'NetworkFailure';
  }
}

/**
 * The connection was lost before a whole answer came (closed or reset by the other side, or by anything
 * between): the request may or may not have reached the target, and nothing is known of what it answered.
 */
export class ConnectionLost extends NetworkFailure {
  constructor(
    request: SentRequest,
    readonly reason: string,
  ) {
    super(request, `connection lost before an answer: ${reason}`);
    this.name = 'ConnectionLost';
  }
}

/** The target held the request, the connection open, past the run's timeout without answering it whole. */
export class NoAnswerInTime extends NetworkFailure {
  constructor(
    request: SentRequest,
    readonly timeoutMs: number,
  ) {
    super(request, `no answer within ${timeoutMs / 1000} s (--timeout)`);
    this.name = 'NoAnswerInTime';
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The error code deepest in `error`'s causes (and an AggregateError's errors). */
function errorCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 5) return [];
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => errorCodes(x, depth + 1)) : [];
  return [...own, ...errorCodes(e.cause, depth + 1), ...nested];
}

/** Whether `error` is the run's timeout firing (wire.ts names it TimeoutError, as AbortSignal.timeout does). */
const isTimeout = (error: unknown): boolean => error instanceof Error && error.name === 'TimeoutError';

/** `error` in a line: its message, the message of its deepest cause (e.g. `socket hang up (ECONNRESET)`), its codes. */
function describeError(error: unknown): string {
  const codes = errorCodes(error);
  let deepest: unknown = error;
  for (let depth = 0; deepest instanceof Error && deepest.cause instanceof Error && depth < 5; depth += 1) deepest = deepest.cause;
  const message = error instanceof Error ? error.message : String(error);
  const cause = deepest instanceof Error && deepest !== error && deepest.message !== message ? `: ${deepest.message}` : '';
  return `${message}${cause}${codes.length > 0 ? ` (${[...new Set(codes)].join(', ')})` : ''}`;
}

/** At most `limit` tasks at once. */
class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async use<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Longest wait a `Retry-After` can ask for before the one retry. */
export const RETRY_AFTER_CAP_MS = 30_000;

/** `Retry-After` in milliseconds (seconds or an HTTP date), bounded; 1 s when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (value === null) return 1000;
  const trimmed = value.trim();
  const ms = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), RETRY_AFTER_CAP_MS) : 1000;
}

export interface HttpClientOptions {
  readonly token: string | undefined;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Longest answer read, in bytes; a longer one is `AnswerTooLarge`. */
  readonly maxResponseBytes: number;
  /** Headers sent on every request (`--header`), after the kit's own, which they may not name (headers.ts). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Told of every request that went out, with what came back or why nothing did (a recording: recording.ts). */
  readonly onExchange?: (record: ExchangeRecord) => void;
  /** The run's time limit (`--max-duration`, timeLimit.ts): once reached, only the cancels of started jobs go out. */
  readonly timeLimit?: TimeLimit;
}

/** One request as it went out, when, and what came back: the answer's head and body, or why not. */
export interface ExchangeRecord {
  readonly request: SentRequest;
  readonly startedAt: Date;
  /** Milliseconds from sending to the answer's head (or to the failure), then from there to the end of its body. */
  readonly waitMs: number;
  readonly receiveMs: number;
  /** The answer's head, when one came. */
  readonly response?: AnswerHead;
  /** The answer's body, when it was read. */
  readonly text?: string;
  /** Why no whole answer came. */
  readonly error?: string;
}

/** Retries after a 429 that got a 429 again, in a row, after which a 429 is no longer waited for. */
export const RATE_LIMITED_AFTER = 3;

export class HttpClient {
  private readonly slots: Semaphore;
  /** Requests that went out (retries included). */
  sent = 0;
  /** HTTP answers that came back: once there is one, an unreachable target was lost mid-run, not missed. */
  answered = 0;
  /** Why the target is unreachable, once a request found it so. */
  unreachable: string | undefined;
  /** Requests whose connection was lost before a whole answer came. */
  lost = 0;
  /** The requests being sent, until their answer is returned (a lost start's job is told apart from theirs: transport.ts). */
  readonly inFlight = new Set<SentRequest>();
  /** 429 answers to retries, in a row; from RATE_LIMITED_AFTER on, a 429 is returned without waiting. */
  private limitedInARow = 0;

  private readonly wire: Wire;

  constructor(private readonly options: HttpClientOptions) {
    this.slots = new Semaphore(options.concurrency);
    this.wire = new Wire(options.concurrency);
  }

  /** Closes the connections kept open for reuse; requests sent after this open new ones. */
  close(): void {
    this.wire.close();
  }

  /** The request as it will be sent (headers and body), for sending and for showing. */
  prepare(request: OutgoingRequest): SentRequest {
    const headers: Record<string, string> = {};
    const auth = request.auth ?? 'token';
    if (auth === 'token') {
      if (this.options.token !== undefined) headers['Authorization'] = `Bearer ${this.options.token}`;
    } else if (auth !== 'none') headers['Authorization'] = `Bearer ${auth.bearer}`;
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = 'raw' in request.body ? request.body.raw : JSON.stringify(request.body.json);
    }
    Object.assign(headers, this.options.headers);
    return { method: request.method, url: request.url, headers, ...(body === undefined ? {} : { body }) };
  }

  /**
   * Sends `request`, taking one unit from `budget`, or using `payment`: a held reservation, or `prepaid` when
   * the caller took the unit already. Throws BudgetExhausted, TargetUnreachable, AnswerTooLarge,
   * ConnectionLost, NoAnswerInTime, or OutOfTime once the run's time limit is reached (only a request paid by a
   * reservation, a started job's cancel, goes out then); any HTTP answer is returned. A 429 is retried once after its `Retry-After` (bounded)
   * when the budget allows and the target has not answered every recent retry with a 429 again; otherwise
   * the 429 is returned.
   */
  async send(request: OutgoingRequest, budget: RequestBudget, payment?: Reservation | 'prepaid'): Promise<Exchange> {
    const sent = this.prepare(request);
    this.inFlight.add(sent);
    try {
      return await this.sendRetrying429(sent, budget, payment, typeof payment === 'object');
    } finally {
      this.inFlight.delete(sent);
    }
  }

  /** `sent`'s answer, sent once more after a 429 when that is allowed (see `send`). */
  private async sendRetrying429(
    sent: SentRequest,
    budget: RequestBudget,
    payment: Reservation | 'prepaid' | undefined,
    cancel: boolean,
  ): Promise<Exchange> {
    const first = await this.once(sent, budget, payment, cancel);
    if (first.status !== 429 || this.limitedInARow >= RATE_LIMITED_AFTER) return first;
    await sleep(retryAfterMs(first.headers.get('retry-after')));
    try {
      budget.take();
    } catch (error) {
      if (error instanceof BudgetExhausted) return first;
      throw error;
    }
    const second = await this.once(sent, budget, 'prepaid', cancel);
    this.limitedInARow = second.status === 429 ? this.limitedInARow + 1 : 0;
    return { ...second, retried: true };
  }

  /** What a request that failed without an answer ran into: the run's timeout, or a lost connection (counted). */
  private lostOrLate(sent: SentRequest, error: unknown, what: string): NoAnswerInTime | ConnectionLost {
    if (isTimeout(error)) return new NoAnswerInTime(sent, this.options.timeoutMs);
    this.lost += 1;
    return new ConnectionLost(sent, `${what}${describeError(error)}`);
  }

  /** Why nothing more is sent but cancels, once the run's time limit (`--max-duration`) is reached. */
  get outOfTime(): string | undefined {
    const limit = this.options.timeLimit;
    return limit?.reached === true ? limit.detail : undefined;
  }

  /** Throws OutOfTime when the run's time limit is reached, unless the request is a started job's cancel. */
  private inTime(cancel: boolean): void {
    const late = this.outOfTime;
    if (late !== undefined && !cancel) throw new OutOfTime(late);
  }

  private async once(
    sent: SentRequest,
    budget: RequestBudget,
    payment: Reservation | 'prepaid' | undefined,
    cancel: boolean,
  ): Promise<Exchange> {
    if (this.unreachable !== undefined) throw new TargetUnreachable(sent.url, this.unreachable);
    this.inTime(cancel);
    if (payment === undefined) budget.take();
    else if (payment !== 'prepaid') budget.spend(payment);
    return this.slots.use(async () => {
      // The limit may have been reached while the request waited for its turn.
      this.inTime(cancel);
      this.sent += 1;
      const startedAt = new Date();
      const begun = performance.now();
      let headed: number | undefined;
      const record = (outcome: { response?: AnswerHead; text?: string; error?: string }) => {
        const now = performance.now();
        this.options.onExchange?.({
          request: sent,
          startedAt,
          waitMs: (headed ?? now) - begun,
          receiveMs: now - (headed ?? now),
          ...outcome,
        });
      };
      let answer: Answer;
      try {
        answer = await this.wire.send(sent, this.options.timeoutMs, this.options.maxResponseBytes);
      } catch (error) {
        const reason = describeError(error);
        record({ error: reason });
        if (errorCodes(error).some((code) => UNREACHABLE_CODES.has(code))) {
          this.unreachable ??= reason;
          throw new TargetUnreachable(sent.url, reason);
        }
        throw this.lostOrLate(sent, error, '');
      }
      const response = answer.head;
      this.answered += 1;
      headed = performance.now();
      let text: string | undefined;
      try {
        text = await answer.body;
      } catch (error) {
        record({ response, error: `body not read: ${describeError(error)}` });
        throw this.lostOrLate(sent, error, 'the answer was cut off: ');
      }
      if (text === undefined) {
        record({ response, error: `not read: longer than ${this.options.maxResponseBytes} bytes (--max-response-bytes)` });
        throw new AnswerTooLarge(sent, this.options.maxResponseBytes);
      }
      record({ response, text });
      let json: unknown;
      let isJson = false;
      try {
        json = JSON.parse(text) as unknown;
        isJson = true;
      } catch {
        json = undefined;
      }
      return { request: sent, status: response.status, headers: response.headers, text, json, isJson, retried: false };
    });
  }
}
