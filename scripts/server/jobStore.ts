/**
 * The reference server's jobs and their state: what a job is (`Job`), and the store that creates them, moves them
 * on each tick (`scraping` until every page is done, then `completed`; `failed`, or `cancelled` by its endpoint),
 * tells their webhook events, and expires them `jobTtlMs` after creation (remembered as `Job expired` for another
 * `jobTtlMs`), lazily and by a sweep, with the idempotency keys used (see the module comment of `app.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { Version } from '../../schemas/registry.js';
import { iso } from './answers.js';
import type { Fetcher, FetchGate } from './fetcher.js';
import { jobId } from './jobId.js';
import { JobPages } from './jobPages.js';
import type { PageCache } from './pageCache.js';
import type { PageSource } from './pageSource.js';
import { keptRecord, type Holdings, type KeptRecord, type Ticket } from './records.js';
import type { Kind } from './routes.js';
import type { ContentSelectors } from './selectorMeter.js';
import { webhookTarget, type WebhookEventKind, type WebhookSender, type WebhookTarget } from './webhooks.js';

export type JobState = 'scraping' | 'completed' | 'cancelled' | 'failed';

export interface JobError {
  readonly id: string;
  readonly timestamp: string;
  readonly url: string;
  readonly code?: string;
  readonly error: string;
}

export interface Job {
  readonly id: string;
  readonly version: Version;
  readonly kind: Kind;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** When it ended (completed, cancelled, failed). */
  endedAt?: number;
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

const integer = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : undefined;

/** What the store works with: the app's options as resolved, and the parts of the server its jobs use. */
export interface JobStoreContext {
  readonly now: () => number;
  readonly jobTtlMs: number;
  readonly pageIntervalMs: number;
  readonly base: () => string;
  readonly holdings: Holdings;
  readonly webhooks: WebhookSender;
  readonly fetcher: Fetcher;
  readonly cache: PageCache;
  readonly reads: FetchGate;
}

/** The jobs of one app, and what their endpoints do with them. */
export interface JobStore {
  readonly jobs: Map<string, Job>;
  /** Expired jobs, remembered so that they answer `Job expired`, until `forgetAt`. */
  readonly expired: Map<string, { version: Version; forgetAt: number }>;
  /** Idempotency keys used, until they are forgotten. */
  readonly idempotencyKeys: Map<string, number>;
  expire(job: Job): void;
  /** Queues a webhook event of the job; `data` is the JSON text of its array of records. */
  notify(job: Job, kind: WebhookEventKind, data?: string): void;
  /** The job ended (completed, cancelled, failed): what it held to go on is dropped and given back; its last notices listed. */
  ended(job: Job): void;
  /** Ends the job when every page is done (or it cannot go on), else waits for the next tick. */
  settle(job: Job): void;
  totalOf(job: Job): number;
  /** A new job, its id a UUID version 7 of its creation time. */
  createJob(
    version: Version,
    kind: Kind,
    source: PageSource,
    controller: AbortController,
    effective: Record<string, unknown>,
    scrapeOptions: Readonly<Record<string, unknown>>,
    listing: Job['listing'],
    ticket: Ticket,
    selectors: ContentSelectors,
  ): Job;
  /** A job of this version, crawl or batch (see the module comment of `app.ts`): the job, `'expired'`, or undefined. */
  find(version: Version, id: string): Job | 'expired' | undefined;
  /** Stops the sweep and every job's timer and pages; jobs stop progressing. */
  close(): void;
}

export function createJobStore(context: JobStoreContext): JobStore {
  const { now, jobTtlMs, pageIntervalMs, base, holdings, webhooks, fetcher, cache, reads } = context;

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

  /**
   * Queues a webhook event of the job; `data` is the JSON text of its array of records. The final event of a job
   * that failed is `completed` with its failure (there is no `failed` event: webhooks.ts).
   */
  const notify = (job: Job, kind: WebhookEventKind, data = '[]'): void => {
    webhooks.send(job.id, kind, data, kind === 'completed' ? job.failure : undefined);
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
    job.endedAt = now();
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
    notify(job, 'completed');
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
    source: PageSource,
    controller: AbortController,
    effective: Record<string, unknown>,
    scrapeOptions: Readonly<Record<string, unknown>>,
    listing: Job['listing'],
    ticket: Ticket,
    selectors: ContentSelectors,
  ): Job => {
    const createdAt = now();
    const id = jobId(createdAt);
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
    jobs.set(id, job);
    if (job.webhook !== undefined) webhooks.open(id, kind, job.webhook);
    notify(job, 'started');
    if (job.state === 'failed') {
      ended(job);
      notify(job, 'completed');
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

  return {
    jobs,
    expired,
    idempotencyKeys,
    expire,
    notify,
    ended,
    settle,
    totalOf,
    createJob,
    find,
    close(): void {
      closed = true;
      clearInterval(sweeper);
      for (const job of jobs.values()) {
        if (job.timer !== undefined) clearTimeout(job.timer);
        job.timer = undefined;
        job.work.stop();
      }
    },
  };
}
