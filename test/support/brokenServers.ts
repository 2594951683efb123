/**
 * Deliberately broken variants of the reference server, each with exactly one defect, for proving that
 * the contract kit (scripts/contract/) catches each defect, and catches it under the checks whose meaning
 * it breaks, at the level the defect is at. A variant wraps a correct `ReferenceApp`'s `handle`: it rewrites
 * the request before the real app sees it and/or the answer after; the reference server itself is never
 * changed.
 *
 * `level`: the level of the expectations the defect breaks. A variant is run at that level (a run at
 * `interface` level does not fail for what only the service does); a `service` variant also passes a run at
 * `interface` level, its defect reported there as a difference from the service.
 *
 * `expectedFailingChecks` lists every check that must fail against the variant: the check named after the
 * broken rule, plus the checks that, by their own meaning, also hold the broken answer whatever the timing
 * and the seed (e.g. every check that reads a job's status validates the status body). `mayAlsoFail` lists
 * the checks that hold it too but reach it only by chance. No other check may fail.
 *
 * A cancel check needs a job still running when its DELETE arrives: the kit starts up to three per kind
 * (a job that completed first is answered 409, a right answer that shows nothing of the 200 answer).
 */
import { randomUUID } from 'node:crypto';
import { parseRequestBody } from '../../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { checkNames } from '../../scripts/contract/index.js';
import type { AppRequest, AppResponse, ReferenceApp } from '../../scripts/server/app.js';
import { INVALID_KINDS } from '../../scripts/contract/checks/requests/generated.js';
import { BROKEN_WEBHOOKS } from './webhookVariants.js';
import { SCRAPE_VARIANTS } from './scrapeVariants.js';
import { around, isObject, jsonObject, pathOf, type Json } from './appWrap.js';

/** The token the variants' apps are created with; the missing-auth variant injects it. */
export const BROKEN_SERVER_TOKEN = 'broken-server-token';

export interface BrokenServer {
  /** Short stable identifier, e.g. `invalidURLs.missingWhenIgnoring`. */
  readonly name: string;
  /** The one defect, in one sentence. */
  readonly defect: string;
  /** The level of what the defect breaks: the run that must catch it is made at this level. */
  readonly level: 'interface' | 'service';
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
const VERSIONS = ['v1', 'v2'] as const;
const KINDS = ['crawl', 'batch'] as const;
/** `vN.<kind>.<suffix>` for every version and kind. */
const everyStart = (suffix: string): string[] => VERSIONS.flatMap((v) => KINDS.map((k) => `${v}.${k}.${suffix}`));

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

/** The request schema of a start. */
const requestSchemaOf = (start: { version: 'v1' | 'v2'; kind: 'crawl' | 'batch' }) =>
  `${start.version}/${start.kind === 'crawl' ? 'CrawlRequest' : 'BatchScrapeRequest'}` as SchemaName;

/** A variant that removes from start bodies what `validate` reports under `rule` (so it is accepted, not refused). */
function dropping(rule: string): (app: ReferenceApp) => ReferenceApp {
  return (app) =>
    around(app, (request, next) => {
      const start = startOf(request);
      if (start === undefined) return next(request);
      return next(
        editRequest(request, (body) => {
          const result = validate(requestSchemaOf(start), body);
          if (!result.valid) for (const issue of result.errors) if (issue.rule === rule) removeAt(body, issue.segments);
          return body;
        }),
      );
    });
}

/** The fields the interface types as integers, where a request carries them. */
const INTEGER_FIELDS = ['limit', 'maxDepth', 'maxDiscoveryDepth', 'maxConcurrency', 'maxAge', 'waitFor', 'timeout'];

const LOOK_AROUND = /\(\?<?[=!]/;

export const BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'invalidURLs.missingWhenIgnoring',
    defect: 'Batch start answers (v1 and v2) never carry invalidURLs, even when invalid URLs are ignored.',
    level: 'interface',
    expectedFailingChecks: [
      'v1.batch.invalidURLs.ignoring',
      'v2.batch.invalidURLs.ignoring',
      'v2.batch.invalidURLs.default',
      // Valid batch starts are held against the same rule; v2 ignores by default, v1 when told to.
      'v2.batch.start.valid',
      'v2.batch.start.fieldAlone',
      'v2.batch.start.enumValue',
      'v1.batch.start.fieldAlone',
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
    level: 'interface',
    expectedFailingChecks: [
      'v1.batch.invalidURLs.notIgnoring',
      'v1.batch.invalidURLs.default',
      'v2.batch.invalidURLs.notIgnoring',
      'v1.batch.start.valid',
      'v1.batch.start.fieldAlone',
      'v1.batch.start.enumValue',
      // v2's ignoreInvalidURLs sent alone is false, its other value.
      'v2.batch.start.fieldAlone',
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
    name: 'ignoreInvalidURLs.wrongV2Default',
    defect: 'A v2 batch that leaves ignoreInvalidURLs out is treated as not ignoring invalid URLs (v1 default) instead of ignoring them.',
    level: 'interface',
    expectedFailingChecks: [
      'v2.batch.invalidURLs.default',
      'v2.batch.start.valid',
      'v2.batch.start.fieldAlone',
      'v2.batch.start.enumValue',
    ],
    wrap: (app) =>
      around(app, (request, next) => {
        const start = startOf(request);
        if (start?.version !== 'v2' || start.kind !== 'batch') return next(request);
        return next(editRequest(request, (body) => ('ignoreInvalidURLs' in body ? body : { ...body, ignoreInvalidURLs: false })));
      }),
  },
  {
    name: 'timeout.aboveMaximumAccepted',
    defect: 'A v2 scrape timeout of 300001 ms is accepted (taken as 300000) instead of refused.',
    level: 'interface',
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
    name: 'fractions.accepted',
    defect: 'Fractions in the fields the interface types as integers (limit, timeout, ...) are accepted, rounded down, instead of refused.',
    level: 'interface',
    expectedFailingChecks: everyStart('start.invalid.fraction'),
    wrap: (app) =>
      around(app, (request, next) => {
        if (startOf(request) === undefined) return next(request);
        const floor = (object: Json) => {
          for (const key of INTEGER_FIELDS) if (typeof object[key] === 'number') object[key] = Math.floor(object[key]);
        };
        return next(
          editRequest(request, (body) => {
            floor(body);
            if (isObject(body['scrapeOptions'])) floor(body['scrapeOptions']);
            return body;
          }),
        );
      }),
  },
  {
    name: 'types.dropped',
    defect: 'Fields of a start body that have the wrong type are dropped instead of refused.',
    level: 'interface',
    // With the run's seed, the v1 batch bodies drawn break the type of a required member only (`urls`, its first
    // entry, the body itself), which dropping leaves refused: that check catches the defect only when a draw
    // breaks an optional field.
    expectedFailingChecks: everyStart('start.invalid.wrongType').filter((n) => n !== 'v1.batch.start.invalid.wrongType'),
    // Rule cases whose body breaks a type as well, and fractions (an integer field given 1.5 is a type error).
    mayAlsoFail: [
      ...ALL_CHECKS.filter((n) => /\.rule\./.test(n)),
      ...everyStart('start.invalid.fraction'),
      'v1.batch.start.invalid.wrongType',
    ],
    wrap: dropping('type'),
  },
  {
    name: 'enums.dropped',
    defect: 'Fields of a start body whose value is outside their enum are dropped instead of refused.',
    level: 'interface',
    // With the run's seed and the variants' budget, the v1 bodies drawn (of interface fields only in a run at
    // interface level) carry no interface enum (formats, proxy) to break, only the service's (v1
    // `changeTrackingOptions.modes`), whose refusal is not expected at interface level: those checks catch the
    // defect only when a draw breaks an interface enum.
    expectedFailingChecks: ['v2.crawl.start.invalid.outsideEnum', 'v2.batch.start.invalid.outsideEnum'],
    mayAlsoFail: [
      ...ALL_CHECKS.filter((n) => /\.rule\./.test(n)),
      'v1.crawl.start.invalid.outsideEnum',
      'v1.batch.start.invalid.outsideEnum',
    ],
    wrap: dropping('enum'),
  },
  {
    name: 'required.defaulted',
    defect: 'A crawl without url, or a batch without urls, is given the site root instead of being refused.',
    level: 'interface',
    expectedFailingChecks: everyStart('start.invalid.missingRequired'),
    wrap: (app) =>
      around(app, (request, next) => {
        const start = startOf(request);
        if (start === undefined) return next(request);
        const site = `http://${request.headers['host'] ?? '127.0.0.1'}/site/`;
        return next(
          editRequest(request, (body) => {
            if (start.kind === 'crawl' && !('url' in body)) body['url'] = site;
            if (start.kind === 'batch' && !('urls' in body)) body['urls'] = [site];
            return body;
          }),
        );
      }),
  },
  {
    name: 'maxConcurrency.is500',
    defect: 'A valid start that sets maxConcurrency is answered 500 (UNKNOWN_ERROR) instead of starting the job.',
    level: 'interface',
    // The cancel checks start a batch of one page at a time (maxConcurrency 1) to see it running.
    expectedFailingChecks: [...everyStart('start.fieldAlone'), 'v1.cancel', 'v2.cancel'],
    // Generated bodies that happen to carry maxConcurrency.
    mayAlsoFail: [...everyStart('start.valid'), ...everyStart('start.valid.service')],
    wrap: (app) =>
      around(app, (request, next) => {
        const start = startOf(request);
        const body = jsonObject(request.body);
        if (start === undefined || body === undefined || !('maxConcurrency' in body) || !validate(requestSchemaOf(start), body).valid)
          return next(request);
        return Promise.resolve(UNKNOWN_ERROR());
      }),
  },
  {
    name: 'sitemapOnly.refused',
    defect: 'A v2 crawl with sitemap "only" is refused with 400, as the service of mid-2025 did.',
    level: 'interface',
    expectedFailingChecks: ['v2.crawl.start.enumValue'],
    mayAlsoFail: ['v2.crawl.start.valid', 'v2.crawl.start.valid.service'],
    wrap: (app) =>
      around(app, (request, next) => {
        const start = startOf(request);
        if (start?.version !== 'v2' || start.kind !== 'crawl' || jsonObject(request.body)?.['sitemap'] !== 'only') return next(request);
        return Promise.resolve({
          status: 400,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify({
            success: false,
            code: 'BAD_REQUEST',
            error: 'Bad Request',
            details: [{ code: 'invalid_enum_value', path: ['sitemap'] }],
          }),
        });
      }),
  },
  {
    name: 'auth.missingAccepted',
    defect: 'Requests without an Authorization header are served as if they carried the right token.',
    level: 'interface',
    expectedFailingChecks: ['auth.missing'],
    wrap: (app) =>
      around(app, (request, next) => {
        const hasAuth = Object.keys(request.headers).some((h) => h.toLowerCase() === 'authorization');
        if (hasAuth || !request.url.startsWith('/v')) return next(request);
        return next({ ...request, headers: { ...request.headers, authorization: `Bearer ${BROKEN_SERVER_TOKEN}` } });
      }),
  },
  {
    name: 'json.malformedIs500',
    defect: 'A start body that is not JSON is answered 500 (UNKNOWN_ERROR) instead of 400 BAD_REQUEST_INVALID_JSON.',
    level: 'interface',
    expectedFailingChecks: ['json.malformed'],
    wrap: (app) =>
      around(app, (request, next) => {
        if (startOf(request) === undefined || parseRequestBody(request.body).ok) return next(request);
        return Promise.resolve(UNKNOWN_ERROR());
      }),
  },
  {
    name: 'unknownKeys.accepted',
    defect:
      'Start bodies with keys the request schema does not know are accepted (the unknown keys are dropped) instead of refused with 400.',
    level: 'service',
    expectedFailingChecks: [
      ...everyStart('start.invalid.unknownKey'),
      // A field of the other version is a key this version's schema does not know (maxDepth in v2 is one of the rule cases).
      'v2.rule.maxDepth.additionalProperties',
      // The newer v2 format objects (images, video, ...) refuse unknown keys (issue 14.2).
      'v2.rule.fullPage.additionalProperties',
      'v2.rule.quality.additionalProperties',
      // Plain format objects refuse unknown keys since 2025-12-03 (the service; `{type: 'summary', length}`).
      'v2.rule.length.additionalProperties',
      ...everyStart('start.invalid.otherVersionField'),
    ],
    wrap: dropping('additionalProperties'),
  },
  {
    name: 'delayAndLookAround.accepted',
    defect:
      'A crawl delay above 60 s is taken as 60, and path patterns with look-around are dropped, instead of refused (rules only the service has).',
    level: 'service',
    expectedFailingChecks: [
      'v1.rule.delayAtMost60Seconds',
      'v2.rule.delayAtMost60Seconds',
      'v1.rule.pathPatternsCompile',
      'v2.rule.pathPatternsCompile',
    ],
    // The outOfRange mutation, when the seed makes it push the delay over 60.
    mayAlsoFail: ['v1.crawl.start.invalid.outOfRange', 'v2.crawl.start.invalid.outOfRange'],
    wrap: (app) =>
      around(app, (request, next) => {
        if (startOf(request)?.kind !== 'crawl') return next(request);
        return next(
          editRequest(request, (body) => {
            if (typeof body['delay'] === 'number' && body['delay'] > 60) body['delay'] = 60;
            for (const field of ['includePaths', 'excludePaths'])
              if (Array.isArray(body[field]))
                body[field] = (body[field] as unknown[]).filter((p) => typeof p !== 'string' || !LOOK_AROUND.test(p));
            return body;
          }),
        );
      }),
  },
  {
    name: 'extensions.refused',
    defect: "A start carrying one of the service's extension fields (origin, integration, ignoreRobotsTxt, ...) is refused with 400.",
    level: 'service',
    expectedFailingChecks: [
      'v1.crawl.start.valid.service',
      'v2.crawl.start.valid.service',
      'v1.batch.start.valid.service',
      'v2.batch.start.valid.service',
    ],
    wrap: (app) =>
      around(app, (request, next) => {
        const body = startOf(request) === undefined ? undefined : jsonObject(request.body);
        const extension = [
          'origin',
          'integration',
          'ignoreRobotsTxt',
          'deduplicateSimilarURLs',
          'regexOnFullURL',
          'appendToId',
          'fastMode',
          'useMock',
        ];
        if (body === undefined || !extension.some((k) => k in body)) return next(request);
        return Promise.resolve({
          status: 400,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify({ success: false, code: 'BAD_REQUEST', error: 'Unrecognized key in body' }),
        });
      }),
  },
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

/**
 * A variant whose defect is in a job's life (its status, pages, cancel, errors, the active list, an unknown job, its
 * webhook), rather than in what a start request is answered: the two halves run in separate test files.
 */
export const isJobVariant = (variant: BrokenServer): boolean => /^(status|cancel|errors|active|jobs|webhook)\./.test(variant.name);

/** `vN.crawl.behaviour.<option>` for each version that has the option. */
const behaviour = (...options: string[]): string[] =>
  VERSIONS.flatMap((v) => options.map((o) => `${v}.crawl.behaviour.${o}`)).filter((name) => ALL_CHECKS.includes(name));

/** Every behaviour check but those of `options`: where a defect that every crawl of the site meets may show. */
const allBehaviourBut = (...options: string[]): string[] =>
  ALL_CHECKS.filter((name) => /\.crawl\.behaviour\./.test(name) && !options.some((o) => name.endsWith(`.behaviour.${o}`)));

/** A variant that rewrites every crawl start body with `edit` before the real app sees it (its one behaviour defect). */
const rewritingCrawls =
  (edit: (body: Json, version: 'v1' | 'v2') => Json) =>
  (app: ReferenceApp): ReferenceApp =>
    around(app, (request, next) => {
      const start = startOf(request);
      if (start?.kind !== 'crawl') return next(request);
      return next(editRequest(request, (body) => edit(body, start.version)));
    });

/** Crawl behaviour variants: each crawls the kit's test site with one rule broken. */
export const BROKEN_CRAWLERS: readonly BrokenServer[] = [
  {
    name: 'crawl.patternsOnFullURL',
    defect: 'The includePaths and excludePaths patterns are matched on the full URL instead of the URL pathname.',
    level: 'interface',
    expectedFailingChecks: behaviour('includePaths', 'excludePaths'),
    wrap: rewritingCrawls((body) => ({ ...body, regexOnFullURL: true })),
  },
  {
    name: 'crawl.depthOffByOne',
    defect: 'The crawler takes maxDepth and maxDiscoveryDepth one deeper than asked.',
    level: 'interface',
    expectedFailingChecks: behaviour('maxDepth', 'maxDiscoveryDepth'),
    wrap: rewritingCrawls((body) => {
      for (const key of ['maxDepth', 'maxDiscoveryDepth']) if (typeof body[key] === 'number') body[key] = (body[key] as number) + 1;
      return body;
    }),
  },
  {
    name: 'crawl.sitemapIgnored',
    defect: 'The sitemap is never read (every crawl behaves as sitemap skip).',
    level: 'interface',
    // v2's maxDiscoveryDepth check is left out of the expected failures: once, in CI under load, it passed
    // on this variant, which is not explained yet (noted on issue 11); v1's, with the same crawls, failed.
    expectedFailingChecks: [...behaviour('default', 'sitemap', 'ignoreSitemap'), 'v1.crawl.behaviour.maxDiscoveryDepth'],
    // Every crawl of the whole site that reads the sitemap misses the page only the sitemap lists.
    mayAlsoFail: allBehaviourBut('default', 'sitemap', 'ignoreSitemap', 'maxDiscoveryDepth').concat('v2.crawl.behaviour.maxDiscoveryDepth'),
    wrap: rewritingCrawls((body, version) => (version === 'v1' ? { ...body, ignoreSitemap: true } : { ...body, sitemap: 'skip' })),
  },
  {
    name: 'crawl.queryVariantsKept',
    defect: 'The crawler ignores ignoreQueryParameters: every query variant of a path is scraped.',
    level: 'interface',
    expectedFailingChecks: behaviour('ignoreQueryParameters'),
    wrap: rewritingCrawls(({ ignoreQueryParameters: _ignored, ...body }) => body),
  },
  {
    name: 'crawl.entireDomainIgnored',
    defect: 'The crawler ignores crawlEntireDomain (and v1 allowBackwardLinks): only children of the start are followed.',
    level: 'interface',
    expectedFailingChecks: behaviour('crawlEntireDomain', 'allowBackwardLinks'),
    wrap: rewritingCrawls(({ crawlEntireDomain: _entire, allowBackwardLinks: _backward, ...body }) => body),
  },
  {
    name: 'crawl.externalLinksFollowed',
    defect: 'Links to other sites are followed even when allowExternalLinks is false.',
    level: 'interface',
    expectedFailingChecks: behaviour('default'),
    // Every crawl that reaches the page linking to the other site returns pages of it.
    mayAlsoFail: allBehaviourBut('default', 'allowExternalLinks'),
    wrap: rewritingCrawls((body) => ({ ...body, allowExternalLinks: true })),
  },
  {
    name: 'crawl.limitIgnored',
    defect: 'The crawler ignores limit: a crawl returns every page it reaches.',
    level: 'interface',
    expectedFailingChecks: behaviour('limit'),
    wrap: rewritingCrawls(({ limit: _limit, ...body }) => body),
  },
  {
    name: 'crawl.robotsIgnored',
    defect: 'The crawler ignores robots.txt: the pages it disallows are crawled (which only the service forbids).',
    level: 'service',
    expectedFailingChecks: behaviour(
      'default',
      'excludePaths',
      'ignoreSitemap',
      'sitemap',
      'ignoreQueryParameters',
      'crawlEntireDomain',
      'allowBackwardLinks',
      'allowExternalLinks',
    ),
    mayAlsoFail: behaviour('limit', 'maxDepth', 'maxDiscoveryDepth', 'allowSubdomains'),
    wrap: rewritingCrawls((body) => ({ ...body, ignoreRobotsTxt: true })),
  },
];

/**
 * Scrape variants: an option dropped from the start, a record wrong (the defects issue 23 names), each caught at
 * the default level (`batch.onlyMarkdown` too: the formats asked for are judged by content, whatever field holds
 * them). They are run on the scrape- and batch-behaviour checks alone; the others of scrapeVariants.ts on those
 * checks in test/scrapeChecks.test.ts.
 */
export const BROKEN_SCRAPERS: readonly BrokenServer[] = SCRAPE_VARIANTS.filter((v) =>
  [
    'scrape.includeTagsDropped',
    'scrape.excludeTagsDropped',
    'scrape.headersDropped',
    'scrape.onlyMainContentDropped',
    'scrape.removeBase64ImagesDropped',
    'batch.onlyMarkdown',
    'batch.emptyMarkdown',
    'batch.relativeLinks',
    'batch.cleanedRawHtml',
  ].includes(v.name),
);

/** Each class of check, by the pattern of its name: every class must be caught by some variant. */
export const CHECK_CLASSES: readonly RegExp[] = [
  /^auth\./,
  /^json\.malformed$/,
  /\.status\.undocumentedStatus$/,
  /\.rule\./,
  /\.batch\.invalidURLs\./,
  /\.status$/,
  /\.status\.pagination$/,
  /\.cancel$/,
  /\.errors$/,
  /\.active$/,
  /\.start\.fieldAlone$/,
  /\.start\.enumValue$/,
  /\.start\.valid$/,
  /\.start\.valid\.service$/,
  /\.start\.distinctIds$/,
  ...INVALID_KINDS.map((kind) => new RegExp(`\\.start\\.invalid\\.${kind}$`)),
  /\.start\.invalid\.fraction$/,
  /\.crawl\.behaviour\./,
  /\.webhook\./,
  /\.scrape\.behaviour\./,
  /\.batch\.behaviour\./,
];
