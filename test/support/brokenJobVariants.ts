/**
 * The broken variants of the reference server whose defect is in a job's life (its status, pages, cancel, errors,
 * the active list, an unknown job, its webhook), each with exactly one defect; test/support/brokenServers.ts says
 * what a variant must show.
 */
import { randomUUID } from 'node:crypto';
import type { AppRequest } from '../../scripts/server/app.js';
import { BROKEN_WEBHOOKS } from './webhookVariants.js';
import { around, pathOf } from './appWrap.js';
import { ALL_CHECKS, type BrokenServer, VERSIONS, editAnswer, everyStart, startOf } from './brokenServerParts.js';

/** A job endpoint (status, cancel, errors) of either version: a path with a job id. */
function isJobEndpoint(request: AppRequest): boolean {
  const path = pathOf(request);
  if (/^\/v[12]\/crawl\/(active|ongoing)$/.test(path)) return false;
  return /^\/v[12]\/(crawl|batch\/scrape)\/[^/]+(\/errors)?$/.test(path);
}

/** A status read: `GET /v1|v2/crawl|batch/scrape/{id}`. */
const isStatusRead = (request: AppRequest): boolean =>
  request.method.toUpperCase() === 'GET' && isJobEndpoint(request) && !pathOf(request).endsWith('/errors');

/**
 * Every check that expects an error answer at service level (and so validates the error envelope): the auth
 * checks, malformed JSON, unknown job ids, the rule cases, the batches refused for invalid URLs, the invalid
 * starts.
 */
const ERROR_ANSWER_CHECKS = ALL_CHECKS.filter((name) =>
  /^(auth|json)\.|\.status\.undocumentedStatus$|\.rule\.|\.batch\.invalidURLs\.|\.start\.invalid\./.test(name),
);

/** Every check that starts a job and holds the answer to its cancel (`Attempt.cancel`), except the cancel checks. */
const CANCELLING_CHECKS = ALL_CHECKS.filter((name) =>
  /\.batch\.invalidURLs\.|\.status$|\.status\.pagination$|\.errors$|\.active$|\.start\.valid(\.service)?$|\.start\.(fieldAlone|enumValue)$/.test(
    name,
  ),
);

/** The variants whose defect is in a job's life (`isJobVariant`). */
export const BROKEN_JOB_VARIANTS: readonly BrokenServer[] = [
  {
    name: 'errors.withoutSuccess',
    defect: 'Every 4xx JSON answer lacks success: false.',
    level: 'service',
    expectedFailingChecks: ERROR_ANSWER_CHECKS,
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (answer.status < 400 || answer.status >= 500) return answer;
        return editAnswer(answer, ({ success: _dropped, ...rest }) => rest);
      }),
  },
  {
    name: 'status.completedAsString',
    defect: 'Status answers carry completed as a string (e.g. "2") instead of a number.',
    level: 'service',
    expectedFailingChecks: VERSIONS.flatMap((v) => [
      `${v}.status`,
      `${v}.status.pagination`,
      `${v}.errors`,
      `${v}.crawl.start.valid`,
      `${v}.batch.start.valid`,
      `${v}.crawl.start.valid.service`,
      `${v}.batch.start.valid.service`,
      // Each webhook check follows its job to its end.
      `${v}.webhook.crawl`,
      `${v}.webhook.batch`,
      `${v}.webhook.events`,
      `${v}.webhook.signature`,
    ]),
    // The cancel checks read the status only after a cancel answered 200, the active checks only when their crawl is not listed.
    mayAlsoFail: ['v1.cancel', 'v2.cancel', 'v1.active', 'v2.active'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (!isStatusRead(request) || answer.status !== 200) return answer;
        return editAnswer(answer, (body) =>
          typeof body['completed'] === 'number' ? { ...body, completed: String(body['completed']) } : body,
        );
      }),
  },
  {
    name: 'status.nextPointsNowhere',
    defect: 'Status answers point next at the status of a job that does not exist.',
    level: 'service',
    expectedFailingChecks: ['v1.status.pagination', 'v2.status.pagination'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (!isStatusRead(request) || answer.status !== 200) return answer;
        return editAnswer(answer, (body) => {
          if (typeof body['next'] !== 'string') return body;
          const url = new URL(body['next']);
          url.pathname = url.pathname.replace(/[^/]+$/, randomUUID());
          return { ...body, next: url.href };
        });
      }),
  },
  {
    name: 'status.skipAndLimitIgnored',
    defect: 'Status reads of an ended job ignore skip and limit: every read gives every result, as the service of mid-2025 did.',
    level: 'service',
    expectedFailingChecks: ['v1.status.pagination', 'v2.status.pagination'],
    wrap: (app) =>
      around(app, (request, next) => {
        if (!isStatusRead(request) || !request.url.includes('?')) return next(request);
        return next({ ...request, url: request.url.split('?', 1)[0]! });
      }),
  },
  {
    name: 'cancel.wrongShape',
    defect: "A successful cancel answers {success: true} instead of {status: 'cancelled'}.",
    level: 'service',
    expectedFailingChecks: ['v1.cancel', 'v2.cancel'],
    mayAlsoFail: CANCELLING_CHECKS,
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (request.method.toUpperCase() !== 'DELETE' || answer.status !== 200) return answer;
        return { ...answer, body: JSON.stringify({ success: true }) };
      }),
  },
  {
    name: 'errors.neverListed',
    defect: 'The errors endpoint lists no error, even for a job whose page failed.',
    level: 'service',
    expectedFailingChecks: ['v1.errors', 'v2.errors'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (request.method.toUpperCase() !== 'GET' || !/\/errors$/.test(pathOf(request)) || answer.status !== 200) return answer;
        return editAnswer(answer, (body) => ({ ...body, errors: [] }));
      }),
  },
  {
    name: 'active.runningNotListed',
    defect: 'The active-crawl list is always empty, even while crawls run.',
    level: 'service',
    expectedFailingChecks: ['v1.active', 'v2.active'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (!/^\/v[12]\/crawl\/(active|ongoing)$/.test(pathOf(request)) || answer.status !== 200) return answer;
        return editAnswer(answer, (body) => ({ ...body, crawls: [] }));
      }),
  },
  {
    name: 'jobs.unknownIs418',
    defect: 'The job endpoints answer 418 (a status no operation documents) where they would answer 404 for an unknown job.',
    level: 'service',
    expectedFailingChecks: ['v1.status.undocumentedStatus', 'v2.status.undocumentedStatus'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        return isJobEndpoint(request) && answer.status === 404 ? { ...answer, status: 418 } : answer;
      }),
  },
  {
    name: 'jobs.malformedIdNotFound',
    defect: 'A v1 status read of an id that is not a UUID answers 404 Job not found, as the service did before 2025-12-02.',
    level: 'service',
    expectedFailingChecks: ['v1.status.undocumentedStatus'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (!isStatusRead(request) || !pathOf(request).startsWith('/v1/') || answer.status !== 400) return answer;
        return { ...answer, status: 404, body: JSON.stringify({ success: false, error: 'Job not found' }) };
      }),
  },
  {
    name: 'jobs.sameId',
    defect:
      'Every start is answered with the job id (and url) of the first job of its kind started, as a mock of the OpenAPI document does.',
    level: 'interface',
    expectedFailingChecks: everyStart('start.distinctIds'),
    wrap: (app) => {
      const first = new Map<string, { id: unknown; url: unknown }>();
      return around(app, async (request, next) => {
        const answer = await next(request);
        const start = startOf(request);
        if (start === undefined || answer.status !== 200) return answer;
        return editAnswer(answer, (body) => {
          const key = `${start.version} ${start.kind}`;
          const given = first.get(key) ?? { id: body['id'], url: body['url'] };
          first.set(key, given);
          return { ...body, id: given.id, url: given.url };
        });
      });
    },
  },
  // A webhook dropped, or its metadata: the defects issue 23 names. The others of webhookVariants.ts are run on the
  // webhook checks alone (test/webhookChecks.test.ts): they change nothing but what a webhook delivers.
  ...BROKEN_WEBHOOKS.filter((v) => v.name === 'webhook.dropped' || v.name === 'webhook.metadataDropped'),
];
