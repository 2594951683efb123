/**
 * Reading one emitted JSON Schema file (`$ref`s are `#/$defs/Name`) for the vectors: following `$ref`s, the JSON
 * types a schema admits, values of the wrong type, and a minimal valid value.
 */
import type { Version } from '../../schemas/registry.js';
import type { JsonSchema } from './jsonSchema.js';

export type Plain = Record<string, unknown>;
type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

export const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);
export const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
export const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
export const schemaList = (value: unknown): JsonSchema[] => (Array.isArray(value) ? value.filter(isPlain) : []);
export const refName = (schema: JsonSchema): string | undefined =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/') ? schema.$ref.slice('#/$defs/'.length) : undefined;

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

const WRONG_VALUES: readonly unknown[] = ['wrong', 12.5, true, null, [], {}];
const SAMPLE_FORMATS: Record<string, string> = {
  uri: 'https://example.com',
  'date-time': '2025-01-01T00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** Reading one emitted JSON Schema file: `$ref`s, types, minimal values. */
export class SchemaReader {
  readonly qualified: string;
  constructor(
    readonly root: JsonSchema,
    private readonly name: string,
    version: Version,
  ) {
    this.qualified = `${version}/${name}`;
  }

  deref(schema: JsonSchema): JsonSchema {
    let current = schema;
    const seen = new Set<string>();
    for (let name = refName(current); name !== undefined; name = refName(current)) {
      if (seen.has(name)) throw new Error(`vectors: $ref cycle through ${name}`);
      seen.add(name);
      const defs = this.root.$defs as Record<string, JsonSchema> | undefined;
      const target = name === this.name ? this.root : defs?.[name];
      if (target === undefined) throw new Error(`vectors: ${this.qualified} has no $defs/${name}`);
      const { $ref: _ref, ...beside } = current;
      current = { ...target, ...beside };
    }
    return current;
  }

  /** The JSON types `schema` admits; undefined for any. */
  typesOf(schema: JsonSchema): Set<JsonType> | undefined {
    const s = this.deref(schema);
    if ('const' in s) return new Set([jsonTypeOf(s.const)]);
    if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonTypeOf));
    if (typeof s.type === 'string') return new Set([s.type as JsonType]);
    const branches = schemaList(s.oneOf ?? s.anyOf);
    if (branches.length === 0) return undefined;
    const all = new Set<JsonType>();
    for (const branch of branches) {
      const types = this.typesOf(branch);
      if (types === undefined) return undefined;
      types.forEach((t) => all.add(t));
    }
    return all;
  }

  /** Values `schema` refuses for their type, each with what it is. */
  wrongValues(schema: JsonSchema): [unknown, string][] {
    const types = this.typesOf(schema);
    if (types === undefined) return [];
    const accepts = (value: unknown) => {
      const type = jsonTypeOf(value);
      return types.has(type) || (type === 'integer' && types.has('number'));
    };
    // One of another type; and, for an integer, a number that is not one.
    const first = WRONG_VALUES.find((v) => !accepts(v) && (typeof v !== 'number' || !types.has('integer')));
    const out: [unknown, string][] = first === undefined ? [] : [[first, 'wrong type']];
    if (types.has('integer') && !types.has('number')) out.push([12.5, 'not an integer']);
    return out;
  }

  /**
   * Keys an object must have: its own `required`, and those of one branch of each alternative (the one that
   * requires `wanted`, else the least demanding).
   */
  requiredKeys(s: JsonSchema, wanted?: string): string[] {
    const keys = Array.isArray(s.required) ? s.required.map(String) : [];
    for (const part of schemaList(s.allOf)) keys.push(...this.requiredKeys(this.deref(part), wanted));
    const branches = schemaList(s.anyOf ?? s.oneOf).map((b) => this.requiredKeys(this.deref(b), wanted));
    if (branches.length > 0) {
      const chosen = branches.find((b) => wanted !== undefined && b.includes(wanted));
      keys.push(...(chosen ?? branches.reduce((a, b) => (b.length < a.length ? b : a))));
    }
    return [...new Set(keys)];
  }

  /** A valid value of `schema`: objects with their required keys only; other values from `examples` where given. */
  minimal(schema: JsonSchema, depth = 0, wanted?: string): unknown {
    if (depth > 16) throw new Error(`vectors: ${this.qualified}: no finite minimal value`);
    const s = this.deref(schema);
    if ('const' in s) return clone(s.const);
    const branches = schemaList(s.oneOf ?? s.anyOf);
    if (branches.length > 0 && !isPlain(s.properties)) return this.minimal(branches[0]!, depth + 1);
    if (s.type === 'object') {
      const properties = (isPlain(s.properties) ? s.properties : {}) as Record<string, JsonSchema>;
      const out: Plain = {};
      for (const key of this.requiredKeys(s, wanted)) out[key] = this.minimal(properties[key] ?? {}, depth + 1);
      return out;
    }
    if (Array.isArray(s.examples) && s.examples.length > 0) return clone(s.examples[0] as unknown);
    if (Array.isArray(s.enum) && s.enum.length > 0) return clone(s.enum[0] as unknown);
    if ('default' in s) return clone(s.default);
    switch (s.type) {
      case 'array': {
        const item = isPlain(s.items) ? this.minimal(s.items, depth + 1) : null;
        return Array.from({ length: num(s.minItems) ?? 0 }, () => clone(item));
      }
      case 'string': {
        if (typeof s.format === 'string' && s.format in SAMPLE_FORMATS) return SAMPLE_FORMATS[s.format];
        if (s.pattern !== undefined) throw new Error(`vectors: ${this.qualified}: a string with a pattern needs examples`);
        return 'x'.repeat(Math.max(1, num(s.minLength) ?? 1));
      }
      case 'integer':
      case 'number': {
        const [min, exMin, max] = [num(s.minimum), num(s.exclusiveMinimum), num(s.maximum)];
        const low = min ?? (exMin !== undefined ? exMin + 1 : 0);
        return max !== undefined && low > max ? (exMin !== undefined ? (exMin + max) / 2 : max) : low;
      }
      case 'boolean':
        return false;
      case 'null':
        return null;
      default:
        return null;
    }
  }
}
