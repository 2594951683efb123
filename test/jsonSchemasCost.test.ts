/**
 * Issue 22, finding 9: what compiling the JSON Schemas given for extraction costs is bounded, not only their size:
 * the finding's bodies are refused with nothing compiled, what a `$ref` points to is compiled once (the same
 * verdicts as with Ajv's inlining), and the costliest body found within the bounds is judged in bounded time.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ajv as ajvPackage } from '#generated/load/dependencies.js';
import { schemaSize, type SchemaSize } from '../schemas/codeRules/jsonSchemaSize.js';
import { MAX_SCHEMA_PATTERNS, MAX_SCHEMA_VALUES } from '../schemas/codeRules/jsonSchemas.js';
import { validate } from '../schemas/validate.js';
import { compileCalls, objectOf, problems, timed, v1 } from './support/jsonSchemaParts.js';

describe('issue 22, finding 9: what compiling costs is bounded, not only the size', () => {
  /** A v1 crawl's options with three schemas of `count` patternProperties (each a string schema), tagged `tag`. */
  const patternBody = (count: number, tag: string) => {
    const schema = (t: string) => ({
      type: 'object',
      patternProperties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`^${t}${i}_[a-z]+$`, { type: 'string' }])),
    });
    return {
      formats: ['markdown', 'json', 'extract', 'changeTracking'],
      jsonOptions: { schema: schema(`j${tag}`) },
      extract: { schema: schema(`e${tag}`) },
      changeTrackingOptions: { modes: ['json'], schema: schema(`c${tag}`) },
    };
  };

  it('three schemas of 900 patternProperties (1 to 2.8 s a body) are refused before anything is compiled', () => {
    const compiles = compileCalls();
    try {
      const [result, ms] = timed(() => validate('v1/ScrapeOptions', patternBody(900, 'finding')));
      expect(problems(result).map((p) => [p.path, p.rule])).toEqual(
        ['jsonOptions', 'extract', 'changeTrackingOptions'].map((key) => [`$.${key}.schema`, 'jsonSchemaCompiles']),
      );
      expect(compiles.count()).toBe(0);
      expect(ms).toBeLessThan(1000);
    } finally {
      compiles.restore();
    }
  });

  it("300 references to a 300-property definition (7.6 s with Ajv's inlining) are refused unread; 40 to a small one compile once each", () => {
    const many = {
      definitions: { item: objectOf(300, 'i') },
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`r${i}`, { $ref: '#/definitions/item' }])),
    };
    const [refused, ms] = timed(() => validate('v1/ScrapeOptions', v1(many)));
    expect(problems(refused).map((p) => p.rule)).toEqual(['jsonSchemaCompiles']);
    expect(ms).toBeLessThan(1000);
    const some = {
      ...many,
      definitions: { item: objectOf(20, 's') },
      properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`r${i}`, { $ref: '#/definitions/item' }])),
    };
    expect(validate('v1/ScrapeOptions', v1(some))).toEqual({ valid: true });
  });

  it("compiling what a $ref points to once (inlineRefs: false) gives the verdicts of Ajv's default, which inlines it", () => {
    // The compiler's options (jsonSchemas.ts) with Ajv's default for inlineRefs: what the service's Ajv does with references.
    // A fresh instance each time: Ajv keeps the nested `$id`s a compile registers, which would answer a later `$ref`.
    const verdict = (schema: Record<string, unknown>) => {
      const inlining = new (ajvPackage().Ajv)({
        strict: false,
        logger: false,
        addUsedSchema: false,
        allErrors: true,
        code: { optimize: false },
      });
      try {
        inlining.compile(schema);
        return true;
      } catch {
        return false;
      }
    };
    const target = fc.oneof(
      fc.constantFrom(
        '#',
        '#/definitions/a',
        '#/definitions/b',
        '#/definitions/missing',
        '#/properties/x',
        '#/definitions/a/properties/y',
        'other.json',
        '#anchor',
      ),
      fc.string({ maxLength: 6 }),
    );
    const subschema = fc.oneof(
      fc.record({ $ref: target }),
      fc.record({ type: fc.constantFrom('string', 'object', 'text', 5) }, { requiredKeys: [] }),
      fc.record({ properties: fc.dictionary(fc.constantFrom('x', 'y', 'z'), fc.record({ $ref: target })) }, { requiredKeys: [] }),
      fc.record({ pattern: fc.constantFrom('^a', '(', '[a-z]+') }),
      fc.record({ $id: fc.constantFrom('https://schemas.example.com/a.json', '#anchor', 'other.json'), type: fc.constant('string') }),
    );
    const schemas = fc.record(
      {
        definitions: fc.record({ a: subschema, b: subschema }, { requiredKeys: [] }),
        properties: fc.dictionary(fc.constantFrom('x', 'y'), subschema),
        items: subschema,
        $ref: target,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(schemas, (schema) => {
        const ours = validate('v1/JsonOptions', { schema: JSON.parse(JSON.stringify(schema)) as unknown });
        const compileRefused = !ours.valid && ours.errors.some((e) => e.rule === 'jsonSchemaCompiles');
        expect(compileRefused, JSON.stringify(schema)).toBe(!verdict(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>));
      }),
      { numRuns: 200 },
    );
  });

  it('the costliest body found within the bounds is judged in bounded time', () => {
    // `false` subschemas, the most code a value makes Ajv generate: patterns of them, and an anyOf of them.
    const body = (tag: string) =>
      v1({
        patternProperties: Object.fromEntries(Array.from({ length: MAX_SCHEMA_PATTERNS }, (_, i) => [`^${tag}${i}$`, false])),
        anyOf: Array.from({ length: MAX_SCHEMA_VALUES - 2 * MAX_SCHEMA_PATTERNS - 5 }, () => false),
      });
    const [result, ms] = timed(() => validate('v1/ScrapeOptions', body('bounded')));
    expect(result).toEqual({ valid: true });
    // About 0.1 s on the machine of docs/hardening.md; the limit only catches a return to seconds.
    expect(ms).toBeLessThan(1500);
  });

  it('references within the bounds cost what they point to once: 49 references to a definition of half the bound', () => {
    // Inlined at each reference (Ajv's default), this would compile 49 copies of the definition.
    const n = Math.floor((MAX_SCHEMA_VALUES - 110) / 4);
    const schema = (tag: string, member: unknown) => ({
      definitions: { item: objectOf(n, tag) },
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: MAX_SCHEMA_PATTERNS - 1 }, (_, i) => [`r${i}`, member])),
    });
    const referring = schema('refs', { $ref: '#/definitions/item' });
    expect((schemaSize(referring) as SchemaSize).values).toBeLessThanOrEqual(MAX_SCHEMA_VALUES);
    // Measured against the same schema without references (as many values, one property schema each): what the
    // references add is the definition once, not once per reference. The best of three, each with schemas of its own.
    const best = (make: (tag: string) => unknown) =>
      Math.min(
        ...[0, 1, 2].map((i) => {
          const [result, ms] = timed(() => validate('v1/ScrapeOptions', v1(make(`t${i}${Math.random()}`))));
          expect(result).toEqual({ valid: true });
          return ms;
        }),
      );
    const plain = best((tag) => schema(tag, { type: 'string' }));
    const referred = best((tag) => schema(tag, { $ref: '#/definitions/item' }));
    // About 1 to 2 times the plain schema's cost; inlined, 10 to 20 times.
    expect(referred).toBeLessThan(4 * plain + 20);
  });
});
