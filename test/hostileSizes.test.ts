/**
 * Hostile sizes never crash or hang: nesting 10^4 levels deep (10^5 for the functions), at the top and under open
 * fields, and strings of megabytes, given to `validate()`, `withDefaults`, `migrateToV2` and `parseRequestBody`.
 * `validate` answers every value: one it cannot check (a `format: uri` string of 8 Mi characters overflows the
 * regular expression engine's stack) is invalid, with one issue at `$`, rule `readable`; the raw validators throw
 * there. Each answer is checked (the issue's path, rule and message), not only the absence of an exception.
 */
import { describe, expect, it } from 'vitest';
import * as v2 from '#generated/validators/v2.js';
import { MAX_SCHEMA_VALUES } from '../schemas/codeRules/jsonSchemas.js';
import { withDefaults } from '../schemas/defaults.js';
import { MALFORMED_JSON_BODY, parseRequestBody } from '../schemas/errorEnvelope.js';
import { migrateToV2 } from '../schemas/migrate.js';
import { validate } from '../schemas/validate.js';
import {
  deepFreeze,
  depthOf,
  nestedArrays,
  nestedObjects,
  nestedObjectsText,
  placed,
  sameJson,
  sharesContainers,
} from './support/hostileValues.js';
import {
  BASES,
  DEPTH,
  FIRST_ONLY,
  MB,
  type Obj,
  REQUESTS,
  type Request,
  type Segments,
  V1_CRAWL,
  V2_CRAWL,
  brief,
  expectAnswer,
  hook,
  issuesOf,
  scaled,
  unreadable,
  url,
} from './support/hostileInputs.js';

// ---------------------------------------------------------------------------------------------------------
// Deep nesting

/** What a v1 JSON Schema of more values than MAX_SCHEMA_VALUES gets, in a crawl's jsonOptions. */
const TOO_LARGE_SCHEMA = {
  path: '$.scrapeOptions.jsonOptions.schema',
  rule: 'jsonSchemaCompiles',
  message: `The JSON Schema is too large to check: it holds more than ${MAX_SCHEMA_VALUES} values, the most that is compiled.`,
};

describe(`nesting ${DEPTH} levels deep`, () => {
  const objects = nestedObjects(DEPTH);
  const arrays = nestedArrays(DEPTH);
  deepFreeze(objects);
  deepFreeze(arrays);

  it('as the whole body: the first problem, at the top, and that no other was looked for; nothing deeper is walked', () => {
    const missing = (field: string) => ({ path: `$.${field}`, rule: 'required', message: 'is required but missing' });
    const unknownKey = { path: '$.a', rule: 'additionalProperties', message: 'is not a known field here' };
    const first = { CrawlRequest: missing('url'), BatchScrapeRequest: missing('urls'), ScrapeOptions: unknownKey };
    for (const name of [...REQUESTS, 'v1/ScrapeOptions', 'v2/ScrapeOptions'] as const) {
      const nested = validate(name, objects);
      expectAnswer(nested);
      expect(brief(nested)).toEqual([first[name.slice(3) as keyof typeof first], FIRST_ONLY]);
      expect(brief(validate(name, arrays))).toEqual([
        { path: '$', rule: 'type', message: 'must be object, not array (an array of 1)' },
        FIRST_ONLY,
      ]);
    }
  });

  it('under open fields (a v2 JSON Schema, the extra keys of an action or a location) the body is valid', () => {
    const bodies: [Request, Segments][] = [
      ['v2/CrawlRequest', ['scrapeOptions', 'formats', 1, 'schema', 'properties']],
      ['v2/CrawlRequest', ['scrapeOptions', 'actions', 0, 'extra']],
      ['v1/BatchScrapeRequest', ['location', 'extra']],
      ['v2/BatchScrapeRequest', ['formats', 1, 'schema', 'properties']],
    ];
    for (const [name, segments] of bodies) {
      for (const deep of [objects, arrays]) expect(validate(name, placed(BASES[name], segments, deep))).toEqual({ valid: true });
    }
  });

  it('a v1 JSON Schema that deep is too large to compile: refused, measured no further than the bound', () => {
    for (const deep of [objects, arrays]) {
      const body = placed(BASES['v1/CrawlRequest'], ['scrapeOptions', 'jsonOptions', 'schema', 'properties'], deep);
      expect(brief(validate('v1/CrawlRequest', body))).toEqual([TOO_LARGE_SCHEMA]);
    }
  });

  it('under closed fields the problem is reported where the nesting starts (the body is big: that problem only)', () => {
    const at = (segments: Segments, deep: unknown) => brief(validate('v2/CrawlRequest', placed(V2_CRAWL, segments, deep)));
    expect(at(['webhook', 'metadata', 'm'], objects)).toEqual([
      { path: '$.webhook.metadata.m', rule: 'type', message: 'must be string, not object (an object)' },
      FIRST_ONLY,
    ]);
    expect(at(['scrapeOptions', 'headers', 'x-a'], arrays)).toEqual([
      { path: '$.scrapeOptions.headers["x-a"]', rule: 'type', message: 'must be string, not array (an array of 1)' },
      FIRST_ONLY,
    ]);
    expect(at(['scrapeOptions', 'extra'], objects)).toEqual([
      { path: '$.scrapeOptions.extra', rule: 'additionalProperties', message: 'is not a known field here' },
      FIRST_ONLY,
    ]);
    // As the tag of a tagged union (it used to be serialised, and blew the stack).
    expect(at(['scrapeOptions', 'actions', 0, 'type'], objects)).toEqual([
      { path: '$.scrapeOptions.actions[0].type', rule: 'discriminator', message: 'is required and must be a string' },
      FIRST_ONLY,
    ]);
    expect(at(['scrapeOptions', 'formats', 1, 'type'], arrays)).toEqual([
      { path: '$.scrapeOptions.formats[1].type', rule: 'discriminator', message: 'is required and must be a string' },
      FIRST_ONLY,
    ]);
  });

  it('withDefaults and migrateToV2 copy it whole, without recursion, leaving the input as it was', () => {
    const body = deepFreeze(placed(V1_CRAWL, ['scrapeOptions', 'jsonOptions', 'schema'], objects)) as Obj;
    const filled = withDefaults('v1/CrawlRequest', body) as { scrapeOptions: { jsonOptions: { schema: unknown } } };
    expect(sharesContainers(body, filled)).toBe(false);
    expect(sameJson(filled.scrapeOptions.jsonOptions.schema, objects)).toBe(true);
    const migrated = migrateToV2(body);
    // The schema is too large to compile in v1 (the one problem); v2 does not compile it. (The others: the v1 defaults
    // written out that the service of 2026-08-21 no longer applies, test/migrateFields.test.ts.)
    expect(migrated.warnings.filter((w) => !w.includes("the interface's v1 default"))).toEqual([
      expect.stringContaining(`first: ${TOO_LARGE_SCHEMA.path}: ${TOO_LARGE_SCHEMA.message}`),
    ]);
    const formats = (migrated.request as { scrapeOptions: { formats: { schema?: unknown }[] } }).scrapeOptions.formats;
    expect(sameJson(formats[1]?.schema, objects)).toBe(true);
    expect(validate('v2/CrawlRequest', migrated.request)).toEqual({ valid: true });
    // Deep where migration reports the problem: a deep `url` is named in the first warning.
    expect(migrateToV2({ url: objects }).warnings[0]).toContain('$.url: must be string, not object (an object)');
  });

  it('parseRequestBody parses it, and answers malformed JSON for it unclosed', () => {
    const parsed = parseRequestBody(nestedObjectsText(DEPTH));
    expect(parsed.ok && depthOf(parsed.value)).toBe(DEPTH);
    expect(parseRequestBody(nestedObjectsText(DEPTH).slice(0, -1))).toEqual({ ok: false, body: MALFORMED_JSON_BODY });
  });

  it(
    'and 10^5 levels (far past what JSON.stringify and structuredClone walk): the same answers',
    scaled(() => {
      const levels = 100_000;
      const deep = nestedObjects(levels);
      const body = placed(V1_CRAWL, ['scrapeOptions', 'jsonOptions', 'schema'], deep) as Obj;
      expect(brief(validate('v1/CrawlRequest', body))).toEqual([TOO_LARGE_SCHEMA]);
      expect(validate('v2/CrawlRequest', placed(V2_CRAWL, ['scrapeOptions', 'formats', 1, 'schema'], deep))).toEqual({ valid: true });
      expect(brief(validate('v2/CrawlRequest', placed(V2_CRAWL, ['scrapeOptions', 'actions', 0, 'type'], deep)))).toEqual([
        { path: '$.scrapeOptions.actions[0].type', rule: 'discriminator', message: 'is required and must be a string' },
        FIRST_ONLY,
      ]);
      const filled = withDefaults('v1/CrawlRequest', body) as { scrapeOptions: { jsonOptions: { schema: unknown } } };
      expect(depthOf(filled.scrapeOptions.jsonOptions.schema)).toBe(levels);
      expect(migrateToV2(body).kind).toBe('crawl');
      const parsed = parseRequestBody(nestedObjectsText(levels));
      expect(parsed.ok && depthOf(parsed.value)).toBe(levels);
    }),
  );
});

// ---------------------------------------------------------------------------------------------------------
// Big strings

describe('strings of megabytes', () => {
  const size = 4 * MB;
  const filler = 'a'.repeat(size);

  it('in the crawl URL: valid, or the URL rule with a short message', () => {
    expect(validate('v2/CrawlRequest', { url: `${url}/${filler}` })).toEqual({ valid: true });
    expect(brief(validate('v2/CrawlRequest', { url: filler }))).toEqual([
      { path: '$.url', rule: 'crawlUrl', message: 'URL must have a valid top-level domain or be an IP address' },
    ]);
    expect(brief(validate('v2/CrawlRequest', { url: ':'.repeat(size) }))).toEqual([
      { path: '$.url', rule: 'crawlUrl', message: 'Invalid URL' },
    ]);
    expect(brief(validate('v1/CrawlRequest', { url: `${url}${'/a'.repeat(size / 2)}` }))).toEqual([
      { path: '$.url', rule: 'urlDepthWithinMaxDepth', message: 'URL depth exceeds the specified maxDepth' },
    ]);
  });

  it('in a header value, a prompt, a selector, a path pattern: accepted, or refused with the length, not the text', () => {
    expect(validate('v2/CrawlRequest', placed(V2_CRAWL, ['scrapeOptions', 'headers', 'x-a'], filler))).toEqual({ valid: true });
    expect(validate('v2/CrawlRequest', { url, scrapeOptions: { actions: [{ type: 'wait', selector: filler }] } })).toEqual({ valid: true });
    // A path pattern is bounded (2000 characters, as the service bounds it), checked before anything is compiled.
    expect(brief(validate('v2/CrawlRequest', { url, includePaths: [filler] }))).toEqual([
      { path: '$.includePaths[0]', rule: 'maxLength', message: `must have at most 2000 characters, not ${size}` },
    ]);
    const prompt = brief(validate('v2/CrawlRequest', { url, prompt: filler }));
    expect(prompt).toEqual([{ path: '$.prompt', rule: 'maxLength', message: `must have at most 10000 characters, not ${size}` }]);
    const wrongType = issuesOf(validate('v2/CrawlRequest', { url, limit: filler }));
    expect(wrongType.map((issue) => [issue.path, issue.message.length < 200])).toEqual([['$.limit', true]]);
  });

  it('withDefaults and migrateToV2 keep them as they are', () => {
    const body = placed(V1_CRAWL, ['scrapeOptions', 'headers', 'x-a'], filler);
    const filled = withDefaults('v1/CrawlRequest', body) as { scrapeOptions: { headers: Obj } };
    expect(filled.scrapeOptions.headers['x-a']).toBe(filler);
    const migrated = migrateToV2(body).request as { scrapeOptions: { headers: Obj } };
    expect(migrated.scrapeOptions.headers['x-a']).toBe(filler);
  });

  it('a webhook URL of 1 Mi characters is checked; at 8 Mi the `uri` format overflows the regex stack: the raw validator throws, validate answers', () => {
    expect(validate('v2/CrawlRequest', { url, webhook: `${hook}/${'a'.repeat(MB)}` })).toEqual({ valid: true });
    const huge = `${hook}/${'a'.repeat(8 * MB)}`;
    let thrown: unknown;
    try {
      v2.Webhook(huge);
    } catch (error) {
      thrown = error;
    }
    const result = validate('v2/CrawlRequest', { url, webhook: huge });
    // A limit of the regular expression engine, not of the interface: should it go, the URL is valid.
    if (thrown instanceof Error) expect(brief(result)).toEqual(unreadable(`${thrown.name}: ${thrown.message}`));
    else expect(result).toEqual({ valid: true });
  });
});
