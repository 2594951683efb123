/**
 * The reference server: an in-memory implementation of every operation of v1 and v2 (`schemas/operations.ts`),
 * answering with the package's own validators, defaults, batch partition and error envelope. Pure
 * request → response logic (`handle`), no sockets: `http.ts` puts it on a port, and anything can wrap it.
 *
 * Routes are derived from `operations(version)` (`routes.ts`), one trailing slash tolerated. The demo site (`site.ts`) is served
 * under `/site/`, with its `/robots.txt`, without auth.
 *
 * Order of checks: start endpoints check the bearer token (401) before anything else, so that nobody
 * without one makes the server read or parse a body (issue 13, finding 9; the service parses the JSON
 * first, so a malformed body without a token is its 400 and our 401); then that the body is declared JSON
 * (415, `unsupportedType`; the service reads another type as an empty body); then they parse the JSON (400
 * malformed), check the size (413), the idempotency key where the operation has a 409 (409), then validate
 * the body (400 with `validationErrorBody`) and its selectors (400 too: what `includeTags` / `excludeTags` the
 * reference server runs, `selectorLimits.ts`), then what the job would hold (402/429, `records.ts`; the
 * service checks credits before the body, but the refusal of an invalid body tells more); job endpoints
 * check the token, then (v2) that the id is a UUID (400), then find the job (404 not found / expired).
 *
 * Which jobs a job endpoint answers for: the service runs one status controller, one cancel controller and
 * one errors controller for `/crawl/{id}` and `/batch/scrape/{id}` (facts §8.1), so within a version either
 * path answers for a crawl and for a batch alike (the v1 SDK's `batchScrapeUrls` polls `GET /v1/crawl/{id}`
 * with a batch's id), and a status answer's `next` keeps the path it was asked on (a status answer holds
 * `limit` page records, else `statusPageSize`, 100 by default as the service). Jobs belong to the
 * version they were started with: another version's id is not found (the facts say nothing of one version
 * reading another's job, and each version's page records have their own shape). The active list
 * (`/crawl/active`, `/crawl/ongoing`) shows the running crawls of every version, never a batch, each with
 * its options in the words of the version asked (facts §8.6; see `listedOptions`).
 *
 * Jobs make their pages over time (`jobPages.ts`): a crawl's as it discovers them (`crawler.ts`), a batch's
 * in order (`pageSource.ts`), fetched from the server's own site, from hosts it may reach (its own port on
 * loopback, and what `allowFetchHost` / `resolveHosts` add: `reach.ts`, `fetcher.ts`), or made up for any other host.
 * Each tick of `pageIntervalMs` starts pages until `maxConcurrency` of them (1 without it) are in flight; a
 * crawl with a `delay` starts one page per tick of that many seconds; status `scraping` until every page is done, then
 * `completed`; a cancel stops them and aborts their fetches (`cancelled`, pages done stay readable); a crawl
 * whose path patterns cannot be run is `failed` (from the start, or when a page's links cannot be judged).
 * Jobs expire `jobTtlMs` after creation (404 `Job expired`, remembered for another `jobTtlMs`, then `Job
 * not found`), removed lazily and by a sweep every `jobTtlMs` (kept between 1 s and 60 s), so
 * memory holds at most the jobs created in the last `jobTtlMs` plus one sweep, and their ids a `jobTtlMs`
 * longer, whether anyone asks for them or not (`stats()` tells how many). What those jobs hold is bounded
 * by what the server keeps (`records.ts`: pages per job and in all, bytes in all, each record and each status
 * page), not by how many requests come: a start past it is refused (402 or 429 with the envelope). Page
 * records are kept as JSON text and the active list's options too, so no answer serialises what a caller
 * nested (`jsonText.ts`). Pages fetched are kept in a page cache for later scrapes (`pageCache.ts`: `maxAge`,
 * `storeInCache`), bounded and counted in what the server holds. Webhook deliveries are bounded per job and in
 * all (`webhooks.ts`). Every timer is unref'd, and `close()` clears them all, aborts every fetch and webhook
 * delivery, and empties the page cache.
 *
 * `handle` never throws: an unexpected exception is a 500 with the service's UNKNOWN_ERROR body.
 */
import { randomUUID } from 'node:crypto';
import { NO_VALID_URLS, partitionBatch } from '../../schemas/batchPartition.js';
import { withDefaults } from '../../schemas/defaults.js';
import { parseRequestBody, validationErrorBody } from '../../schemas/errorEnvelope.js';
import { crawlSettings } from '../../schemas/crawl/settings.js';
import type { Version } from '../../schemas/registry.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { Crawler } from './crawler.js';
import { crawlScrapeOptions, listedOptionsText } from './crawlListing.js';
import { createFetcher, FetchGate, MAX_FETCHES_IN_FLIGHT, MAX_FETCHES_PER_JOB, MAX_FETCHES_PER_ORIGIN } from './fetcher.js';
import { JobPages, readGate } from './jobPages.js';
import { PageCache } from './pageCache.js';
import { jobSelectors } from './selectorLimits.js';
import type { ContentSelectors } from './selectorMeter.js';
import { BatchSource, MAX_PAGES_PER_JOB, normalizeAddress, type PageSource } from './pageSource.js';
import { withRawFields } from './jsonText.js';
import { createReach, portOf } from './reach.js';
import { Holdings, keptRecord, statusPage, type KeptRecord, type Refusal, type Ticket } from './records.js';
import { buildRoutes, pathOf, routeOf, type Kind, type Route } from './routes.js';
import { isSitePath, siteResponse } from './site.js';
import { WebhookSender, webhookTarget, type WebhookTarget } from './webhooks.js';
import { isRecord } from '../../schemas/codeRules/codeRule.js';

export interface AppRequest {
  readonly method: string;
  /** Path and query, e.g. `/v2/crawl/<id>?skip=10`. */
  readonly url: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface AppResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface ReferenceAppOptions {
  /** The bearer token every API request must carry, or `'none'` to skip authentication. */
  readonly auth: { readonly token: string } | 'none';
  /** Base URL job addresses (and the synthetic site's addresses) are built from, e.g. `http://127.0.0.1:PORT`. */
  readonly publicUrl: () => string;
  /** Time each scraped page takes, in ms. Default 100. */
  readonly pageIntervalMs?: number;
  /** How long a job stays readable after it is created, in ms. Default 24 h. */
  readonly jobTtlMs?: number;
  /** The clock of creation and expiry times. Default `Date.now`. */
  readonly now?: () => number;
  /** Largest request body accepted, in bytes (UTF-8). Default 10 MB. */
  readonly maxBodyBytes?: number;
  /**
   * Page records a status answer holds when the request gives no `limit`. Default 100, the service's. A
   * smaller page lets a test watch clients that cannot choose one (the v2 SDK) follow `next`.
   */
  readonly statusPageSize?: number;
  /**
   * More hosts (names or addresses) webhooks are delivered to, on `port`, besides loopback (every port); a name
   * is connected to only at an address that is loopback or that this says yes to on every port (`port`
   * undefined). Default: none.
   */
  readonly allowWebhookHost?: (host: string, port: number | undefined) => boolean;
  /**
   * More hosts (names or addresses) jobs fetch pages from, on `port`, besides the server's own port on loopback:
   * other loopback ports are fetched from only when this says yes to them (issue 22, finding 7). A name is
   * connected to only at an address this says yes to on every port (`port` undefined), or a loopback address
   * of `localhost` or of a `resolveHosts` name. Default: none.
   */
  readonly allowFetchHost?: (host: string, port: number | undefined) => boolean;
  /**
   * Host name → IP address for jobs' fetches and webhook deliveries, instead of DNS (e.g. `crawlspec.example.com`
   * → `127.0.0.1`); the names it maps are fetched from on every port.
   */
  readonly resolveHosts?: Readonly<Record<string, string>>;
  /** The secret webhook deliveries are signed with (`X-Firecrawl-Signature`, `webhooks.ts`); without it they are not signed. */
  readonly webhookSecret?: string;
}

export interface ReferenceApp {
  handle(request: AppRequest): Promise<AppResponse>;
  /**
   * The answer to give before a request's body is read, or undefined to read it: a request to an API route
   * without valid credentials, or a start whose Content-Type is not JSON, is refused from its headers alone, so
   * that nobody without a token makes the server read or parse a body (issue 13, finding 9).
   */
  refuseUnread?(request: Omit<AppRequest, 'body'>): AppResponse | undefined;
  /** Stops every timer, fetch and pending webhook delivery; jobs stop progressing. */
  close(): void;
  /** The body size limit `handle` applies (so an HTTP adapter can stop reading early). */
  readonly maxBodyBytes?: number;
}

/** What the app holds in memory: each of these is dropped once it expires, whether anyone asks or not. */
export interface ReferenceAppStats {
  /** Jobs, running or ended, until their `expiresAt`. */
  readonly jobs: number;
  /** Ids of expired jobs, remembered to answer `Job expired` for another `jobTtlMs`. */
  readonly expiredIds: number;
  /** Idempotency keys used, remembered for `jobTtlMs`. */
  readonly idempotencyKeys: number;
  /** Page records reserved by jobs not yet expired (`records.ts`). */
  readonly heldPages: number;
  /** Bytes held by jobs not yet expired: their requests and their records' text. */
  readonly heldBytes: number;
  /** Jobs with webhook events to deliver, and the events queued in all. */
  readonly webhookJobs: number;
  readonly webhookEventsQueued: number;
  /** Pages in the page cache, and the bytes it counts for them (within `heldBytes`). */
  readonly cachedPages: number;
  readonly cachedBytes: number;
}

/** The app `createReferenceApp` makes: a `ReferenceApp` that also tells what it holds (for tests and load runs). */
export interface InMemoryReferenceApp extends ReferenceApp {
  stats(): ReferenceAppStats;
}

export const DEFAULT_PAGE_INTERVAL_MS = 100;
export const DEFAULT_JOB_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const TEAM_ID = 'reference';
const DEFAULT_STATUS_PAGE_SIZE = 100;

type JobState = 'scraping' | 'completed' | 'cancelled' | 'failed';

interface JobError {
  readonly id: string;
  readonly timestamp: string;
  readonly url: string;
  readonly code?: string;
  readonly error: string;
}

interface Job {
  readonly id: string;
  readonly version: Version;
  readonly kind: Kind;
  readonly createdAt: number;
  readonly expiresAt: number;
  state: JobState;
  failure?: string;
  readonly work: JobPages;
  /** Its page records as kept (JSON text), within `ticket`. */
  readonly pages: KeptRecord[];
  readonly ticket: Ticket;
  readonly errors: JobError[];
  readonly concurrency: number;
  /** Time between ticks, in ms. */
  readonly intervalMs: number;
  readonly scrapeOptions: Readonly<Record<string, unknown>>;
  readonly webhook: WebhookTarget | undefined;
  /** Crawls: what the active list shows, with the options (as JSON text) in the words of each version that may ask. */
  readonly listing: { readonly url: string; readonly options: Readonly<Record<Version, string>> } | undefined;
  timer: NodeJS.Timeout | undefined;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGITS = /^\d+$/;

const json = (status: number, body: unknown): AppResponse => ({
  status,
  headers: { 'content-type': JSON_CONTENT_TYPE },
  body: JSON.stringify(body),
});
const failure = (status: number, error: string): AppResponse => json(status, { success: false, error });
const iso = (ms: number): string => new Date(ms).toISOString();
const integer = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : undefined;

/** How many pages a valid start may make: a batch's addresses, a crawl's `limit` within what a crawl fetches. */
function pagesAsked(kind: Kind, body: unknown): number {
  if (!isRecord(body)) return 0;
  if (kind === 'batch') return Array.isArray(body['urls']) ? body['urls'].length : 0;
  // A crawl fetches at most MAX_PAGES_PER_JOB pages, and makes at most `limit` records.
  const limit = body['limit'];
  return typeof limit === 'number' && Number.isFinite(limit)
    ? Math.max(0, Math.min(Math.ceil(limit), MAX_PAGES_PER_JOB))
    : MAX_PAGES_PER_JOB;
}

/** A header, by its lower-case name (tolerating other cases from callers that did not lower them). */
function header(request: AppRequest, name: string): string | undefined {
  const direct = request.headers[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

export function createReferenceApp(options: ReferenceAppOptions): InMemoryReferenceApp {
  const pageIntervalMs = Math.max(0, options.pageIntervalMs ?? DEFAULT_PAGE_INTERVAL_MS);
  const jobTtlMs = Math.max(0, options.jobTtlMs ?? DEFAULT_JOB_TTL_MS);
  const now = options.now ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const statusPageSize = Math.max(1, Math.floor(options.statusPageSize ?? DEFAULT_STATUS_PAGE_SIZE));
  const webhooks = new WebhookSender({
    reach: createReach({
      ...(options.allowWebhookHost === undefined ? {} : { allow: options.allowWebhookHost }),
      ...(options.resolveHosts === undefined ? {} : { resolveHosts: options.resolveHosts }),
    }),
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    ...(options.webhookSecret === undefined ? {} : { secret: options.webhookSecret }),
  });
  const holdings = new Holdings();
  const routes = buildRoutes();
  const base = () => options.publicUrl().replace(/(?<!\/)\/+$/, '');
  const reach = createReach({
    ...(options.allowFetchHost === undefined ? {} : { allow: options.allowFetchHost }),
    ...(options.resolveHosts === undefined ? {} : { resolveHosts: options.resolveHosts }),
    // Of loopback, jobs fetch from the server's own port alone (its public URL's) unless allowed more.
    ownPort: () => {
      try {
        return portOf(new URL(base()));
      } catch {
        return undefined;
      }
    },
  });
  const gate = new FetchGate(MAX_FETCHES_IN_FLIGHT, MAX_FETCHES_PER_JOB, MAX_FETCHES_PER_ORIGIN);
  const fetcher = createFetcher({ reach, base, ownSite: (path) => siteResponse(path, base()), gate });
  const cache = new PageCache({ hold: (bytes) => holdings.holdShared(bytes), release: (bytes) => holdings.releaseShared(bytes), now });
  const reads = readGate();

  const jobs = new Map<string, Job>();
  /** Expired jobs, remembered so that they answer `Job expired`, until `forgetAt`. */
  const expired = new Map<string, { version: Version; forgetAt: number }>();
  /** Idempotency keys used, until they are forgotten. */
  const idempotencyKeys = new Map<string, number>();
  let closed = false;

  // -------------------------------------------------------------------------------------------------------
  // Job lifecycle

  const expire = (job: Job): void => {
    if (job.timer !== undefined) clearTimeout(job.timer);
    job.timer = undefined;
    job.work.stop();
    job.work.end();
    holdings.release(job.ticket);
    webhooks.forget(job.id);
    jobs.delete(job.id);
    expired.set(job.id, { version: job.version, forgetAt: job.expiresAt + jobTtlMs });
  };

  const sweep = (): void => {
    const t = now();
    for (const job of jobs.values()) if (t >= job.expiresAt) expire(job);
    for (const [id, tomb] of expired) if (t >= tomb.forgetAt) expired.delete(id);
    for (const [key, forgetAt] of idempotencyKeys) if (t >= forgetAt) idempotencyKeys.delete(key);
  };
  const sweeper = setInterval(sweep, Math.min(Math.max(jobTtlMs, 1000), 60_000));
  sweeper.unref();

  /** Queues a webhook event of the job; `data` is the JSON text of its array of records. */
  const notify = (job: Job, kind: 'started' | 'page' | 'completed' | 'failed', data = '[]'): void => {
    webhooks.send(job.id, kind, data);
  };

  const schedule = (job: Job): void => {
    if (closed || job.timer !== undefined) return;
    job.timer = setTimeout(() => tick(job), job.intervalMs);
    job.timer.unref();
  };

  /** Lists an error of the job (its errors endpoint). */
  const listError = (job: Job, url: string, code: string | undefined, error: string): void => {
    job.errors.push({ id: randomUUID(), timestamp: iso(now()), url, ...(code === undefined ? {} : { code }), error });
  };

  /** The job ended (completed, cancelled, failed): what it held to go on is dropped and given back; its last notices listed. */
  const ended = (job: Job): void => {
    for (const { url, message } of job.work.end()) listError(job, url, undefined, message);
    holdings.settle(job.ticket);
  };

  const fail = (job: Job, failure: string): void => {
    job.state = 'failed';
    job.failure = failure;
    if (job.timer !== undefined) clearTimeout(job.timer);
    job.timer = undefined;
    job.work.stop();
    ended(job);
    notify(job, 'failed');
  };

  /** Ends the job when every page is done (or it cannot go on), else waits for the next tick. */
  const settle = (job: Job): void => {
    if (job.state !== 'scraping' || jobs.get(job.id) !== job) return;
    if (job.work.failure !== undefined) return fail(job, job.work.failure);
    if (!job.work.finished) return schedule(job);
    if (job.timer !== undefined) clearTimeout(job.timer);
    job.timer = undefined;
    job.state = 'completed';
    ended(job);
    notify(job, 'completed');
  };

  const tick = (job: Job): void => {
    job.timer = undefined;
    if (closed || job.state !== 'scraping' || jobs.get(job.id) !== job) return;
    try {
      if (now() >= job.expiresAt) return expire(job);
      job.work.advance(job.concurrency);
      settle(job);
    } catch (error) {
      fail(job, `The job failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const totalOf = (job: Job): number => job.pages.length + job.work.remaining;

  const createJob = (
    version: Version,
    kind: Kind,
    id: string,
    source: PageSource,
    controller: AbortController,
    effective: Record<string, unknown>,
    scrapeOptions: Readonly<Record<string, unknown>>,
    listing: Job['listing'],
    ticket: Ticket,
    selectors: ContentSelectors,
  ): Job => {
    const createdAt = now();
    // A crawl's delay (seconds between scrapes) makes it scrape one page at a time, that far apart.
    const delay = typeof effective['delay'] === 'number' && kind === 'crawl' ? effective['delay'] * 1000 : undefined;
    const concurrency = delay === undefined ? Math.max(1, integer(effective['maxConcurrency']) ?? 1) : 1;
    // Its events come later (the source is prepared asynchronously, pages on ticks): `job` exists by then.
    const reportError = (url: string, code: string | undefined, error: string): void => listError(job, url, code, error);
    const work = new JobPages(source, {
      version,
      scrapeOptions,
      selectors,
      base,
      fetcher,
      cache,
      reads,
      controller,
      events: {
        page(record) {
          const kept = keptRecord(record);
          const url = String((record['metadata'] as { url?: unknown } | undefined)?.url ?? '');
          if (typeof kept === 'string') return reportError(url, undefined, `${url} is not kept: ${kept}`);
          if (!holdings.keep(job.ticket, kept.bytes)) {
            return reportError(url, undefined, `${url} is not kept: the reference server holds as many page records as it keeps`);
          }
          job.pages.push(kept);
          notify(job, 'page', `[${kept.text}]`);
        },
        error: reportError,
        progress: () => settle(job),
      },
    });
    const job: Job = {
      id,
      version,
      kind,
      createdAt,
      expiresAt: createdAt + jobTtlMs,
      state: source.failure === undefined ? 'scraping' : 'failed',
      ...(source.failure === undefined ? {} : { failure: source.failure }),
      work,
      pages: [],
      ticket,
      errors: [],
      concurrency,
      intervalMs: Math.max(pageIntervalMs, delay ?? 0),
      scrapeOptions,
      webhook: webhookTarget(effective['webhook']),
      listing,
      timer: undefined,
    };
    expired.delete(id);
    jobs.set(id, job);
    if (job.webhook !== undefined) webhooks.open(id, kind, job.webhook);
    notify(job, 'started');
    if (job.state === 'failed') {
      ended(job);
      notify(job, 'failed');
    }
    settle(job);
    return job;
  };

  /** A job of this version, crawl or batch (see the module comment): the job, `'expired'`, or undefined. */
  const find = (version: Version, id: string): Job | 'expired' | undefined => {
    const job = jobs.get(id);
    if (job !== undefined) {
      if (now() >= job.expiresAt) expire(job);
      else return job.version === version ? job : undefined;
    }
    const tomb = expired.get(id);
    if (tomb === undefined || tomb.version !== version) return undefined;
    if (now() >= tomb.forgetAt) {
      expired.delete(id);
      return undefined;
    }
    return 'expired';
  };

  // -------------------------------------------------------------------------------------------------------
  // Checks

  const authorize = (request: AppRequest): AppResponse | undefined => {
    if (options.auth === 'none') return undefined;
    const value = header(request, 'authorization');
    if (value === undefined || value === '') return failure(401, 'Unauthorized');
    const [scheme = '', token, ...rest] = value.trim().split(/\s+/);
    if (token === undefined || token === '') return failure(401, 'Unauthorized: Token missing');
    if (scheme.toLowerCase() !== 'bearer' || rest.length > 0 || token !== options.auth.token) {
      return failure(401, 'Unauthorized: Invalid token');
    }
    return undefined;
  };

  /**
   * A start whose body is not declared JSON: 415 with the envelope. Interface §4: the start endpoints take
   * `Content-Type: application/json`. The service reads any other type (or none) as an empty body and answers
   * 400 (`url`/`urls` Required): this server refuses it before reading the body, so that a web page, which may
   * send `text/plain` (or no type) with no CORS preflight, cannot start a job (issue 22, finding 7). A
   * hardening deviation at service level (docs/reference-server.md); the kit sends JSON as JSON.
   */
  const unsupportedType = (request: AppRequest): AppResponse | undefined => {
    const type = header(request, 'content-type')?.split(';', 1)[0]?.trim().toLowerCase();
    if (type === 'application/json') return undefined;
    const given = type === undefined || type === '' ? 'no Content-Type' : `Content-Type ${JSON.stringify(type.slice(0, 100))}`;
    return failure(415, `Unsupported media type: a start takes a JSON body with Content-Type: application/json, not ${given}`);
  };

  const jobUrl = (route: Route, id: string): string => `${base()}/${route.version}/${route.segments.slice(1).join('/')}/${id}`;

  // -------------------------------------------------------------------------------------------------------
  // Operations

  /** A start's refusal for what the server holds (`records.ts`), as the envelope. */
  const refusedFor = (refusal: Refusal): AppResponse => failure(refusal.status, refusal.error);

  const start = (route: Route, request: AppRequest): AppResponse => {
    // The token first, before the body is parsed (the service parses first; see `refuseUnread`).
    const denied = authorize(request);
    if (denied !== undefined) return denied;
    const notJson = unsupportedType(request);
    if (notJson !== undefined) return notJson;
    const parsed = parseRequestBody(request.body);
    if (!parsed.ok) return json(400, parsed.body);
    const requestBytes = Buffer.byteLength(request.body, 'utf8');
    if (requestBytes > maxBodyBytes) return failure(413, 'Request body is too large');

    const idempotencyKey = route.operation.responses['409'] !== undefined ? header(request, 'x-idempotency-key') : undefined;
    if (idempotencyKey !== undefined && (!UUID.test(idempotencyKey) || idempotencyKeys.has(idempotencyKey.toLowerCase()))) {
      return failure(409, 'Idempotency key already used');
    }

    const { version } = route;
    const name = `${version}/${route.operation.requestBody ?? ''}` as SchemaName;
    const result = validate(name, parsed.value);
    if (!result.valid) return json(400, validationErrorBody(version, result.errors));
    const raw = parsed.value as Record<string, unknown>;
    // Parsed and compiled once for the job; a crawl's are in its scrapeOptions.
    const selectors = route.kind === 'crawl' ? jobSelectors(raw['scrapeOptions'], ['scrapeOptions']) : jobSelectors(raw, []);
    if ('issues' in selectors) return json(400, validationErrorBody(version, selectors.issues));

    // What the job may hold (`records.ts`): a batch appended to holds more; any other start is a new job.
    const pages = pagesAsked(route.kind, raw);
    const what = route.kind === 'crawl' ? 'this crawl may make' : 'this batch asks for';
    const appendTo = route.kind === 'batch' && typeof raw['appendToId'] === 'string' ? raw['appendToId'].toLowerCase() : undefined;
    let appending = appendTo === undefined ? undefined : jobs.get(appendTo);
    if (appending !== undefined && now() >= appending.expiresAt) {
      expire(appending);
      appending = undefined;
    }
    if (appending !== undefined && (appending.version !== version || appending.kind !== 'batch')) {
      return failure(400, 'appendToId must be the id of a batch scrape job of this version');
    }
    const resumes = appending !== undefined && (appending.state === 'completed' || appending.state === 'scraping');
    let ticket: Ticket | undefined;
    if (appending === undefined) {
      const admitted = holdings.admit(pages, requestBytes, what);
      if ('status' in admitted) return refusedFor(admitted);
      ticket = admitted;
    } else if (resumes) {
      const refused = holdings.extend(appending.ticket, pages, what);
      if (refused !== undefined) return refusedFor(refused);
    }

    const effective = withDefaults(name, raw) as Record<string, unknown>;
    if (idempotencyKey !== undefined) idempotencyKeys.set(idempotencyKey.toLowerCase(), now() + jobTtlMs);
    const controller = new AbortController();

    if (route.kind === 'crawl') {
      const scrapeOptions = crawlScrapeOptions(version, effective);
      const start = normalizeAddress(String(raw['url']))?.href ?? String(raw['url']);
      const held = ticket!;
      const crawler = new Crawler({
        settings: crawlSettings(version, raw, start),
        sourceURL: String(raw['url']),
        fetcher,
        signal: controller.signal,
        hold: (bytes, until) => holdings.hold(held, bytes, until),
      });
      const id = randomUUID();
      const listing = { url: String(effective['url']), options: listedOptionsText(version, raw, effective) };
      createJob(version, 'crawl', id, crawler, controller, effective, scrapeOptions, listing, ticket!, selectors);
      return json(200, { success: true, id, url: jobUrl(route, id) });
    }

    const partition = partitionBatch(version, raw);
    if (partition.outcome === 'rejected') {
      if (ticket !== undefined) holdings.release(ticket);
      return failure(400, NO_VALID_URLS); // validate() refuses these first
    }
    const counted = (url: URL) => fetcher.sourceOf(url) !== 'synthetic';
    const extras = partition.invalidURLs === undefined ? {} : { invalidURLs: [...partition.invalidURLs] };
    if (appending !== undefined) {
      if (resumes) {
        appending.work.append(partition.valid);
        appending.state = 'scraping';
        settle(appending);
      }
      return json(200, { success: true, id: appending.id, url: jobUrl(route, appending.id), ...extras });
    }
    // An appendToId of no job (or of one that just expired) names the new job.
    const id = appendTo ?? randomUUID();
    createJob(
      version,
      'batch',
      id,
      new BatchSource(partition.valid, counted),
      controller,
      effective,
      effective,
      undefined,
      ticket!,
      selectors,
    );
    return json(200, { success: true, id, url: jobUrl(route, id), ...extras });
  };

  /** Auth, the v2 id format, then the job; or the answer that stops there. */
  const jobFor = (
    route: Route,
    request: AppRequest,
    id: string,
    notFound: (message: string) => AppResponse,
  ): { readonly job: Job } | { readonly answer: AppResponse } => {
    const denied = authorize(request);
    if (denied !== undefined) return { answer: denied };
    if (route.version === 'v2' && !UUID.test(id)) return { answer: failure(400, 'Invalid job ID format. Job ID must be a valid UUID.') };
    const job = find(route.version, id.toLowerCase());
    if (job === 'expired') return { answer: notFound('Job expired') };
    return job === undefined ? { answer: notFound('Job not found') } : { job };
  };

  const status = (route: Route, request: AppRequest, job: Job): AppResponse => {
    const query = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
    const skipText = query.get('skip') ?? '';
    const limitText = query.get('limit') ?? '';
    const skip = DIGITS.test(skipText) ? Math.min(Number(skipText), Number.MAX_SAFE_INTEGER) : 0;
    const limitGiven = DIGITS.test(limitText) && Number(limitText) > 0;
    const limit = limitGiven ? Math.min(Number(limitText), Number.MAX_SAFE_INTEGER) : statusPageSize;
    // At most `limit` records and STATUS_PAGE_MAX_BYTES of them: a record that does not fit opens the next page.
    const { data, end } = statusPage(job.pages, skip, limit);
    const more = job.state === 'scraping' || end < job.pages.length;
    const next = `${base()}/${route.version}/${route.segments.slice(1, -1).join('/')}/${job.id}?skip=${end}${limitGiven ? `&limit=${limit}` : ''}`;
    const head = {
      success: job.state !== 'failed',
      status: job.state,
      completed: job.pages.length,
      total: totalOf(job),
      creditsUsed: job.pages.length,
      expiresAt: iso(job.expiresAt),
      ...(more ? { next } : {}),
      ...(job.failure !== undefined ? { error: job.failure } : {}),
    };
    return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: withRawFields(head, { data }) };
  };

  const cancel = (job: Job): AppResponse => {
    if (job.state === 'completed' || job.state === 'failed') return json(409, { error: 'Crawl is already completed' });
    if (job.state === 'scraping') {
      job.state = 'cancelled';
      if (job.timer !== undefined) clearTimeout(job.timer);
      job.timer = undefined;
      job.work.stop();
      ended(job);
      // What was not delivered yet is dropped; the receiver still learns that the job ended.
      webhooks.drop(job.id);
      notify(job, 'completed');
    }
    return json(200, { status: 'cancelled' });
  };

  const active = (route: Route): AppResponse => {
    const t = now();
    const crawls = [...jobs.values()]
      .filter((job) => job.kind === 'crawl' && job.state === 'scraping' && t < job.expiresAt)
      .map((job) =>
        withRawFields(
          { id: job.id, teamId: TEAM_ID, url: job.listing?.url ?? '', created_at: iso(job.createdAt) },
          { options: job.listing?.options[route.version] ?? '{}' },
        ),
      );
    return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: `{"success":true,"crawls":[${crawls.join(',')}]}` };
  };

  const respond = (request: AppRequest): AppResponse => {
    const method = request.method.toUpperCase();
    const path = pathOf(request.url);
    if ((method === 'GET' || method === 'HEAD') && isSitePath(path)) {
      const answer = siteResponse(path, base());
      return method === 'HEAD' ? { ...answer, body: '' } : answer;
    }
    const matched = routeOf(routes, method, request.url);
    if (matched === undefined) return failure(404, 'Not found');
    const { route, id } = matched;
    switch (route.action) {
      case 'start':
        return start(route, request);
      case 'active':
        return authorize(request) ?? active(route);
      case 'cancel': {
        const found = jobFor(route, request, id, (error) => json(404, { error }));
        return 'answer' in found ? found.answer : cancel(found.job);
      }
      case 'errors': {
        const found = jobFor(route, request, id, (error) => failure(404, error));
        return 'answer' in found ? found.answer : json(200, { errors: found.job.errors, robotsBlocked: found.job.work.robotsBlocked });
      }
      case 'status': {
        const found = jobFor(route, request, id, (error) => failure(404, error));
        return 'answer' in found ? found.answer : status(route, request, found.job);
      }
    }
  };

  return {
    maxBodyBytes,
    stats: () => {
      const webhookStats = webhooks.stats();
      return {
        jobs: jobs.size,
        expiredIds: expired.size,
        idempotencyKeys: idempotencyKeys.size,
        heldPages: holdings.held.pages,
        heldBytes: holdings.held.bytes,
        webhookJobs: webhookStats.jobs,
        webhookEventsQueued: webhookStats.queued,
        cachedPages: cache.held.pages,
        cachedBytes: cache.held.bytes,
      };
    },
    refuseUnread(request) {
      const matched = routeOf(routes, request.method, request.url);
      if (matched === undefined) return undefined;
      const unread = { ...request, body: '' };
      return authorize(unread) ?? (matched.route.action === 'start' ? unsupportedType(unread) : undefined);
    },
    handle(request: AppRequest): Promise<AppResponse> {
      try {
        return Promise.resolve(respond(request));
      } catch {
        return Promise.resolve(
          json(500, { success: false, code: 'UNKNOWN_ERROR', error: `An unexpected error occurred. Your exception ID is ${randomUUID()}` }),
        );
      }
    },
    close(): void {
      closed = true;
      clearInterval(sweeper);
      for (const job of jobs.values()) {
        if (job.timer !== undefined) clearTimeout(job.timer);
        job.timer = undefined;
        job.work.stop();
      }
      webhooks.close();
      cache.clear();
    },
  };
}
