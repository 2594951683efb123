/**
 * The HTTP operations of each version: method, path, body, and every status the service answers with.
 * The interface gives the four start endpoints (§4) and the bearer header (§5); status, cancel, errors and
 * active-job endpoints, error statuses and their bodies are "not shown" there and follow the service.
 * Schemas are named definitions of the version (see `registry.ts`).
 */
import type { Version } from './registry.js';

export interface ResponseSpec {
  readonly description: string;
  /** Name of the body's definition in this version. */
  readonly schema: string;
  /** Named examples of the body. */
  readonly examples: Readonly<Record<string, unknown>>;
}

/** `idempotencyKey`: the `x-idempotency-key` request header. */
export type ParameterName = 'id' | 'skip' | 'limit' | 'idempotencyKey';

export interface OperationSpec {
  /** Stable identifier, unique across versions (the version is part of it). */
  readonly operationId: string;
  readonly method: 'get' | 'post' | 'delete';
  /** Path below the version segment, e.g. `/crawl/{id}`. */
  readonly path: string;
  readonly tag: 'Crawl' | 'Batch scrape';
  readonly summary: string;
  readonly description: string;
  readonly source: 'interface §4' | 'service';
  readonly deprecated?: boolean;
  /** Name of the request body's definition. */
  readonly requestBody?: string;
  readonly parameters: readonly ParameterName[];
  readonly responses: Readonly<Record<string, ResponseSpec>>;
}

const error = (message: string, extra: Record<string, unknown> = {}) => ({ success: false, error: message, ...extra });
const JOB_ID = '0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e';

/**
 * An example of each parameter, which the OpenAPI documents carry: a tool that sends requests from them (Dredd) has
 * nothing to put in a path without one. The id is the job the answers' examples are about, and `skip` 0 asks for the
 * first page, the one the status example shows.
 */
export const PARAMETER_EXAMPLES: Readonly<Record<ParameterName, string | number>> = {
  id: JOB_ID,
  skip: 0,
  limit: 10,
  idempotencyKey: '3f2b8c1e-5a4d-4e6f-9b7a-0c1d2e3f4a5b',
};
const BASE = 'http://localhost:3002';

/** Every operation answers these when the caller is not allowed in, or something breaks. */
const authAndFailure = {
  '401': {
    description: 'The `Authorization` header is missing, has no token, or the token is not valid.',
    schema: 'ErrorResponse',
    examples: {
      missing: error('Unauthorized'),
      noToken: error('Unauthorized: Token missing'),
      invalid: error('Unauthorized: Invalid token'),
    },
  },
  '429': {
    description: 'Rate limit exceeded; retry later.',
    schema: 'ErrorResponse',
    examples: { rateLimited: error('Rate limit exceeded. Please retry after 30s.') },
  },
  '500': {
    description: 'Unexpected server error.',
    schema: 'ErrorResponse',
    examples: {
      unknown: error('An unexpected error occurred. Your exception ID is 0196e7e2-0000-7000-8000-000000000000', { code: 'UNKNOWN_ERROR' }),
    },
  },
} as const satisfies Record<string, ResponseSpec>;

const badRequest = (version: Version, kind: 'crawl' | 'batch'): ResponseSpec => ({
  description:
    'The body is not valid JSON, breaks a rule of the request schema (details list every problem), or holds a path pattern that is not a valid regular expression.',
  schema: 'ErrorResponse',
  examples: {
    validation: error('Bad Request', {
      code: 'BAD_REQUEST',
      details: [
        kind === 'crawl'
          ? { code: 'invalid_type', message: 'Required', path: ['url'] }
          : { code: 'invalid_type', message: 'Required', path: ['urls'] },
      ],
    }),
    // The service words the top-level error for v2 on every route; the detail names the route's version.
    unknownKey: error('Unrecognized key in body -- please review the v2 API documentation for request body changes', {
      code: 'BAD_REQUEST',
      details: [
        {
          code: 'unrecognized_keys',
          message: `Unrecognized key in body -- please review the ${version} API documentation for request body changes`,
          keys: ['maxDepth'],
          path: [],
        },
      ],
    }),
    malformedJson: error('Bad request, malformed JSON', { code: 'BAD_REQUEST_INVALID_JSON' }),
  },
});

/** The starts the service checks an `x-idempotency-key` on: v1 crawl and batch, v2 crawl (not the v2 batch). */
const honoursIdempotency = (version: Version, kind: 'crawl' | 'batch') => version === 'v1' || kind === 'crawl';

const startErrors = (version: Version, kind: 'crawl' | 'batch') => ({
  '400': badRequest(version, kind),
  '402': {
    description: 'Not enough credits for the request.',
    schema: 'ErrorResponse',
    examples: { credits: error('Insufficient credits to perform this request.') },
  },
  '403': {
    description: 'The site is not supported, or the caller may not use headers or actions from its country.',
    schema: 'ErrorResponse',
    examples: { blocked: error('This website is no longer supported.') },
  },
  ...(kind === 'batch'
    ? {
        '404': {
          description: '`appendToId` names no batch job of the caller.',
          schema: 'ErrorResponse',
          examples: { unknownBatch: error('Job not found') },
        },
      }
    : {}),
  ...(honoursIdempotency(version, kind)
    ? {
        '409': {
          description: 'The `x-idempotency-key` header was used before, or is not a UUID.',
          schema: 'ErrorResponse',
          examples: { reused: error('Idempotency key already used') },
        },
      }
    : {}),
  '413': {
    description: 'The body is larger than the service accepts (10 MB).',
    schema: 'ErrorResponse',
    examples: { tooLarge: error('Request body is too large') },
  },
});

const notFound = (schema: string, withSuccess: boolean): ResponseSpec => ({
  description: "No job with this id belongs to the caller (another team's job included), or it has expired.",
  schema,
  examples: withSuccess ? { notFound: error('Job not found'), expired: error('Job expired') } : { notFound: { error: 'Job not found' } },
});

/**
 * The 400 of an id that is not a UUID (the service since 2025-12-02): every v2 job endpoint, and the v1 status read
 * (`onV1`); other v1 endpoints answer such an id as no job (404).
 */
const invalidId = (version: Version, onV1 = false): Record<string, ResponseSpec> =>
  version === 'v2' || onV1
    ? {
        '400': {
          description: 'The job id is not a UUID (the service since 2025-12-02).',
          schema: 'ErrorResponse',
          examples: { invalidId: error('Invalid job ID format. Job ID must be a valid UUID.') },
        },
      }
    : {};

export function operations(version: Version): OperationSpec[] {
  const v = version.toUpperCase();
  const jobOps = (kind: 'crawl' | 'batch'): OperationSpec[] => {
    const path = kind === 'crawl' ? '/crawl' : '/batch/scrape';
    const noun = kind === 'crawl' ? 'Crawl' : 'BatchScrape';
    const label = kind === 'crawl' ? 'crawl' : 'batch scrape';
    const tag = kind === 'crawl' ? 'Crawl' : 'Batch scrape';
    const url = `${BASE}/${version}${path}/${JOB_ID}`;
    return [
      {
        operationId: `start${noun}${v}`,
        method: 'post',
        path,
        tag,
        summary: `Start a ${label}`,
        description:
          kind === 'crawl'
            ? 'Starts crawling from one address. The answer carries only the job id and its address; read the results from the status endpoint.'
            : 'Starts scraping a list of addresses. The answer carries the job id, its address and, when invalid addresses are ignored, the ones that were dropped.',
        source: 'interface §4',
        requestBody: kind === 'crawl' ? 'CrawlRequest' : 'BatchScrapeRequest',
        parameters: honoursIdempotency(version, kind) ? ['idempotencyKey'] : [],
        responses: {
          '200': {
            description: `The ${label} job was created.`,
            schema: kind === 'crawl' ? 'CrawlStartResponse' : 'BatchScrapeStartResponse',
            examples:
              kind === 'crawl'
                ? { started: { success: true, id: JOB_ID, url } }
                : {
                    started: { success: true, id: JOB_ID, url },
                    someInvalid: { success: true, id: JOB_ID, url, invalidURLs: ['not a url'] },
                  },
          },
          ...startErrors(version, kind),
          ...authAndFailure,
        },
      },
      {
        operationId: `get${noun}Status${v}`,
        method: 'get',
        path: `${path}/{id}`,
        tag,
        summary: `Get a ${label}'s status and results`,
        description: 'Returns the job state, counters and one page of scraped pages. Follow `next` for the following page of results.',
        source: 'service',
        parameters: ['id', 'skip', 'limit'],
        responses: {
          '200': {
            description: 'Status and one page of results.',
            schema: 'JobStatusResponse',
            examples: {
              scraping: {
                success: true,
                status: 'scraping',
                completed: 1,
                total: 3,
                creditsUsed: 1,
                expiresAt: '2026-11-23T10:00:00.000Z',
                next: `${url}?skip=1`,
                data: [
                  {
                    markdown: '# Example',
                    metadata: { sourceURL: 'https://example.com/docs', url: 'https://example.com/docs', statusCode: 200, title: 'Example' },
                  },
                ],
                ...(version === 'v2' ? { createdAt: '2026-11-22T10:00:00.000Z', duration: 12.5 } : {}),
              },
              // A self-hosted service without database authentication knows no credits (the service since 2025-10-23).
              selfHosted: {
                success: true,
                status: 'completed',
                completed: 0,
                total: 0,
                creditsUsed: -1,
                expiresAt: '2026-11-23T10:00:00.000Z',
                data: [],
                ...(version === 'v2'
                  ? { createdAt: '2026-11-22T10:00:00.000Z', completedAt: '2026-11-22T10:00:02.000Z', duration: 2 }
                  : {}),
              },
              // A job that failed to start (the service since 2025-10-23).
              failedToStart: {
                success: false,
                status: 'failed',
                error: 'The start address could not be fetched.',
                completed: 0,
                total: 0,
                creditsUsed: 0,
                expiresAt: '2026-11-23T10:00:00.000Z',
                next: `${url}?skip=0`,
                data: [],
              },
            },
          },
          ...invalidId(version, true),
          '404': notFound('ErrorResponse', true),
          ...authAndFailure,
        },
      },
      {
        operationId: `cancel${noun}${v}`,
        method: 'delete',
        path: `${path}/{id}`,
        tag,
        summary: `Cancel a ${label}`,
        description: 'Stops the job. Pages already scraped stay readable from the status endpoint.',
        source: 'service',
        parameters: ['id'],
        responses: {
          '200': { description: 'The job is cancelled.', schema: 'CancelResponse', examples: { cancelled: { status: 'cancelled' } } },
          ...invalidId(version),
          '403': {
            description: 'The job belongs to another team (the service before 2025-10-29; since then such a job is not found, 404).',
            schema: 'CancelErrorResponse',
            examples: { otherTeam: { error: 'Unauthorized' } },
          },
          '404': notFound('CancelErrorResponse', false),
          '409': {
            description: 'The job has already completed (the service since 2025-10-29).',
            schema: 'CancelErrorResponse',
            examples: { completed: { error: 'Crawl is already completed' } },
          },
          ...authAndFailure,
          // The cancel endpoint answers an unexpected error without `success` too.
          '500': {
            description: 'Unexpected server error.',
            schema: 'CancelErrorResponse',
            examples: { unknown: { error: 'An unexpected error occurred.' } },
          },
        },
      },
      {
        operationId: `get${noun}Errors${v}`,
        method: 'get',
        path: `${path}/{id}/errors`,
        tag,
        summary: `List a ${label}'s failed pages`,
        description: 'Returns the pages that failed, and the addresses robots.txt kept the job from.',
        source: 'service',
        parameters: ['id'],
        responses: {
          '200': {
            description: 'Failures of the job.',
            schema: 'JobErrorsResponse',
            examples: {
              errors: {
                errors: [
                  {
                    id: 'c0ffee00-0000-4000-8000-000000000001',
                    timestamp: '2026-11-22T10:00:00.000Z',
                    url: 'https://example.com/slow',
                    code: 'SCRAPE_TIMEOUT',
                    error: 'Scrape timed out',
                  },
                ],
                robotsBlocked: ['https://example.com/private'],
              },
            },
          },
          ...invalidId(version),
          '403': { description: 'The job belongs to another team.', schema: 'ErrorResponse', examples: { otherTeam: error('Forbidden') } },
          '404': notFound('ErrorResponse', true),
          ...authAndFailure,
        },
      },
    ];
  };
  const active = (path: string, deprecated: boolean): OperationSpec => ({
    operationId: deprecated ? `listOngoingCrawls${v}` : `listActiveCrawls${v}`,
    method: 'get',
    path,
    tag: 'Crawl',
    summary: deprecated ? 'List running crawls (alias of /crawl/active)' : 'List running crawls',
    description: "Lists the caller's crawls that have not finished or been cancelled. Batch scrapes are not listed.",
    source: 'service',
    ...(deprecated ? { deprecated: true } : {}),
    parameters: [],
    responses: {
      '200': {
        description: 'The running crawls.',
        schema: 'ActiveCrawlsResponse',
        examples: {
          active: {
            success: true,
            crawls: [
              {
                id: JOB_ID,
                teamId: 'team-1',
                url: 'https://example.com/docs',
                created_at: '2026-11-22T10:00:00.000Z',
                options: { limit: 10 },
              },
            ],
          },
        },
      },
      ...authAndFailure,
    },
  });
  const paramsPreview: OperationSpec = {
    operationId: `previewCrawlParams${v}`,
    method: 'post',
    path: '/crawl/params-preview',
    tag: 'Crawl',
    summary: 'Preview the crawler options of a prompt',
    description:
      'Generates the crawler options a `prompt` stands for, for a `url`, without starting a crawl: what a crawl started with that prompt would run with, before options sent beside it win over them.',
    source: 'service',
    requestBody: 'CrawlParamsPreviewRequest',
    parameters: [],
    responses: {
      '200': {
        description: 'The options generated from the prompt.',
        schema: 'CrawlParamsPreviewResponse',
        examples: { preview: { success: true, data: { url: 'https://example.com/docs', includePaths: ['^/docs/blog/.*'], limit: 50 } } },
      },
      '400': {
        description:
          'The body breaks the request schema (the messages of its problems follow "Invalid request parameters:", with no `details`), or no options could be generated from the prompt.',
        schema: 'ErrorResponse',
        examples: {
          invalid: error('Invalid request parameters: Required', { code: 'BAD_REQUEST' }),
          prompt: error('Failed to process natural language prompt. Please try rephrasing.'),
        },
      },
      '402': startErrors(version, 'crawl')['402'],
      ...authAndFailure,
    },
  };
  return [
    ...jobOps('crawl'),
    ...(version === 'v2' ? [paramsPreview] : []),
    active('/crawl/active', false),
    active('/crawl/ongoing', true),
    ...jobOps('batch'),
  ];
}
