/**
 * The JSON Schemas given for extraction (schemas/codeRules/jsonSchemas.ts), the size bound: measured before
 * anything is compiled, and quickly past it; values, characters, patterns and references, for the schemas of one
 * request together, recognised ones included; a `$ref` counts what it points to. Both sides of each rule are in
 * scripts/contract/generation/ruleCases.ts.
 */
import { describe, expect, it } from 'vitest';
import { schemaSize, type SchemaSize } from '../schemas/codeRules/jsonSchemaSize.js';
import { MAX_SCHEMA_CHARACTERS, MAX_SCHEMA_PATTERNS, MAX_SCHEMA_VALUES } from '../schemas/codeRules/jsonSchemas.js';
import { validate } from '../schemas/validate.js';
import { compileCalls, objectOf, problems, timed, v1 } from './support/jsonSchemaParts.js';

describe('the size bound', () => {
  it(`a schema of ${MAX_SCHEMA_VALUES} values is compiled; one value more is refused unread`, () => {
    // 1 (the schema) + 1 ("object") + 1 (properties) + 2 per property (its object and "string") + 1 (the title)
    const n = (MAX_SCHEMA_VALUES - 4) / 2;
    expect(Number.isInteger(n)).toBe(true);
    const fits = { ...objectOf(n), title: 'exactly at the bound' };
    expect(validate('v1/ScrapeOptions', v1(fits))).toEqual({ valid: true });
    const over = { ...fits, $comment: 'one value more' };
    expect(problems(validate('v1/ScrapeOptions', v1(over)))).toEqual([
      {
        path: '$.jsonOptions.schema',
        rule: 'jsonSchemaCompiles',
        message: `The JSON Schema is too large to check: it holds more than ${MAX_SCHEMA_VALUES} values, the most that is compiled.`,
      },
    ]);
  });

  it(`keys and strings of more than ${MAX_SCHEMA_CHARACTERS} characters together are refused unread`, () => {
    const fits = {
      type: 'string',
      description: 'd'.repeat(MAX_SCHEMA_CHARACTERS - 'type'.length - 'string'.length - 'description'.length),
    };
    expect(validate('v1/ScrapeOptions', v1(fits))).toEqual({ valid: true });
    expect(problems(validate('v1/ScrapeOptions', v1({ ...fits, title: '' })))).toEqual([
      {
        path: '$.jsonOptions.schema',
        rule: 'jsonSchemaCompiles',
        message: `The JSON Schema is too large to check: its keys and strings hold more than ${MAX_SCHEMA_CHARACTERS} characters, the most that is compiled.`,
      },
    ]);
  });

  it('the measure stops past the bound: an enum of 10^6 values, an object of 10^5 keys, 8 MB of description', () => {
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, { type: 'string' }]));
    for (const schema of [
      { enum: Array.from({ length: 1_000_000 }, (_, i) => i) },
      { type: 'object', properties: keys },
      { description: 'x'.repeat(8 * 1024 * 1024) },
    ]) {
      const [result, ms] = timed(() => validate('v1/ScrapeOptions', v1(schema)));
      expect(problems(result).map((p) => p.rule)).toEqual(['jsonSchemaCompiles']);
      expect(ms).toBeLessThan(2000);
    }
  });

  it('a cycle (only the JavaScript API can make one) is too large, not a hang', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(problems(validate('v1/ScrapeOptions', v1(cyclic))).map((p) => p.rule)).toEqual(['jsonSchemaCompiles']);
  });

  it('the schemas of one request are bounded together: compiled in order while they fit, the rest refused unread', () => {
    // Three schemas of 4 + 2n values, half the bound at most: two fit together, the third would pass the bound.
    const n = Math.floor((MAX_SCHEMA_VALUES / 2 - 4) / 2);
    const schema = (tag: string) => ({ ...objectOf(n, tag), title: tag });
    const body = {
      formats: ['json', 'extract', 'markdown', 'changeTracking'],
      jsonOptions: { schema: schema('a') },
      extract: { schema: schema('b') },
      changeTrackingOptions: { schema: schema('c') },
    };
    expect(MAX_SCHEMA_VALUES).toBeGreaterThanOrEqual(2 * (4 + 2 * n));
    expect(MAX_SCHEMA_VALUES).toBeLessThan(3 * (4 + 2 * n));
    const compiles = compileCalls();
    try {
      expect(problems(validate('v1/ScrapeOptions', body))).toEqual([
        {
          path: '$.changeTrackingOptions.schema',
          rule: 'jsonSchemaCompiles',
          message: `The JSON Schema is too large to check: with the schemas before it in this request, it brings the values to compile past ${MAX_SCHEMA_VALUES}, the most that is compiled for one request.`,
        },
      ]);
      expect(compiles.count()).toBe(2);
    } finally {
      compiles.restore();
    }
    // Each of them alone, then all three again: each one's verdict is kept, but together they are still too many.
    for (const key of ['jsonOptions', 'extract', 'changeTrackingOptions'] as const)
      expect(validate('v1/ScrapeOptions', { formats: ['json'], jsonOptions: { schema: body[key].schema } })).toEqual({ valid: true });
    expect(problems(validate('v1/ScrapeOptions', body)).map((p) => p.path)).toEqual(['$.changeTrackingOptions.schema']);
  });

  it('schemas that each compiled before (recognised by their data, unread) are still bounded together', () => {
    // Short texts (the schemas that compiled last are recognised without being read), half the bound each.
    const schema = (tag: string) => ({ anyOf: Array.from({ length: Math.floor(MAX_SCHEMA_VALUES / 2) - 3 }, () => false), title: tag });
    for (const tag of ['x', 'y', 'z']) expect(validate('v1/ScrapeOptions', v1(schema(tag)))).toEqual({ valid: true });
    const compiles = compileCalls();
    try {
      const two = {
        formats: ['json', 'extract', 'markdown', 'changeTracking'],
        jsonOptions: { schema: schema('x') },
        extract: { schema: schema('y') },
      };
      expect(validate('v1/ScrapeOptions', two)).toEqual({ valid: true });
      expect(problems(validate('v1/ScrapeOptions', { ...two, changeTrackingOptions: { schema: schema('z') } }))).toEqual([
        {
          path: '$.changeTrackingOptions.schema',
          rule: 'jsonSchemaCompiles',
          message: `The JSON Schema is too large to check: with the schemas before it in this request, it brings the values to compile past ${MAX_SCHEMA_VALUES}, the most that is compiled for one request.`,
        },
      ]);
      expect(compiles.count()).toBe(0);
    } finally {
      compiles.restore();
    }
  });

  it(`${MAX_SCHEMA_PATTERNS} patterns and references (pattern, patternProperties keys, $ref) are compiled; one more is refused unread`, () => {
    const patterns = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`^p${i}$`, { type: 'string' }]));
    const fits = {
      type: 'object',
      patternProperties: patterns(MAX_SCHEMA_PATTERNS - 2),
      properties: { a: { pattern: '^a' }, b: { $ref: '#/definitions/b' } },
      definitions: { b: {} },
    };
    expect(validate('v1/ScrapeOptions', v1(fits))).toEqual({ valid: true });
    const over = (schema: unknown) => problems(validate('v1/ScrapeOptions', v1(schema)));
    const message = `The JSON Schema is too large to check: it holds more than ${MAX_SCHEMA_PATTERNS} patterns and references ("pattern", "patternProperties" keys, "$ref"), the most that is compiled.`;
    for (const more of [{ c: { pattern: '^c' } }, { c: { $ref: '#' } }])
      expect(over({ ...fits, properties: { ...fits.properties, ...more } })).toEqual([
        { path: '$.jsonOptions.schema', rule: 'jsonSchemaCompiles', message },
      ]);
    expect(over({ ...fits, patternProperties: patterns(MAX_SCHEMA_PATTERNS - 1) })).toEqual([
      { path: '$.jsonOptions.schema', rule: 'jsonSchemaCompiles', message },
    ]);
    // A property named "pattern" is no pattern: its value is a schema, not a string.
    expect(validate('v1/ScrapeOptions', v1({ ...fits, properties: { ...fits.properties, pattern: { type: 'string' } } }))).toEqual({
      valid: true,
    });
  });

  it('a $ref counts the values it points to, once per address; another address, or one under a nested $id, counts the whole schema', () => {
    // A definition of d = 1 + 3 + 2n values, under half the bound; the schema around it 4 more, and 2 for each reference.
    const n = Math.floor((MAX_SCHEMA_VALUES - 60) / 4);
    const d = 4 + 2 * n;
    const definition = { ...objectOf(n, 'd'), title: 'item' };
    const refs = (addresses: readonly string[], extra: Record<string, unknown> = {}) => ({
      definitions: { item: definition },
      type: 'object',
      properties: Object.fromEntries(addresses.map((address, i) => [`r${i}`, { $ref: address }])),
      ...extra,
    });
    const sizeOf = (schema: unknown) => schemaSize(schema) as SchemaSize;
    const alone = sizeOf(refs([]));
    expect(sizeOf(refs(['#/definitions/item'])).values).toBe(alone.values + 2 + d);
    // The same address again costs its reference only; another address into the definition, what that one holds.
    expect(sizeOf(refs(['#/definitions/item', '#/definitions/item'])).values).toBe(alone.values + 4 + d);
    expect(sizeOf(refs(['#/definitions/item', '#/definitions/item/properties/p0d'])).values).toBe(alone.values + 4 + d + 2);
    // Percent-encoded and ~-escaped, as Ajv reads a pointer; nothing at the address costs nothing (it does not compile).
    expect(sizeOf(refs(['#/definitions/it%65m'])).values).toBe(alone.values + 2 + d);
    expect(sizeOf(refs(['#/definitions/none'])).values).toBe(alone.values + 2);
    // The root (called, not compiled again); any other address, or a nested $id: the whole schema.
    expect(sizeOf(refs(['#'])).values).toBe(alone.values + 2);
    const whole = schemaSize(refs(['#/definitions/item', 'item.json']));
    expect(whole).toBe(
      `The JSON Schema is too large to check: with what its $refs point to, it holds more than ${MAX_SCHEMA_VALUES} values, the most that is compiled.`,
    );
    const nested = (id: Record<string, string>) =>
      refs([], { properties: { x: { ...id, $ref: '#/definitions/item' }, y: { $ref: '#/definitions/item' } } });
    expect(sizeOf(nested({})).values).toBeLessThanOrEqual(MAX_SCHEMA_VALUES);
    expect(schemaSize(nested({ $id: 'https://schemas.example.com/x.json' }))).toBe(whole);
    // Through validate(): refused unread, where without the reference it compiles.
    expect(validate('v1/ScrapeOptions', v1(refs(['#/definitions/item'])))).toEqual({ valid: true });
    expect(problems(validate('v1/ScrapeOptions', v1(refs(['#/definitions/item', 'item.json']))))).toEqual([
      { path: '$.jsonOptions.schema', rule: 'jsonSchemaCompiles', message: whole as string },
    ]);
  });
});
