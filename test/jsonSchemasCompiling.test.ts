/**
 * What compiling the JSON Schemas given for extraction does and does not do: no fetching, no `$id` kept between
 * requests, patterns never run, the verdict cache, the free-form rule beside the compile rule, bodies built to be
 * slow or to throw; the definitions that hold one schema, and the free-form walk (linear, every object looked at).
 */
import { describe, expect, it } from 'vitest';
import { CODE_RULES } from '../schemas/codeRules/index.js';
import { INVALID_JSON_SCHEMA, MAX_SCHEMA_VALUES } from '../schemas/codeRules/jsonSchemas.js';
import { validate } from '../schemas/validate.js';
import { objectOf, problems, timed, v1 } from './support/jsonSchemaParts.js';

const v2 = (schema: unknown) => ({ formats: [{ type: 'json', schema }] });

describe('compiling', () => {
  it('a schema nested as deep as the bound allows compiles, or does not where the stack runs out; no stack overflow escapes', () => {
    // Levels of one value each, as many as the bound on values allows. Where the compiler's recursion runs out of
    // stack depends on the stack Node was given (near 370 levels under the command, past 490 here): there it is
    // refused as not compiling, as the service's compiler refuses it.
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < MAX_SCHEMA_VALUES - 10; i++) deep = { items: deep };
    expect([[], [{ path: '$.jsonOptions.schema', rule: 'jsonSchemaCompiles', message: INVALID_JSON_SCHEMA }]]).toContainEqual(
      problems(validate('v1/ScrapeOptions', v1(deep))),
    );
  });

  it('a $ref to another address does not compile (nothing is fetched); one inside the schema does', () => {
    const local = { type: 'object', properties: { a: { $ref: '#/definitions/a' } }, definitions: { a: { type: 'string' } } };
    expect(validate('v1/ScrapeOptions', v1(local))).toEqual({ valid: true });
    const remote = { type: 'object', properties: { a: { $ref: 'https://schemas.example.com/a.json' } } };
    expect(problems(validate('v1/ScrapeOptions', v1(remote))).map((p) => p.message)).toEqual([INVALID_JSON_SCHEMA]);
  });

  it('the same $id in two requests, with different schemas: each is judged on its own', () => {
    const first = { $id: 'https://schemas.example.com/product.json', type: 'object', properties: { a: { type: 'string' } } };
    const second = { $id: 'https://schemas.example.com/product.json', type: 'object', properties: { b: { type: 'number' } } };
    expect(validate('v1/ScrapeOptions', v1(first))).toEqual({ valid: true });
    expect(validate('v1/ScrapeOptions', v1(second))).toEqual({ valid: true });
    expect(validate('v1/ScrapeOptions', v1({ ...second, type: 'text' })).valid).toBe(false);
  });

  it("no request's verdict depends on an earlier one: the compiler keeps nothing a schema registers", () => {
    const compiles = (schema: unknown) => validate('v1/ScrapeOptions', v1(schema)).valid;
    // A root $id naming draft-07's meta-schema once removed the meta-schema from the shared compiler with the
    // schema: nothing compiled after it.
    expect(compiles({ $id: 'http://json-schema.org/draft-07/schema', title: 'meta' })).toBe(true);
    expect(compiles({ type: 'object', properties: { after: { type: 'string' } } })).toBe(true);
    // A nested $id was registered on the compiler and answered a later request's $ref.
    const alone = { $ref: 'https://schemas.example.com/leak.json', title: 'alone' };
    expect(compiles(alone)).toBe(false);
    expect(compiles({ type: 'object', properties: { x: { $id: 'https://schemas.example.com/leak.json', type: 'string' } } })).toBe(true);
    expect(compiles({ ...alone, title: 'after the nested $id' })).toBe(false);
    // `1e400` is Infinity, which JSON writes as null: the verdict on one is not the other's.
    expect(validate('v1/JsonOptions', JSON.parse('{"schema":{"type":"number","minimum":1e400}}')).valid).toBe(true);
    const nullMinimum = '{"schema":{"type":"number","minimum":null}}';
    expect(problems(validate('v1/JsonOptions', JSON.parse(nullMinimum))).map((p) => p.message)).toEqual([INVALID_JSON_SCHEMA]);
  });

  it('a schema object changed between two requests (the JavaScript API) is judged on what it holds now', () => {
    // Recognised twice (its verdict kept by object and by data), then changed in place: the verdicts kept are not its.
    const schema = { type: 'object', properties: { title: { type: 'string' } } } as Record<string, any>;
    const body = { url: 'https://example.com', scrapeOptions: v1(schema) };
    expect(validate('v1/CrawlRequest', body).valid).toBe(true);
    expect(validate('v1/CrawlRequest', body).valid).toBe(true);
    schema.properties.title.type = 'text';
    expect(problems(validate('v1/CrawlRequest', body)).map((p) => p.rule)).toEqual(['jsonSchemaCompiles']);
    schema.properties.title.type = 'string';
    expect(validate('v1/CrawlRequest', body).valid).toBe(true);
    // The free-form rule, which takes the compile rule's recognition of the schema: changed, it is walked again.
    schema.properties.extra = { type: 'object', additionalProperties: true };
    expect(problems(validate('v1/CrawlRequest', body))).toEqual([
      { path: '$.scrapeOptions.jsonOptions.schema', rule: 'jsonSchemaNotFreeForm', message: expect.stringContaining('/properties/extra') },
    ]);
    delete schema.properties.extra;
    expect(validate('v1/CrawlRequest', body).valid).toBe(true);
    // Another object holding the recognised data and a free-form object is not taken for the one recognised.
    const other = { ...schema, properties: { ...schema.properties, extra: { type: 'object', additionalProperties: true } } };
    expect(problems(validate('v1/BatchScrapeRequest', { urls: ['https://example.com'], ...v1(other) })).map((p) => p.rule)).toEqual([
      'jsonSchemaNotFreeForm',
    ]);
  });

  it('v1: the free-form rule is placed right after the compile rule, at the same place, wherever both apply', () => {
    const pairs = Object.entries(CODE_RULES).flatMap(([name, placed]) =>
      (placed ?? []).flatMap(({ at, rule }, i) =>
        rule.id === 'jsonSchemaNotFreeForm' && name.startsWith('v1/') ? [[name, placed![i - 1]?.rule.id, placed![i - 1]?.at, at]] : [],
      ),
    );
    expect(pairs.length).toBeGreaterThan(4);
    for (const [name, before, beforeAt, at] of pairs) expect([name, before, beforeAt]).toEqual([name, 'jsonSchemaCompiles', at]);
  });

  it("the free-form rule takes the compile rule's recognition only for the schema recognised, in the same request", () => {
    const freeForm = () => ({ type: 'object', properties: { any: { type: 'object', additionalProperties: true } } });
    const plain = () => ({ type: 'object', properties: { name: { type: 'string' } } });
    // Both compile, so both are recognised when sent again (the first is refused for its free-form object).
    expect(problems(validate('v1/ScrapeOptions', v1(freeForm()))).map((p) => p.rule)).toEqual(['jsonSchemaNotFreeForm']);
    expect(validate('v1/ScrapeOptions', v1(plain())).valid).toBe(true);
    // Recognised one after the other: the one recognised last is not free-form; the other still is.
    const both = { ...v1(freeForm()), formats: ['json', 'extract'], extract: { schema: plain() } };
    expect(problems(validate('v1/ScrapeOptions', both))).toEqual([
      { path: '$.jsonOptions.schema', rule: 'jsonSchemaNotFreeForm', message: expect.stringContaining('/properties/any') },
    ]);
    // A request that throws while the schemas are recognised (a getter that answers once, then throws: read once by
    // the fast path, again by the cheap answers) leaves nothing for the next one, whose schema (the one recognised
    // then, changed since) is walked again.
    const schema = plain() as Record<string, any>;
    let reads = 0;
    const throwing = {
      ...v1(schema),
      formats: ['json', 'extract'],
      extract: Object.defineProperty({}, 'schema', {
        enumerable: true,
        get() {
          reads += 1;
          if (reads > 1) throw new Error('read twice');
          return plain();
        },
      }),
    };
    expect(problems(validate('v1/ScrapeOptions', throwing)).map((p) => p.rule)).toEqual(['readable']);
    expect(reads).toBe(2);
    schema.properties.any = { type: 'object', additionalProperties: true };
    expect(problems(validate('v1/ScrapeOptions', v1(schema))).map((p) => p.rule)).toEqual(['jsonSchemaNotFreeForm']);
  });

  it('a pattern that backtracks catastrophically is compiled, never run', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^(a|a)*$' } } };
    const [result, ms] = timed(() => validate('v1/ScrapeOptions', v1(schema)));
    expect(result).toEqual({ valid: true });
    expect(ms).toBeLessThan(1000);
  });

  it('keywords and formats Ajv does not know are ignored (strict mode off)', () => {
    const schema = { type: 'object', properties: { email: { type: 'string', format: 'email', 'x-ui': 'wide' } }, example: {} };
    expect(validate('v1/ScrapeOptions', v1(schema))).toEqual({ valid: true });
  });

  it('a verdict asked again is the same, past the bounds of the cache too', () => {
    const bad = { type: 'object', properties: { a: { type: 'text' } } };
    for (let i = 0; i < 600; i++) {
      const fine = objectOf(1, String(i));
      expect(validate('v1/ScrapeOptions', v1(fine)).valid).toBe(true);
      if (i % 100 === 0) expect(validate('v1/ScrapeOptions', v1(bad)).valid).toBe(false);
    }
  });

  it('v2 does not compile its format schemas (the service does not): only the free-form rule applies', () => {
    expect(validate('v2/ScrapeOptions', v2({ type: 'text', properties: 'none' }))).toEqual({ valid: true });
    const free = { type: 'object', properties: { a: { type: 'object', additionalProperties: true } } };
    expect(problems(validate('v2/ScrapeOptions', v2(free))).map((p) => p.rule)).toEqual(['jsonSchemaNotFreeForm']);
  });

  it('v2 leaves alone an object holding its own $ref, not one that inherits it (the JavaScript API)', () => {
    const own = { $ref: '#/definitions/x', type: 'object', additionalProperties: true };
    expect(validate('v2/JsonFormat', { type: 'json', schema: { type: 'object', properties: { a: own } } })).toEqual({ valid: true });
    // The same object with its $ref inherited: walked, and free-form.
    const inherited = Object.assign(Object.create({ $ref: '#/definitions/x' }) as object, { type: 'object', additionalProperties: true });
    expect(
      problems(validate('v2/JsonFormat', { type: 'json', schema: { type: 'object', properties: { a: inherited } } })).map((p) => p.rule),
    ).toEqual(['jsonSchemaNotFreeForm']);
  });
});

describe('the definitions that hold one schema', () => {
  it('v1 JsonOptions and ChangeTrackingOptions: the schema compiles, no free-form object', () => {
    expect(validate('v1/JsonOptions', { schema: { type: 'object', properties: { a: { type: 'string' } } } })).toEqual({ valid: true });
    expect(problems(validate('v1/JsonOptions', { schema: { type: 'object', properties: 'a' } }))).toEqual([
      { path: '$.schema', rule: 'jsonSchemaCompiles', message: INVALID_JSON_SCHEMA },
    ]);
    expect(
      problems(validate('v1/ChangeTrackingOptions', { schema: { type: 'object', additionalProperties: true } })).map((p) => p.rule),
    ).toEqual(['jsonSchemaNotFreeForm']);
  });

  it('v2 JsonFormat and ChangeTrackingFormat: no free-form object, inside an array too', () => {
    expect(validate('v2/JsonFormat', { type: 'json', schema: { type: 'array', items: { type: 'object', properties: {} } } })).toEqual({
      valid: true,
    });
    for (const name of ['v2/JsonFormat', 'v2/ChangeTrackingFormat'] as const) {
      const type = name === 'v2/JsonFormat' ? 'json' : 'changeTracking';
      expect(problems(validate(name, { type, schema: { type: 'array', items: { type: 'object', additionalProperties: true } } }))).toEqual([
        {
          path: '$.schema',
          rule: 'jsonSchemaNotFreeForm',
          message:
            'The JSON Schema\'s object at /items allows any property ("additionalProperties": true) but names none ("properties" or "patternProperties"): the extraction cannot fill a free-form object. Give its properties.',
        },
      ]);
    }
  });
});

describe('the free-form walk', () => {
  it('is linear: a schema nested 10^5 deep in v2 (not bounded: nothing is compiled there)', () => {
    let deep: unknown = { type: 'object', additionalProperties: true };
    for (let i = 0; i < 100_000; i++) deep = { type: 'array', items: deep };
    const [result, ms] = timed(() => validate('v2/ScrapeOptions', v2(deep)));
    expect(problems(result).map((p) => p.rule)).toEqual(['jsonSchemaNotFreeForm']);
    expect(result.valid ? '' : result.errors[0]!.message).toContain(`at /${Array.from({ length: 3 }, () => 'items').join('/')}`);
    expect(ms).toBeLessThan(3000);
  });

  it('every object inside is looked at, keywords or data, as the service does (an enum value too)', () => {
    const schema = { type: 'string', enum: ['a'], examples: [{ type: 'object', additionalProperties: true }] };
    expect(problems(validate('v2/ScrapeOptions', v2(schema)))).toEqual([
      {
        path: '$.formats[0].schema',
        rule: 'jsonSchemaNotFreeForm',
        message:
          'The JSON Schema\'s object at /examples/0 allows any property ("additionalProperties": true) but names none ("properties" or "patternProperties"): the extraction cannot fill a free-form object. Give its properties.',
      },
    ]);
  });
});
