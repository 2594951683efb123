/**
 * One attempt of a check: it sends requests, holds every answer against what is expected of it (expect.ts:
 * what the interface requires, what the service answers) and records failures, each with its level and
 * everything needed to reproduce it. It stops early by throwing a signal (signals.ts).
 */
import { createHash } from 'node:crypto';
import type { Version } from '../../../schemas/registry.js';
import { BudgetExhausted, type RequestBudget, type Reservation } from '../wire/budget.js';
import { toCurl } from '../wire/curl.js';
import { cut, FAILURE_TEXT_LIMIT } from '../wire/cut.js';
import { holdAnswer } from './expect.js';
import type { Expectation } from '../spec/expectation.js';
import {
  AnswerTooLarge,
  ConnectionLost,
  NoAnswerInTime,
  TargetUnreachable,
  type Auth,
  type Exchange,
  type HttpClient,
  type OutgoingRequest,
} from '../wire/http.js';
import { unusableJobId, type Job, type JobTracker } from '../wire/jobs.js';
import { levelOf, type Level } from '../spec/levels.js';
import type { ResolvedOptions } from './options.js';
import type { Undecided } from '../spec/checkInfo.js';
import type { CrawlGraph, Failure, FailureKind } from '../report/report.js';
import { redactor, runRedaction } from '../wire/redact.js';
import type { Reserve } from '../wire/reserve.js';
import { resend, type Transport } from './transport.js';
import { Inconclusive, Skip, Stop } from './signals.js';
import { OutOfTime } from '../wire/timeLimit.js';
import { KIND_PATH, locate, sameOrigin, type JobKind } from '../spec/operations.js';
import type { SiteModel } from '../../../schemas/crawl/site.js';
import type { SiteOrigins } from '../../site/testSite.js';
import type { Preflight } from './preflight.js';
import { answeredAsMissing, proverOf, type MissingEndpoints } from './endpoints.js';
import type { BaseAnswer } from './baseline.js';
import type { RunEvents } from './events.js';

/** Longest body shown in a failure, in bytes. */
export const BODY_LIMIT = 600;

/** A body cut to BODY_LIMIT bytes, saying how many more there were (cut.ts). */
export const truncate = (text: string, limit = BODY_LIMIT) => cut(text, limit);

export interface Env {
  readonly options: ResolvedOptions;
  /** The checks this run runs (those the user and the target leave in): a missing route fails the one proving it, if it runs. */
  readonly running?: ReadonlySet<string>;
  readonly client: HttpClient;
  /** The budget of the check running: its share of `maxRequests`. */
  readonly budget: RequestBudget;
  readonly jobs: JobTracker;
  /** The site the crawl-behaviour checks crawl, when they run. */
  readonly behaviour?: BehaviourSite;
  /** What the preflight found of the sites the checks rest on (preflight.ts). */
  readonly preflight?: Preflight;
  /** The operations the target answered as not there (endpoints.ts). */
  readonly endpoints: MissingEndpoints;
  /** What the run may send beyond the checks' shares (reserve.ts): resending lost requests, confirming failures. */
  readonly reserve: Reserve;
  /** The run's account of lost connections (transport.ts). */
  readonly transport: Transport;
  /** Where the run tells what happens (events.ts), if anywhere. */
  readonly events?: RunEvents;
}

/** The test site the behaviour checks crawl: where it is, and what it is (for the crawl oracle). */
export interface BehaviourSite {
  readonly origins: SiteOrigins;
  readonly model: SiteModel;
}

/** What a failure is made of; the check's name, the exchange's curl line and answer are added by `fail`. */
export interface FailureInput {
  readonly kind: FailureKind;
  readonly level: Level;
  readonly message: string;
  readonly expected: string;
  readonly section: string;
  readonly exchange?: Exchange;
  readonly request?: string;
  /** What came back, without an exchange of the target's to show (a webhook delivery: its body, and the receiver's status). */
  readonly got?: { readonly status: number; readonly body: string };
  /** The fault that caused it, in the same words wherever it is met (the report groups failures by it). */
  readonly cause?: string;
}

/**
 * The route an answer says is not there (endpoints.ts): its cause, in the same words in every check that meets it
 * (the report counts one fault), and the check that proves the route.
 */
function missingRoute(baseUrl: string, exchange: Exchange): { cause: string; prover: string | undefined } | undefined {
  const located = locate(baseUrl, exchange.request.method, exchange.request.url);
  if (located === undefined || !answeredAsMissing(exchange, located.version, located.operation)) return undefined;
  const { method, path } = located.operation;
  return {
    cause: `${method.toUpperCase()} /${located.version}${path} is not implemented (answers ${exchange.status})`,
    // A job's 404 that is not the envelope may be a missing route or a wrong body for a job it does not know (the
    // answer's own fault): only a route that cannot answer 404 for a job (a start, the active list), or 405/501, is
    // taken as missing for others to rest on.
    prover: exchange.status === 404 && path.includes('{id}') ? undefined : proverOf(located.version, located.operation),
  };
}

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

/** The check an attempt belongs to: its name, and the level it decides from. */
export interface AttemptOf {
  readonly name: string;
  readonly level: Level;
}

export class Attempt {
  readonly failures: Failure[] = [];
  /** Jobs this attempt started (each is cancelled before the attempt ends). */
  readonly started: Job[] = [];
  /** What the attempt could not judge, without stopping (see `leaveUndecided`). */
  readonly notes: Undecided[] = [];
  /** The crawls a behaviour check judged, as graphs of the test site (crawlGraph.ts). */
  readonly crawls: CrawlGraph[] = [];
  requests = 0;
  /** What the target answered to the unbroken bodies refusals were paired with, by body (baseline.ts). */
  readonly baselines = new Map<string, BaseAnswer>();
  /** The request bodies sent, in order, hashed: the same seed gives the same digest. */
  private readonly bodies = createHash('sha256');
  private readonly clean: (text: string) => string;

  constructor(
    readonly of: AttemptOf,
    readonly env: Env,
  ) {
    this.clean = redactor(runRedaction(env.options));
  }

  get check(): string {
    return this.of.name;
  }

  get options(): ResolvedOptions {
    return this.env.options;
  }

  /** Whether the run runs `check` (what the user selected and the target allows). */
  runs(check: string): boolean {
    return this.env.running?.has(check) ?? false;
  }

  /**
   * Notes that something could not be judged, without stopping the attempt; it matters at `level` (by
   * default the check's own: what the check proves rests on it) and above.
   */
  leaveUndecided(reason: string, level: Level = this.of.level, local = false, cause?: string): void {
    this.notes.push({ reason, level, ...(local ? { local } : {}), ...(cause === undefined ? {} : { cause: this.clean(cause) }) });
  }

  /** `{base}/{version}{path}`. */
  url(version: Version, path: string): string {
    return `${this.options.baseUrl}/${version}${path}`;
  }

  /** The digest of the request bodies this attempt sent, in order. */
  digest(): string {
    return this.bodies.copy().digest('hex');
  }

  /**
   * Records a failure, cleaned of the token (each text before it is cut, so that no cut leaves half a token),
   * its texts cut to FAILURE_TEXT_LIMIT bytes (a 12 MB request once made a 12.7 MB report: cut.ts).
   */
  fail(failure: FailureInput): void {
    const { exchange, message, expected, request, got, cause, ...rest } = failure;
    const clean = this.clean;
    const kept = (text: string) => cut(clean(text), FAILURE_TEXT_LIMIT);
    const route = exchange === undefined ? undefined : missingRoute(this.options.baseUrl, exchange);
    // A route that is not there fails the check that proves it, once; a check that only met it rests on it.
    if (route !== undefined && route.prover !== undefined && route.prover !== this.check && this.runs(route.prover)) {
      this.leaveUndecided(`${route.cause}: not judged here (${route.prover} fails for it)`, failure.level, false, route.cause);
      return;
    }
    const missing = cause ?? route?.cause;
    this.failures.push({
      check: this.check,
      ...rest,
      ...(missing === undefined ? {} : { cause: kept(missing) }),
      message: kept(message),
      expected: kept(expected),
      ...(request === undefined ? {} : { request: kept(request) }),
      ...(got === undefined ? {} : { got: { status: got.status, body: truncate(clean(got.body)) } }),
      ...(exchange
        ? { request: kept(toCurl(exchange.request)), got: { status: exchange.status, body: truncate(clean(exchange.text)) } }
        : {}),
    });
  }

  /**
   * What a request body contributes to the digest: the body with the run's own addresses (the target's, the
   * site's, the test site's, which a built-in target or a served site gets on a port of its own) in words, so
   * that the same seed gives the same digest on every run.
   */
  private digestText(text: string): string {
    const { baseUrl, siteUrl } = this.options;
    const origins = this.env.behaviour?.origins;
    const places: [string, string][] = [
      [baseUrl, '{target}'],
      [siteUrl, '{site}'],
      ...(this.options.webhookUrl === undefined ? [] : ([[this.options.webhookUrl, '{webhook receiver}']] as [string, string][])),
      ...(origins === undefined
        ? []
        : ([
            [origins.main, '{test site}'],
            [origins.external, '{test site: external}'],
            ...(origins.subdomain === undefined ? [] : [[origins.subdomain, '{test site: subdomain}']]),
          ] as [string, string][])),
    ];
    return places.sort((a, b) => b[0].length - a[0].length).reduce((out, [place, word]) => out.split(place).join(word), text);
  }

  /** Sends one request; budget and reachability problems skip the check, a missing answer fails it. */
  async send(request: OutgoingRequest, payment?: Reservation | 'prepaid'): Promise<Exchange> {
    if (request.body !== undefined)
      this.bodies.update(
        `${request.method} ${this.digestText('raw' in request.body ? request.body.raw : JSON.stringify(request.body.json))}\n`,
      );
    try {
      const exchange = await this.transmit(request, payment);
      this.requests += exchange.retried ? 2 : 1;
      const located = locate(this.options.baseUrl, request.method, request.url);
      if (located !== undefined && answeredAsMissing(exchange, located.version, located.operation))
        this.env.endpoints.note(this.check, located.version, located.operation, exchange.status);
      return exchange;
    } catch (error) {
      if (error instanceof BudgetExhausted) throw new Skip(error.message);
      if (error instanceof TargetUnreachable) throw new Skip(error.message);
      // The run's time limit (--max-duration): what the check was to prove is not judged (timeLimit.ts).
      if (error instanceof OutOfTime) throw new Inconclusive(error.detail, this.of.level);
      if (error instanceof AnswerTooLarge) {
        this.requests += 1;
        throw new Inconclusive(`${error.message}: raise --max-response-bytes to judge it`, this.of.level);
      }
      if (error instanceof NoAnswerInTime) {
        // The connection stayed open and the target kept the request for the whole timeout the user allows: a
        // finding about the target, not lost transport (docs/contract-kit.md, "Lost connections and timeouts").
        this.requests += 1;
        const located = locate(this.options.baseUrl, request.method, request.url);
        this.fail({
          kind: 'network',
          // No answer from an endpoint the interface defines (a start) breaks it; from another, the service's.
          level: levelOf(located?.operation.source ?? 'service'),
          message: `${error.message}: the connection stayed open and no whole answer came`,
          request: toCurl(error.request),
          expected: `an HTTP answer within ${error.timeoutMs / 1000} s (raise --timeout if the target is that slow)`,
          section: located?.operation.source ?? 'service',
        });
        throw new Stop(error.message);
      }
      throw error;
    }
  }

  /** Sends `request`; one whose connection was lost before an answer is sent once more (transport.ts). */
  private async transmit(request: OutgoingRequest, payment: Reservation | 'prepaid' | undefined): Promise<Exchange> {
    try {
      return await this.env.client.send(request, this.env.budget, payment);
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      this.requests += 1;
      return resend(this, request, error);
    }
  }

  /** Holds `exchange` against `expectation` (see expect.ts); true when everything held, at every level. */
  holds(exchange: Exchange, expectation: Expectation): boolean {
    const before = this.failures.length;
    try {
      return holdAnswer(this, exchange, expectation);
    } finally {
      // Told to the run's listeners: a recording (--record) keeps the expectation of a failing answer, for replay to judge it again.
      if (this.failures.length > before) this.env.events?.judged(exchange, expectation, this.failures.slice(before), this.check);
    }
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
   * POSTs to a start endpoint, with a budget unit held for the cancel. Any 2xx answer with an id (a string,
   * or a number, taken as its digits) is a job to cancel, even when the body was meant to be refused or the
   * status is not the 200 the service answers; the caller cancels it, or the run does at the end.
   */
  async start(
    version: Version,
    kind: JobKind,
    body: { json: unknown } | { raw: string },
    expectation: Expectation,
    auth?: Auth,
  ): Promise<{ exchange: Exchange; ok: boolean; job: Job | undefined }> {
    const { exchange, job } = await this.post(version, kind, body, auth);
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
   * POSTs to a start endpoint without judging the answer; a job it started is tracked (and reported when its id
   * cannot address it) like any other, for the caller to cancel.
   */
  async post(
    version: Version,
    kind: JobKind,
    body: { json: unknown } | { raw: string },
    auth?: Auth,
  ): Promise<{ exchange: Exchange; job: Job | undefined }> {
    let reservation: Reservation;
    try {
      reservation = this.env.budget.takeAndReserve();
    } catch (error) {
      if (error instanceof BudgetExhausted) throw new Skip(error.message);
      throw error;
    }
    let exchange: Exchange;
    try {
      exchange = await this.send({ method: 'POST', url: this.url(version, KIND_PATH[kind]), body, ...(auth ? { auth } : {}) }, 'prepaid');
    } catch (error) {
      this.env.budget.release(reservation);
      throw error;
    }
    const answer = exchange.json as { id?: unknown; url?: unknown } | undefined;
    const id = typeof answer?.id === 'number' && Number.isFinite(answer.id) ? String(answer.id) : answer?.id;
    let job: Job | undefined;
    if (exchange.status >= 200 && exchange.status < 300 && typeof id === 'string' && id.length > 0) {
      job = this.env.jobs.add(version, kind, id, answer?.url, this.env.budget, reservation);
      this.started.push(job);
      const unusable = unusableJobId(id);
      if (unusable !== undefined)
        this.fail({
          kind: 'jobId',
          level: 'service',
          message: `the job id ${JSON.stringify(id.slice(0, 80))} cannot be used in a URL path: ${unusable}`,
          expected: 'a job id that can address the job (the service gives UUIDs)',
          section: 'service',
          exchange,
        });
    } else this.env.budget.release(reservation);
    return { exchange, job };
  }

  /**
   * Cancels `job` and holds the answer: 200 (cancelled) or 409 (it had completed already). True when
   * the answer was one of those and valid.
   */
  async cancel(job: Job): Promise<{ exchange: Exchange | undefined; ok: boolean }> {
    if (job.address === undefined) {
      job.state = 'notCancelled';
      return { exchange: undefined, ok: false };
    }
    let exchange: Exchange;
    try {
      exchange = await this.send({ method: 'DELETE', url: job.address }, job.reservation);
    } catch (error) {
      this.env.jobs.settle(job, undefined);
      throw error;
    }
    this.env.jobs.settle(job, exchange.status);
    return { exchange, ok: this.holds(exchange, { service: { status: [200, 409] } }) };
  }

  /** Cancels a job a check did not mean to start (or whose check is ending), without judging the answer. */
  async cancelQuietly(job: Job): Promise<void> {
    if (job.state !== 'open' || job.cancelAttempts > 0) return;
    if (job.address === undefined) {
      job.state = 'notCancelled';
      return;
    }
    try {
      this.requests += 1;
      const exchange = await this.env.client.send({ method: 'DELETE', url: job.address }, job.budget, job.reservation);
      this.env.jobs.settle(job, exchange.status);
    } catch {
      this.env.jobs.settle(job, undefined);
    }
  }

  /**
   * The address to read a job's status from: the start answer's `url`, which must be the job's status
   * endpoint on this target. A `url` elsewhere is noted and the job's own address is used instead, so the
   * token never leaves the target. Undefined when the job has no address at all, or when its id was given to an
   * earlier start too (left undecided: see `Job.repeated`).
   */
  statusUrl(job: Job, startExchange: Exchange): string | undefined {
    // An id given to an earlier start too names no one job: nothing read there can be told to be this one's.
    if (job.repeated) {
      this.leaveUndecided(
        `the target gave the job id ${JSON.stringify(job.id.slice(0, 80))} to an earlier ${job.version} ${job.kind} start too, so what is read at it cannot be told to be this job's: not followed, and what rests on it was not judged (see ${job.version}.${job.kind}.start.distinctIds)`,
        this.of.level,
        false,
        `the target gives one job id to several ${job.version} ${job.kind} starts`,
      );
      return undefined;
    }
    const own = job.address;
    const given = job.url;
    const expected = `the job's url is its status endpoint on the target${own === undefined ? '' : `: ${own}`}`;
    if (typeof given !== 'string') return own;
    const located = locate(this.options.baseUrl, 'GET', given);
    const fail = (message: string) =>
      // Interface §4: the start answer's url is "url (string, URI)" of the job; that it is the status endpoint is the service's.
      this.fail({ kind: 'jobUrl', level: 'service', message, expected, section: 'service', exchange: startExchange });
    if (!located) {
      if (sameOrigin(given, this.options.baseUrl)) fail(`the job url ${given} is not a status endpoint`);
      // The interface asks only for a URI; the job is read at its own address, and only the service's claim
      // (the url is the status endpoint) is left unjudged.
      else this.leaveUndecided(`the job url ${given} is not on the target; not followed (the token stays with the target)`, 'service');
      return own;
    }
    const wantedOp = jobOperationId(job.version, job.kind, 'get');
    let lastSegment: string;
    try {
      lastSegment = decodeURIComponent(new URL(given).pathname.split('/').pop() ?? '');
    } catch {
      lastSegment = '';
    }
    if (located.operation.operationId !== wantedOp || located.version !== job.version || lastSegment !== job.id) {
      fail(`the job url ${given} is not the status endpoint of job ${job.id} (${located.version} ${located.operation.operationId})`);
      return own;
    }
    return given;
  }

  /**
   * GETs a status page and holds it to the service's status answer. The body is returned whenever it can be
   * read (a 200 JSON object with a `status` and a `data` array), even when it breaks the service's schema
   * elsewhere: a check at interface level (a crawl's behaviour) still judges what it rests on. When it cannot
   * be read, what rests on it is left undecided at the check's level.
   */
  async status(url: string): Promise<{ exchange: Exchange; body: JobStatusBody | undefined }> {
    const { exchange } = await this.call({ method: 'GET', url }, { service: { status: 200 } });
    const json = exchange.json as Partial<JobStatusBody> | null | undefined;
    const readable =
      exchange.status === 200 && typeof json === 'object' && json !== null && typeof json.status === 'string' && Array.isArray(json.data);
    if (!readable) this.leaveUndecided(`the job status at ${url} could not be read (${exchange.status}); what rests on it was not judged`);
    return { exchange, body: readable ? (json as JobStatusBody) : undefined };
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
