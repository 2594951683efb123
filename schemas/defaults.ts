/**
 * Filling in a request body's defaults from the definitions themselves.
 *
 *   withDefaults('v2/CrawlRequest', { url }) → { url, sitemap: 'include', limit: 10000, ... }
 *
 * The defaults come only from the `default` annotations of the TypeBox definitions; there is no second
 * table of them. Filled in are the interface's defaults and, for fields the interface states without a
 * default, the service's default (`x-crawlspec-default-source: "service"`). Fields marked
 * `x-crawlspec-extension: true` (service extensions such as `origin`, `deduplicateSimilarURLs`,
 * `fastMode`) are never filled, even though they carry a default: they are not part of the interface.
 * Fields without a `default` are left absent; in particular an absent object (e.g. `scrapeOptions`) is not
 * created, while a present one has its own defaults filled in. A default marked `x-crawlspec-default-unless`
 * is left out when one of the sibling fields it names is sent (v1 `crawlEntireDomain` beside `allowBackwardLinks`,
 * `timeout` beside `waitFor`): filled in, it would change what the body asks for.
 *
 * Levels: at `interface` level (the default) the interface's defaults are filled in. At `service` level a field
 * whose service default differs from the interface's (`x-crawlspec-service-default`: v1 `maxAge` one day,
 * `skipTlsVerification` false beside non-empty `headers` or `actions` and else true, `location.country`
 * `us-generic`) gets the service's instead, as the service of 2026-08-21 fills it in.
 *
 * Never throws for any body (only an unknown schema name throws a RangeError, as `validate` does), never
 * mutates the body, and returns a new value that shares no object or array with it (functions and other
 * non-plain objects are kept by reference, and so is a value whose reading throws, such as a Proxy whose
 * traps throw). A value that does not match its schema (a string where an object is expected, `null`,
 * ...) is copied unchanged. Keys such as `__proto__` and `constructor` become ordinary own properties of
 * the output. The walk is iterative, so deep bodies do not exhaust the stack, and shared or cyclic
 * references in the body are copied once (a cycle stays a cycle).
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DEFAULT_UNLESS, EXTENSION, SERVICE_DEFAULT, type ServiceLevelDefault } from './annotations.js';
import { lookup } from './registry.js';
import { objectOf } from './rule.js';
import { registerTypeBoxFormats } from './typeboxFormats.js';
import type { SchemaName } from './validate.js';

registerTypeBoxFormats();

type Schema = TSchema & Record<string | symbol, unknown>;

type Plain = Record<string, unknown>;

/** Whose defaults are filled in: the interface's, or the service's where they differ (see the module comment). */
export type DefaultsLevel = 'interface' | 'service';

/** The body of `name` with the defaults of `level` filled in; see the module comment. */
export function withDefaults(name: SchemaName, body: unknown, level: DefaultsLevel = 'interface'): unknown {
  const schema = lookup(name);
  if (schema === undefined) throw new RangeError(`unknown schema "${String(name)}"; see schemaNames() for the list`);
  return fill(schema as Schema, body, level);
}

/** A deep copy of a JSON-like value: plain objects and arrays are copied, everything else is kept as is. */
function copyJson(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? fill(undefined, value, 'interface') : value;
}

// ---------------------------------------------------------------------------------------------------------
// Value helpers

const isPlainObject = (value: unknown): value is Plain => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Sets `key` as an ordinary own data property, whatever its name (`__proto__` included). */
const define = (target: object, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/** The own enumerable value of `key`, read without invoking anything on the prototype chain. */
const own = (object: object, key: string): unknown => Object.getOwnPropertyDescriptor(object, key)?.value;

/** Whether `key` names an entry of an array of `length`. */
const isIndex = (key: string, length: number): boolean => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < length;

// ---------------------------------------------------------------------------------------------------------
// Schema helpers (tolerant of kinds this module does not know)

const kindOf = (schema: Schema | undefined): unknown => (schema === undefined ? undefined : schema[Kind]);

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && Kind in value;

const schemaList = (value: unknown): Schema[] => (Array.isArray(value) ? value.filter(isSchema) : []);

/** The object schema of an object with rules (see `rule.ts`). */
const objectPart = (schema: Schema): Schema | undefined => objectOf(schema) as Schema | undefined;

/** Whether `value` has the JSON type that `schema` describes (object, array, string, ...). */
function sameJsonType(schema: Schema, value: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  switch (kindOf(schema)) {
    case 'Object':
    case 'Record':
      return isPlainObject(value);
    case 'Array':
      return Array.isArray(value);
    case 'String':
      return typeof value === 'string';
    case 'Number':
    case 'Integer':
      return typeof value === 'number';
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Null':
      return value === null;
    case 'Literal':
      return typeof value === typeof schema.const;
    case 'Union':
      return schemaList(schema.anyOf).some((branch) => sameJsonType(branch, value, depth + 1));
    case 'Intersect': {
      const part = objectPart(schema);
      return part !== undefined && sameJsonType(part, value, depth + 1);
    }
    default:
      return false;
  }
}

/** Whether an object `schema` (or a union of them) admits `tag` as its `type` property. */
function admitsTag(schema: Schema, tag: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  switch (kindOf(schema)) {
    case 'Object': {
      const properties = schema.properties;
      const type = isPlainObject(properties) ? properties['type'] : undefined;
      if (!isSchema(type)) return false;
      if (kindOf(type) === 'Literal') return type.const === tag;
      if (kindOf(type) === 'Union') return schemaList(type.anyOf).some((l) => kindOf(l) === 'Literal' && l.const === tag);
      return false;
    }
    case 'Union':
      return schemaList(schema.anyOf).some((branch) => admitsTag(branch, tag, depth + 1));
    case 'Intersect': {
      const part = objectPart(schema);
      return part !== undefined && admitsTag(part, tag, depth + 1);
    }
    default:
      return false;
  }
}

const accepts = (schema: Schema, value: unknown): boolean => {
  try {
    return Value.Check(schema, value);
  } catch {
    // Unknown kinds, cyclic or very deep values: not an acceptance.
    return false;
  }
};

/**
 * The branch of a union to walk `value` with: the first that accepts it; else the first of the same JSON
 * type (preferring, for an object with a `type` tag, a branch that admits that tag); else none.
 */
function chooseBranch(union: Schema, value: unknown): Schema | undefined {
  const branches = schemaList(union.anyOf);
  const accepted = branches.find((branch) => accepts(branch, value));
  if (accepted !== undefined) return accepted;
  const typed = branches.filter((branch) => sameJsonType(branch, value));
  if (isPlainObject(value) && Object.hasOwn(value, 'type')) {
    const tag = own(value, 'type');
    const tagged = typed.find((branch) => admitsTag(branch, tag));
    if (tagged !== undefined) return tagged;
  }
  return typed[0];
}

/** The schema to walk `value` with, after resolving unions and intersections; undefined means "copy". */
function resolve(schema: Schema | undefined, value: unknown): Schema | undefined {
  let current = schema;
  // Unions of unions (and intersections of them) are resolved step by step; bounded against odd schemas.
  for (let step = 0; current !== undefined && step < 64; step++) {
    switch (kindOf(current)) {
      case 'Union':
        current = chooseBranch(current, value);
        break;
      case 'Intersect':
        current = objectPart(current);
        break;
      case 'Object':
      case 'Record':
      case 'Array':
        return current;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The schema of the values of a `Record` (the first pattern's, else `additionalProperties`). */
function recordValueSchema(schema: Schema): Schema | undefined {
  const patterns = schema.patternProperties;
  if (isPlainObject(patterns)) {
    const first = Object.values(patterns).find(isSchema);
    if (first !== undefined) return first;
  }
  return isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** A sent value that holds something: not an empty string, array or object (nor absent). */
const nonEmpty = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !(typeof value === 'object' && Object.keys(value).length === 0);

/**
 * The default `property` fills in at `level` when absent from an object whose own keys are `sent` (with `values`),
 * if it has one this module fills.
 */
function fillableDefault(
  property: Schema,
  sent: readonly string[],
  values: readonly unknown[],
  level: DefaultsLevel,
): { value: unknown } | undefined {
  if (!Object.hasOwn(property, 'default')) return undefined;
  if (property[EXTENSION] === true) return undefined;
  const unless = property[DEFAULT_UNLESS];
  if (Array.isArray(unless) && unless.some((sibling) => sent.includes(String(sibling)))) return undefined;
  const service = level === 'service' ? (property[SERVICE_DEFAULT] as ServiceLevelDefault | undefined) : undefined;
  if (service === undefined) return { value: property.default };
  const beside = service.ifNonEmpty;
  const otherwise = beside !== undefined && beside.fields.some((f) => sent.includes(f) && nonEmpty(values[sent.indexOf(f)]));
  return { value: otherwise ? beside!.value : service.value };
}

// ---------------------------------------------------------------------------------------------------------
// The walk

/** A slot of an output container still to be filled from `value` walked with `schema`. */
interface Task {
  readonly target: object;
  readonly key: string;
  readonly schema: Schema | undefined;
  readonly value: unknown;
}

/**
 * Walks `value` with `schema` (undefined: plain deep copy) without recursion: every container is created
 * (and its keys laid out in order) when first met, and its members are filled from a work list. Containers
 * are remembered per (input object, schema), so shared and cyclic references are walked once.
 *
 * A container is read in full (which runs a Proxy's traps) before anything is recorded of it, so one whose
 * reading throws (a Proxy whose traps throw, a revoked Proxy) is simply kept as it is, like a class instance.
 */
function fill(schema: Schema | undefined, value: unknown, level: DefaultsLevel): unknown {
  const seen = new Map<object, Map<Schema | undefined, object>>();
  const work: Task[] = [];

  const container = (schemaHere: Schema | undefined, input: object): unknown => {
    const isArray = Array.isArray(input);
    if (!isArray && !isPlainObject(input)) return input; // functions, dates, class instances: as they are
    const resolved = resolve(schemaHere, input);
    const known = seen.get(input)?.get(resolved);
    if (known !== undefined) return known;

    const kind = kindOf(resolved);
    const properties = kind === 'Object' && resolved !== undefined && isPlainObject(resolved.properties) ? resolved.properties : {};
    const length = isArray ? input.length : 0;
    // An array's own entries, not every index up to its length: a sparse array's copy (sparse too) costs its entries.
    const keys = isArray ? Object.keys(input).filter((key) => isIndex(key, length)) : Object.keys(input);
    const values = keys.map((key) => own(input, key));
    const absent = isArray ? [] : Object.keys(properties).filter((key) => !Object.hasOwn(input, key));
    // `input` has been read: nothing below runs its code.

    let bySchema = seen.get(input);
    if (bySchema === undefined) seen.set(input, (bySchema = new Map()));
    if (isArray) {
      const items = kind === 'Array' && isSchema(resolved?.items) ? resolved.items : undefined;
      const out: unknown[] = new Array<unknown>(length);
      bySchema.set(resolved, out);
      keys.forEach((key, i) => work.push({ target: out, key, schema: items, value: values[i] }));
      return out;
    }

    const out: Plain = {};
    bySchema.set(resolved, out);
    const rest =
      resolved === undefined
        ? undefined
        : kind === 'Record'
          ? recordValueSchema(resolved)
          : isSchema(resolved.additionalProperties)
            ? resolved.additionalProperties
            : undefined;
    keys.forEach((key, i) => {
      const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
      define(out, key, undefined); // lays the key out in input order; filled from the work list
      work.push({ target: out, key, schema: isSchema(declared) ? declared : rest, value: values[i] });
    });
    for (const key of absent) {
      const property = properties[key];
      const fallback = isSchema(property) ? fillableDefault(property, keys, values, level) : undefined;
      if (fallback !== undefined) define(out, key, copyJson(fallback.value));
    }
    return out;
  };

  const build = (schemaHere: Schema | undefined, input: unknown): unknown => {
    if (typeof input !== 'object' || input === null) return input;
    try {
      return container(schemaHere, input);
    } catch {
      return input; // it could not be read: as it is
    }
  };

  const result = build(schema, value);
  for (let task = work.pop(); task !== undefined; task = work.pop()) {
    const filled = build(task.schema, task.value);
    if (Array.isArray(task.target)) task.target[Number(task.key)] = filled;
    else define(task.target, task.key, filled);
  }
  return result;
}
