/**
 * Deliberately broken variants of the reference server, each with exactly one defect, for proving that
 * the contract kit (scripts/contract/) catches each defect, and catches it under the checks whose meaning
 * it breaks. A variant wraps a correct `ReferenceApp`'s `handle`: it rewrites the request before the real
 * app sees it and/or the answer after; the reference server itself is never changed.
 *
 * `expectedFailingChecks` lists every check that must fail against the variant: the check named after the
 * broken rule, plus the checks that, by their own meaning, also hold the broken answer against the interface
 * whatever the timing and the seed (e.g. every check that reads a job's status validates the status body).
 * `mayAlsoFail` lists the checks that hold it too but reach it only by chance. No other check may fail.
 *
 * A cancel check needs a job still running when its DELETE arrives: the kit starts up to three per kind
 * (a job that completed first is answered 409, a right answer that shows nothing of the 200 answer).
 */
import { randomUUID } from 'node:crypto';
import { parseRequestBody } from '../../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { checkNames } from '../../scripts/contract/run.js';
import type { AppRequest, AppResponse, ReferenceApp } from '../../scripts/server/app.js';

/** The token the variants' apps are created with; the missing-auth variant injects it. */
export const BROKEN_SERVER_TOKEN = 't';

export interface BrokenServer {
  /** Short stable identifier, e.g. `invalidURLs.missingWhenIgnoring`. */
  readonly name: string;
  /** The one defect, in one sentence. */
  readonly defect: string;
  /** The kit checks that must fail against this variant; every other check must not (but see `mayAlsoFail`). */
  readonly expectedFailingChecks: readonly string[];
  /**
   * Checks that hold the same broken answer by their meaning too, but reach it only by chance: by timing (a
   * cancel answers 200 only while the job is still running, and against a fast target most jobs have ended,
   * 409, before the kit cancels them) or by the generator (a generated body that happens to hit the broken
   * case, depending on the seed). They may fail or pass; no check outside both lists may fail.
   */
  readonly mayAlsoFail?: readonly string[];
  wrap(app: ReferenceApp): ReferenceApp;
}

type Next = (request: AppRequest) => Promise<AppResponse>;
type Handler = (request: AppRequest, next: Next) => Promise<AppResponse>;

/** `app` with `handler` in front of its `handle`; `close` and `maxBodyBytes` are the app's own. */
function around(app: ReferenceApp, handler: Handler): ReferenceApp {
  const next: Next = (request) => app.handle(request);
  return {
    ...(app.maxBodyBytes === undefined ? {} : { maxBodyBytes: app.maxBodyBytes }),
    handle: (request) => handler(request, next),
    close: () => app.close(),
  };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body as a JSON object, or undefined. */
function jsonObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The answer with its JSON object body replaced by `edit(body)` (answers that are not JSON objects pass as they are). */
function editAnswer(answer: AppResponse, edit: (body: Json) => Json): AppResponse {
  const body = jsonObject(answer.body);
  return body === undefined ? answer : { ...answer, body: JSON.stringify(edit(body)) };
}

/** The request with its JSON object body replaced by `edit(body)` (other bodies pass as they are). */
function editRequest(request: AppRequest, edit: (body: Json) => Json): AppRequest {
  const body = jsonObject(request.body);
  return body === undefined ? request : { ...request, body: JSON.stringify(edit(body)) };
}

const pathOf = (request: AppRequest): string => request.url.split(/[?#]/, 1)[0]!.replace(/(.)\/$/, '$1');

/** A start endpoint: `{ version, kind }` for `POST /v1|v2/crawl|batch/scrape`. */
function startOf(request: AppRequest): { version: 'v1' | 'v2'; kind: 'crawl' | 'batch' } | undefined {
  if (request.method.toUpperCase() !== 'POST') return undefined;
  const m = /^\/(v1|v2)\/(crawl|batch\/scrape)$/.exec(pathOf(request));
  return m ? { version: m[1] as 'v1' | 'v2', kind: m[2] === 'crawl' ? 'crawl' : 'batch' } : undefined;
}

const isBatchStart = (request: AppRequest): boolean => startOf(request)?.kind === 'batch';

/** A job endpoint (status, cancel, errors) of either version: a path with a job id. */
function isJobEndpoint(request: AppRequest): boolean {
  const path = pathOf(request);
  if (/^\/v[12]\/crawl\/(active|ongoing)$/.test(path)) return false;
  return /^\/v[12]\/(crawl|batch\/scrape)\/[^/]+(\/errors)?$/.test(path);
}

/** A status read: `GET /v1|v2/crawl|batch/scrape/{id}`. */
const isStatusRead = (request: AppRequest): boolean =>
  request.method.toUpperCase() === 'GET' && isJobEndpoint(request) && !pathOf(request).endsWith('/errors');

const UNKNOWN_ERROR = (): AppResponse => ({
  status: 500,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({
    success: false,
    code: 'UNKNOWN_ERROR',
    error: `An unexpected error occurred. Your exception ID is ${randomUUID()}`,
  }),
});

/** Removes the value at `segments` from `root` (in place), if it is there. */
function removeAt(root: unknown, segments: readonly (string | number)[]): void {
  let node: unknown = root;
  for (const segment of segments.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return;
    node = (node as Record<string | number, unknown>)[segment];
  }
  const last = segments[segments.length - 1];
  if (last !== undefined && typeof node === 'object' && node !== null) delete (node as Record<string | number, unknown>)[last];
}

const ALL_CHECKS = checkNames(['v1', 'v2']);

/** Every check that reads a job's status whatever the timing (and so validates the status body), per version. */
const statusReaders = (version: 'v1' | 'v2'): string[] => [
  `${version}.status`,
  `${version}.status.pagination`,
  `${version}.crawl.start.valid`,
  `${version}.batch.start.valid`,
];

/**
 * Every check that expects an error answer (and so validates the error envelope): the auth checks, malformed
 * JSON, unknown job ids, the rule cases, the batches refused for invalid URLs, the generated invalid starts.
 */
const ERROR_ANSWER_CHECKS = ALL_CHECKS.filter((name) =>
  /^(auth|json)\.|\.status\.undocumentedStatus$|\.rule\.|\.batch\.invalidURLs\.|\.start\.invalid\./.test(name),
);

/** Every check that starts a job and holds the answer to its cancel (`Attempt.cancel`), except the cancel checks. */
const CANCELLING_CHECKS = ALL_CHECKS.filter((name) =>
  /\.batch\.invalidURLs\.|\.status$|\.status\.pagination$|\.errors$|\.active$|\.start\.valid$/.test(name),
);

export const BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'invalidURLs.missingWhenIgnoring',
    defect: 'Batch start answers (v1 and v2) never carry invalidURLs, even when invalid URLs are ignored.',
    expectedFailingChecks: [
      'v1.batch.invalidURLs.ignoring',
      'v2.batch.invalidURLs.ignoring',
      'v2.batch.invalidURLs.default',
      // Valid batch starts are held against the same rule; v2 ignores by default.
      'v2.batch.start.valid',
    ],
    // ... and so do generated v1 batches that ask to ignore invalid URLs, when the seed draws one.
    mayAlsoFail: ['v1.batch.start.valid'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (!isBatchStart(request) || answer.status !== 200) return answer;
        return editAnswer(answer, ({ invalidURLs: _dropped, ...rest }) => rest);
      }),
  },
  {
    name: 'invalidURLs.presentWhenNotIgnoring',
    defect: 'Batch start answers (v1 and v2) carry invalidURLs: [] when invalid URLs are not ignored.',
    expectedFailingChecks: [
      'v1.batch.invalidURLs.notIgnoring',
      'v1.batch.invalidURLs.default',
      'v2.batch.invalidURLs.notIgnoring',
      'v1.batch.start.valid',
    ],
    // Generated v2 batches that ask not to ignore invalid URLs, when the seed draws one.
    mayAlsoFail: ['v2.batch.start.valid'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (!isBatchStart(request) || answer.status !== 200) return answer;
        return editAnswer(answer, (body) => ('invalidURLs' in body ? body : { ...body, invalidURLs: [] }));
      }),
  },
  {
    name: 'timeout.aboveMaximumAccepted',
    defect: 'A v2 scrape timeout of 300001 ms is accepted (taken as 300000) instead of refused with 400.',
    expectedFailingChecks: ['v2.rule.timeout.maximum'],
    // The outOfRange mutation, when the seed makes it push the timeout to 300001.
    mayAlsoFail: ['v2.crawl.start.invalid.outOfRange', 'v2.batch.start.invalid.outOfRange'],
    wrap: (app) =>
      around(app, (request, next) => {
        if (startOf(request)?.version !== 'v2') return next(request);
        return next(
          editRequest(request, (body) => {
            if (body['timeout'] === 300001) body['timeout'] = 300000;
            const scrape = body['scrapeOptions'];
            if (isObject(scrape) && scrape['timeout'] === 300001) scrape['timeout'] = 300000;
            return body;
          }),
        );
      }),
  },
  {
    name: 'unknownKeys.accepted',
    defect:
      'Start bodies with keys the request schema does not know are accepted (the unknown keys are dropped) instead of refused with 400.',
    expectedFailingChecks: [
      'v1.crawl.start.invalid.unknownKey',
      'v1.batch.start.invalid.unknownKey',
      'v2.crawl.start.invalid.unknownKey',
      'v2.batch.start.invalid.unknownKey',
      // A field of the other version is a key this version's schema does not know (maxDepth in v2 is one of the rule cases).
      'v2.rule.maxDepth.additionalProperties',
      'v1.crawl.start.invalid.otherVersionField',
      'v1.batch.start.invalid.otherVersionField',
      'v2.crawl.start.invalid.otherVersionField',
      'v2.batch.start.invalid.otherVersionField',
    ],
    wrap: (app) =>
      around(app, (request, next) => {
        const start = startOf(request);
        if (start === undefined) return next(request);
        const name = `${start.version}/${start.kind === 'crawl' ? 'CrawlRequest' : 'BatchScrapeRequest'}` as SchemaName;
        return next(
          editRequest(request, (body) => {
            const result = validate(name, body);
            if (!result.valid) for (const issue of result.errors) if (issue.rule === 'additionalProperties') removeAt(body, issue.segments);
            return body;
          }),
        );
      }),
  },
  {
    name: 'auth.missingAccepted',
    defect: 'Requests without an Authorization header are served as if they carried the right token.',
    expectedFailingChecks: ['auth.missing'],
    wrap: (app) =>
      around(app, (request, next) => {
        const hasAuth = Object.keys(request.headers).some((h) => h.toLowerCase() === 'authorization');
        if (hasAuth || !request.url.startsWith('/v')) return next(request);
        return next({ ...request, headers: { ...request.headers, authorization: `Bearer ${BROKEN_SERVER_TOKEN}` } });
      }),
  },
  {
    name: 'errors.withoutSuccess',
    defect: 'Every 4xx JSON answer lacks success: false.',
    expectedFailingChecks: ERROR_ANSWER_CHECKS,
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        if (answer.status < 400 || answer.status >= 500) return answer;
        return editAnswer(answer, ({ success: _dropped, ...rest }) => rest);
      }),
  },
  {
    name: 'ignoreInvalidURLs.wrongV2Default',
    defect: 'A v2 batch that leaves ignoreInvalidURLs out is treated as not ignoring invalid URLs (v1 default) instead of ignoring them.',
    expectedFailingChecks: ['v2.batch.invalidURLs.default', 'v2.batch.start.valid'],
    wrap: (app) =>
      around(app, (request, next) => {
        const start = startOf(request);
        if (start?.version !== 'v2' || start.kind !== 'batch') return next(request);
        return next(editRequest(request, (body) => ('ignoreInvalidURLs' in body ? body : { ...body, ignoreInvalidURLs: false })));
      }),
  },
  {
    name: 'status.completedAsString',
    defect: 'Status answers carry completed as a string (e.g. "2") instead of a number.',
    expectedFailingChecks: [...statusReaders('v1'), ...statusReaders('v2')],
    // The cancel checks read the status only after a cancel answered 200 (a job still running).
    mayAlsoFail: ['v1.cancel', 'v2.cancel'],
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
    name: 'cancel.wrongShape',
    defect: "A successful cancel answers {success: true} instead of {status: 'cancelled'}.",
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
    name: 'json.malformedIs500',
    defect: 'A start body that is not JSON is answered 500 (UNKNOWN_ERROR) instead of 400 BAD_REQUEST_INVALID_JSON.',
    expectedFailingChecks: ['json.malformed'],
    wrap: (app) =>
      around(app, (request, next) => {
        if (startOf(request) === undefined || parseRequestBody(request.body).ok) return next(request);
        return Promise.resolve(UNKNOWN_ERROR());
      }),
  },
  {
    name: 'jobs.unknownIs418',
    defect: 'The job endpoints answer 418 (a status no operation documents) where they would answer 404 for an unknown job.',
    expectedFailingChecks: ['v1.status.undocumentedStatus', 'v2.status.undocumentedStatus'],
    wrap: (app) =>
      around(app, async (request, next) => {
        const answer = await next(request);
        return isJobEndpoint(request) && answer.status === 404 ? { ...answer, status: 418 } : answer;
      }),
  },
];
