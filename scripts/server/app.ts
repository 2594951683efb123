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
import { failure, json } from './answers.js';
import type { AppRequest, AppResponse, InMemoryReferenceApp } from './appInterface.js';
import {
  DEFAULT_JOB_TTL_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PAGE_INTERVAL_MS,
  DEFAULT_STATUS_PAGE_SIZE,
  WEBHOOK_TIMEOUT_MS,
  type ReferenceAppOptions,
} from './appOptions.js';
import { createFetcher, FetchGate, MAX_FETCHES_IN_FLIGHT, MAX_FETCHES_PER_JOB, MAX_FETCHES_PER_ORIGIN } from './fetcher.js';
import { jobEndpoints } from './jobEndpoints.js';
import { readGate } from './jobPages.js';
import { startOperation } from './jobStart.js';
import { createJobStore } from './jobStore.js';
import { PageCache } from './pageCache.js';
import { createReach, portOf } from './reach.js';
import { Holdings } from './records.js';
import { authorizer, unsupportedType } from './requestChecks.js';
import { buildRoutes, pathOf, routeOf } from './routes.js';
import { isSitePath, siteResponse } from './site.js';
import { WebhookSender } from './webhooks.js';

// The package's `./server` entry: what it exported before these were split off.
export type { AppRequest, AppResponse, InMemoryReferenceApp, ReferenceApp, ReferenceAppStats } from './appInterface.js';
export type { ReferenceAppOptions } from './appOptions.js';
export { DEFAULT_JOB_TTL_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_PAGE_INTERVAL_MS, WEBHOOK_TIMEOUT_MS } from './appOptions.js';
export { TEAM_ID } from './jobEndpoints.js';

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

  const store = createJobStore({ now, jobTtlMs, pageIntervalMs, base, holdings, webhooks, fetcher, cache, reads });
  const { jobs, expired, idempotencyKeys } = store;

  // -------------------------------------------------------------------------------------------------------
  // Checks

  const authorize = authorizer(options.auth);

  // -------------------------------------------------------------------------------------------------------
  // Operations

  const start = startOperation({ authorize, base, now, jobTtlMs, maxBodyBytes, holdings, fetcher, store });
  const { jobFor, status, cancel, active } = jobEndpoints({
    authorize,
    base,
    now,
    statusPageSize,
    creditsUnknown: options.creditsUnknown === true,
    webhooks,
    store,
  });

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
      store.close();
      webhooks.close();
      cache.clear();
    },
  };
}
