/**
 * schemas/reasons.ts (what a browser bundle says why a body is refused, from generated/reasons/) reports exactly
 * the errors of the generated Ajv validators, in both modes: the same errors in the same order, every field
 * equal (the schema and parent schema as the data holds them: without examples, defaults and the annotations the
 * reasons leave out), so the issues `validate()` makes of them are the same too. Checked on the data of every
 * vector, both bodies of every rule case, arbitrary JSON, and generated values of every definition mutated at a
 * random place (a value replaced, a field removed or added), which break every keyword the definitions use.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { ErrorObject } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reasonData } from '../generated/load/validators.browser.js';
import * as v1First from '../generated/validators/v1.js';
import * as v1All from '../generated/validators/v1.all-errors.js';
import * as v2First from '../generated/validators/v2.js';
import * as v2All from '../generated/validators/v2.all-errors.js';
import { toIssues } from '../schemas/issues.js';
import { schemaNames, validate, type SchemaName } from '../schemas/index.js';
import { REASON_KEYWORDS, reasonValidators, type ReasonValidator } from '../schemas/reasons.js';
import { definitions, VERSIONS, type Version } from '../schemas/registry.js';
import { browserBundle } from '../scripts/bench/bundle.js';
import { arbitraryFor } from '../scripts/contract/generation/arbitrary.js';
import { RULE_CASES } from '../scripts/contract/generation/ruleCases.js';
import type { VectorGroup } from '../scripts/emit/vectorFile.js';
import { LEFT_OUT, sharedLiteral } from '../scripts/emit/reasonsData.js';
import { expectEqual } from './support/hotExpect.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);
type Modules = Readonly<Record<string, ReasonValidator>>;
const AJV: Record<Version, Record<'first' | 'all', Modules>> = {
  v1: { first: v1First as unknown as Modules, all: v1All as unknown as Modules },
  v2: { first: v2First as unknown as Modules, all: v2All as unknown as Modules },
};
/** Built as a browser bundle builds them: from what its loader (generated/load/validators.browser.js) gives. */
const REASONS = Object.fromEntries(
  VERSIONS.map((version) => {
    const { definitions: data, formats } = reasonData(version)!;
    const made = (mode: 'first' | 'all') => reasonValidators(data, formats as Parameters<typeof reasonValidators>[1], mode);
    return [version, { first: made('first'), all: made('all') }];
  }),
) as Record<Version, Record<'first' | 'all', Modules>>;

/** Ajv's errors' schemas without what generated/reasons/ leaves out (nothing the issues read), to compare. */
const withoutLeftOut = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutLeftOut)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (LEFT_OUT.has(k) ? [] : [[k, withoutLeftOut(v)]])))
      : value;
const comparable = (errors: readonly ErrorObject[] | null | undefined) =>
  errors?.map((e) => ({ ...e, schema: withoutLeftOut(e.schema), parentSchema: withoutLeftOut(e.parentSchema) })) ?? null;

/** The keywords of the errors Ajv reported (since the last clear), to show that every keyword used was broken. */
const broken = new Set<string>();

/** Where the two disagree on `value`, in words (nothing when they agree). */
function disagreement(version: Version, name: string, value: unknown): string[] {
  const out: string[] = [];
  for (const mode of ['first', 'all'] as const) {
    const ajv = AJV[version][mode][name]!;
    const reasons = REASONS[version][mode][name]!;
    const decided = [ajv(value), reasons(value)];
    for (const error of ajv.errors ?? []) broken.add(error.keyword);
    if (decided[0] !== decided[1] || !isDeepStrictEqual(comparable(ajv.errors), comparable(reasons.errors))) {
      out.push(
        `${version}/${name} (${mode}) on ${JSON.stringify(value).slice(0, 200)}: Ajv ${JSON.stringify(ajv.errors).slice(0, 400)}, reasons ${JSON.stringify(reasons.errors).slice(0, 400)}`,
      );
      continue;
    }
    // The issues made of them, unions looked into through each version's validators of the same kind.
    const issues = (validators: Modules, errors: ErrorObject[] | null | undefined) => toIssues(value, errors, (n) => validators[n]);
    const fromAjv = issues(AJV[version].all, ajv.errors);
    const fromReasons = issues(REASONS[version].all, reasons.errors);
    if (!isDeepStrictEqual(fromAjv, fromReasons))
      out.push(`${version}/${name} (${mode}) issues differ on ${JSON.stringify(value).slice(0, 200)}`);
  }
  return out;
}

/** Values that break a keyword when put in place of another: limits, lengths, shapes. */
const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(0, -1, 1.5, 1e9, -1e9, 2 ** 53, '', 'x'.repeat(2001), 'https://example.com', 'not a url', [], {}, null, true),
  fc.array(fc.constantFrom('markdown', 'x', 1, null), { maxLength: 12 }),
);

/** `value` changed at one place reached by `path` (indexes taken modulo the keys there): replaced, removed, or given a key. */
function mutated(value: unknown, path: readonly number[], kind: number, key: string, put: unknown): unknown {
  const root = { value: structuredClone(value) } as Record<string, unknown>;
  let parent: Record<string, unknown> | unknown[] = root;
  let at: string | number = 'value';
  for (const step of path) {
    const here: unknown = (parent as Record<string | number, unknown>)[at];
    if (typeof here !== 'object' || here === null) break;
    const keys = Object.keys(here);
    if (keys.length === 0) break;
    parent = here as Record<string, unknown>;
    at = Array.isArray(here) ? step % here.length : keys[step % keys.length]!;
  }
  const target = (parent as Record<string | number, unknown>)[at];
  if (kind === 1 && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[at as string];
  else if (kind === 2 && typeof target === 'object' && target !== null && !Array.isArray(target))
    (target as Record<string, unknown>)[key] = put;
  else (parent as Record<string | number, unknown>)[at] = put;
  return root.value;
}
const mutation = fc.tuple(
  fc.array(fc.nat(), { maxLength: 6 }),
  fc.nat(2),
  fc.constantFrom('type', 'url', 'x', 'formats', 'limit'),
  replacement,
);

describe('the reasons read from the definitions as data are the Ajv validators’ errors', () => {
  for (const version of VERSIONS) {
    describe(version, () => {
      for (const [name, definition] of definitions[version]) {
        it(`${name}: arbitrary JSON, and generated values changed at one or two places`, () => {
          const changed = (arbitrary: fc.Arbitrary<unknown>) =>
            fc.tuple(arbitrary, mutation, mutation, fc.boolean()).map(([value, first, second, twice]) => {
              const once = mutated(JSON.parse(JSON.stringify(value ?? null)) as unknown, ...first);
              return twice ? mutated(once, ...second) : once;
            });
          const values = fc.oneof(
            fc.jsonValue({ maxDepth: 3 }),
            changed(arbitraryFor(definition)),
            changed(arbitraryFor(definition, { rules: false })),
          );
          fc.assert(
            fc.property(values, (value) => {
              expectEqual(disagreement(version, name, value), []);
            }),
            { numRuns },
          );
        });
      }
    });
  }

  it('the data of every vector and both bodies of every rule case, which break every keyword the definitions use', () => {
    broken.clear();
    const VECTORS = fileURLToPath(new URL('../generated/vectors/', import.meta.url));
    const cases = [
      ...VERSIONS.flatMap((version) =>
        readdirSync(join(VECTORS, version))
          .filter((f) => f.endsWith('.json'))
          .flatMap((f) => JSON.parse(readFileSync(join(VECTORS, version, f), 'utf8')) as VectorGroup[])
          .flatMap((g) => g.tests.map((t) => [g.schema, t.data] as const)),
      ),
      ...RULE_CASES.flatMap((c) => [[`${c.version}/${c.schema}`, c.valid] as const, [`${c.version}/${c.schema}`, c.invalid] as const]),
    ];
    expect(cases.length).toBeGreaterThan(1000);
    const wrong = cases.flatMap(([schema, data]) => {
      const [version, name] = schema.split('/') as [Version, string];
      return disagreement(version, name, data);
    });
    expect(wrong).toEqual([]);
    // `$ref`, `allOf`, `items`, `properties` and `oneOf` (with its discriminator) report their subschemas' errors.
    const own = [...REASON_KEYWORDS].filter((k) => !['$ref', 'allOf', 'items', 'properties', 'oneOf', 'minContains'].includes(k));
    const used = new Set<string>();
    const walk = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      for (const [key, member] of Object.entries(value)) {
        if (own.includes(key)) used.add(key);
        walk(member);
      }
    };
    walk(VERSIONS.map((version) => reasonData(version)!.definitions));
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((k) => !broken.has(k))).toEqual([]);
  });

  it('the data module writes repeated parts and keys once, and reads back as the same data (a `__proto__` key too)', () => {
    const repeated = { description: 'the same long description', 'x-crawlspec-source': 'interface §2.4' };
    // JSON.parse makes `__proto__` an own key (in an object literal it would set the prototype).
    const value = JSON.parse(
      `{"a":${JSON.stringify(repeated)},"b":[${JSON.stringify(repeated)},${JSON.stringify(repeated)}],"c":{"__proto__":{"type":"string"},"description":"x"},"d":{"description":"y"}}`,
    ) as unknown;
    const { constants, expression } = sharedLiteral(value);
    expect(constants.length).toBeGreaterThan(2);
    const read = new Function(`${constants.join('\n')}\nreturn ${expression};`)() as Record<string, Record<string, unknown>>;
    expect(read).toEqual(value);
    expect(Object.getPrototypeOf(read.c)).toBe(Object.prototype);
    expect(Object.hasOwn(read.c!, '__proto__')).toBe(true);
  });

  it('a browser bundle of validate() carries the definitions as data, not the Ajv validators, and answers as validate() does', async () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const { text, inputs } = await browserBundle(root, ['schemaNames', 'validate']);
    expect(inputs).toContain('generated/reasons/definitions.js');
    expect(inputs.filter((input) => input.startsWith('generated/validators/v'))).toEqual([]);
    // The bundle uses no browser API: Node runs it as a browser would.
    const dir = mkdtempSync(join(tmpdir(), 'crawlspec-bundle-'));
    try {
      const file = join(dir, 'bundle.mjs');
      writeFileSync(file, text);
      const bundled = (await import(pathToFileURL(file).href)) as { validate: typeof validate; schemaNames: typeof schemaNames };
      expect(bundled.schemaNames()).toEqual(schemaNames());
      const bodies: [SchemaName, unknown][] = [
        [
          'v2/CrawlRequest',
          { url: 'https://example.com', limit: 'ten', scrapeOptions: { formats: ['markdown', { type: 'jsn' }] }, extra: 1 },
        ],
        ['v1/BatchScrapeRequest', { urls: ['https://example.com', 7], webhook: { url: 'not a url' }, timeout: -1 }],
        ['v2/ScrapeOptions', { actions: [{ type: 'wait' }, { type: 'click' }], location: { country: 'Germany' } }],
        ['v1/CrawlRequest', { url: 'https://docs.example.com/a/b/c/d', maxDepth: 1, includePaths: ['('] }],
      ];
      for (const [name, body] of bodies) {
        const expected = validate(name, body);
        expect(expected.valid).toBe(false);
        expect(bundled.validate(name, body)).toEqual(expected);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
