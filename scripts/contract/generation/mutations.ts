/**
 * Targeted mutations of a valid value, derived generically from its TypeBox schema: each one makes the
 * value invalid by construction and says where (the path an error must name).
 */
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { objectOf } from '../../../schemas/rule.js';

export const MUTATION_KINDS = ['wrongType', 'outOfRange', 'unknownKey', 'missingRequired', 'outsideEnum'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];
export type Path = (string | number)[];

export interface Mutation {
  readonly kind: MutationKind;
  /** The path an error must name. */
  readonly errorPath: Path;
  readonly description: string;
  apply(value: unknown): unknown;
}

type Schema = TSchema & Record<string, unknown>;
const UNKNOWN_KEY = 'unknownKey';
const NOT_LISTED = 'not-a-listed-value';

/** A copy of `root` with the value at `path` replaced (or removed, for `undefined`). */
function setAt(root: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (next === undefined) delete node[last];
  else node[last] = next;
  return copy;
}

/** The JSON types a schema accepts; undefined for "any". */
function acceptedTypes(schema: Schema): Set<string> | undefined {
  switch (schema[Kind]) {
    case 'String':
      return new Set(['string']);
    case 'Number':
      return new Set(['number', 'integer']);
    case 'Integer':
      return new Set(['integer']);
    case 'Boolean':
      return new Set(['boolean']);
    case 'Null':
      return new Set(['null']);
    case 'Literal':
      return new Set([typeof schema.const === 'number' ? 'number' : typeof schema.const]);
    case 'Object':
    case 'Record':
    case 'Intersect':
      return new Set(['object']);
    case 'Array':
      return new Set(['array']);
    case 'Union': {
      const all = new Set<string>();
      for (const branch of schema.anyOf as Schema[]) {
        const types = acceptedTypes(branch);
        if (!types) return undefined;
        types.forEach((t) => all.add(t));
      }
      if (all.has('number')) all.add('integer');
      return all;
    }
    default:
      return undefined;
  }
}

const WRONG_VALUES: [string, unknown][] = [
  ['string', 'wrong'],
  ['number', 12.5],
  ['boolean', true],
  ['null', null],
  ['array', []],
  ['object', {}],
];

function wrongValue(schema: Schema): unknown {
  const accepted = acceptedTypes(schema);
  if (!accepted) return undefined;
  // 12.5 is a number that is not an integer: wrong for an integer, and for anything not numeric.
  const found = WRONG_VALUES.find(([type]) => !accepted.has(type) && !(type === 'number' && accepted.has('number')));
  return found ? found[1] : undefined;
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function outOfRange(schema: Schema, value: unknown): unknown[] {
  const out: unknown[] = [];
  const kind = schema[Kind];
  if (kind === 'Integer' || kind === 'Number') {
    const step = kind === 'Integer' ? 1 : 0.5;
    const [min, max, exMin, exMax] = [num(schema.minimum), num(schema.maximum), num(schema.exclusiveMinimum), num(schema.exclusiveMaximum)];
    if (max !== undefined) out.push(max + step);
    if (min !== undefined) out.push(min - step);
    if (exMin !== undefined) out.push(exMin);
    if (exMax !== undefined) out.push(exMax);
  } else if (kind === 'String' && schema.format === undefined) {
    const [min, max] = [num(schema.minLength), num(schema.maxLength)];
    if (max !== undefined) out.push('x'.repeat(max + 1));
    if (min !== undefined && min > 0) out.push('x'.repeat(min - 1));
  } else if (kind === 'Array' && Array.isArray(value)) {
    const [min, max] = [num(schema.minItems), num(schema.maxItems)];
    if (max !== undefined && value.length > 0) out.push(Array.from({ length: max + 1 }, () => value[0]));
    if (min !== undefined && min > 0) out.push(value.slice(0, min - 1));
  }
  return out;
}

function isLiteralUnion(schema: Schema): boolean {
  return schema[Kind] === 'Union' && (schema.anyOf as Schema[]).every((b) => b[Kind] === 'Literal' && typeof b.const === 'string');
}

/** Every mutation that applies to `value` (valid for `schema`) at or below `path`. */
export function mutationsOf(schema: TSchema, value: unknown, path: Path = []): Mutation[] {
  const s = schema as Schema;
  const out: Mutation[] = [];
  const here = (kind: MutationKind, next: unknown, description: string, errorPath: Path = path) =>
    out.push({ kind, errorPath, description, apply: (root) => setAt(root, path, next) });

  const wrong = wrongValue(s);
  if (wrong !== undefined)
    here('wrongType', wrong, `${JSON.stringify(wrong)} where ${[...(acceptedTypes(s) ?? [])].join('|')} is expected`);
  for (const bad of outOfRange(s, value))
    here(
      'outOfRange',
      bad,
      `out of range: ${typeof bad === 'string' ? `${bad.length} characters` : Array.isArray(bad) ? `${bad.length} items` : String(bad)}`,
    );
  if (isLiteralUnion(s) || (s[Kind] === 'Literal' && typeof s.const === 'string'))
    here('outsideEnum', NOT_LISTED, 'a value outside the allowed ones');
  if (s[Kind] === 'Literal' && typeof s.const === 'boolean')
    here('outsideEnum', !s.const, `${String(!s.const)} where only ${String(s.const)} is allowed`);

  switch (s[Kind]) {
    case 'Intersect': {
      // An object with rules: mutate the object (a broken object is invalid whatever its rules say).
      const object = objectOf(s);
      if (object)
        out.push(...mutationsOf(object, value, path).filter((m) => !(m.kind === 'wrongType' && m.errorPath.length === path.length)));
      break;
    }
    case 'Union': {
      if (isLiteralUnion(s)) break;
      const branch = (s.anyOf as TSchema[]).find((b) => Value.Check(b, value));
      // Kind-level mutations of the union were added above; the branch adds what lies inside it.
      if (branch)
        out.push(...mutationsOf(branch, value, path).filter((m) => !(m.kind === 'wrongType' && m.errorPath.length === path.length)));
      break;
    }
    case 'Object': {
      const object = value as Record<string, unknown>;
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      for (const [key, property] of Object.entries(properties)) {
        if (!(key in object)) continue;
        if (property[OptionalKind] !== 'Optional') {
          out.push({
            kind: 'missingRequired',
            errorPath: [...path, key],
            description: `required ${key} removed`,
            apply: (root) => setAt(root, [...path, key], undefined),
          });
        }
        out.push(...mutationsOf(property, object[key], [...path, key]));
      }
      if (s.additionalProperties === false) {
        out.push({
          kind: 'unknownKey',
          errorPath: [...path, UNKNOWN_KEY],
          description: `unknown key ${UNKNOWN_KEY} added`,
          apply: (root) => setAt(root, [...path, UNKNOWN_KEY], 1),
        });
      }
      break;
    }
    case 'Record': {
      const [valueSchema] = Object.values(s.patternProperties as Record<string, TSchema>);
      for (const [key, item] of Object.entries(value as Record<string, unknown>))
        out.push(...mutationsOf(valueSchema!, item, [...path, key]));
      break;
    }
    case 'Array':
      (value as unknown[]).forEach((item, i) => out.push(...mutationsOf(s.items as TSchema, item, [...path, i])));
      break;
  }
  return out;
}
