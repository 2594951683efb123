/**
 * The cheap side of the rules written as code, which `validate()` trusts for every body the fast path accepts:
 *   - each rule's `keeps` is sound: when it says yes, `check` finds nothing (a wrong yes would accept a body the
 *     rule refuses);
 *   - the generator's composition (generated/fast/keepers.js) answers what asking each rule at its place, in the
 *     order of CODE_RULES, answers: the index of the first rule whose `keeps` says no, or -1; and a rule it skips
 *     for want of its `triggers` does keep. On objects with fields they only inherit (read plainly where that can
 *     only make an answer stricter), a yes is still never contradicted by check;
 *   - the JSON Schema rules' cheap answers: a schema that compiled is known again by its data (keys in the same
 *     order), never a different one; and the walk that finds no free-form object agrees with the check.
 * On generated bodies (valid, and of the right shape breaking rules), arbitrary JSON, every rule case and vector.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captured, ruleKeepers } from '../generated/fast/keepers.js';
import * as v1FastPath from '../generated/fast/v1.js';
import * as v2FastPath from '../generated/fast/v2.js';
import { CAPTURED } from '../scripts/emit/ruleKeepers.js';
import { CODE_RULES, type PlacedRule } from '../schemas/codeRules/index.js';
import { field, isRecord, NO_PROBLEMS } from '../schemas/codeRules/codeRule.js';
import { jsonSchemaRules } from '../schemas/codeRules/jsonSchemas.js';
import { definitions } from '../schemas/registry.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { arbitraryFor } from '../scripts/contract/generation/arbitrary.js';
import { RULE_CASES } from '../scripts/contract/generation/ruleCases.js';
import type { VectorGroup } from '../scripts/emit/vectorFile.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);
const KEEPERS = ruleKeepers(CODE_RULES, isRecord);
const FAST_PATHS = { v1: v1FastPath, v2: v2FastPath } as unknown as Record<'v1' | 'v2', Record<string, (x: unknown) => boolean>>;

/** The object a placed rule looks at, if the body has one there. */
function placeOf(body: unknown, at: readonly (string | number)[]): Readonly<Record<string, unknown>> | undefined {
  let object: unknown = body;
  for (const key of at) object = isRecord(object) ? field(object, String(key)) : undefined;
  return isRecord(object) ? object : undefined;
}

/** What the composition must answer, asked rule by rule. */
function firstNotKept(placed: readonly PlacedRule[], body: unknown): number {
  return placed.findIndex(({ at, rule }) => {
    const object = placeOf(body, at);
    return object !== undefined && !rule.keeps(object);
  });
}

/** The rules whose `keeps` said yes while `check` found a problem. */
function unsoundYes(placed: readonly PlacedRule[], body: unknown): string[] {
  return placed.flatMap(({ at, rule }) => {
    const object = placeOf(body, at);
    return object !== undefined && rule.keeps(object) && rule.check(object) !== NO_PROBLEMS ? [`${rule.id} at ${at.join('.')}`] : [];
  });
}

const named = Object.keys(CODE_RULES) as SchemaName[];

describe("the composed keepers and each rule's keeps", () => {
  it('the composition covers exactly the definitions with rules written as code', () => {
    expect(Object.keys(KEEPERS).sort()).toEqual([...named].sort());
  });

  for (const name of named) {
    const [version, definition] = name.split('/') as ['v1' | 'v2', string];
    const placed = CODE_RULES[name]!;
    const schema = definitions[version].get(definition)!;
    const bodies = fc
      .oneof(arbitraryFor(schema), arbitraryFor(schema, { rules: false }), fc.jsonValue({ maxDepth: 3 }))
      .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

    it(`${name}: the composition answers the first rule whose keeps says no; a yes is never contradicted by check`, () => {
      fc.assert(
        fc.property(bodies, (body) => {
          expect(KEEPERS[name]!(body)).toBe(firstNotKept(placed, body));
          expect(unsoundYes(placed, body)).toEqual([]);
        }),
        { numRuns },
      );
    });

    if (CAPTURED.includes(name))
      it(`${name}: right after the fast path said yes, the composition reading what it kept answers as the one that walks`, () => {
        const fastPath = FAST_PATHS[version][definition]!;
        let accepted = 0;
        fc.assert(
          fc.property(bodies, bodies, (before, body) => {
            // What the fast path kept of another body just before must not be taken for this one's.
            fastPath(before);
            if (!fastPath(body)) return;
            accepted += 1;
            expect(KEEPERS[name]!(body, captured[name])).toBe(KEEPERS[name]!(body));
          }),
          { numRuns: numRuns * 2 },
        );
        expect(accepted).toBeGreaterThan(numRuns / 4);
        // What validate() read of the last body is not held after it: the record is emptied as it is taken.
        fc.assert(
          fc.property(bodies, (body) => {
            if (!fastPath(body)) return;
            KEEPERS[name]!(body, captured[name]);
            expect(Object.values(captured[name]!).filter((value) => value !== undefined)).toEqual([]);
          }),
          { numRuns },
        );
      });
  }

  it('fields a body only inherits (a polluted or custom prototype): a yes, of a rule or of the composition, is never contradicted by check', () => {
    // Values that, read in place of the defaults or of absent fields, would let a plain read say yes wrongly.
    const proto = {
      maxDepth: 1000,
      ignoreInvalidURLs: true,
      url: 'https://docs.example.com/a/b/c/d/e/f/g/h/i/j/k/l',
      urls: ['https://docs.example.com/'],
      includePaths: ['^/a$'],
      scrapeOptions: { waitFor: 1000, timeout: 1000 },
      webhook: { url: 'https://hooks.example.com/', headers: { 'X-Firecrawl-Signature': 'x' } },
      waitFor: 59000,
      timeout: 1000,
      headers: { 'x-firecrawl-signature': 'x' },
      schema: { type: 'object', additionalProperties: true },
    };
    for (const name of named) {
      const [version, definition] = name.split('/') as ['v1' | 'v2', string];
      const placed = CODE_RULES[name]!;
      const schema = definitions[version].get(definition)!;
      const bodies = fc
        .oneof(arbitraryFor(schema), arbitraryFor(schema, { rules: false }))
        .map((v) => JSON.parse(JSON.stringify(v)) as unknown);
      fc.assert(
        fc.property(bodies, fc.subarray(Object.keys(proto)), (body, inherited) => {
          if (!isRecord(body)) return;
          const parent = Object.fromEntries(inherited.map((key) => [key, proto[key as keyof typeof proto]]));
          const object = Object.assign(Object.create(parent) as object, body) as Readonly<Record<string, unknown>>;
          expect(unsoundYes(placed, object), name).toEqual([]);
          const first = KEEPERS[name]!(object);
          // Rules before the one named keep; with none named, every rule keeps.
          const kept = first < 0 ? placed : placed.slice(0, first);
          for (const { at, rule } of kept) {
            const place = placeOf(object, at);
            if (place !== undefined) expect(rule.check(place), `${name} ${rule.id}`).toBe(NO_PROBLEMS);
          }
        }),
        { numRuns: Math.max(20, numRuns / 5) },
      );
    }
    // The two defaults a plain read would replace: a deep start URL under an inherited maxDepth, an invalid entry
    // under an inherited ignoreInvalidURLs.
    const deep = Object.assign(Object.create({ maxDepth: 1000 }) as object, { url: proto.url });
    expect(CODE_RULES['v1/CrawlRequest']!.map(({ rule }) => rule.check(deep)).flat()).not.toEqual([]);
    expect(unsoundYes(CODE_RULES['v1/CrawlRequest']!, deep)).toEqual([]);
    expect(KEEPERS['v1/CrawlRequest']!(deep)).toBeGreaterThanOrEqual(0);
    const mixed = Object.assign(Object.create({ ignoreInvalidURLs: true }) as object, { urls: ['https://docs.example.com/', 'nope'] });
    expect(unsoundYes(CODE_RULES['v1/BatchScrapeRequest']!, mixed)).toEqual([]);
    expect(KEEPERS['v1/BatchScrapeRequest']!(mixed)).toBe(0);
  });

  it('a field that is not enumerable: not looked at where the fast path walks the keys to decide; read as the validators read it elsewhere', () => {
    const hide = (body: Record<string, unknown>, key: string) =>
      Object.defineProperty({ ...body }, key, { value: body[key], enumerable: false }) as Record<string, unknown>;
    // Every field the walk sees is valid: the fast path decides, and the composition does not see the hidden one either.
    const rulesOf = (result: ReturnType<typeof validate>) => (result.valid ? [] : result.errors.map((issue) => issue.rule));
    for (const [name, body, hidden, rule] of [
      ['v2/ScrapeOptions', { waitFor: 50000, timeout: 2000 }, 'timeout', 'waitForWithinTimeout'],
      ['v2/ScrapeOptions', { waitFor: 50000, timeout: 2000 }, 'waitFor', 'waitForWithinTimeout'],
      ['v1/CrawlRequest', { url: 'https://docs.example.com/a/b/c', maxDepth: 1 }, 'maxDepth', 'urlDepthWithinMaxDepth'],
      [
        'v2/BatchScrapeRequest',
        { urls: ['https://docs.example.com/', 'nope'], ignoreInvalidURLs: false },
        'ignoreInvalidURLs',
        'batchUrls',
      ],
    ] as const) {
      expect(rulesOf(validate(name, body)), `${name} ${hidden} shown`).toContain(rule);
      expect(validate(name, hide(body, hidden)), `${name} ${hidden} hidden`).toEqual({ valid: true });
      expect(KEEPERS[name]!(hide(body, hidden)), `${name} ${hidden} hidden`).toBe(-1);
    }
    // A required field hidden: the fast path refuses the body, the validators read the field as present, and the
    // rules read it as they do (a hidden bad value is not let through).
    for (const [name, body, hidden, rule] of [
      ['v1/BatchScrapeRequest', { urls: ['nope'] }, 'urls', 'batchUrls'],
      ['v1/CrawlRequest', { url: 'https://localhost/a' }, 'url', 'crawlUrl'],
    ] as const) {
      expect(rulesOf(validate(name, body)), `${name} ${hidden} shown`).toContain(rule);
      expect(rulesOf(validate(name, hide(body, hidden))), `${name} ${hidden} hidden`).toContain(rule);
    }
    // A small open object (a location) is read by name where the fast path decides, as the validators read it: a
    // hidden bad field there is refused, with the validators' reason.
    const location = hide({ country: 'US', languages: 'en' }, 'languages');
    expect(validate('v2/ScrapeOptions', { location: { country: 'US' } })).toEqual({ valid: true });
    const refused = validate('v2/ScrapeOptions', { location });
    expect(refused.valid ? [] : refused.errors.map((issue) => issue.path)).toEqual(['$.location.languages']);
  });

  it('a rule with triggers keeps every object that holds none of them (the composition does not ask it then)', () => {
    const rules = [...new Set(Object.values(CODE_RULES).flatMap((placed) => (placed ?? []).map(({ rule }) => rule)))];
    const withTriggers = rules.filter((rule) => rule.triggers !== undefined);
    expect(withTriggers.length).toBeGreaterThan(5);
    const objects = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(objects, fc.constantFrom(...withTriggers), (object, rule) => {
        const without = Object.fromEntries(Object.entries(object).filter(([key]) => !rule.triggers!.includes(key)));
        expect(rule.keeps(without), rule.id).toBe(true);
      }),
      { numRuns: numRuns * 5 },
    );
  });

  it('every rule case and vector: the composition as rule by rule, and no unsound yes; the invalid side of a code rule case is not kept', () => {
    const VECTORS = fileURLToPath(new URL('../generated/vectors/', import.meta.url));
    const vectors = (['v1', 'v2'] as const).flatMap((version) =>
      readdirSync(join(VECTORS, version))
        .filter((f) => f.endsWith('.json'))
        .flatMap((f) => JSON.parse(readFileSync(join(VECTORS, version, f), 'utf8')) as VectorGroup[])
        .flatMap((group) => group.tests.map((test) => ({ name: `${version}/${group.schema}` as SchemaName, body: test.data }))),
    );
    const cases = RULE_CASES.flatMap((c) => [
      { name: `${c.version}/${c.schema}` as SchemaName, body: c.valid },
      { name: `${c.version}/${c.schema}` as SchemaName, body: c.invalid, notKept: c.kind === 'code' },
    ]);
    let asked = 0;
    for (const { name, body, notKept } of [...cases, ...vectors] as { name: SchemaName; body: unknown; notKept?: boolean }[]) {
      const placed = CODE_RULES[name];
      if (placed === undefined) continue;
      asked += 1;
      expect(KEEPERS[name]!(body), `${name} ${JSON.stringify(body)}`).toBe(firstNotKept(placed, body));
      expect(unsoundYes(placed, body), `${name} ${JSON.stringify(body)}`).toEqual([]);
      if (notKept === true) expect(KEEPERS[name]!(body), `${name} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(0);
    }
    expect(asked).toBeGreaterThan(100);
  });
});

describe("the JSON Schema rules' cheap answers", () => {
  const [compiles, notFreeForm] = jsonSchemaRules('v1', 'holder') as [
    ReturnType<typeof jsonSchemaRules>[0],
    ReturnType<typeof jsonSchemaRules>[0],
  ];
  const [v2NotFreeForm] = jsonSchemaRules('v2', 'holder');
  /** The same data with the keys of every object in reverse order. */
  const reordered = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reordered)
      : isRecord(value)
        ? Object.fromEntries(
            Object.keys(value)
              .reverse()
              .map((k) => [k, reordered(value[k])]),
          )
        : value;
  const schemas = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.record(
      {
        type: fc.constantFrom('object', 'string', 'array'),
        additionalProperties: fc.oneof(fc.boolean(), fc.constant({})),
        properties: fc.dictionary(fc.string({ maxLength: 3 }), fc.record({ type: fc.constantFrom('string', 'number', 'object') })),
        $ref: fc.constantFrom('#/definitions/a', '#'),
        minimum: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant('x')),
        items: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    ),
  );

  it('a schema is known as compiled only after it compiled (the same data, keys in the same order); never a changed one', () => {
    fc.assert(
      fc.property(schemas, fc.jsonValue({ maxDepth: 1 }), (schema, change) => {
        const holder = { schema: JSON.parse(JSON.stringify(schema)) as unknown };
        const ok = compiles!.check(holder) === NO_PROBLEMS;
        // Once checked, the same data is known by its cheap answer exactly when it compiled.
        if (isRecord(holder.schema)) expect(compiles!.keeps({ schema: JSON.parse(JSON.stringify(schema)) as unknown })).toBe(ok);
        // Other data (keys reordered, a key added, a key only inherited) may be unknown, but a yes is always right.
        const others = isRecord(holder.schema)
          ? [
              reordered(holder.schema),
              { ...holder.schema, zzChanged: change },
              Object.assign(Object.create({ zzInherited: change }) as object, holder.schema),
              Object.fromEntries(Object.entries(holder.schema).slice(1)),
              Object.fromEntries(Object.entries(holder.schema).slice(0, -1)),
            ]
          : [];
        for (const other of others)
          if (compiles!.keeps({ schema: other }))
            expect(compiles!.check({ schema: JSON.parse(JSON.stringify(other)) as unknown })).toBe(NO_PROBLEMS);
      }),
      { numRuns },
    );
    // A key the schema only inherits is not its data: a schema that compiled with it as its own is not known by it.
    const whole = { $ref: '#/definitions/a', definitions: { a: { type: 'string' } } };
    expect(compiles!.check({ schema: whole })).toBe(NO_PROBLEMS);
    expect(compiles!.keeps({ schema: JSON.parse(JSON.stringify(whole)) as unknown })).toBe(true);
    const inherits = Object.assign(Object.create({ definitions: whole.definitions }) as object, { $ref: whole.$ref });
    expect(compiles!.keeps({ schema: inherits })).toBe(false);
    // Nor is one with a key less: without its definitions, the reference points nowhere.
    const fewer = { $ref: whole.$ref };
    expect(compiles!.keeps({ schema: fewer })).toBe(false);
    expect(compiles!.check({ schema: fewer })).not.toBe(NO_PROBLEMS);
  });

  it('the walk that finds no free-form object never says yes where the check finds one (v1, and v2 leaving $ref alone)', () => {
    fc.assert(
      fc.property(schemas, fc.boolean(), (schema, nested) => {
        const holder = { schema: nested ? { type: 'object', properties: { inner: schema } } : schema };
        for (const rule of [notFreeForm!, v2NotFreeForm!]) if (rule.keeps(holder)) expect(rule.check(holder)).toBe(NO_PROBLEMS);
      }),
      { numRuns },
    );
    // And it does find one, deep inside, in an array, but not under $ref in v2.
    const deep = { schema: { type: 'object', properties: { a: { anyOf: [{ type: 'object', additionalProperties: true }] } } } };
    expect(notFreeForm!.keeps(deep)).toBe(false);
    expect(v2NotFreeForm!.keeps(deep)).toBe(false);
    const underRef = { schema: { type: 'object', properties: { a: { $ref: '#/x', type: 'object', additionalProperties: true } } } };
    expect(v2NotFreeForm!.keeps(underRef)).toBe(true);
    expect(notFreeForm!.keeps(underRef)).toBe(false);
  });
});
