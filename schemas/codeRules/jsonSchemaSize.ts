/**
 * What compiling the JSON Schemas of a request costs, measured before anything is compiled, and the bounds on it
 * (this package's, not the service's): the schemas of one request (one set of scrape options, up to three v1
 * schemas) are compiled only while together they hold at most
 *   - MAX_SCHEMA_VALUES values to compile: every value (object, array, string, number, boolean, null) once, and for
 *     each `$ref` the values of what it points to once more;
 *   - MAX_SCHEMA_CHARACTERS characters of keys and strings;
 *   - MAX_SCHEMA_PATTERNS regular expressions and references: `pattern` strings, `patternProperties` keys, `$ref`s.
 *
 * Why these (issue 22, finding 9): Ajv generates code for a schema and compiles it, 20 to 110 µs a value on the
 * machine this was measured on; a regular expression or a reference costs more, 100 to 350 µs each, and more
 * than linearly in one schema (1600 patterns: 0.5 s). Bounded per schema only, three schemas of 900
 * `patternProperties` took 1 to 2.8 s a body, and five such bodies at once held every other request for 3 to 7 s.
 * A reference is compiled as a function of its own, once per address within a compile (`inlineRefs: false`,
 * jsonSchemas.ts; Ajv's default inlines what a `$ref` points to at every reference, which made 300 references
 * to a 300-property definition take 7.6 s), so a `$ref` costs at most the values it points to: those of the JSON
 * Pointer it names (`#/definitions/item`), or, for any other address or where a nested `$id` changes what a
 * pointer is relative to, the values of the whole schema. Within these bounds the costliest request found takes
 * a few tens of milliseconds to judge; five at once, about a quarter of a second (docs/hardening.md).
 *
 * Everything is counted wherever it stands, data (`enum`, `const`, `default`) included: a bound, never a
 * judgement of the schema. A value met twice counts twice, so a cycle (which only a caller of the JavaScript API
 * can make) is too large. Each measure stops as soon as it is past its bound.
 */
import { field, isRecord } from './codeRule.js';

/** The most values the schemas of one request may hold together to be compiled (see the module comment). */
export const MAX_SCHEMA_VALUES = 500;
/** The most characters their keys and strings may hold together. */
export const MAX_SCHEMA_CHARACTERS = 100_000;
/** The most regular expressions and references (`pattern`, `patternProperties` keys, `$ref`) they may hold together. */
export const MAX_SCHEMA_PATTERNS = 50;

/** What compiling one schema costs. */
export interface SchemaSize {
  /** Values to compile: each value of the schema, and the values each `$ref` points to. */
  readonly values: number;
  readonly characters: number;
  /** Regular expressions and references. */
  readonly patterns: number;
}

/** What the schemas of a request compiled so far cost together. */
export interface Spent {
  values: number;
  characters: number;
  patterns: number;
}

export const nothingSpent = (): Spent => ({ values: 0, characters: 0, patterns: 0 });

const TOO_LARGE = 'The JSON Schema is too large to check:';
const tooManyValues = (byRefs: boolean) =>
  `${TOO_LARGE} ${byRefs ? 'with what its $refs point to, it' : 'it'} holds more than ${MAX_SCHEMA_VALUES} values, the most that is compiled.`;
const TOO_MANY_CHARACTERS = `${TOO_LARGE} its keys and strings hold more than ${MAX_SCHEMA_CHARACTERS} characters, the most that is compiled.`;
const TOO_MANY_PATTERNS = `${TOO_LARGE} it holds more than ${MAX_SCHEMA_PATTERNS} patterns and references ("pattern", "patternProperties" keys, "$ref"), the most that is compiled.`;

/**
 * The size of one schema, or why it is too large alone (one of the messages above). Walks it once, without
 * recursion, then measures what each `$ref` points to (once per address).
 */
export function schemaSize(schema: unknown): SchemaSize | string {
  let values = 1;
  let characters = 0;
  let patterns = 0;
  const refs: string[] = [];
  let nestedId = false;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') characters += value.length;
    else if (Array.isArray(value)) {
      // Counted when met, so an array with too many items (or a sparse one of 2^32 - 1) stops the count at once.
      if (values + value.length > MAX_SCHEMA_VALUES) return tooManyValues(false);
      values += value.length;
      for (let i = 0; i < value.length; i++) stack.push(value[i]);
    } else if (isRecord(value)) {
      for (const key of Object.keys(value)) {
        characters += key.length;
        if ((values += 1) > MAX_SCHEMA_VALUES) return tooManyValues(false);
        if (characters > MAX_SCHEMA_CHARACTERS) return TOO_MANY_CHARACTERS;
        const member = field(value, key);
        if (typeof member === 'string' && (key === 'pattern' || key === '$ref')) {
          patterns += 1;
          if (key === '$ref') refs.push(member);
        } else if (key === 'patternProperties' && isRecord(member)) patterns += Object.keys(member).length;
        else if (key === '$id' && value !== schema) nestedId = true;
        if (patterns > MAX_SCHEMA_PATTERNS) return TOO_MANY_PATTERNS;
        stack.push(member);
      }
    }
    if (characters > MAX_SCHEMA_CHARACTERS) return TOO_MANY_CHARACTERS;
  }
  // What each reference points to is compiled once more, once per address: Ajv keeps what it compiled by address
  // (the address resolved against the `$id` in force, so where a nested `$id` may change it, once per reference).
  let compiled = values;
  const pointedTo = new Set<string>();
  for (const ref of refs) {
    if (!nestedId && pointedTo.has(ref)) continue;
    pointedTo.add(ref);
    if ((compiled += refCost(schema, ref, nestedId, values, MAX_SCHEMA_VALUES - compiled)) > MAX_SCHEMA_VALUES) return tooManyValues(true);
  }
  return { values: compiled, characters, patterns };
}

/**
 * What compiling the target of `ref` costs, in values, at most `limit + 1` (past it, the count stops): nothing
 * for the root itself (`#`, `#/`: its function is called, not compiled again), the values a local JSON Pointer
 * names, and for any other address, or when a nested `$id` makes a pointer relative to something else, the
 * whole schema's `values`. A pointer to nothing costs nothing: the schema does not compile.
 */
function refCost(schema: unknown, ref: string, nestedId: boolean, values: number, limit: number): number {
  if (ref === '#' || ref === '#/') return 0;
  if (nestedId || !ref.startsWith('#/')) return values;
  let target: unknown = schema;
  // Ajv's reading of a pointer in a URI fragment: split at `/`, then each part percent-decoded and unescaped.
  for (const part of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return values;
    }
    if (typeof target !== 'object' || target === null || !Object.prototype.hasOwnProperty.call(target, key)) return 0;
    target = (target as Record<string, unknown>)[key];
  }
  return valuesIn(target, limit);
}

/** The values `value` holds (itself included), counted as `schemaSize` counts them, at most `limit + 1`. */
function valuesIn(value: unknown, limit: number): number {
  let count = 1;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const here = stack.pop();
    if (Array.isArray(here)) {
      if (count + here.length > limit) return limit + 1;
      count += here.length;
      for (let i = 0; i < here.length; i++) stack.push(here[i]);
    } else if (isRecord(here))
      for (const key of Object.keys(here)) {
        count += 1;
        stack.push(field(here, key));
      }
  }
  return Math.min(count, limit + 1);
}

/**
 * Adds `size` to what the request's schemas before it cost (`spent`), or, when that would pass a bound, says so
 * and adds nothing: the schema is not compiled.
 */
export function spend(spent: Spent, size: SchemaSize): string | undefined {
  const past =
    spent.values + size.values > MAX_SCHEMA_VALUES
      ? `values to compile past ${MAX_SCHEMA_VALUES}`
      : spent.characters + size.characters > MAX_SCHEMA_CHARACTERS
        ? `characters of keys and strings past ${MAX_SCHEMA_CHARACTERS}`
        : spent.patterns + size.patterns > MAX_SCHEMA_PATTERNS
          ? `patterns and references ("pattern", "patternProperties" keys, "$ref") past ${MAX_SCHEMA_PATTERNS}`
          : undefined;
  if (past !== undefined)
    return `${TOO_LARGE} with the schemas before it in this request, it brings the ${past}, the most that is compiled for one request.`;
  spent.values += size.values;
  spent.characters += size.characters;
  spent.patterns += size.patterns;
  return undefined;
}
