/**
 * Typical values of a schema, read from the schema itself: for deterministic checks that send one field at a
 * time (checks/fields.ts). Only what the interface states: no extension field, branch or value. Each value
 * is what a client would plausibly send: a documented example where there is one, a value at a documented
 * bound, one above its default, the other boolean, each value of an enum, each branch of a union, an array of
 * one typical item (or none), an object of its required fields with each optional one the interface states in
 * turn (a value other than its default), or alone when it has none.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { isDeepStrictEqual } from 'node:util';
import { definitionMark, EXTENSION, EXTENSION_VALUES, SOURCE } from '../../../schemas/annotations.js';
import { objectOf } from '../../../schemas/rule.js';

type Schema = TSchema & Record<string, unknown>;

const isExtension = (schema: Schema) => schema[EXTENSION] === true;
const fromInterface = (schema: Schema) => typeof schema[SOURCE] === 'string' && (schema[SOURCE] as string).startsWith('interface');

/** A JSON Schema a client gives for extraction: a real one, which a service can compile. */
export const TYPICAL_JSON_SCHEMA = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

/** Values of the definitions whose values a rule written as code decides. */
const BY_DEFINITION: Record<string, unknown[]> = { JsonSchemaObject: [TYPICAL_JSON_SCHEMA] };

/** The interface's values of a union of literals (extension values left out). */
function literalValues(schema: Schema): unknown[] {
  const extra = Array.isArray(schema[EXTENSION_VALUES]) ? (schema[EXTENSION_VALUES] as unknown[]) : [];
  return (schema.anyOf as Schema[]).filter((b) => !isExtension(b) && !extra.includes(b.const)).map((b) => b.const);
}

const isLiteralUnion = (schema: Schema) => schema[Kind] === 'Union' && (schema.anyOf as Schema[]).every((b) => b[Kind] === 'Literal');

function numbers(schema: Schema, integer: boolean): number[] {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const low = min ?? (exMin !== undefined ? (integer ? Math.floor(exMin) + 1 : exMin + 1) : 1);
  // One above the default too: a field a rule bounds from below by the request (a v1 maxDepth at least the
  // start URL's depth) may refuse the small values.
  return [low, low + 1, 2, ...(typeof schema.default === 'number' ? [schema.default + 1] : [])];
}

/** Typical values of `schema`, most typical first; none for a schema the interface does not state. */
export function typicalValues(input: TSchema): unknown[] {
  const schema = input as Schema;
  const named = BY_DEFINITION[definitionMark(schema)?.name ?? ''];
  if (named) return named;
  if (isExtension(schema)) return [];
  const examples = Array.isArray(schema.examples) ? (schema.examples as unknown[]) : [];
  switch (schema[Kind]) {
    case 'Boolean':
      return [!(schema.default ?? false), schema.default ?? false];
    case 'Integer':
      return [...examples, ...numbers(schema, true)];
    case 'Number':
      return [...examples, ...numbers(schema, false)];
    case 'String':
      return [...examples, 'crawlspec'];
    case 'Literal':
      return [schema.const];
    case 'Union':
      if (isLiteralUnion(schema)) return literalValues(schema);
      // Branches the interface states (a v2 parser object, say, is the service's form).
      return (schema.anyOf as Schema[]).filter((b) => !isExtension(b) && b[SOURCE] !== 'service').flatMap(typicalValues);
    case 'Array':
      return [...examples, ...typicalValues(schema.items as Schema).map((item) => [item]), []];
    case 'Record':
      return [{ 'X-Crawlspec': 'contract' }];
    case 'Intersect':
    case 'Object': {
      const object = (schema[Kind] === 'Intersect' ? objectOf(schema) : schema) as Schema | undefined;
      if (!object) return [];
      const properties = Object.entries((object.properties ?? {}) as Record<string, Schema>).filter(([, p]) => !isExtension(p));
      const required = (object.required as string[] | undefined) ?? [];
      const base: Record<string, unknown> = {};
      for (const [name, property] of properties) {
        if (!required.includes(name)) continue;
        const [value] = typicalValues(property);
        if (value === undefined) return [];
        base[name] = value;
      }
      const notDefault = (p: Schema) => typicalValues(p).find((v) => !isDeepStrictEqual(v, p.default));
      const optional = properties.flatMap(([name, p]) => {
        const value = !required.includes(name) && fromInterface(p) ? notDefault(p) : undefined;
        return value === undefined ? [] : [{ ...base, [name]: value }];
      });
      return optional.length > 0 ? optional : [base];
    }
    default:
      return [];
  }
}
