/**
 * Values JSON cannot carry (NaN, bigint, functions, cycles, getters and proxies that throw) are judged as the
 * validators see them: NaN and the infinities are not numbers, bigints, functions and symbols are of the wrong
 * type, `undefined` is an absent field, and an object that is not plain (a Date, a Map, a class instance) is an
 * object of its own enumerable properties. Where the schema is open (a JSON Schema, the extra keys of an action or
 * location), nothing is looked at. A value `validate` cannot read (a getter or Proxy trap that throws) is invalid,
 * with one issue at `$`, rule `readable`, that quotes what was thrown; the raw validators throw there.
 * `withDefaults` keeps what it cannot read as it is; `migrateToV2` answers `kind: 'unknown'` for it.
 */
import { describe, expect, it } from 'vitest';
import * as v2 from '#generated/validators/v2.js';
import { withDefaults } from '../schemas/defaults.js';
import { jsonPath } from '../schemas/issues.js';
import { migrateToV2 } from '../schemas/migrate.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { deepFreeze, placed, sharesContainers } from './support/hostileValues.js';
import {
  BASES,
  type Obj,
  type Segments,
  V1_CRAWL,
  V2_CRAWL,
  brief,
  cyclic,
  expectAnswer,
  outcome,
  related,
  throwingGetter,
  throwingProxy,
  unreadable,
  url,
} from './support/hostileInputs.js';

// ---------------------------------------------------------------------------------------------------------
// Values JSON cannot carry

class Instance {
  readonly x = 1;
}

const revokedProxy = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
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
