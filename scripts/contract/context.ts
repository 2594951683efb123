/**
 * One attempt of a check: it sends requests, holds every answer against the spec (documented status,
 * expected status, body schema) and records failures with everything needed to reproduce them. Control
 * flow out of an attempt: `Skip` (no budget, target gone), `Inconclusive` (an answer that depends on the
 * account: 402, 403, 429), `Stop` (a failure was recorded and the rest of the attempt is meaningless).
 */
import type { Version } from '../../schemas/registry.js';
import { BudgetExhausted, type RequestBudget, type Reservation } from './budget.js';
import { toCurl } from './curl.js';
import { NetworkFailure, TargetUnreachable, type Auth, type Exchange, type HttpClient, type OutgoingRequest } from './http.js';
import type { Job, JobTracker } from './jobs.js';
import type { ResolvedOptions } from './options.js';
import type { Failure, FailureKind } from './report.js';
import { bodyProblems, documentedStatuses, KIND_PATH, locate, type JobKind, type OperationSpec } from './spec.js';

export class Skip extends Error {
  override name = 'Skip';
}
export class Inconclusive extends Error {
  override name = 'Inconclusive';
}
export class Stop extends Error {
  override name = 'Stop';
}

/** Answers that depend on the account (credits, plan, rate limits), not on the interface. */
export const ACCOUNT_DEPENDENT = new Set([402, 403, 429]);

/** Longest body shown in a failure. */
export const BODY_LIMIT = 600;

export const truncate = (text: string, limit = BODY_LIMIT) =>
  text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;

export interface Env {
  readonly options: ResolvedOptions;
  readonly client: HttpClient;
  readonly budget: RequestBudget;
  readonly jobs: JobTracker;
}

export interface Expectation {
  /** The statuses that pass. */
  readonly status: number | readonly number[];
  /** What the interface expects, in words; by default the statuses and their bodies' definitions. */
  readonly expected?: string;
  /** The section the expectation comes from; by default the operation's `source`. */
  readonly section?: string;
}

const statusList = (e: Expectation): readonly number[] => (typeof e.status === 'number' ? [e.status] : e.status);

const NOUN: Record<JobKind, string> = { crawl: 'Crawl', batch: 'BatchScrape' };

/** The operation id of a job operation, e.g. `getBatchScrapeStatusV2`. */
export function jobOperationId(version: Version, kind: JobKind, op: 'start' | 'get' | 'cancel' | 'errors'): string {
  const noun = NOUN[kind];
  const v = version.toUpperCase();
  return op === 'start'
    ? `start${noun}${v}`
    : op === 'get'
      ? `get${noun}Status${v}`
      : op === 'cancel'
        ? `cancel${noun}${v}`
        : `get${noun}Errors${v}`;
}

export class Attempt {
  readonly failures: Failure[] = [];
  /** Jobs this attempt started (each is cancelled before the attempt ends). */
  readonly started: Job[] = [];
  /** Set when the attempt learnt something that makes the check inconclusive without stopping it. */
  note: string | undefined;
  requests = 0;

  constructor(
    readonly check: string,
    readonly env: Env,
  ) {}

  get options(): ResolvedOptions {
    return this.env.options;
  }

  /** `{base}/{version}{path}`. */
  url(version: Version, path: string): string {
    return `${this.options.baseUrl}/${version}${path}`;
  }

  fail(failure: { kind: FailureKind; message: string; expected: string; section: string; exchange?: Exchange; request?: string }): void {
    const { exchange, ...rest } = failure;
    this.failures.push({
      check: this.check,
      ...rest,
      ...(exchange ? { request: toCurl(exchange.request), got: { status: exchange.status, body: truncate(exchange.text) } } : {}),
    });
  }

  /** Sends one request; budget and reachability problems skip the check, a missing answer fails it. */
  async send(request: OutgoingRequest, payment?: Reservation | 'prepaid'): Promise<Exchange> {
    try {
      const exchange = await this.env.client.send(request, payment);
      this.requests += exchange.retried ? 2 : 1;
      return exchange;
    } catch (error) {
      if (error instanceof BudgetExhausted) throw new Skip(`maxRequests (${this.options.maxRequests}) reached`);
      if (error instanceof TargetUnreachable) throw new Skip(error.message);
      if (error instanceof NetworkFailure) {
        this.requests += 1;
        this.failures.push({
          check: this.check,
          kind: 'network',
          message: `no answer: ${error.reason}`,
          request: toCurl(error.request),
          got: { status: null, body: error.reason },
          expected: 'an HTTP answer',
          section: 'service',
        });
        throw new Stop(error.message);
      }
      throw error;
    }
  }

  /**
   * Holds `exchange` against the spec: an account-dependent status makes the check inconclusive; a
   * status the operation does not document fails (`undocumentedStatus`); so does one outside `expectation`;
   * then the body must be valid for the documented schema of that status. True when everything held.
   */
  holds(exchange: Exchange, expectation: Expectation): boolean {
    const { request, status } = exchange;
    const located = locate(this.options.baseUrl, request.method, request.url);
    const wanted = statusList(expectation);
    if (ACCOUNT_DEPENDENT.has(status) && !wanted.includes(status))
      throw new Inconclusive(`${status} from ${request.method} ${new URL(request.url).pathname}: depends on the account`);
    if (!located) {
      this.fail({
        kind: 'unknownOperation',
        message: `${request.method} ${request.url} is not an operation of the interface`,
        expected: 'an address of a documented operation (schemas/operations.ts)',
        section: 'service',
        exchange,
      });
      return false;
    }
    const { version, operation } = located;
    const described = expectation.expected ?? this.describe(version, operation, wanted);
    const section = expectation.section ?? operation.source;
    if (!(String(status) in operation.responses)) {
      this.fail({
        kind: 'undocumentedStatus',
        message: `${status} is not a status ${operation.operationId} documents (${documentedStatuses(operation).join(', ')})`,
        expected: described,
        section: operation.source,
        exchange,
      });
      return false;
    }
    if (!wanted.includes(status)) {
      this.fail({ kind: 'status', message: `${status} where ${wanted.join(' or ')} was expected`, expected: described, section, exchange });
      return false;
    }
    const schema = operation.responses[String(status)]!.schema;
    if (!exchange.isJson) {
      this.fail({
        kind: 'body',
        message: `the ${status} body is not JSON`,
        expected: described,
        section: operation.source,
        exchange,
      });
      return false;
    }
    const problems = bodyProblems(version, schema, exchange.json);
    if (problems.length > 0) {
      const first = problems[0]!;
      this.fail({
        kind: 'body',
        message: `the ${status} body is not a valid ${version}/${schema}: ${problems
          .slice(0, 3)
          .map((p) => `${p.path} (${p.schema}): ${p.message}`)
          .join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}`,
        expected: described,
        section: first.section,
        exchange,
      });
      return false;
    }
    return true;
  }

  describe(version: Version, operation: OperationSpec, statuses: readonly number[]): string {
    return statuses
      .map((s) => {
        const response = operation.responses[String(s)];
        return response ? `${s} with a body valid as ${version}/${response.schema}` : `${s}`;
      })
      .join(', or ');
  }

  /** Sends and holds the answer against `expectation`. */
  async call(
    request: OutgoingRequest,
    expectation: Expectation,
    payment?: Reservation | 'prepaid',
  ): Promise<{ exchange: Exchange; ok: boolean }> {
    const exchange = await this.send(request, payment);
    return { exchange, ok: this.holds(exchange, expectation) };
  }

  /**
   * POSTs to a start endpoint, with a budget unit held for the cancel. Any 200 answer with an id is a job
   * to cancel (even when the body was meant to be refused); the caller cancels it, or the run does at the end.
   */
  async start(
    version: Version,
    kind: JobKind,
    body: { json: unknown } | { raw: string },
    expectation: Expectation,
    auth?: Auth,
  ): Promise<{ exchange: Exchange; ok: boolean; job: Job | undefined }> {
    let reservation: Reservation;
    try {
      reservation = this.env.budget.takeAndReserve();
    } catch (error) {
      if (error instanceof BudgetExhausted) throw new Skip(`maxRequests (${this.options.maxRequests}) reached`);
      throw error;
    }
    let exchange: Exchange;
    try {
      exchange = await this.send({ method: 'POST', url: this.url(version, KIND_PATH[kind]), body, ...(auth ? { auth } : {}) }, 'prepaid');
    } catch (error) {
      this.env.budget.release(reservation);
      throw error;
    }
    const id = (exchange.json as { id?: unknown } | undefined)?.id;
    let job: Job | undefined;
    if (exchange.status === 200 && typeof id === 'string' && id.length > 0) {
      job = this.env.jobs.add(version, kind, id, (exchange.json as { url?: unknown }).url, reservation);
      this.started.push(job);
    } else this.env.budget.release(reservation);
    let ok: boolean;
    try {
      ok = this.holds(exchange, expectation);
    } catch (error) {
      if (job) await this.cancelQuietly(job);
      throw error;
    }
    return { exchange, ok, job };
  }

  /**
   * Cancels `job` and holds the answer: 200 (cancelled) or 409 (it had completed already). True when
   * the answer was one of those and valid.
   */
  async cancel(job: Job): Promise<{ exchange: Exchange; ok: boolean }> {
    const request: OutgoingRequest = { method: 'DELETE', url: this.env.jobs.address(job) };
    let exchange: Exchange;
    try {
      exchange = await this.send(request, job.reservation);
    } catch (error) {
      this.env.jobs.settle(job, undefined);
      throw error;
    }
    this.env.jobs.settle(job, exchange.status);
    return { exchange, ok: this.holds(exchange, { status: [200, 409] }) };
  }

  /** Cancels a job a check did not mean to start (or whose check is ending), without judging the answer. */
  async cancelQuietly(job: Job): Promise<void> {
    if (job.state !== 'open' || job.cancelAttempts > 0) return;
    try {
      this.requests += 1;
      const exchange = await this.env.client.send({ method: 'DELETE', url: this.env.jobs.address(job) }, job.reservation);
      this.env.jobs.settle(job, exchange.status);
    } catch {
      this.env.jobs.settle(job, undefined);
    }
  }

  /**
   * The address to read a job's status from: the start answer's `url`, which must be the job's status
   * endpoint on this target. A `url` elsewhere is noted and the job's own address is used instead, so the
   * token never leaves the target.
   */
  statusUrl(job: Job, startExchange: Exchange): string {
    const own = this.env.jobs.address(job);
    const given = job.url;
    const expected = `the job's url is its status endpoint on the target: ${own}`;
    if (typeof given !== 'string') return own;
    const located = locate(this.options.baseUrl, 'GET', given);
    if (!located) {
      let sameOrigin = false;
      try {
        sameOrigin = new URL(given).origin === new URL(this.options.baseUrl).origin;
      } catch {
        sameOrigin = false;
      }
      if (sameOrigin)
        this.fail({
          kind: 'jobUrl',
          message: `the job url ${given} is not a status endpoint`,
          expected,
          section: 'interface §4',
          exchange: startExchange,
        });
      else this.note = `the job url ${given} is not on the target; not followed (the token stays with the target)`;
      return own;
    }
    const wantedOp = jobOperationId(job.version, job.kind, 'get');
    const lastSegment = decodeURIComponent(new URL(given).pathname.split('/').pop() ?? '');
    if (located.operation.operationId !== wantedOp || located.version !== job.version || lastSegment !== job.id) {
      this.fail({
        kind: 'jobUrl',
        message: `the job url ${given} is not the status endpoint of job ${job.id} (${located.version} ${located.operation.operationId})`,
        expected,
        section: 'interface §4',
        exchange: startExchange,
      });
      return own;
    }
    return given;
  }

  /** GETs a status page; the body when it is a valid 200 status answer. */
  async status(url: string): Promise<{ exchange: Exchange; body: JobStatusBody | undefined }> {
    const { exchange, ok } = await this.call({ method: 'GET', url }, { status: 200 });
    return { exchange, body: ok ? (exchange.json as JobStatusBody) : undefined };
  }
}

export interface JobStatusBody {
  readonly success: boolean;
  readonly status: 'scraping' | 'completed' | 'failed' | 'cancelled';
  readonly completed: number;
  readonly total: number;
  readonly next?: string | null;
  readonly data: readonly unknown[];
}
