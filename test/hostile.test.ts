/**
 * Hostile input never crashes, hangs or mutates. `validate()` (every schema name), the raw generated
 * validators, `withDefaults`, `migrateToV2`, `parseRequestBody` / `validationErrorBody`, `partitionBatch` and
 * the `crawlspec` command get: arbitrary JSON and JavaScript values (fast-check), as the whole body and inside
 * otherwise valid bodies; nesting 10^4 levels deep (10^5 for the functions), at the top and under open
 * fields; strings of megabytes; batches of 10^5 URLs; `__proto__` / `constructor` / `prototype` keys at every
 * level; and values JSON cannot carry (NaN, bigint, functions, cycles, getters and proxies that throw).
 * Each answer is checked (the issue's path, rule and message), not only the absence of an exception; inputs
 * are deep-frozen or compared with a copy afterwards.
 *
 * Decisions these tests hold:
 *   - The work is bounded by the body's size, not by the number of problems its sender put in it: a body of
 *     more than REPORT_LIMIT values gets its first schema problem and a `firstProblemOnly` issue; at most
 *     MAX_ISSUES issues are listed, then a `moreProblems` issue with the count of the others.
 *   - `validate` answers every value. A value it cannot read (a getter or Proxy trap that throws) or check (a
 *     `format: uri` string of 8 Mi characters overflows the regular expression engine's stack) is invalid,
 *     with one issue at `$`, rule `readable`, that quotes what was thrown. The raw validators throw there.
 *   - Values JSON cannot carry are judged as the validators see them: NaN and the infinities are not numbers,
 *     bigints, functions and symbols are of the wrong type, `undefined` is an absent field, and an object that
 *     is not plain (a Date, a Map, a class instance) is an object of its own enumerable properties. Where
 *     the schema is open (a JSON Schema, the extra keys of an action or location), nothing is looked at.
 *   - `withDefaults` keeps what it cannot read as it is; `migrateToV2` answers `kind: 'unknown'` for it.
 *
 * Runs: FC_RUNS (default 200) for a property over every request body at once (four times that over every
 * place in them); a quarter of it per schema name, and per place, where each is swept on its own.
 */
import fc from 'fast-check';
import type { ErrorObject } from 'ajv';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v1 from '#generated/validators/v1.js';
import * as v2 from '#generated/validators/v2.js';
import * as v1AllErrors from '#generated/validators/v1.all-errors.js';
import * as v2AllErrors from '#generated/validators/v2.all-errors.js';
import { partitionBatch } from '../schemas/batchPartition.js';
import { MAX_SCHEMA_VALUES } from '../schemas/codeRules/jsonSchemas.js';
import { withDefaults } from '../schemas/defaults.js';
import { MALFORMED_JSON_BODY, parseRequestBody, validationErrorBody } from '../schemas/errorEnvelope.js';
import { jsonPath, toIssues, type BranchValidator, type DefinitionLookup } from '../schemas/issues.js';
import { migrateToV2 } from '../schemas/migrate.js';
import {
  MAX_ISSUES,
  REPORT_LIMIT,
  schemaNames,
  validate,
  validatorFor,
  type SchemaName,
  type ValidationIssue,
  type ValidationResult,
} from '../schemas/validate.js';
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
import { withCpuMs } from './support/cpuTime.js';
import { runCli, type CliRun } from './support/runCli.js';
import { expectEqual, expectTrue } from './support/hotExpect.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);
const sweepRuns = Math.max(1, Math.ceil(numRuns / 4));
const DEPTH = 10_000;
const MB = 1 << 20;
const URL_COUNT = 100_000;
/**
 * For a case that handles 10^4..10^5 of something: a hang or a quadratic walk blows well past it. CPU time, not the
 * clock, so that a loaded machine does not fail it (test/support/cpuTime.ts).
 */
const SCALE_CPU_MS = 20_000;
const scaled = (body: () => void) => () => {
  const [, ms] = withCpuMs(body);
  expect(ms, 'CPU milliseconds').toBeLessThan(SCALE_CPU_MS);
};

const url = 'https://example.com';
const hook = 'https://hooks.example.com/crawl';
type Obj = Record<string, unknown>;
type Version = 'v1' | 'v2';
type Request = 'v1/CrawlRequest' | 'v2/CrawlRequest' | 'v1/BatchScrapeRequest' | 'v2/BatchScrapeRequest';
const REQUESTS: readonly Request[] = ['v1/CrawlRequest', 'v2/CrawlRequest', 'v1/BatchScrapeRequest', 'v2/BatchScrapeRequest'];
const versionOf = (name: SchemaName): Version => (name.startsWith('v1/') ? 'v1' : 'v2');

/** Every raw validator of both versions, by schema name. */
const RAW = [
  ...Object.entries(v1).map(([definition, check]) => [`v1/${definition}`, check] as const),
  ...Object.entries(v2).map(([definition, check]) => [`v2/${definition}`, check] as const),
];

// ---------------------------------------------------------------------------------------------------------
// What every answer must be

/** An issue a person can act on: where (`path` agreeing with `segments`), which rule, what, what is expected. */
function expectClearIssue(issue: ValidationIssue): void {
  expectTrue(issue.path.startsWith('$'), issue.path);
  expectEqual(issue.path, jsonPath(issue.segments));
  for (const text of [issue.rule, issue.message, issue.expected])
    expectTrue(typeof text === 'string' && text.length > 0, () => `rule, message and expected of ${JSON.stringify(issue)}`);
}

/** A result, with clear issues; `readable` issues only where reading the value can throw. */
function expectAnswer(result: ValidationResult, { readable = false } = {}): void {
  if (result.valid) {
    expectEqual(result, { valid: true });
    return;
  }
  expectTrue(result.errors.length > 0, 'an invalid result lists its errors');
  result.errors.forEach(expectClearIssue);
  if (!readable)
    expectEqual(
      result.errors.filter((issue) => issue.rule === 'readable'),
      [],
    );
}

/** The issues, or a failure naming the unexpected valid result. */
function issuesOf(result: ValidationResult): ValidationIssue[] {
  if (result.valid) throw new Error('expected an invalid result');
  return result.errors;
}

/** `{ path, rule, message }` of each issue: what the representative cases compare. */
const brief = (result: ValidationResult) => issuesOf(result).map(({ path, rule, message }) => ({ path, rule, message }));

/** The one issue of a value that could not be read or checked. */
const unreadable = (thrown: string) => [
  { path: '$', rule: 'readable', message: `could not be checked: reading or checking it threw ${thrown}` },
];

/** The v2 validators that gather every problem, by definition name (what validate() looks union branches up in). */
const v2AllErrorsLookup: DefinitionLookup = (name) => (v2AllErrors as unknown as Record<string, BranchValidator | undefined>)[name];

/** The issue saying that, the body being big, only its first schema problem was looked for. */
const FIRST_ONLY = { path: '$', rule: 'firstProblemOnly', message: expect.stringContaining(`more than ${REPORT_LIMIT} values`) as string };

/** One of `a`, `b` is a prefix of the other: an issue at or around the place a value was put. */
const related = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
  a.slice(0, Math.min(a.length, b.length)).every((segment, i) => segment === b[i]);

// ---------------------------------------------------------------------------------------------------------
// Valid bodies, and places in them to put a hostile value

const V1_CRAWL = {
  url,
  scrapeOptions: {
    formats: ['markdown', 'json'],
    jsonOptions: { schema: { type: 'object' }, prompt: 'the title' },
    headers: { 'x-a': 'b' },
    location: { country: 'US' },
    actions: [{ type: 'wait', milliseconds: 10 }],
  },
  webhook: { url: hook, metadata: { m: 'v' } },
};
const V2_CRAWL = {
  url,
  scrapeOptions: {
    formats: ['markdown', { type: 'json', schema: { type: 'object' }, prompt: 'the title' }],
    headers: { 'x-a': 'b' },
    location: { country: 'US' },
    actions: [{ type: 'wait', milliseconds: 10 }],
  },
  webhook: { url: hook, metadata: { m: 'v' } },
};
const batchOf = (crawl: typeof V1_CRAWL | typeof V2_CRAWL) => ({
  urls: [url, `${url}/b`],
  ...crawl.scrapeOptions,
  webhook: crawl.webhook,
});
const BASES: Record<Request, Obj> = {
  'v1/CrawlRequest': V1_CRAWL,
  'v2/CrawlRequest': V2_CRAWL,
  'v1/BatchScrapeRequest': batchOf(V1_CRAWL),
  'v2/BatchScrapeRequest': batchOf(V2_CRAWL),
};

type Segments = readonly (string | number)[];

/** Where a hostile value goes: each field kind once, open fields (a JSON Schema, extra keys of an action or location) included. */
function sitesOf(name: Request): Record<string, Segments> {
  const options: Segments = name.endsWith('CrawlRequest') ? ['scrapeOptions'] : [];
  const schema: Segments = name.startsWith('v1/') ? [...options, 'jsonOptions', 'schema'] : [...options, 'formats', 1, 'schema'];
  const start: Record<string, Segments> = name.endsWith('CrawlRequest')
    ? { url: ['url'], scrapeOptions: options }
    : { urls: ['urls'], 'urls[1]': ['urls', 1] };
  return {
    ...start,
    'an action': [...options, 'actions', 1],
    "an action's extra key": [...options, 'actions', 0, 'extra'],
    'a format': [...options, 'formats', 2],
    'a JSON Schema': schema,
    'inside a JSON Schema': [...schema, 'properties'],
    'a header value': [...options, 'headers', 'x-a'],
    "location's extra key": [...options, 'location', 'extra'],
    webhook: ['webhook'],
    'webhook metadata': ['webhook', 'metadata', 'm'],
    'an unknown key': ['extra'],
  };
}

describe('the valid bodies the hostile values go into', () => {
  for (const name of REQUESTS) {
    it(`${name} is valid, and every place in it exists`, () => {
      expect(validate(name, BASES[name])).toEqual({ valid: true });
      for (const segments of Object.values(sitesOf(name))) {
        let container: unknown = BASES[name];
        for (const segment of segments.slice(0, -1)) container = (container as Obj)[segment];
        expect(typeof container === 'object' && container !== null, segments.join('.')).toBe(true);
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Arbitrary values

const ANYTHING = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: 'binary',
});
const JSON_VALUE = fc.jsonValue({ maxDepth: 4 });

describe('arbitrary values as the whole body', () => {
  it('validate, every schema name: any JSON value gets an answer with clear issues, and is left as it was', () => {
    for (const name of schemaNames()) {
      fc.assert(
        fc.property(JSON_VALUE, (value) => {
          const before = JSON.stringify(value);
          const result = validate(name, deepFreeze(value));
          expectAnswer(result);
          expect(JSON.stringify(value)).toBe(before);
          // The code rules only add problems: what validate accepts, the schema accepts.
          if (result.valid) expect(validatorFor(name)(value)).toBe(true);
        }),
        { numRuns: sweepRuns },
      );
    }
  });

  it('validate, every schema name: any JavaScript value (maps, dates, bigints, boxed values, sparse arrays, ...)', () => {
    for (const name of schemaNames()) {
      fc.assert(
        fc.property(fc.clone(ANYTHING, 2), ([value, twin]) => {
          expectAnswer(validate(name, value));
          expect(value).toStrictEqual(twin);
        }),
        { numRuns: sweepRuns },
      );
    }
  });

  it('the raw validators, every definition: any JSON or JavaScript value gives a boolean', () => {
    for (const [name, check] of RAW) {
      fc.assert(
        fc.property(fc.oneof(JSON_VALUE, ANYTHING), (value) => {
          expect(typeof check(value), name).toBe('boolean');
        }),
        { numRuns: sweepRuns },
      );
    }
  });

  it('withDefaults, migrateToV2 and partitionBatch: any value; a copy sharing nothing, the input left as it was', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REQUESTS), fc.clone(fc.oneof(JSON_VALUE, ANYTHING), 2), (name, [value, twin]) => {
        const filled = withDefaults(name, value);
        expect(sharesContainers(value, filled)).toBe(false);
        const migrated = migrateToV2(value);
        expect(migrated.warnings.every((w) => typeof w === 'string')).toBe(true);
        if (migrated.kind !== 'unknown') expect(sharesContainers(value, migrated.request)).toBe(false);
        for (const version of ['v1', 'v2'] as const) expect(['accepted', 'rejected']).toContain(partitionBatch(version, value).outcome);
        expect(value).toStrictEqual(twin);
      }),
      { numRuns },
    );
  });

  it('parseRequestBody: any text is the parsed value or the malformed-JSON body', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.json(),
      JSON_VALUE.map((v) => `\uFEFF${JSON.stringify(v)}`),
    );
    fc.assert(
      fc.property(text, (body) => {
        const parsed = parseRequestBody(body);
        let expected: { ok: true; value: unknown } | { ok: false };
        try {
          expected = { ok: true, value: JSON.parse(body.replace(/^\uFEFF/, '')) };
        } catch {
          expected = { ok: false };
        }
        expect(parsed).toEqual(expected.ok ? expected : { ok: false, body: MALFORMED_JSON_BODY });
      }),
      { numRuns },
    );
  });
});

describe('arbitrary values inside valid bodies', () => {
  for (const name of REQUESTS) {
    for (const [site, segments] of Object.entries(sitesOf(name))) {
      it(`${name}, ${site}: JSON values are reported where they are put; defaults, migration and error bodies follow`, () => {
        fc.assert(
          fc.property(JSON_VALUE, (value) => {
            const body = deepFreeze(placed(BASES[name], segments, value));
            const before = JSON.stringify(body);
            const result = validate(name, body);
            expectAnswer(result);
            if (!result.valid) {
              expect(result.errors.some((issue) => related(issue.segments, segments))).toBe(true);
              const answer = validationErrorBody(versionOf(name), result.errors);
              expect(answer.details?.length).toBeGreaterThan(0);
            }
            expect(sharesContainers(body, withDefaults(name, body))).toBe(false);
            if (name.startsWith('v1/')) {
              const migrated = migrateToV2(body);
              expect(migrated.kind).toBe(name.endsWith('CrawlRequest') ? 'crawl' : 'batch');
              if (result.valid) expect(validate(`v2/${name.slice(3)}` as SchemaName, migrated.request)).toEqual({ valid: true });
            }
            expect(parseRequestBody(JSON.stringify(body))).toEqual({ ok: true, value: JSON.parse(before) });
            expect(JSON.stringify(body)).toBe(before);
          }),
          { numRuns: sweepRuns },
        );
      });
    }
  }

  it('any JavaScript value, at every place of every request body: an answer, and the body left as it was', () => {
    const places = REQUESTS.flatMap((name) => Object.values(sitesOf(name)).map((segments) => ({ name, segments })));
    fc.assert(
      fc.property(fc.constantFrom(...places), fc.clone(ANYTHING, 2), ({ name, segments }, [value, twin]) => {
        const body = placed(BASES[name], segments, value) as Obj;
        expectAnswer(validate(name, body));
        expect(sharesContainers(body, withDefaults(name, body))).toBe(false);
        if (name.startsWith('v1/')) expect(migrateToV2(body).kind).not.toBe('unknown');
        expect(value).toStrictEqual(twin);
      }),
      { numRuns: numRuns * 4 },
    );
  });
});

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
    // written out that the service of 2026-08-21 no longer applies, test/migrate.test.ts.)
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

// ---------------------------------------------------------------------------------------------------------
// 10^5 URLs

describe('the bounds on the work', () => {
  /** `{ urls: [...] }` holding `count` values in all: the object, the array and its entries (numbers: each a problem). */
  const urlsOfValues = (count: number) => ({ urls: Array.from({ length: count - 2 }, (_, i) => i) });
  const typeIssue = (i: number) => ({ path: `$.urls[${i}]`, rule: 'type', message: `must be string, not integer (${i})` });

  it(`a body of ${REPORT_LIMIT} values gets every problem looked for (the first ${MAX_ISSUES} listed, then a count); one more value, only the first`, () => {
    const atLimit = brief(validate('v1/BatchScrapeRequest', urlsOfValues(REPORT_LIMIT)));
    const problems = REPORT_LIMIT - 2;
    expect(atLimit.slice(0, MAX_ISSUES)).toEqual(Array.from({ length: MAX_ISSUES }, (_, i) => typeIssue(i)));
    expect(atLimit.slice(MAX_ISSUES)).toEqual([
      {
        path: '$',
        rule: 'moreProblems',
        message: `${problems - MAX_ISSUES} more problems were found and not listed (at most ${MAX_ISSUES} are listed)`,
      },
    ]);
    expect(brief(validate('v1/BatchScrapeRequest', urlsOfValues(REPORT_LIMIT + 1)))).toEqual([typeIssue(0), FIRST_ONLY]);
  });

  it(`${MAX_ISSUES} problems are all listed; one more is counted, in the singular`, () => {
    expect(brief(validate('v1/BatchScrapeRequest', urlsOfValues(MAX_ISSUES + 2)))).toEqual(
      Array.from({ length: MAX_ISSUES }, (_, i) => typeIssue(i)),
    );
    expect(brief(validate('v1/BatchScrapeRequest', urlsOfValues(MAX_ISSUES + 3))).slice(MAX_ISSUES)).toEqual([
      { path: '$', rule: 'moreProblems', message: `1 more problem was found and not listed (at most ${MAX_ISSUES} are listed)` },
    ]);
  });

  it('schema problems come first and rule problems fill the room left; the count covers both', () => {
    // 60 entries of the wrong type (schema) and 60 invalid URLs (rule).
    const urls = [...Array.from({ length: 60 }, (_, i) => i), ...Array.from({ length: 60 }, (_, i) => `host${i}`)];
    const issues = brief(validate('v1/BatchScrapeRequest', { urls }));
    expect(issues.slice(0, 60).every((issue) => issue.rule === 'type')).toBe(true);
    expect(issues.slice(60, MAX_ISSUES).map((issue) => [issue.path, issue.rule])).toEqual(
      Array.from({ length: MAX_ISSUES - 60 }, (_, i) => [`$.urls[${60 + i}]`, 'batchUrls']),
    );
    expect(issues.slice(MAX_ISSUES)).toEqual([
      {
        path: '$',
        rule: 'moreProblems',
        message: `${120 - MAX_ISSUES} more problems were found and not listed (at most ${MAX_ISSUES} are listed)`,
      },
    ]);
  });

  it('counting the values runs no code of the body and counts an object once: a cycle, a getter, a Proxy do not change the answer', () => {
    const limitOf = (value: unknown) => brief(validate('v2/CrawlRequest', { url, limit: value }));
    const notInteger = [{ path: '$.limit', rule: 'type', message: 'must be integer, not object (an object)' }];
    expect(limitOf(cyclic())).toEqual(notInteger);
    expect(limitOf(throwingGetter())).toEqual(notInteger);
    expect(limitOf(throwingProxy())).toEqual(notInteger);
    // One object of 100 members, 10 times: counted once it is a small body (every problem looked for);
    // counted each time it would hold over REPORT_LIMIT values (first problem only).
    const shared = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    expect(10 * 101).toBeGreaterThan(REPORT_LIMIT);
    expect(limitOf(Array.from({ length: 10 }, () => shared))).toEqual([
      { path: '$.limit', rule: 'type', message: 'must be integer, not array (an array of 10)' },
    ]);
  });
});

describe(`batches of ${URL_COUNT} URLs`, () => {
  const good = Array.from({ length: URL_COUNT }, (_, i) => `${url}/${i}`);
  const bad = 77_777;
  const oneBad = good.map((u, i) => (i === bad ? 'not a url' : u));
  deepFreeze(good);
  deepFreeze(oneBad);

  it(
    'valid, or one bad entry reported at its index (v1, and v2 not ignoring); v2 ignoring keeps the others',
    scaled(() => {
      for (const version of ['v1', 'v2'] as const) {
        expect(validate(`${version}/BatchScrapeRequest`, { urls: good })).toEqual({ valid: true });
        expect(brief(validate(`${version}/BatchScrapeRequest`, { urls: oneBad, ignoreInvalidURLs: false }))).toEqual([
          { path: `$.urls[${bad}]`, rule: 'batchUrls', message: 'Invalid URL' },
        ]);
      }
      expect(validate('v2/BatchScrapeRequest', { urls: oneBad })).toEqual({ valid: true });
      const partition = partitionBatch('v2', { urls: oneBad });
      expect(partition.outcome === 'accepted' && [partition.valid.length, partition.invalidURLs]).toEqual([URL_COUNT - 1, ['not a url']]);
    }),
  );

  it(
    'all invalid: the first MAX_ISSUES in order and a count of the others (v1), or "No valid URLs provided" once (v2 ignoring); and the error body',
    scaled(() => {
      const hosts = good.map((_, i) => `host${i}`);
      const result = validate('v1/BatchScrapeRequest', { urls: hosts });
      const issues = issuesOf(result);
      const listed = issues.slice(0, MAX_ISSUES);
      expect(listed.every((issue, i) => issue.path === `$.urls[${i}]` && issue.rule === 'batchUrls')).toBe(true);
      expect(listed[0]?.message).toBe('URL must have a valid top-level domain or be an IP address');
      expect(brief(result).slice(MAX_ISSUES)).toEqual([
        {
          path: '$',
          rule: 'moreProblems',
          message: `${URL_COUNT - MAX_ISSUES} more problems were found and not listed (at most ${MAX_ISSUES} are listed)`,
        },
      ]);
      expect(validationErrorBody('v1', issues).details?.length).toBe(MAX_ISSUES + 1);
      expect(brief(validate('v2/BatchScrapeRequest', { urls: hosts }))).toEqual([
        { path: '$.urls', rule: 'batchUrls', message: 'No valid URLs provided' },
      ]);
    }),
  );

  it(
    'entries that are not strings, 10^6 of them: the first, from the schema (the URL rule does not say it again), and no other is looked for',
    scaled(() => {
      const numbers = Array.from({ length: 10 * URL_COUNT }, (_, i) => i);
      expect(brief(validate('v1/BatchScrapeRequest', { urls: numbers }))).toEqual([
        { path: '$.urls[0]', rule: 'type', message: 'must be string, not integer (0)' },
        FIRST_ONLY,
      ]);
      // The validators validate() checks with stop at the first problem.
      expect(v1.BatchScrapeRequest({ urls: numbers })).toBe(false);
      expect(v1.BatchScrapeRequest.errors?.map((e) => e.instancePath)).toEqual(['/urls/0']);
    }),
  );

  it(
    'the all-errors validators gather one error per entry for 10^5 entries in linear time (Ajv gathers with a quadratic Array.concat, rewritten at generation)',
    scaled(() => {
      const numbers = Array.from({ length: URL_COUNT }, (_, i) => i);
      expect(v1AllErrors.BatchScrapeRequest({ urls: numbers })).toBe(false);
      const errors = v1AllErrors.BatchScrapeRequest.errors ?? [];
      expect(errors.length).toBe(URL_COUNT);
      expect(errors.every((e, i) => e.instancePath === `/urls/${i}` && e.keyword === 'type')).toBe(true);
    }),
  );

  it(
    'unknown keys by the 10^5 in a branch of a union (the webhook object): validate reports the first; all of them become issues, none lost or thrown',
    scaled(() => {
      // 2 x 10^5: spreading that many errors into push() exceeds the engine's limit on arguments.
      const count = 2 * URL_COUNT;
      const webhook = { url: hook, ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 1])) };
      const body = { url, webhook };
      expect(brief(validate('v2/CrawlRequest', body))).toEqual([
        { path: '$.webhook.k0', rule: 'additionalProperties', message: 'is not a known field here' },
        FIRST_ONLY,
      ]);
      expect(v2AllErrors.CrawlRequest(body)).toBe(false);
      const issues = toIssues(body, v2AllErrors.CrawlRequest.errors, v2AllErrorsLookup);
      expect(issues.length).toBe(count);
      expect(issues.every((issue, i) => issue.path === `$.webhook.k${i}` && issue.rule === 'additionalProperties')).toBe(true);
    }),
  );

  it(
    'withDefaults and migrateToV2 copy them',
    scaled(() => {
      const filled = withDefaults('v1/BatchScrapeRequest', { urls: good }) as { urls: string[] };
      expect(filled.urls).not.toBe(good);
      expect(filled.urls).toEqual(good);
      const migrated = migrateToV2({ urls: oneBad });
      expect(migrated.kind).toBe('batch');
      expect(migrated.warnings[0]).toContain(`first: $.urls[${bad}]: Invalid URL`);
      expect((migrated.request as { urls: string[] }).urls).toEqual(oneBad);
    }),
  );

  it(
    'turning the validator errors of 10^5 broken actions into issues is linear (a rule replaces only the errors just before it)',
    scaled(() => {
      // The validator's own errors for one action that breaks a rule, repeated at each index: what Ajv would
      // report for 10^5 such actions, if the 50-action limit did not stop the body first.
      const action = { type: 'wait' };
      expect(v2AllErrors.BatchScrapeRequest({ urls: [url], actions: [action] })).toBe(false);
      const one = (v2AllErrors.BatchScrapeRequest.errors ?? []).filter((e) => e.instancePath.startsWith('/actions/0'));
      expect(one.length).toBeGreaterThan(0);
      const errors: ErrorObject[] = [];
      for (let i = 0; i < URL_COUNT; i++) {
        for (const e of one) errors.push({ ...e, instancePath: e.instancePath.replace('/actions/0', `/actions/${i}`) });
      }
      const issues = toIssues({ urls: [url], actions: Array.from({ length: URL_COUNT }, () => action) }, errors, v2AllErrorsLookup);
      expect(issues.length).toBe(URL_COUNT);
      expect(issues.every((issue, i) => issue.path === `$.actions[${i}]` && issue.rule === 'waitNeedsOneTarget')).toBe(true);
    }),
  );
});

// ---------------------------------------------------------------------------------------------------------
// __proto__, constructor, prototype

describe('__proto__, constructor and prototype keys at every level', () => {
  const KEYS = ['__proto__', 'constructor', 'prototype'];
  const objectKeys = KEYS.map((key) => `"${key}":{"polluted":"yes"}`).join(',');
  const stringKeys = KEYS.map((key) => `"${key}":"yes"`).join(',');
  const text = (version: Version) =>
    `{"url":"${url}",${objectKeys},"scrapeOptions":{${objectKeys},` +
    `"headers":{${stringKeys}},"location":{"country":"US",${objectKeys}},"actions":[{"type":"wait","milliseconds":1,${objectKeys}}],` +
    (version === 'v1'
      ? `"formats":["json"],"jsonOptions":{"schema":{${objectKeys},"properties":{${objectKeys}}}}},`
      : `"formats":[{"type":"json","schema":{${objectKeys},"properties":{${objectKeys}}}}]},`) +
    `"webhook":{"url":"${hook}","metadata":{${stringKeys}},${objectKeys}}}`;

  const unpolluted = () => {
    expect(({} as Obj)['polluted']).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  };

  for (const version of ['v1', 'v2'] as const) {
    it(`${version}: unknown keys of closed objects, at their paths; open objects take them; nothing is polluted`, () => {
      const body = deepFreeze(JSON.parse(text(version)) as Obj);
      expect(Object.keys(body)).toContain('__proto__');
      const result = validate(`${version}/CrawlRequest`, body);
      const places = ['$', '$.scrapeOptions', '$.webhook'];
      const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
      expect(brief(result).sort(byPath)).toEqual(
        places.flatMap((place) =>
          KEYS.map((key) => ({ path: `${place}.${key}`, rule: 'additionalProperties', message: 'is not a known field here' })),
        ),
      );
      expect(validationErrorBody(version, issuesOf(result)).details).toEqual(
        [[], ['webhook'], ['scrapeOptions']].map((path) => ({
          code: 'unrecognized_keys',
          message: `Unrecognized key in body -- please review the ${version} API documentation for request body changes`,
          path,
          keys: KEYS,
        })),
      );
      unpolluted();
    });

    it(`${version}: withDefaults and migrateToV2 keep them as ordinary own keys`, () => {
      const body = deepFreeze(JSON.parse(text(version)) as Obj);
      const outputs = [withDefaults(`${version}/CrawlRequest`, body), ...(version === 'v1' ? [migrateToV2(body).request] : [])];
      for (const output of outputs) {
        const out = output as Obj & { scrapeOptions: Obj & { headers: Obj } };
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
        expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual(JSON.parse('{"polluted":"yes"}'));
        expect(Object.keys(out.scrapeOptions.headers)).toEqual(KEYS);
        expect(sharesContainers(body, out)).toBe(false);
      }
      unpolluted();
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Values JSON cannot carry

class Instance {
  readonly x = 1;
}

const throwingGetter = () =>
  Object.defineProperty({}, 'formats', {
    enumerable: true,
    get() {
      throw new Error('getter boom');
    },
  });
const throwingProxy = () =>
  new Proxy(
    {},
    Object.fromEntries(
      ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'defineProperty'].map((trap) => [
        trap,
        () => {
          throw new Error(`${trap} trap`);
        },
      ]),
    ),
  );
const revokedProxy = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const cyclic = () => {
  const a: Obj = { formats: ['markdown'] };
  a['self'] = a;
  return a;
};
/** An array with a hole at index 1. */
const sparse = () => [url, , url];

const REVOKED = "TypeError: Cannot perform 'IsArray' on a proxy that has been revoked";

/**
 * Each odd value, and what `validate('v2/CrawlRequest', ...)` says of it as `limit` (an integer), as
 * `scrapeOptions` (a closed object) and as a JSON Schema (an open object). `valid` means valid.
 */
const ODD: { name: string; make: () => unknown; asLimit: unknown; asOptions: unknown; asSchema: unknown }[] = [
  {
    name: 'NaN',
    make: () => NaN,
    asLimit: 'must be integer, not non-finite number (NaN)',
    asOptions: 'must be object, not non-finite number (NaN)',
    asSchema: 'must be object, not non-finite number (NaN)',
  },
  {
    name: '-Infinity',
    make: () => -Infinity,
    asLimit: 'must be integer, not non-finite number (-Infinity)',
    asOptions: 'must be object, not non-finite number (-Infinity)',
    asSchema: 'must be object, not non-finite number (-Infinity)',
  },
  {
    name: '-0',
    make: () => -0,
    asLimit: 'valid',
    asOptions: 'must be object, not integer (0)',
    asSchema: 'must be object, not integer (0)',
  },
  { name: 'undefined (an absent field)', make: () => undefined, asLimit: 'valid', asOptions: 'valid', asSchema: 'valid' },
  {
    name: 'a function',
    make: () => () => 'source text that is not shown',
    asLimit: 'must be integer, not function (a function)',
    asOptions: 'must be object, not function (a function)',
    asSchema: 'must be object, not function (a function)',
  },
  {
    name: 'a symbol',
    make: () => Symbol('s'),
    asLimit: 'must be integer, not symbol (Symbol(s))',
    asOptions: 'must be object, not symbol (Symbol(s))',
    asSchema: 'must be object, not symbol (Symbol(s))',
  },
  {
    name: 'a bigint',
    make: () => 10n,
    asLimit: 'must be integer, not bigint (10)',
    asOptions: 'must be object, not bigint (10)',
    asSchema: 'must be object, not bigint (10)',
  },
  { name: 'a Date', make: () => new Date(0), asLimit: 'must be integer, not object (an object)', asOptions: 'valid', asSchema: 'valid' },
  {
    name: 'a Map',
    make: () => new Map([['formats', 1]]),
    asLimit: 'must be integer, not object (an object)',
    asOptions: 'valid',
    asSchema: 'valid',
  },
  {
    name: 'a class instance',
    make: () => new Instance(),
    asLimit: 'must be integer, not object (an object)',
    asOptions: { path: '$.scrapeOptions.x', message: 'is not a known field here' },
    asSchema: 'valid',
  },
  {
    name: 'a sparse array',
    make: sparse,
    asLimit: 'must be integer, not array (an array of 3)',
    asOptions: 'must be object, not array (an array of 3)',
    asSchema: 'must be object, not array (an array of 3)',
  },
  {
    name: 'a cyclic object',
    make: cyclic,
    asLimit: 'must be integer, not object (an object)',
    asOptions: { path: '$.scrapeOptions.self', message: 'is not a known field here' },
    asSchema: 'valid',
  },
  {
    name: 'an object whose getter throws',
    make: throwingGetter,
    asLimit: 'must be integer, not object (an object)',
    asOptions: { readable: 'Error: getter boom' },
    // A JSON Schema is read through, as the service reads it (jsonSchemaNotFreeForm).
    asSchema: { readable: 'Error: getter boom' },
  },
  {
    name: 'a Proxy whose traps throw',
    make: throwingProxy,
    asLimit: 'must be integer, not object (an object)',
    asOptions: { readable: 'Error: get trap' },
    asSchema: { readable: 'Error: getOwnPropertyDescriptor trap' },
  },
  {
    name: 'a revoked Proxy',
    make: revokedProxy,
    asLimit: { readable: REVOKED },
    asOptions: { readable: REVOKED },
    asSchema: { readable: REVOKED },
  },
];

/** `validate`'s answer in the form of the table. */
function outcome(result: ValidationResult, at: string): unknown {
  if (result.valid) return 'valid';
  const [issue, ...rest] = result.errors;
  if (issue === undefined || rest.length > 0) return brief(result);
  if (issue.rule === 'readable') return { readable: issue.message.replace('could not be checked: reading or checking it threw ', '') };
  return issue.path === at ? issue.message : { path: issue.path, message: issue.message };
}

describe('values JSON cannot carry', () => {
  for (const odd of ODD) {
    it(`${odd.name}: validate answers as decided, at the field's path`, () => {
      const check = (segments: Segments) => {
        const body = placed(V2_CRAWL, segments, odd.make()) as Obj;
        deepFreeze(body);
        const result = validate('v2/CrawlRequest', body);
        expectAnswer(result, { readable: true });
        return outcome(result, jsonPath(segments));
      };
      expect(check(['limit'])).toEqual(odd.asLimit);
      expect(check(['scrapeOptions'])).toEqual(odd.asOptions);
      expect(check(['scrapeOptions', 'formats', 1, 'schema'])).toEqual(odd.asSchema);
    });

    it(`${odd.name}: as the whole body, an action, a format, a URL, a tag; withDefaults and migrateToV2 answer too`, () => {
      const places: [SchemaName, Segments | undefined, Obj][] = [
        ['v2/CrawlRequest', undefined, V2_CRAWL],
        ['v2/CrawlRequest', ['scrapeOptions', 'actions', 0], V2_CRAWL],
        ['v2/CrawlRequest', ['scrapeOptions', 'actions', 0, 'type'], V2_CRAWL],
        ['v2/CrawlRequest', ['scrapeOptions', 'formats', 1], V2_CRAWL],
        ['v2/CrawlRequest', ['scrapeOptions', 'formats', 1, 'schema', 'properties'], V2_CRAWL],
        ['v2/CrawlRequest', ['webhook', 'metadata'], V2_CRAWL],
        ['v1/CrawlRequest', ['url'], V1_CRAWL],
        ['v1/BatchScrapeRequest', ['urls', 0], BASES['v1/BatchScrapeRequest']],
        ['v1/BatchScrapeRequest', ['urls'], BASES['v1/BatchScrapeRequest']],
      ];
      for (const [name, segments, base] of places) {
        const body = segments === undefined ? odd.make() : placed(base, segments, odd.make());
        const result = validate(name, body);
        expectAnswer(result, { readable: true });
        if (!result.valid) expect(result.errors.some((issue) => segments === undefined || related(issue.segments, segments))).toBe(true);
        const filled = withDefaults(name, body);
        expect(sharesContainers(body, filled)).toBe(false);
        const migrated = migrateToV2(body);
        expect(migrated.warnings.every((w) => typeof w === 'string')).toBe(true);
      }
    });
  }

  it('what the raw validators do with what cannot be read: they throw (validate answers instead)', () => {
    expect(() => v2.ScrapeOptions(throwingGetter())).toThrow('getter boom');
    expect(() => v2.CrawlRequest({ url, scrapeOptions: throwingProxy() })).toThrow('get trap');
    expect(() => v2.CrawlRequest(revokedProxy())).toThrow(TypeError);
    expect(brief(validate('v2/CrawlRequest', revokedProxy()))).toEqual(unreadable(REVOKED));
    // What is thrown is quoted, whatever it is: a thrown value that cannot even be printed too.
    const unprintable = Object.defineProperty({}, 'url', {
      enumerable: true,
      get() {
        throw Object.create(null);
      },
    });
    expect(brief(validate('v2/CrawlRequest', unprintable))).toEqual(unreadable('a value that cannot be printed'));
  });

  it('a tag that is a bigint or a cycle is reported, not serialised', () => {
    for (const tag of [10n, cyclic()]) {
      for (const segments of [
        ['scrapeOptions', 'actions', 0, 'type'],
        ['scrapeOptions', 'formats', 1, 'type'],
      ]) {
        expect(brief(validate('v2/CrawlRequest', placed(V2_CRAWL, segments, tag)))).toEqual([
          { path: jsonPath(segments), rule: 'discriminator', message: 'is required and must be a string' },
        ]);
      }
    }
  });

  it('withDefaults keeps what it cannot read as it is, and copies the rest; migrateToV2 says it could not migrate it', () => {
    for (const make of [throwingProxy, revokedProxy]) {
      const inside = make();
      const filled = withDefaults('v2/CrawlRequest', { url, scrapeOptions: { headers: inside } }) as { scrapeOptions: Obj };
      expect(filled.scrapeOptions['headers']).toBe(inside);
      expect(filled.scrapeOptions['formats']).toEqual(['markdown']);
      expect(withDefaults('v2/CrawlRequest', inside)).toBe(inside);
      const migrated = migrateToV2({ url, scrapeOptions: inside });
      expect(migrated.kind).toBe('unknown');
      expect(migrated.warnings[0]).toMatch(/^input could not be checked: reading or checking it threw /);
    }
    const sparseBatch = withDefaults('v1/BatchScrapeRequest', { urls: sparse() }) as { urls: unknown[] };
    expect(sparseBatch.urls).toEqual(sparse());
    expect(1 in sparseBatch.urls).toBe(false);
  });

  it('an array with holes as long as arrays go (2^32 - 1): judged by its elements, never by walking its holes', () => {
    const holes = (): unknown[] => {
      const array: unknown[] = [];
      array.length = 2 ** 32 - 1;
      array[5] = url;
      return array;
    };
    const said = `could not be checked: the array at $.urls has holes (length ${2 ** 32 - 1}, 1 element), which JSON data never has`;
    expect(brief(validate('v2/BatchScrapeRequest', { urls: holes() }))).toEqual([{ path: '$', rule: 'readable', message: said }]);
    for (const place of [
      { url, includePaths: holes() },
      { url, scrapeOptions: { formats: holes() } },
      { url, scrapeOptions: { actions: holes() } },
    ])
      expect(brief(validate('v2/CrawlRequest', place))[0]!.rule).toBe('readable');
    const migrated = migrateToV2({ urls: holes() });
    expect(migrated).toEqual({ kind: 'unknown', request: undefined, warnings: [`input ${said}`] });
    const filled = withDefaults('v2/BatchScrapeRequest', { urls: holes() }) as { urls: unknown[] };
    expect(filled.urls.length).toBe(2 ** 32 - 1);
    expect(Object.keys(filled.urls)).toEqual(['5']);
  });

  it('a cycle under an open field: valid, and copied as a cycle', () => {
    const schema: Obj = { type: 'object' };
    schema['self'] = schema;
    const body = deepFreeze(placed(V2_CRAWL, ['scrapeOptions', 'formats', 1, 'schema'], schema));
    expect(validate('v2/CrawlRequest', body)).toEqual({ valid: true });
    const filled = withDefaults('v2/CrawlRequest', body) as { scrapeOptions: { formats: { schema: Obj }[] } };
    // Copied once per (object, schema it is walked with): the JSON Schema, then its members as plain data.
    const copy = filled.scrapeOptions.formats[1]!.schema;
    const member = copy['self'] as Obj;
    expect(sharesContainers(body, filled)).toBe(false);
    expect(member['self']).toBe(member);
    expect(member).toEqual({ type: 'object', self: member });
  });
});

// ---------------------------------------------------------------------------------------------------------
// The command

describe('the crawlspec command', () => {
  /** Per spawn: a spawn takes about a second; this only trips on a hang. */
  const SPAWN_TIMEOUT = 120_000;
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crawlspec-hostile-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const expectClean = (run: CliRun, code: number) => {
    expect({ code: run.code, signal: run.signal }).toEqual({ code, signal: null });
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toMatch(/Error:/);
  };

  const deepSchema = nestedObjectsText(DEPTH);
  const bigHeader = 'h'.repeat(3 * MB);

  it.concurrent(
    `defaults, from a file: a body nested ${DEPTH} deep and several MB, printed whole (indented 100 levels deep)`,
    async () => {
      // Deep in an open object: a v1 JSON Schema that deep is too large to compile.
      const text = `{"url":"${url}","scrapeOptions":{"formats":["json"],"jsonOptions":{"schema":{"type":"object"}},"location":{"country":"DE","extra":${deepSchema}},"headers":{"x-big":"${bigHeader}"}}}`;
      const file = join(dir, 'deep.json');
      await writeFile(file, text);
      const run = await runCli(['defaults', 'v1/CrawlRequest', file], '', SPAWN_TIMEOUT);
      expectClean(run, 0);
      expect(run.stderr).toBe('');
      expect(run.stdout.startsWith(`{\n  "url": "${url}",\n  "scrapeOptions": {\n    "formats": [\n      "json"\n    ],\n`)).toBe(true);
      expect(run.stdout).toContain(`\n${' '.repeat(200)}"a": {"a":{"a":`);
      // Indenting every level would print 10^8 spaces.
      expect(run.stdout.length).toBeLessThan(text.length + 100_000);
      expect(sameJson(JSON.parse(run.stdout), withDefaults('v1/CrawlRequest', JSON.parse(text)))).toBe(true);
    },
    SPAWN_TIMEOUT,
  );

  it.concurrent(
    `validate, from stdin: ${URL_COUNT} URLs with one bad one (several MB): exit 1, the one problem at its index`,
    async () => {
      const urls = Array.from({ length: URL_COUNT }, (_, i) => (i === 77_777 ? 'not a url' : `${url}/${i}`));
      const run = await runCli(['validate', 'v1/BatchScrapeRequest'], JSON.stringify({ urls }), SPAWN_TIMEOUT);
      expectClean(run, 1);
      expect(run.stderr).toBe('');
      const [headline, problem, ...rest] = run.stdout.split('\n');
      expect([headline, problem?.startsWith('  $.urls[77777]: Invalid URL. Expected: Each entry must be a valid crawl URL'), rest]).toEqual(
        ['invalid v1/BatchScrapeRequest: 1 problem', true, ['']],
      );
    },
    SPAWN_TIMEOUT,
  );

  it.concurrent(
    '--jsonl: a huge line, deep lines valid and invalid, deep malformed JSON: one result per line, exit 1',
    async () => {
      const lines = [
        `{"url":"${url}","scrapeOptions":{"headers":{"x-big":"${bigHeader}"}}}`,
        deepSchema,
        `{"url":"${url}","scrapeOptions":{"formats":[{"type":"json","schema":${deepSchema}}]}}`,
        deepSchema.slice(0, -1),
        `{"url":"${url}","scrapeOptions":{"actions":[{"type":${deepSchema}}]}}`,
      ];
      const run = await runCli(['validate', '--jsonl', 'v2/CrawlRequest'], lines.join('\n'), SPAWN_TIMEOUT);
      expectClean(run, 1);
      expect(run.stderr).toBe('');
      const results = run.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as ValidationResult);
      expect(results.map((result) => (result.valid ? 'valid' : result.errors.map((issue) => `${issue.path} ${issue.rule}`)))).toEqual([
        'valid',
        ['$.url required', '$ firstProblemOnly'],
        'valid',
        ['$ json'],
        ['$.scrapeOptions.actions[0].type discriminator', '$ firstProblemOnly'],
      ]);
    },
    SPAWN_TIMEOUT,
  );

  it.concurrent(
    `migrate, from stdin: a v1 body nested ${DEPTH} deep and several MB: the v2 request, warnings on stderr, exit 0`,
    async () => {
      const text = `{"url":"${url}","maxDepth":3,"scrapeOptions":{"formats":["json"],"jsonOptions":{"schema":${deepSchema}},"headers":{"x-big":"${bigHeader}"}}}`;
      const run = await runCli(['migrate'], text, SPAWN_TIMEOUT);
      expectClean(run, 0);
      // The v1 body is invalid (its schema too large to compile), and migrated as far as possible.
      expect(run.stderr).toMatch(
        /^warning: input is not a valid v1 crawl request \(1 problem, first: \$\.scrapeOptions\.jsonOptions\.schema: The JSON Schema is too large/,
      );
      expect(run.stderr).toMatch(/\nwarning: maxDepth: dropped \(was 3\)/);
      const request = JSON.parse(run.stdout) as { scrapeOptions: { formats: { type: string; schema: unknown }[]; headers: Obj } };
      expect(request.scrapeOptions.formats[0]?.type).toBe('json');
      expect(depthOf(request.scrapeOptions.formats[0]?.schema)).toBe(DEPTH);
      expect(request.scrapeOptions.headers['x-big']).toBe(bigHeader);
    },
    SPAWN_TIMEOUT,
  );
});
