/**
 * The JSON Schemas given for extraction (schemas/codeRules/jsonSchemas.ts), beyond the rule cases: the size
 * bound (measured before anything is compiled, and quickly past it), what compiling does and does not do
 * (no fetching, no `$id` kept between requests, patterns never run), the verdict cache, and bodies built to be
 * slow or to throw. Both sides of each rule are in scripts/contract/generation/ruleCases.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { CODE_RULES } from '../schemas/codeRules/index.js';
import fc from 'fast-check';
import { ajv as ajvPackage } from '#generated/load/dependencies.js';
import { schemaSize, type SchemaSize } from '../schemas/codeRules/jsonSchemaSize.js';
import { INVALID_JSON_SCHEMA, MAX_SCHEMA_CHARACTERS, MAX_SCHEMA_PATTERNS, MAX_SCHEMA_VALUES } from '../schemas/codeRules/jsonSchemas.js';
import { validate, type ValidationResult } from '../schemas/validate.js';
import { withCpuMs } from './support/cpuTime.js';

/** A v1 set of options extracting with `schema`. */
const v1 = (schema: unknown) => ({ formats: ['json'], jsonOptions: { schema } });
const v2 = (schema: unknown) => ({ formats: [{ type: 'json', schema }] });

const problems = (result: ValidationResult) =>
  result.valid ? [] : result.errors.map((e) => ({ path: e.path, rule: e.rule, message: e.message }));

/** An object schema of `n` string properties: 1 + 2 + 3n values. */
const objectOf = (n: number, tag = '') => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}${tag}`, { type: 'string' }])),
});

/** Counts the schemas Ajv compiles (every instance: the validators' compiler is one) until `restore()`. */
function compileCalls(): { count(): number; restore(): void } {
  const spy = vi.spyOn(ajvPackage().Ajv.prototype, 'compile');
  return { count: () => spy.mock.calls.length, restore: () => spy.mockRestore() };
}

/** What `run` returns and the CPU milliseconds it took (not the clock: a loaded machine does not lengthen it). */
const timed = withCpuMs;

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
