/**
 * Job endpoints' answers (start, status, cancel, errors, active jobs) and webhook event payloads. The
 * interface gives the start answers (§4), and says they carry only their fields (§1: "only `success`, `id`,
 * `url` (and `invalidURLs` for batch)"), so those are closed (the service's extension fields aside). The rest
 * is "not shown" there and follows the service; those answers are open objects: a client must tolerate keys
 * added later.
 */
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { Named, fromInterface, fromService, fromServiceSince, keywordSources } from '../annotations.js';
import { Literals } from '../literals.js';
import { StringMap } from './stringMap.js';
import { errorCode } from './errors.js';

const jobId = () =>
  Type.String({ description: 'Job identifier.', examples: ['0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e'], ...fromInterface('§4') });
const jobUrl = (description: string) =>
  Type.String({ format: 'uri', description, ...fromInterface('§4'), ...keywordSources({ format: 'interface §4' }) });
const startSuccess = () => Type.Literal(true, { description: 'True when the job was created.', ...fromInterface('§4') });

/**
 * The answers of one version, around its page record `Document`; `crawlStartExtras` are the fields that
 * version adds to the crawl start answer.
 */
export function jobSchemas<D extends TSchema, E extends TProperties>(Document: D, crawlStartExtras: E) {
  const CrawlStartResponse = Named(
    'CrawlStartResponse',
    Type.Object(
      {
        success: startSuccess(),
        id: jobId(),
        url: jobUrl('Address of the crawl job (its status endpoint).'),
        ...crawlStartExtras,
      },
      {
        description: 'Answer to starting a crawl.',
        additionalProperties: false,
        ...fromInterface('§4'),
        ...keywordSources({ required: 'interface §4', additionalProperties: 'interface §1' }),
      },
    ),
  );

  const BatchScrapeStartResponse = Named(
    'BatchScrapeStartResponse',
    Type.Object(
      {
        success: startSuccess(),
        id: jobId(),
        url: jobUrl('Address of the batch job (its status endpoint).'),
        invalidURLs: Type.Optional(
          Type.Union([Type.Array(Type.String()), Type.Null()], {
            description:
              'With `ignoreInvalidURLs` true: the entries of `urls` that were invalid, as sent (empty when none were). Absent when `ignoreInvalidURLs` is false.',
            ...fromInterface('§4'),
          }),
        ),
      },
      {
        description: 'Answer to starting a batch scrape.',
        additionalProperties: false,
        ...fromInterface('§4'),
        ...keywordSources({ required: 'interface §4', additionalProperties: 'interface §1' }),
      },
    ),
  );

  const JobStatus = Named(
    'JobStatus',
    Type.Union([Type.Literal('scraping'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')], {
      description: 'State of the job: `scraping` while running, then `completed`, `cancelled` or `failed`.',
      ...fromService(),
    }),
  );

  const count = (description: string) => Type.Integer({ minimum: 0, description, ...fromService() });
  const JobStatusResponse = Named(
    'JobStatusResponse',
    Type.Object(
      {
        success: Type.Boolean({
          description:
            'True unless the job failed. A job that failed to start answers 200 with `success: false`, `status: "failed"`, its `error`, `completed: 0`, `total: 0` and `data: []`.',
          ...fromServiceSince('2025-10-23'),
        }),
        status: JobStatus,
        completed: count('Pages scraped successfully so far.'),
        total: Type.Integer({
          minimum: 0,
          description: 'Pages of the job: completed, being scraped, queued and waiting to be queued (failed pages are not counted).',
          ...fromServiceSince('2025-10-23'),
        }),
        creditsUsed: Type.Union([Type.Number({ minimum: 0 }), Type.Literal(-1)], {
          description:
            'Credits billed so far, or -1 when they are not known, which is always so on a self-hosted service without database authentication (before 2025-10-23 the service answered an estimate, never below 0).',
          ...fromServiceSince('2025-10-23'),
        }),
        expiresAt: Type.String({ format: 'date-time', description: 'When the job and its results expire (ISO 8601).', ...fromService() }),
        next: Type.Optional(
          Type.String({
            format: 'uri',
            description:
              'Address of the next page of results: present while the job is not `completed` (scraping, cancelled or failed) and, once completed, while more results remain. Without a next page the key is left out (never null). Before 2025-10-23 the service left it out of an ended job with no more results, cancelled or not.',
            ...fromServiceSince('2025-10-23'),
          }),
        ),
        data: Type.Array(Document, { description: 'Scraped pages of this page of results, in completion order.', ...fromService() }),
        warning: Type.Optional(
          Type.String({ description: 'Warning about the job, e.g. pages blocked by robots.txt.', ...fromServiceSince('2025-10-02') }),
        ),
        error: Type.Optional(Type.String({ description: 'Why the job failed.', ...fromServiceSince('2025-10-23') })),
        createdAt: Type.Optional(
          Type.String({ format: 'date-time', description: 'When the job was created (v2 answers).', ...fromServiceSince('2026-06-12') }),
        ),
        completedAt: Type.Optional(
          Type.String({ format: 'date-time', description: 'When the job ended (v2 answers, once it has ended).', ...fromServiceSince('2026-06-12') }),
        ),
        duration: Type.Optional(
          Type.Number({
            minimum: 0,
            description: 'Run time of the job in seconds: from creation to its end, or to now while it runs (v2 answers).',
            ...fromServiceSince('2026-06-12'),
          }),
        ),
      },
      { description: 'Status and results of a crawl or batch scrape job, one page of results at a time.', ...fromService() },
    ),
  );

  const CancelResponse = Named(
    'CancelResponse',
    Type.Object(
      { status: Type.Literal('cancelled', { description: 'The job is cancelled.', ...fromService() }) },
      { description: 'Answer to cancelling a job (no `success` field).', ...fromService() },
    ),
  );

  const JobError = Named(
    'JobError',
    Type.Object(
      {
        id: Type.String({ description: 'Identifier of the failed scrape.', ...fromService() }),
        timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'When the scrape failed.', ...fromService() })),
        url: Type.String({ description: 'Address of the page that failed.', ...fromService() }),
        code: Type.Optional(errorCode('Error code of the failure.')),
        error: Type.String({ description: 'Why the page failed.', ...fromService() }),
      },
      { description: 'A page of the job that failed.', ...fromService() },
    ),
  );

  const JobErrorsResponse = Named(
    'JobErrorsResponse',
    Type.Object(
      {
        errors: Type.Array(JobError, { description: 'Pages that failed.', ...fromService() }),
        robotsBlocked: Type.Array(Type.String(), { description: 'Addresses skipped because robots.txt disallows them.', ...fromService() }),
      },
      { description: 'Failures of a job (no `success` field).', ...fromService() },
    ),
  );

  const ActiveCrawl = Named(
    'ActiveCrawl',
    Type.Object(
      {
        id: Type.String({ description: 'Crawl job identifier.', ...fromService() }),
        teamId: Type.String({ description: 'Team that owns the crawl.', ...fromService() }),
        url: Type.String({ description: 'Address the crawl started from.', ...fromService() }),
        created_at: Type.String({ format: 'date-time', description: 'When the crawl was created (ISO 8601, UTC).', ...fromService() }),
        options: Type.Object(
          {},
          { description: "Crawler options of the crawl, in this version's vocabulary, plus `scrapeOptions`.", ...fromService() },
        ),
      },
      { description: 'A crawl that is still running.', ...fromService() },
    ),
  );

  const ActiveCrawlsResponse = Named(
    'ActiveCrawlsResponse',
    Type.Object(
      {
        success: Type.Literal(true, { description: 'Always true on success.', ...fromService() }),
        crawls: Type.Array(ActiveCrawl, { description: "The caller's running crawls (batch scrapes are not listed).", ...fromService() }),
      },
      { description: 'Running crawls of the caller.', ...fromService() },
    ),
  );

  const WebhookEvent = Named(
    'WebhookEvent',
    Type.Object(
      {
        success: Type.Boolean({ description: 'True unless the event reports a failure.', ...fromService() }),
        type: Literals(
          [
            'crawl.started',
            'crawl.page',
            'crawl.completed',
            'batch_scrape.started',
            'batch_scrape.page',
            'batch_scrape.completed',
          ],
          {
            description:
              'Event name: job kind and event kind. `crawl.failed` is no event of the service as of 2026-08-21 (the service of mid-2025 had it in its types but never sent it).',
            ...fromService(),
          },
        ),
        id: Type.String({ description: 'Identifier of the crawl or batch job.', ...fromService() }),
        data: Type.Array(Document, { description: 'For a page event, the scraped page; empty for other events.', ...fromService() }),
        error: Type.Optional(Type.String({ description: 'Error text, on a failure.', ...fromService() })),
        metadata: Type.Optional(StringMap),
        webhookId: Type.Optional(
          Type.String({
            format: 'uuid',
            description: 'Identifier of this delivery, stable across retries: use it to drop duplicates.',
            ...fromServiceSince('2025-09-04'),
          }),
        ),
      },
      { description: 'Body the service POSTs to the webhook address for each event.', ...fromService() },
    ),
  );

  return {
    CrawlStartResponse,
    BatchScrapeStartResponse,
    JobStatusResponse,
    CancelResponse,
    JobErrorsResponse,
    ActiveCrawlsResponse,
    WebhookEvent,
  };
}
