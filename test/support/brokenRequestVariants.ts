/**
 * The broken variants of the reference server whose defect is in what a start request is answered (its checks of
 * URLs, defaults, limits, types, enums, required fields, auth, malformed JSON, unknown keys, extensions), each with
 * exactly one defect; test/support/brokenServers.ts says what a variant must show.
 */
import { randomUUID } from 'node:crypto';
import { parseRequestBody } from '../../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import type { AppRequest, AppResponse, ReferenceApp } from '../../scripts/server/app.js';
import { around, isObject, jsonObject, type Json } from './appWrap.js';
import { ALL_CHECKS, BROKEN_SERVER_TOKEN, type BrokenServer, editAnswer, editRequest, everyStart, startOf } from './brokenServerParts.js';

const isBatchStart = (request: AppRequest): boolean => startOf(request)?.kind === 'batch';

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

/** The variants whose defect is in what a start request is answered (not `isJobVariant`). */
export const BROKEN_REQUEST_VARIANTS: readonly BrokenServer[] = [
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
];
