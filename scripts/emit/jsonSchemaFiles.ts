/**
 * One self-contained JSON Schema file per named definition: `generated/schemas/<version>/<Name>.json`, with a
 * stable `$id` and every definition it uses under `$defs`. A consumer in any language needs only this file.
 */
import type { Version } from '../../schemas/registry.js';
import { closure, emitDefinitions } from './definitions.js';
import type { JsonSchema } from './jsonSchema.js';

export const SCHEMA_BASE_URI = 'https://crawlspec.dev/schemas';
export const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export const schemaId = (version: Version, name: string) => `${SCHEMA_BASE_URI}/${version}/${name}.json`;

export function jsonSchemaFiles(version: Version): Map<string, JsonSchema> {
  const defs = emitDefinitions(version, (name) => `#/$defs/${name}`);
  const files = new Map<string, JsonSchema>();
  for (const [name, def] of defs) {
    const used = closure(defs, name).filter((n) => n !== name);
    const $defs = Object.fromEntries(used.map((n) => [n, defs.get(n)!.schema]));
    files.set(name, {
      $schema: DIALECT,
      $id: schemaId(version, name),
      ...def.schema,
      ...(used.length > 0 ? { $defs } : {}),
    });
  }
  return files;
}
