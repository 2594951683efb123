/**
 * Broken variants of the reference server's scrapes, each with one defect, for proving that the kit's scrape-
 * and batch-behaviour checks (scripts/contract/checks/scrape/scrapeChecks.ts) catch each, under the check that holds
 * what it breaks. Shaped as test/support/brokenServers.ts's variants: each wraps a correct app, which is never
 * changed.
 *
 *   - An option ignored: the start request's scrape options (a batch's top-level fields, a crawl's
 *     `scrapeOptions`) rewritten before the app sees them: the option dropped (its default applies, so the
 *     check's value other than the default shows it), or forced to a value other than its default (so the
 *     check's default shows it).
 *   - A record wrong: every record of a status answer rewritten on its way out (markdown emptied, links made
 *     relative, the cleaned HTML as raw HTML, a format missing or under another name, the wrong status...), or
 *     left out.
 */
import type { ReferenceApp } from '../../scripts/server/app.js';
import { SCRAPE_PATHS } from '../../scripts/site/scrapePages.js';
import { around, isObject, jsonObject, pathOf, type Json } from './appWrap.js';
import type { BrokenServer } from './brokenServerParts.js';

type Version = 'v1' | 'v2';

/** `app` with the scrape options of every start rewritten by `edit` (in place), given the version. */
export const rewritingOptions =
  (edit: (options: Json, version: Version) => void) =>
  (app: ReferenceApp): ReferenceApp =>
    around(app, (request, next) => {
      const start = request.method.toUpperCase() === 'POST' ? /^\/(v1|v2)\/(crawl|batch\/scrape)$/.exec(pathOf(request)) : null;
      const body = start === null ? undefined : jsonObject(request.body);
      if (start === null || body === undefined) return next(request);
      const version = start[1] as Version;
      if (start[2] === 'crawl') {
        const options = isObject(body['scrapeOptions']) ? body['scrapeOptions'] : {};
        edit(options, version);
        body['scrapeOptions'] = options;
      } else edit(body, version);
      return next({ ...request, body: JSON.stringify(body) });
    });

/** `app` with every record of every status answer (a crawl's, a batch's) rewritten by `edit` (in place). */
export const rewritingRecords =
  (edit: (record: Json) => void, editData: (data: unknown[]) => void = () => {}) =>
  (app: ReferenceApp): ReferenceApp =>
    around(app, async (request, next) => {
      const answer = await next(request);
      const isStatus = request.method.toUpperCase() === 'GET' && /^\/v[12]\/(crawl|batch\/scrape)\/[^/]+$/.test(pathOf(request));
      const body = isStatus ? jsonObject(answer.body) : undefined;
      if (body === undefined || !Array.isArray(body['data'])) return answer;
      for (const record of body['data']) if (isObject(record)) edit(record);
      editData(body['data']);
      return { ...answer, body: JSON.stringify(body) };
    });

/**
 * `app` whose batches that ignore invalid entries (`ignoreInvalidURLs` true) return no record for their last
 * URL: the last URL of each such start is remembered by its job id, and its record left out of the job's
 * status answers.
 */
function droppingLastRecord(app: ReferenceApp): ReferenceApp {
  const lastUrl = new Map<string, unknown>();
  return around(app, async (request, next) => {
    const answer = await next(request);
    const path = pathOf(request);
    if (request.method.toUpperCase() === 'POST' && /^\/v[12]\/batch\/scrape$/.test(path)) {
      const start = jsonObject(request.body);
      const id = jsonObject(answer.body)?.['id'];
      if (start?.['ignoreInvalidURLs'] === true && Array.isArray(start['urls']) && typeof id === 'string')
        lastUrl.set(id, start['urls'].at(-1));
      return answer;
    }
    const status = request.method.toUpperCase() === 'GET' ? /^\/v[12]\/batch\/scrape\/([^/]+)$/.exec(path) : null;
    const url = status === null ? undefined : lastUrl.get(decodeURIComponent(status[1]!));
    const body = url === undefined ? undefined : jsonObject(answer.body);
    if (body === undefined || !Array.isArray(body['data'])) return answer;
    const kept = body['data'].filter((r) => !(isObject(r) && isObject(r['metadata']) && r['metadata']['sourceURL'] === url));
    // Not scraped at all: the job's count says so too (a record counted and not delivered is another fault, a lost one).
    const completed = typeof body['completed'] === 'number' ? body['completed'] - (body['data'].length - kept.length) : body['completed'];
    return { ...answer, body: JSON.stringify({ ...body, completed, data: kept }) };
  });
}

/** Whether a start body asks for `mobile` true or a `location` (a crawl's in scrapeOptions, a batch's at the top). */
const asksEmulation = (body: Json): boolean => {
  const options = isObject(body['scrapeOptions']) ? body['scrapeOptions'] : body;
  return options['mobile'] === true || options['location'] !== undefined;
};

/**
 * `app` with no engine for `mobile` or `location`, as a real implementation may be built: every page of a job asked
 * with either fails (no record; `completed` counts none), and the job's errors endpoint says why, with the code the
 * service gives (SCRAPE_ALL_ENGINES_FAILED).
 */
function withoutEmulation(app: ReferenceApp): ReferenceApp {
  const failing = new Set<string>();
  // The addresses of each failing job's records, by job id: its errors endpoint names them.
  const pagesFailed = new Map<string, unknown[]>();
  return around(app, async (request, next) => {
    const answer = await next(request);
    const path = pathOf(request);
    const method = request.method.toUpperCase();
    if (method === 'POST' && /^\/v[12]\/(crawl|batch\/scrape)$/.test(path)) {
      const id = jsonObject(answer.body)?.['id'];
      const body = jsonObject(request.body);
      if (typeof id === 'string' && body !== undefined && asksEmulation(body)) failing.add(id);
      return answer;
    }
    const job = method === 'GET' ? /^\/v[12]\/(?:crawl|batch\/scrape)\/([^/]+)(\/errors)?$/.exec(path) : null;
    if (job === null || !failing.has(decodeURIComponent(job[1]!))) return answer;
    const body = jsonObject(answer.body);
    if (body === undefined) return answer;
    if (job[2] === undefined && Array.isArray(body['data'])) {
      const failed = body['data'].flatMap((r) => (isObject(r) && isObject(r['metadata']) ? [r['metadata']['sourceURL']] : []));
      pagesFailed.set(job[1]!, failed);
      return { ...answer, body: JSON.stringify({ ...body, completed: 0, data: [] }) };
    }
    if (job[2] !== undefined && Array.isArray(body['errors'])) {
      const errors = (pagesFailed.get(job[1]!) ?? []).map((url) => ({
        id: `${job[1]}-${String(url)}`,
        timestamp: new Date(0).toISOString(),
        url,
        code: 'SCRAPE_ALL_ENGINES_FAILED',
        error: "All scraping engines failed! -- Double check the URL to make sure it's not broken.",
      }));
      return { ...answer, body: JSON.stringify({ ...body, errors: [...body['errors'], ...errors] }) };
    }
    return answer;
  });
}

/** `app` whose finished jobs each deliver one record fewer than their `completed` count says (the last one is lost). */
const losingLastRecord = rewritingRecords(
  () => {},
  (data) => {
    data.pop();
  },
);

const drop =
  (...names: string[]) =>
  (options: Json) => {
    for (const name of names) delete options[name];
  };

/** `vN.scrape.behaviour.<option>` (or `vN.batch.behaviour.<name>` with `batch`) for the versions given. */
export const scrapeCheck = (option: string, versions: readonly Version[] = ['v1', 'v2']) =>
  versions.map((v) => `${v}.scrape.behaviour.${option}`);
export const batchCheck = (name: string, versions: readonly Version[] = ['v1', 'v2']) =>
  versions.map((v) => `${v}.batch.behaviour.${name}`);

/** The scrape options of both versions whose checks judge a record's content (all but the PDF option). */
const SHOWN_OPTIONS = [
  'onlyMainContent',
  'includeTags',
  'excludeTags',
  'removeBase64Images',
  'headers',
  'mobile',
  'location',
  'maxAge',
  'storeInCache',
  'timeout',
  'skipTlsVerification',
];

/** A variant, and the versions a run needs to show it (both by default). */
export type ScrapeVariant = BrokenServer & {
  readonly versions?: readonly Version[];
  /** The checks that rest on what the variant breaks and must say so (inconclusive, naming the cause) instead of failing. */
  readonly resting?: readonly string[];
};

/** Each option ignored: dropped from the start (the check's value other than the default shows it). */
export const OPTIONS_DROPPED: readonly ScrapeVariant[] = [
  ['onlyMainContent', 'interface'],
  ['includeTags', 'interface'],
  ['excludeTags', 'interface'],
  ['removeBase64Images', 'interface'],
  ['headers', 'interface'],
  ['mobile', 'service'],
  ['location', 'service'],
  ['timeout', 'interface'],
  ['storeInCache', 'interface'],
  ['skipTlsVerification', 'interface'],
].map(([option, level]) => ({
  name: `scrape.${option}Dropped`,
  defect: `The scrape option ${option} is dropped from every start request, so its default applies.`,
  level: level as 'interface' | 'service',
  expectedFailingChecks: scrapeCheck(option!),
  wrap: rewritingOptions(drop(option!)),
}));

export const OTHER_VARIANTS: readonly ScrapeVariant[] = [
  {
    name: 'scrape.pdfOptionDropped',
    defect: 'The v1 parsePDF and the v2 parsers are dropped from every start request, so a PDF is always extracted.',
    level: 'interface',
    expectedFailingChecks: ['v1.scrape.behaviour.parsePDF', 'v2.scrape.behaviour.parsers'],
    wrap: rewritingOptions(drop('parsePDF', 'parsers')),
  },
  {
    // v2's maxAge 0 becomes the default 2 days: the second scrape comes from the cache. (v1's larger maxAge
    // becomes 0, which the service alone would answer from the cache: a difference at service level.)
    name: 'scrape.maxAgeDropped',
    defect: 'The scrape option maxAge is dropped from every start request, so its default applies.',
    level: 'interface',
    versions: ['v2'],
    expectedFailingChecks: ['v2.scrape.behaviour.maxAge'],
    wrap: rewritingOptions(drop('maxAge')),
  },
  {
    name: 'scrape.onlyMainContentForcedFalse',
    defect: 'Every scrape keeps the whole page, as with onlyMainContent false, whatever it asks.',
    level: 'interface',
    versions: ['v2'],
    expectedFailingChecks: ['v2.scrape.behaviour.onlyMainContent'],
    wrap: rewritingOptions((o) => void (o['onlyMainContent'] = false)),
  },
  {
    name: 'scrape.removeBase64ImagesForcedFalse',
    defect: 'Every scrape keeps base64 images, as with removeBase64Images false, whatever it asks.',
    level: 'interface',
    versions: ['v2'],
    expectedFailingChecks: ['v2.scrape.behaviour.removeBase64Images'],
    wrap: rewritingOptions((o) => void (o['removeBase64Images'] = false)),
  },
  {
    name: 'scrape.mobileForcedTrue',
    defect: 'Every scrape emulates a mobile device, whatever it asks.',
    level: 'service',
    versions: ['v2'],
    expectedFailingChecks: ['v2.scrape.behaviour.mobile'],
    wrap: rewritingOptions((o) => void (o['mobile'] = true)),
  },
  {
    name: 'scrape.timeoutForcedShort',
    defect: 'A scrape of the page that answers late times out after 1000 ms, whatever its timeout.',
    level: 'interface',
    versions: ['v2'],
    expectedFailingChecks: ['v2.scrape.behaviour.timeout'],
    // Only the jobs of the slow page: forced on every scrape, 1000 ms would be a race on a loaded machine, where an
    // ordinary page (a PDF's text) can take longer, and other checks would fail by chance.
    wrap: (app) => {
      const short = rewritingOptions((o) => void (o['timeout'] = 1000))(app);
      return around(app, (request, next) => (request.body.includes(SCRAPE_PATHS.slow) ? short.handle(request) : next(request)));
    },
  },
  {
    name: 'scrape.pdfNeverExtracted',
    defect: 'A PDF is always returned base64-encoded, as with v1 parsePDF false and v2 parsers empty, whatever the scrape asks.',
    level: 'interface',
    expectedFailingChecks: ['v1.scrape.behaviour.parsePDF', 'v2.scrape.behaviour.parsers'],
    wrap: rewritingOptions((o, version) => void (version === 'v1' ? (o['parsePDF'] = false) : (o['parsers'] = []))),
  },
  {
    name: 'scrape.tlsVerificationInverted',
    defect: 'skipTlsVerification is taken the other way round from what the scrape asks (its default too).',
    level: 'interface',
    expectedFailingChecks: scrapeCheck('skipTlsVerification'),
    wrap: rewritingOptions((o, version) => void (o['skipTlsVerification'] = !(o['skipTlsVerification'] ?? version === 'v2'))),
  },
  {
    // v1's default maxAge 0 becomes an hour (the first pair comes from the cache); v2's maxAge 0 too.
    name: 'scrape.maxAgeForcedHour',
    defect: 'Every scrape takes a cached page up to an hour old, whatever its maxAge.',
    level: 'interface',
    expectedFailingChecks: scrapeCheck('maxAge'),
    wrap: rewritingOptions((o) => void (o['maxAge'] = 3_600_000)),
  },
  {
    // Interface level: the HTML, the raw HTML and the links asked for are in no text of the record, by content.
    name: 'batch.onlyMarkdown',
    defect: 'A record holds markdown only, whatever formats the scrape asks for.',
    level: 'interface',
    expectedFailingChecks: batchCheck('formats'),
    // Every check that reads the HTML, the raw HTML or the links cannot judge it there (inconclusive at
    // interface level), and differs from the service.
    mayAlsoFail: [
      ...['onlyMainContent', 'includeTags', 'excludeTags', 'removeBase64Images', 'headers', 'mobile', 'location'].flatMap((o) =>
        scrapeCheck(o),
      ),
      ...batchCheck('rawHtml'),
      ...batchCheck('links'),
    ],
    wrap: rewritingRecords((r) => {
      delete r['html'];
      delete r['rawHtml'];
      delete r['links'];
    }),
  },
  {
    // Service level only: every format is in the record, by content, under a name of the implementation's.
    name: 'batch.formatsRenamed',
    defect: 'A record holds its HTML, raw HTML and links under field names of its own (htmlContent, pageSource, linkList).',
    level: 'service',
    versions: ['v2'],
    expectedFailingChecks: ['v2.batch.behaviour.formats'],
    wrap: rewritingRecords((r) => {
      for (const [from, to] of [
        ['html', 'htmlContent'],
        ['rawHtml', 'pageSource'],
        ['links', 'linkList'],
      ] as const)
        if (from in r) {
          r[to] = r[from];
          delete r[from];
        }
    }),
  },
  {
    name: 'batch.emptyMarkdown',
    defect: 'Every record’s markdown is empty.',
    level: 'interface',
    // A batch that asks for markdown alone has it nowhere: the format is missing too.
    expectedFailingChecks: [...batchCheck('markdown'), ...batchCheck('formats')],
    // Every meaning that shows in the markdown is lost with it.
    mayAlsoFail: SHOWN_OPTIONS.flatMap((o) => scrapeCheck(o)).concat('v1.scrape.behaviour.parsePDF', 'v2.scrape.behaviour.parsers'),
    wrap: rewritingRecords((r) => {
      if (typeof r['markdown'] === 'string') r['markdown'] = '';
    }),
  },
  {
    name: 'scrape.emulationUnsupported',
    defect:
      "Every page asked with mobile or a location fails (no engine for them): no record, and SCRAPE_ALL_ENGINES_FAILED in the job's errors.",
    level: 'interface',
    expectedFailingChecks: [...scrapeCheck('mobile'), ...scrapeCheck('location')],
    wrap: withoutEmulation,
  },
  {
    name: 'job.recordLost',
    defect: 'Every finished job delivers one record fewer than its completed count.',
    level: 'interface',
    versions: ['v2'],
    // Every check resting on a job with a record sees the loss: one cause, LOST_RECORDS_CAUSE, in every one of them.
    expectedFailingChecks: [
      ...[...SHOWN_OPTIONS, 'parsers'].map((o) => `v2.scrape.behaviour.${o}`),
      ...['records', 'formats', 'rawHtml', 'links', 'metadata', 'markdown'].map((b) => `v2.batch.behaviour.${b}`),
    ],
    wrap: losingLastRecord,
  },
  {
    name: 'batch.markdownMissing',
    defect: 'No record holds markdown, whatever formats the scrape asks for.',
    level: 'interface',
    expectedFailingChecks: [...batchCheck('markdown'), ...batchCheck('formats')],
    // What shows in the markdown alone (the counter's fetch count among it): not judged, resting on the one cause.
    resting: ['onlyMainContent', 'includeTags', 'excludeTags', 'removeBase64Images', 'headers', 'maxAge', 'storeInCache'].flatMap((o) =>
      scrapeCheck(o),
    ),
    wrap: rewritingRecords((r) => {
      delete r['markdown'];
    }),
  },
  {
    name: 'batch.relativeLinks',
    defect: 'Every record’s links are written relative to the page, not as absolute addresses.',
    level: 'interface',
    // No list of the record holds the page's links as absolute addresses: the format asked for is missing too.
    expectedFailingChecks: [...batchCheck('links'), ...batchCheck('formats')],
    wrap: rewritingRecords((r) => {
      if (Array.isArray(r['links'])) r['links'] = r['links'].map((l) => (typeof l === 'string' ? l.replace(/^[a-z]+:\/\/[^/]+/i, '') : l));
    }),
  },
  {
    name: 'batch.cleanedRawHtml',
    defect: 'A record’s rawHtml is the cleaned HTML (main content only), not the page as served.',
    level: 'interface',
    // No text of the record holds every text of the page as served: the format asked for is missing too.
    expectedFailingChecks: [...batchCheck('rawHtml'), ...batchCheck('formats')],
    wrap: rewritingRecords((r) => {
      if (typeof r['rawHtml'] === 'string' && typeof r['html'] === 'string') r['rawHtml'] = r['html'];
    }),
  },
  {
    name: 'batch.sourceUrlMissing',
    defect: 'A record’s metadata has no sourceURL.',
    level: 'service',
    versions: ['v2'],
    expectedFailingChecks: ['v2.batch.behaviour.records'],
    wrap: rewritingRecords((r) => {
      if (isObject(r['metadata'])) delete r['metadata']['sourceURL'];
    }),
  },
  {
    name: 'batch.statusCodeAlways200',
    defect: 'A record’s metadata.statusCode is 200 whatever the page answered.',
    level: 'service',
    versions: ['v2'],
    expectedFailingChecks: ['v2.batch.behaviour.metadata'],
    wrap: rewritingRecords((r) => {
      if (isObject(r['metadata'])) r['metadata']['statusCode'] = 200;
    }),
  },
  {
    name: 'batch.recordForInvalidEntry',
    defect: 'A batch that ignores an invalid entry returns a record for it all the same.',
    level: 'interface',
    versions: ['v2'],
    expectedFailingChecks: ['v2.batch.behaviour.records'],
    wrap: rewritingRecords(
      () => {},
      (data) => {
        if (data.length > 1 && isObject(data[0]))
          data.push({ ...data[0], metadata: { ...(data[0]['metadata'] as Json), sourceURL: 'not a url' } });
      },
    ),
  },
  {
    name: 'batch.recordMissing',
    defect: 'A batch that ignores an invalid entry returns no record for the last of its valid URLs.',
    level: 'interface',
    versions: ['v2'],
    expectedFailingChecks: ['v2.batch.behaviour.records'],
    wrap: droppingLastRecord,
  },
];

export const SCRAPE_VARIANTS: readonly ScrapeVariant[] = [...OPTIONS_DROPPED, ...OTHER_VARIANTS];
