/**
 * Arbitrary JSON and JavaScript values (fast-check) never crash, hang or mutate: as the whole body of every
 * schema name (`validate()`, the raw generated validators, `withDefaults`, `migrateToV2`, `parseRequestBody` /
 * `validationErrorBody`) and inside otherwise valid bodies, at every place of the four request bodies. Each answer
 * is checked (the issue's path, rule and message), not only the absence of an exception; inputs are deep-frozen or
 * compared with a copy afterwards.
 *
 * Runs: FC_RUNS (default 200) for a property over every request body at once (four times that over every place in
 * them); a quarter of it per schema name, and per place, where each is swept on its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as v1 from '#generated/validators/v1.js';
import * as v2 from '#generated/validators/v2.js';
import { partitionBatch } from '../schemas/batchPartition.js';
import { withDefaults } from '../schemas/defaults.js';
import { MALFORMED_JSON_BODY, parseRequestBody, validationErrorBody } from '../schemas/errorEnvelope.js';
import { migrateToV2 } from '../schemas/migrate.js';
import { schemaNames, validate, validatorFor, type SchemaName } from '../schemas/validate.js';
import { deepFreeze, placed, sharesContainers } from './support/hostileValues.js';
import { BASES, type Obj, REQUESTS, type Request, type Segments, type Version, expectAnswer, related } from './support/hostileInputs.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);
const sweepRuns = Math.max(1, Math.ceil(numRuns / 4));

const versionOf = (name: SchemaName): Version => (name.startsWith('v1/') ? 'v1' : 'v2');

/** Every raw validator of both versions, by schema name. */
const RAW = [
  ...Object.entries(v1).map(([definition, check]) => [`v1/${definition}`, check] as const),
  ...Object.entries(v2).map(([definition, check]) => [`v2/${definition}`, check] as const),
];

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
