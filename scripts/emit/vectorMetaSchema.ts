/**
 * `generated/vectors/vector.schema.json`: the meta-schema (draft 2020-12) of a vector file, and of rules.json.
 */
import { FORMATS } from './ajv.js';
import type { JsonSchema } from './jsonSchema.js';
import { DIALECT } from './jsonSchemaFiles.js';
import { codeRuleIds } from './vectorRules.js';

export const VECTOR_SCHEMA_ID = 'https://crawlspec.dev/vectors/vector.schema.json';

export function vectorMetaSchema(): JsonSchema {
  const text = { type: 'string', minLength: 1 };
  return {
    $schema: DIALECT,
    $id: VECTOR_SCHEMA_ID,
    title: 'crawlspec conformance vector file',
    description:
      'A file of generated/vectors/<version>/: an array of groups in the form of the JSON Schema Test Suite. Descriptions are unique across all files.',
    type: 'array',
    minItems: 1,
    items: { $ref: '#/$defs/group' },
    $defs: {
      group: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'schema', 'schemaFile', 'tests'],
        properties: {
          description: text,
          schema: {
            description: 'The definition the tests are checked against, e.g. `v2/CrawlRequest`.',
            type: 'string',
            pattern: '^v[0-9]+/[A-Za-z]+$',
          },
          schemaFile: {
            description: "The definition's JSON Schema file, relative to the vector file.",
            type: 'string',
            pattern: '^\\.\\./\\.\\./schemas/v[0-9]+/[A-Za-z]+\\.json$',
          },
          tests: { type: 'array', minItems: 1, items: { $ref: '#/$defs/test' } },
        },
      },
      test: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'data', 'valid'],
        properties: {
          description: text,
          data: { description: 'The body (or value) to check.' },
          valid: { description: 'Whether the interface accepts `data`.', type: 'boolean' },
          rule: {
            description: 'The code rule (rules.json) the answer depends on: a plain JSON Schema validator accepts `data`.',
            enum: codeRuleIds(),
          },
          format: { description: 'The format the answer depends on: the validator must assert formats.', enum: [...FORMATS] },
        },
      },
      rulesFile: {
        description: 'generated/vectors/rules.json.',
        type: 'object',
        additionalProperties: false,
        required: ['description', 'rules'],
        properties: {
          description: text,
          rules: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'appliesTo'],
              properties: {
                id: text,
                since: { type: 'string', pattern: '^(by )?[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
                appliesTo: {
                  type: 'array',
                  minItems: 1,
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['schema', 'at', 'fields', 'description'],
                    properties: {
                      schema: { type: 'string', pattern: '^v[0-9]+/[A-Za-z]+$' },
                      at: { type: 'string' },
                      fields: { type: 'array', items: text },
                      description: text,
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
