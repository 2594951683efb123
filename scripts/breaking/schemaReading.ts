/**
 * Reading a JSON Schema of an OpenAPI document (breakingChanges.ts): its canonical form (the constraints without the
 * annotations), `$ref`s followed, and the JSON types, values and union branches it allows.
 */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const asObject = (value: unknown): Json => (isObject(value) ? value : {});

/** Keywords that describe without constraining: a change to them is no change to the contract. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  'example',
  '$comment',
  'deprecated',
  'default',
  'discriminator',
  'readOnly',
]);

/** A schema as a string that is the same exactly when the constraints are (keys sorted, annotations dropped). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value) ?? 'undefined';
  const keys = Object.keys(value)
    .filter((k) => !ANNOTATIONS.has(k) && !k.startsWith('x-'))
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}

/** `#/components/schemas/Url` → the value at that place in `doc`. */
function pointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}

export interface Resolved {
  readonly schema: Json;
  /** The component the schema was reached through, if any. */
  readonly ref?: string;
}

/** Follows `$ref`s (keeping the keywords beside each, as OpenAPI 3.1 allows); `true` is `{}`, `false` refuses all. */
export function resolveSchema(doc: Json, raw: unknown): Resolved {
  if (raw === true || raw === undefined) return { schema: {} };
  if (raw === false) return { schema: { not: {} } };
  let schema = asObject(raw);
  let ref: string | undefined;
  for (let hops = 0; typeof schema['$ref'] === 'string' && hops < 32; hops += 1) {
    const target = pointer(doc, schema['$ref']);
    if (target === undefined) break; // an external or dangling reference: compared as written
    ref = schema['$ref'];
    const { $ref: _ignored, ...siblings } = schema;
    schema = { ...asObject(target === true ? {} : target), ...siblings };
  }
  return ref === undefined ? { schema } : { schema, ref };
}

export const componentName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The JSON types a schema allows, or undefined for any. */
function typesOf(schema: Json): string[] | undefined {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.map(String);
  if ('const' in schema) return [jsonType(schema['const'])];
  if (Array.isArray(schema['enum'])) return [...new Set(schema['enum'].map(jsonType))];
  return undefined;
}

/** `integer` is a kind of `number`. */
export const covered = (type: string, types: readonly string[]) => types.includes(type) || (type === 'integer' && types.includes('number'));

const unionOf = (schema: Json): unknown[] | undefined =>
  Array.isArray(schema['anyOf']) ? schema['anyOf'] : Array.isArray(schema['oneOf']) ? schema['oneOf'] : undefined;

/** The values a schema is limited to (`const`, `enum`, or a union of those), or undefined. */
export function valuesOf(doc: Json, schema: Json): unknown[] | undefined {
  if ('const' in schema) return [schema['const']];
  if (Array.isArray(schema['enum'])) return schema['enum'];
  const union = unionOf(schema);
  if (union === undefined) return undefined;
  const parts = union.map((branch) => valuesOf(doc, resolveSchema(doc, branch).schema));
  return parts.every((p): p is unknown[] => p !== undefined) ? parts.flat() : undefined;
}

/** The JSON types a schema allows, a union of values having the types of its values; undefined for any. */
export function typesWithValues(doc: Json, schema: Json): string[] | undefined {
  return (
    typesOf(schema) ??
    valuesOf(doc, schema)
      ?.map(jsonType)
      .filter((t, i, all) => all.indexOf(t) === i)
  );
}

/** A union's branches, unless it only lists values (then it is compared as an enum). */
export function branchesOf(doc: Json, schema: Json): unknown[] | undefined {
  const union = unionOf(schema);
  return union === undefined || valuesOf(doc, schema) !== undefined ? undefined : union;
}
