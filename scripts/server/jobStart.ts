/**
 * Starting a job (`POST /{version}/crawl`, `/{version}/batch/scrape`): the token, the body's type, JSON, size and
 * idempotency key, its validation and selectors, then what the job may hold (`records.ts`), in that order (see
 * the module comment of `app.ts`); a crawl gets a `Crawler`, a batch its addresses or those appended to a batch.
 */
import { NO_VALID_URLS, partitionBatch } from '../../schemas/batchPartition.js';
import { isRecord } from '../../schemas/codeRules/codeRule.js';
import { crawlSettings } from '../../schemas/crawl/settings.js';
import { withDefaults } from '../../schemas/defaults.js';
import { parseRequestBody, validationErrorBody } from '../../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { failure, json } from './answers.js';
import type { AppRequest, AppResponse } from './appInterface.js';
import { Crawler } from './crawler.js';
import { crawlScrapeOptions, listedOptionsText } from './crawlListing.js';
import type { Fetcher } from './fetcher.js';
import type { JobStore } from './jobStore.js';
import { BatchSource, MAX_PAGES_PER_JOB, normalizeAddress } from './pageSource.js';
import type { Holdings, Refusal, Ticket } from './records.js';
import { header, unsupportedType, UUID } from './requestChecks.js';
import type { Kind, Route } from './routes.js';
import { jobSelectors } from './selectorLimits.js';

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

/** What a start works with: the app's token check and options as resolved, what it holds, fetches with, and its jobs. */
export interface StartContext {
  readonly authorize: (request: AppRequest) => AppResponse | undefined;
  readonly base: () => string;
  readonly now: () => number;
  readonly jobTtlMs: number;
  readonly maxBodyBytes: number;
  readonly holdings: Holdings;
  readonly fetcher: Fetcher;
  readonly store: JobStore;
}

/** The start operation of an app: its answer to a start request, the job created (or appended to) if it is a 200. */
export function startOperation(context: StartContext): (route: Route, request: AppRequest) => AppResponse {
  const { authorize, base, now, jobTtlMs, maxBodyBytes, holdings, fetcher } = context;
  const { jobs, idempotencyKeys, expire, createJob, settle } = context.store;

  const jobUrl = (route: Route, id: string): string => `${base()}/${route.version}/${route.segments.slice(1).join('/')}/${id}`;

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
    // The service as of 2026-08-21: an appendToId must name a job of the caller that is still there.
    if (appendTo !== undefined && appending === undefined) return failure(404, 'Job not found');
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
      const listing = { url: String(effective['url']), options: listedOptionsText(version, raw, effective) };
      const { id } = createJob(version, 'crawl', crawler, controller, effective, scrapeOptions, listing, ticket!, selectors);
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
    const { id } = createJob(
      version,
      'batch',
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

  return start;
}
