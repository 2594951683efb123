/**
 * The endpoints of a job once started: finding it (the token, the id format, then the job: 404 not found or
 * expired), its status (its page records a page at a time, with `next`), its cancel, and the active list of
 * running crawls (see the module comment of `app.ts`).
 */
import { failure, iso, json, JSON_CONTENT_TYPE } from './answers.js';
import type { AppRequest, AppResponse } from './appInterface.js';
import type { Job, JobStore } from './jobStore.js';
import { withRawFields } from './jsonText.js';
import { statusPage } from './records.js';
import { UUID } from './requestChecks.js';
import type { Route } from './routes.js';
import type { WebhookSender } from './webhooks.js';

export const TEAM_ID = 'reference';
const DIGITS = /^\d+$/;

/** What the job endpoints work with: the app's token check and options as resolved, its webhooks and its jobs. */
export interface JobEndpointsContext {
  readonly authorize: (request: AppRequest) => AppResponse | undefined;
  readonly base: () => string;
  readonly now: () => number;
  readonly statusPageSize: number;
  /** Status answers say `creditsUsed: -1` (see `ReferenceAppOptions.creditsUnknown`). */
  readonly creditsUnknown: boolean;
  readonly webhooks: WebhookSender;
  readonly store: JobStore;
}

export interface JobEndpoints {
  /** Auth, the v2 id format, then the job; or the answer that stops there. */
  jobFor(
    route: Route,
    request: AppRequest,
    id: string,
    notFound: (message: string) => AppResponse,
  ): { readonly job: Job } | { readonly answer: AppResponse };
  status(route: Route, request: AppRequest, job: Job): AppResponse;
  cancel(job: Job): AppResponse;
  active(route: Route): AppResponse;
}

export function jobEndpoints(context: JobEndpointsContext): JobEndpoints {
  const { authorize, base, now, statusPageSize, creditsUnknown, webhooks } = context;
  const { jobs, find, ended, notify, totalOf } = context.store;

  /** Auth, the v2 id format, then the job; or the answer that stops there. */
  const jobFor = (
    route: Route,
    request: AppRequest,
    id: string,
    notFound: (message: string) => AppResponse,
  ): { readonly job: Job } | { readonly answer: AppResponse } => {
    const denied = authorize(request);
    if (denied !== undefined) return { answer: denied };
    // The operations that answer 400 for an id that is not a UUID (schemas/operations.ts: v2's, and the v1 status read).
    if (route.operation.responses['400'] !== undefined && !UUID.test(id))
      return { answer: failure(400, 'Invalid job ID format. Job ID must be a valid UUID.') };
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
    // next while the job runs or results remain. The service since 2025-10-23 keeps it on a cancelled or failed job
    // whose results are all read too, pointing at the same empty page again: a client that follows next until it
    // is absent (the official v2 SDK) would never stop, so the reference server does not.
    const more = job.state === 'scraping' || end < job.pages.length;
    const next = `${base()}/${route.version}/${route.segments.slice(1, -1).join('/')}/${job.id}?skip=${end}${limitGiven ? `&limit=${limit}` : ''}`;
    const head = {
      success: job.state !== 'failed',
      status: job.state,
      completed: job.pages.length,
      total: totalOf(job),
      creditsUsed: creditsUnknown ? -1 : job.pages.length,
      expiresAt: iso(job.expiresAt),
      ...(more ? { next } : {}),
      ...(job.failure !== undefined ? { error: job.failure } : {}),
      // v2 since 2026-06-12: when the job was created and ended, and how long it ran (in seconds).
      ...(route.version === 'v2'
        ? {
            createdAt: iso(job.createdAt),
            ...(job.endedAt === undefined ? {} : { completedAt: iso(job.endedAt) }),
            duration: Math.max(0, (job.endedAt ?? now()) - job.createdAt) / 1000,
          }
        : {}),
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

  return { jobFor, status, cancel, active };
}
