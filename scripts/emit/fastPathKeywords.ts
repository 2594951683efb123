/**
 * The JSON Schema keywords the fast path decides (anything else fails generation), the annotations that say
 * nothing about validity, and each JSON type's check as Ajv's code writes it.
 */
import { ANNOTATION_KEYWORDS } from '../../schemas/annotations.js';

/** Keywords that say nothing about validity. */
export const ANNOTATIONS = new Set<string>([
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  '$schema',
  '$id',
  ...ANNOTATION_KEYWORDS,
]);

export const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/** Every keyword the writer decides; anything else fails generation. */
export const KEYWORDS = new Set<string>([
  '$ref',
  'type',
  'const',
  'enum',
  ...NUMBER_KEYWORDS,
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'items',
  'minItems',
  'maxItems',
  'contains',
  'minContains',
  'maxContains',
  'required',
  'properties',
  'additionalProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'discriminator',
]);

export const COMPARISON: Record<(typeof NUMBER_KEYWORDS)[number], string> = {
  minimum: '>=',
  maximum: '<=',
  exclusiveMinimum: '>',
  exclusiveMaximum: '<',
};

/** The condition Ajv's code checks for a JSON type. */
export function typeTest(type: string, v: string): string {
  switch (type) {
    case 'string':
      return `typeof ${v} === "string"`;
    case 'number':
      return `typeof ${v} === "number" && isFinite(${v})`;
    case 'integer':
      return `Number.isInteger(${v})`;
    case 'boolean':
      return `typeof ${v} === "boolean"`;
    case 'null':
      return `${v} === null`;
    case 'object':
      return `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`;
    case 'array':
      return `Array.isArray(${v})`;
    default:
      throw new Error(`fast path: unknown type ${type}`);
  }
}

/** The guard under which the keywords of a JSON type apply (Ajv applies them to values of that type only). */
export const GUARDS = {
  number: (v: string) => `typeof ${v} === "number"`,
  string: (v: string) => `typeof ${v} === "string"`,
  array: (v: string) => `Array.isArray(${v})`,
  object: (v: string) => typeTest('object', v),
} as const;
