/**
 * One generic mapper from TypeBox schema kinds to fast-check arbitraries: every value it generates is
 * valid for the schema. No per-type generators: a new definition is covered as soon as it exists.
 * Bounds are hit on purpose (strings and arrays at their maximum length, numbers at their limits), and
 * strings use any Unicode code point, so length semantics are exercised. One bound at a time: the items of an
 * array at its maximum length are drawn at their typical sizes. An array whose maximum is more than
 * `LARGEST_BOUND_DRAWN` items (the service's thousand path patterns) is not drawn at it: such a body costs the
 * kit, the target and every shrink step a thousand items, and the bound is what the mutations beyond it test
 * (mutations.ts); drawn with items at their own maximum, as before, no such body passed the rules anyway.
 */
import fc from 'fast-check';
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { definitionMark, EXTENSION, EXTENSION_VALUES, SOURCE } from '../../../schemas/annotations.js';
import { objectOf } from '../../../schemas/rule.js';
import { isCrawlUrl } from '../../../schemas/shared/crawlUrl.js';

type Schema = TSchema & Record<string, unknown>;

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Marks an optional property left out. */
const ABSENT = Symbol('absent');

/** Keys an open object may carry besides its properties. */
const extraKey = fc.constantFrom('extra', 'x-note', 'futureField');

/** The largest array maximum drawn at (see the module comment): the 50 browser actions are, the 1000 path patterns are not. */
const LARGEST_BOUND_DRAWN = 100;

/*
 * Characters and web addresses are drawn here rather than with fast-check's `binary` string unit and `webUrl`: the
 * first string of that unit a process makes costs about a second of CPU (fast-check maps each of the 1.1 million
 * code points back to its index, to spot a few dangerous strings), which every kit run and every test process paid.
 * What is drawn is the same: any code point but a lone surrogate, and http(s) addresses with a domain, a path of
 * segments with percent-encoded characters, a query and a fragment.
 */

/** Lone surrogates (U+D800 to U+DFFF) are not drawn: JSON text cannot carry them. */
const SURROGATES = 0x800;

/** One code point, U+0000 to U+10FFFF but a surrogate (fast-check's biased integers: small ones often). */
const codePoint: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map(
  (n) => String.fromCodePoint(n < 0xd800 ? n : n + SURROGATES),
  (value) => {
    const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (point === undefined || String.fromCodePoint(point) !== value || (point >= 0xd800 && point < 0xe000))
      throw new Error('not one code point');
    return point < 0xd800 ? point : point - SURROGATES;
  },
);

/** What a path segment, a query or a fragment holds as it is (RFC 3986 unreserved and sub-delims, `:` and `@`). */
const URL_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@";
const urlText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...URL_CHARACTERS) },
      { weight: 1, arbitrary: codePoint.map(encodeURIComponent) },
    ),
    maxLength,
  });

/** An http(s) address. */
const webUrl: fc.Arbitrary<string> = fc
  .record({
    scheme: fc.constantFrom('http', 'https'),
    domain: fc.domain(),
    path: fc.array(urlText(10), { maxLength: 4 }),
    query: fc.option(urlText(16)),
    fragment: fc.option(urlText(10)),
  })
  .map(
    ({ scheme, domain, path, query, fragment }) =>
      `${scheme}://${domain}${path.map((segment) => `/${segment}`).join('')}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`,
  );

/**
 * A string of exactly `length` characters: a short run of ASCII repeated. Drawing each of thousands of characters
 * on its own costs a random draw per character (some 2 ms for a 10000-character prompt) and tests nothing more:
 * what such a value exercises is its length.
 */
const stringOfLength = (length: number): fc.Arbitrary<string> =>
  fc
    .string({ unit: 'binary-ascii', minLength: 1, maxLength: Math.min(length, 16) })
    .map((run) => run.repeat(Math.ceil(length / run.length)).slice(0, length));

function stringArbitrary(schema: Schema, atBound: boolean): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uri':
      return webUrl;
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'uuid':
      return fc.uuid();
    case undefined:
      break;
    default:
      throw new Error(`no arbitrary for format ${String(schema.format)}`);
  }
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = num(schema.maxLength);
  // `maxLength` counts UTF-16 code units; fast-check counts code points, so astral characters may overshoot.
  const typical = fc
    .string({ unit: codePoint, minLength, maxLength: Math.min(maxLength ?? minLength + 24, minLength + 24) })
    .filter((s) => maxLength === undefined || s.length <= maxLength);
  if (maxLength === undefined || !atBound) return typical;
  return fc.oneof(
    { weight: 4, arbitrary: typical },
    { weight: 1, arbitrary: maxLength === 0 ? fc.constant('') : stringOfLength(maxLength) },
  );
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = num(schema.minimum);
  const max = num(schema.maximum);
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  if (integer) {
    const lo = min ?? (exMin === undefined ? -1_000_000 : Math.floor(exMin) + 1);
    const hi = max ?? (exMax === undefined ? 1_000_000_000 : Math.ceil(exMax) - 1);
    return fc.oneof(fc.integer({ min: lo, max: hi }), fc.constantFrom(lo, hi));
  }
  return fc.double({
    min: min ?? exMin ?? -1e9,
    max: max ?? exMax ?? 1e9,
    minExcluded: min === undefined && exMin !== undefined,
    maxExcluded: max === undefined && exMax !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/**
 * Definitions whose validity is decided by a rule written as code (schemas/codeRules/), so their schema
 * alone does not say which values are valid: their values are drawn from what the rule accepts.
 */
const DECIDED_IN_CODE: Record<string, fc.Arbitrary<unknown>> = {
  Url: webUrl.filter(isCrawlUrl),
  // A JSON Schema given for extraction: the service compiles it, so it is a real one (of a few shapes).
  JsonSchemaObject: fc
    .record({ title: fc.constantFrom('string', 'number', 'boolean'), tags: fc.constantFrom('string', 'integer') })
    .chain(({ title, tags }) =>
      fc.constantFrom<unknown>(
        { type: 'object', properties: { title: { type: title } } },
        { type: 'object', properties: { title: { type: title }, tags: { type: 'array', items: { type: tags } } }, required: ['title'] },
        { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      ),
    ),
};

export interface ArbitraryOptions {
  readonly rules: boolean;
  /**
   * Only what the interface states: no field, union branch or enum value that is a service extension
   * (`x-crawlspec-extension`, `x-crawlspec-extension-values`). Default false.
   */
  readonly interfaceOnly?: boolean;
  /**
   * Let a failing value shrink an optional property away (fast-check's cross-shrinking towards "absent"),
   * so a counterexample keeps only the fields that matter. Generation is the same either way. Default false.
   */
  readonly dropOptionalWhenShrinking?: boolean;
}

/**
 * Values valid for `input`. With `{ rules: false }`, objects with rules are generated from their shape
 * alone, so the values may or may not satisfy the rules: candidates on which all forms must agree.
 */
export function arbitraryFor(input: TSchema, options: ArbitraryOptions = { rules: true }): fc.Arbitrary<unknown> {
  return generate(input, options);
}

const isExtension = (schema: unknown) => (schema as Schema)[EXTENSION] === true;

/**
 * The branches of a union to draw from: all of them, or (interface only) those the interface states: not an
 * extension, not one of the extension values, and not a form the service fills in where the interface is silent
 * (a branch whose source, its own or else the union's, is `service`: the parser object beside the interface's
 * `pdf`, the change-tracking mode `json` beside `git-diff`), unless every branch is such a form (the field is
 * then the interface's, its shapes all the service's).
 */
function branchesOf(schema: Schema, options: ArbitraryOptions): TSchema[] {
  const branches = schema.anyOf as Schema[];
  if (!options.interfaceOnly) return branches;
  const extraValues = Array.isArray(schema[EXTENSION_VALUES]) ? (schema[EXTENSION_VALUES] as unknown[]) : [];
  const own = branches.filter((b) => !isExtension(b) && !(b[Kind] === 'Literal' && extraValues.includes(b.const)));
  // A branch without a source of its own has the union's.
  const stated = own.filter((b) => (b[SOURCE] ?? schema[SOURCE]) !== 'service');
  return stated.length > 0 ? stated : own;
}

/** `atBound`: strings and arrays may be drawn at their maximum length (not within an array at its maximum: see the module comment). */
function generate(input: TSchema, options: ArbitraryOptions, atBound = true): fc.Arbitrary<unknown> {
  const schema = input as Schema;
  const arbitraryFor = (s: TSchema) => generate(s, options, atBound);
  const name = definitionMark(schema)?.name ?? '';
  if (Object.hasOwn(DECIDED_IN_CODE, name)) return DECIDED_IN_CODE[name]!;
  switch (schema[Kind]) {
    case 'Object': {
      // Interface only: no extension field, and no optional field the service fills in where the interface
      // says nothing (a format object's `fullPage`, a parser's `mode`): the interface states neither.
      const properties = Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, TSchema>).filter(
          ([, s]) =>
            !options.interfaceOnly ||
            !(isExtension(s) || ((s as Schema)[OptionalKind] === 'Optional' && (s as Schema)[SOURCE] === 'service')),
        ),
      );
      // Each optional property is present one time in three: values stay small, and combinations that a
      // rule forbids (e.g. options without their format) stay rare enough to filter out cheaply.
      const model = Object.fromEntries(
        Object.entries(properties).map(([k, s]) => {
          const value = arbitraryFor(s);
          const optional = (s as Schema)[OptionalKind] === 'Optional';
          if (!optional) return [k, value];
          const absent = { weight: 2, arbitrary: fc.constant<unknown>(ABSENT) };
          const present = { weight: 1, arbitrary: value };
          return [k, options.dropOptionalWhenShrinking ? fc.oneof({ withCrossShrink: true }, absent, present) : fc.oneof(absent, present)];
        }),
      );
      const declared = fc.record(model).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ABSENT)));
      // An open object: sometimes with keys the schema does not list, which the service accepts (the interface
      // says nothing of them, so interface-only values have none).
      if (schema.additionalProperties === false || options.interfaceOnly) return declared;
      const extras = fc.dictionary(
        extraKey.filter((k) => !(k in properties)),
        fc.jsonValue({ maxDepth: 1 }),
        { maxKeys: 2 },
      );
      return fc.tuple(declared, extras).map(([d, e]) => ({ ...e, ...d }));
    }
    case 'Record': {
      const [value] = Object.values(schema.patternProperties as Record<string, TSchema>);
      return fc.dictionary(fc.string({ maxLength: 12 }), arbitraryFor(value!), { maxKeys: 4 });
    }
    case 'Array': {
      const item = arbitraryFor(schema.items as TSchema);
      const minLength = num(schema.minItems) ?? 0;
      const maxItems = num(schema.maxItems);
      const typical = fc.array(item, { minLength, maxLength: Math.min(maxItems ?? minLength + 4, minLength + 4) });
      if (maxItems === undefined || maxItems > LARGEST_BOUND_DRAWN || !atBound) return typical;
      const typicalItem = generate(schema.items as TSchema, options, false);
      return fc.oneof(
        { weight: 5, arbitrary: typical },
        { weight: 1, arbitrary: fc.array(typicalItem, { minLength: maxItems, maxLength: maxItems }) },
      );
    }
    case 'Union':
      return fc.oneof(...branchesOf(schema, options).map(arbitraryFor));
    case 'Intersect': {
      // An object with rules: values of the object, kept when they satisfy the rules too.
      const object = objectOf(schema);
      if (!object) throw new Error('no arbitrary for an intersection without an object');
      if (!options.rules) return arbitraryFor(object);
      const rules = TypeCompiler.Compile(schema);
      return arbitraryFor(object).filter((v) => rules.Check(v));
    }
    case 'Literal':
      return fc.constant(schema.const);
    case 'String':
      return stringArbitrary(schema, atBound);
    case 'Number':
      return numberArbitrary(schema, false);
    case 'Integer':
      return numberArbitrary(schema, true);
    case 'Boolean':
      return fc.boolean();
    case 'Null':
      return fc.constant(null);
    case 'Unknown':
    case 'Any':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new Error(`no arbitrary for TypeBox kind ${String(schema[Kind])}`);
  }
}
