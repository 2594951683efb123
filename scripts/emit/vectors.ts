/**
 * Language-agnostic conformance vectors, `generated/vectors/`, in the form the JSON Schema Test Suite uses:
 *
 *   vectors/<version>/<Name>.json   an array of groups `{ description, schema, schemaFile, tests }`, each test
 *                                   `{ description, data, valid, rule?, format? }`
 *   vectors/rules.json              the rules written as code (`schemas/codeRules/`): id, where each applies
 *   vectors/vector.schema.json      a meta-schema (draft 2020-12) of a vector file (and of rules.json)
 *
 * `schema` names a definition (`v2/CrawlRequest`); `schemaFile` is its JSON Schema, relative to the vector
 * file. A runner in another language needs a JSON parser and a JSON Schema validator: a test without `rule`
 * is decided by the JSON Schema alone; a test with `rule` also needs that code rule (see rules.json), and a
 * runner without it can skip it. A test with `format` needs format assertion (`uri`, `date-time`, `uuid`),
 * which draft 2020-12 validators treat as an annotation unless told otherwise.
 *
 * Nothing is written per field. The tests are derived from the definitions (the JSON Schemas that
 * `jsonSchemaFiles` emits): for every property, a valid value, its default, each limit from both sides, a
 * value of the wrong type, each enum value and a value outside the enum, a value that breaks its format; for
 * objects, an unknown key, a missing required key, and (requests) each field of the other version; for
 * unions, each branch. Then every cross-field rule case of `scripts/contract/generation/ruleCases.ts`, both sides.
 *
 * Generation checks itself: each derived answer is confirmed by a plain JSON Schema validator (Ajv on the
 * emitted schema) and by the code rules; where a derived valid value is refused only because a cross-field
 * schema rule needs a companion field (`jsonOptions` needs the `json` format), the context of a valid rule
 * case supplies it; where a code rule refuses it, the test says so with `rule`. Any other disagreement
 * throws, so a definition the derivation does not understand fails generation instead of yielding a wrong
 * vector.
 */
import { VERSIONS, type Version } from '../../schemas/registry.js';
import { createAjv } from './ajv.js';
import type { JsonSchema } from './jsonSchema.js';
import { jsonSchemaFiles } from './jsonSchemaFiles.js';
import { VectorFileBuilder } from './vectorFileBuilder.js';
import { VECTOR_DEFINITIONS } from './vectorFile.js';
import { vectorMetaSchema } from './vectorMetaSchema.js';
import { rulesDocument } from './vectorRules.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every vector file, by path relative to `generated/`. */
export function vectorFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const descriptions = new Set<string>();
  const unique = (description: string) => {
    if (descriptions.has(description)) throw new Error(`vectors: description "${description}" is used twice`);
    descriptions.add(description);
  };
  const ajv = createAjv();
  const schemas = Object.fromEntries(VERSIONS.map((v) => [v, jsonSchemaFiles(v)])) as Record<Version, Map<string, JsonSchema>>;
  for (const version of VERSIONS) {
    for (const name of VECTOR_DEFINITIONS) {
      const groups = new VectorFileBuilder(ajv, schemas, version, name).build();
      for (const group of groups) {
        unique(group.description);
        group.tests.forEach((t) => unique(t.description));
      }
      files.set(`vectors/${version}/${name}.json`, json(groups));
    }
  }
  files.set('vectors/rules.json', json(rulesDocument()));
  files.set('vectors/vector.schema.json', json(vectorMetaSchema()));
  return files;
}
