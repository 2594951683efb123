/**
 * TypeBox definition → plain JSON Schema (draft 2020-12). Every use of a named definition becomes a `$ref`
 * (with the use-site annotations beside it), and a few TypeBox spellings are normalised to their plainer
 * JSON Schema equivalents, which read better in documents and in error messages:
 *   - `anyOf` of literals of one type            → `{ type, enum }`
 *   - `patternProperties: { "^(.*)$": S }` only   → `additionalProperties: S`
 *   - `anyOf` annotated with a `discriminator`    → `oneOf` (its branches exclude each other by the tag)
 *   - `allOf: [object, ...rules]` (an object with rules) → the object's keywords plus `allOf: [...rules]`
 * Every schema element then says where it comes from: one without an `x-crawlspec-source` of its own (an
 * array's items, a union's branches) takes its parent's, so a validator's error, which points at the innermost
 * schema, can tell its source. A rule written as a schema (`x-crawlspec-rules` and no source of its own) is
 * left as it is: the rule carries its own source.
 * The test suite proves the result accepts exactly what TypeBox's own checker accepts.
 */
import type { TSchema } from '@sinclair/typebox';
import { definitionMark, RULES, SOURCE } from '../../schemas/annotations.js';

export type JsonSchema = { [key: string]: unknown };

/** Keys a use site may set beside a `$ref`; anything else would change what the definition means. */
const USE_SITE_KEYS = new Set(['description', 'default', 'deprecated', 'examples', 'title']);
const TYPEBOX_ANY_KEY = '^(.*)$';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Annotation-free literal of `type`: `{ const, type }` with nothing that would be lost in an enum. */
function literalType(schema: unknown): string | undefined {
  if (!isPlainObject(schema) || !('const' in schema)) return undefined;
  const keys = Object.keys(schema).filter((k) => k !== 'const' && k !== 'type');
  return keys.length === 0 && typeof schema.type === 'string' ? schema.type : undefined;
}

/**
 * Converts `schema` (a definition, not a use) to JSON Schema; `refFor(name)` gives the `$ref` of a named
 * definition, and `onReference(name)` is told of every definition referenced.
 */
export function toJsonSchema(
  schema: TSchema,
  refFor: (name: string) => string,
  onReference: (name: string) => void = () => {},
): JsonSchema {
  const convert = (node: unknown, isRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => convert(item, false));
    if (!isPlainObject(node)) return node;
    const mark = definitionMark(node);
    if (mark && !isRoot) {
      onReference(mark.name);
      const useSite: JsonSchema = { $ref: refFor(mark.name) };
      const declared = mark.definition as Record<string, unknown>;
      for (const key of Object.keys(node)) {
        if (node[key] === declared[key]) continue;
        if (!USE_SITE_KEYS.has(key) && !key.startsWith('x-')) {
          throw new Error(`a use of ${mark.name} changes "${key}"; only annotations may differ at a use site`);
        }
        useSite[key] = convert(node[key], false);
      }
      return useSite;
    }
    const out: JsonSchema = {};
    for (const key of Object.keys(node)) {
      // Data, not schemas: copied as they are.
      out[key] = key === 'default' || key === 'examples' || key === 'const' || key === 'enum' ? node[key] : convert(node[key], false);
    }
    return normalise(out);
  };
  return inheritSources(convert(schema, true) as JsonSchema, undefined);
}

/** Keys whose values are schemas (or lists or maps of schemas) below a schema. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);
const SCHEMA_VALUES = new Set(['items', 'not', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else']);

/** `schema` with `inherited` as the source of every element below it that names none (see the module comment). */
function inheritSources(schema: JsonSchema, inherited: unknown): JsonSchema {
  if ('$ref' in schema || (RULES in schema && !(SOURCE in schema))) return schema;
  const source = schema[SOURCE] ?? inherited;
  const out: JsonSchema = source === undefined || SOURCE in schema ? { ...schema } : { ...schema, [SOURCE]: source };
  const below = (value: unknown): unknown => (isPlainObject(value) ? inheritSources(value, source) : value);
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(below);
    else if (SCHEMA_MAPS.has(key) && isPlainObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, below(member)]));
    else if (SCHEMA_VALUES.has(key)) out[key] = below(value);
  }
  return out;
}

const withSentence = (description: unknown, sentence: unknown) =>
  typeof sentence !== 'string' ? description : typeof description === 'string' ? `${description} ${sentence}` : sentence;

/**
 * The rules an object must satisfy, told in words where a reader looks: a rule on one field (an object
 * rule with that single property) in the field's description, any other in the object's.
 */
function describeRules(object: JsonSchema, rules: JsonSchema[]): JsonSchema {
  const properties = { ...(object.properties as Record<string, JsonSchema>) };
  let description = object.description;
  for (const rule of rules) {
    const fields = isPlainObject(rule.properties) ? Object.entries(rule.properties as Record<string, JsonSchema>) : [];
    const [name, fieldRule] = fields.length === 1 && !('required' in rule) ? fields[0]! : [];
    const target = name === undefined ? undefined : properties[name];
    if (name !== undefined && target !== undefined && fieldRule !== undefined) {
      properties[name] = { ...target, description: withSentence(target.description, fieldRule.description) };
    } else {
      description = withSentence(description, rule.description);
    }
  }
  return { ...object, ...(description === undefined ? {} : { description }), properties };
}

function normalise(schema: JsonSchema): JsonSchema {
  const { anyOf, allOf } = schema;
  if (Array.isArray(allOf) && isPlainObject(allOf[0]) && allOf[0].type === 'object' && !('allOf' in allOf[0])) {
    const [object, ...rules] = allOf as [JsonSchema, ...JsonSchema[]];
    const { allOf: _members, ...outer } = schema;
    return { ...describeRules(object, rules), ...outer, ...(rules.length > 0 ? { allOf: rules } : {}) };
  }
  if (Array.isArray(anyOf) && anyOf.length > 0) {
    const types = anyOf.map(literalType);
    const [first] = types;
    if (first !== undefined && types.every((t) => t === first)) {
      const { anyOf: _literals, ...rest } = schema;
      return { type: first, enum: anyOf.map((l) => (l as JsonSchema).const), ...rest };
    }
    if (isPlainObject(schema.discriminator)) {
      const { anyOf: branches, ...rest } = schema;
      return { oneOf: branches, ...rest };
    }
  }
  const patterns = schema.patternProperties;
  if (isPlainObject(patterns) && Object.keys(patterns).length === 1 && TYPEBOX_ANY_KEY in patterns && !('properties' in schema)) {
    const { patternProperties: _any, ...rest } = schema;
    return { ...rest, additionalProperties: patterns[TYPEBOX_ANY_KEY] };
  }
  return schema;
}
