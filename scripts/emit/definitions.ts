/**
 * A version's named definitions as JSON Schema, each with `title` set to its name, with references
 * spelled as the target artefact needs them (`#/$defs/X` in JSON Schema files, `#/components/schemas/X`
 * in OpenAPI).
 */
import { definitions, type Version } from '../../schemas/registry.js';
import { CODE_RULES } from '../../schemas/codeRules/index.js';
import type { SchemaName } from '../../schemas/validate.js';
import { toJsonSchema, type JsonSchema } from './jsonSchema.js';

export interface EmittedDefinition {
  readonly schema: JsonSchema;
  /** Names of the definitions this one refers to directly. */
  readonly references: ReadonlySet<string>;
}

export function emitDefinitions(version: Version, refFor: (name: string) => string): Map<string, EmittedDefinition> {
  const out = new Map<string, EmittedDefinition>();
  for (const [name, definition] of definitions[version]) {
    const references = new Set<string>();
    const schema = withCodeRules(
      `${version}/${name}`,
      toJsonSchema(definition, refFor, (ref) => references.add(ref)),
    );
    out.set(name, { schema: { title: name, ...schema }, references });
  }
  return out;
}

/**
 * The rules written as code (codeRules/) cannot travel in JSON Schema; the documents tell of them in the
 * descriptions of the fields they concern.
 */
function withCodeRules(name: string, schema: JsonSchema): JsonSchema {
  const placed = CODE_RULES[name as SchemaName]?.filter(({ at }) => at.length === 0) ?? [];
  // A union (`Webhook`: a string or an object) has no fields of its own; its object branch, a definition of its own, tells.
  if (placed.length === 0 || schema.properties === undefined) return schema;
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const { rule } of placed) {
    for (const field of rule.fields) {
      const property = properties[field];
      if (property === undefined) throw new Error(`${name}: code rule ${rule.id} concerns ${field}, which it does not have`);
      properties[field] = { ...property, description: `${String(property.description ?? '')} ${rule.description}`.trim() };
    }
  }
  return { ...schema, properties };
}

/** `name` and every definition it reaches, in the map's (sorted) order. */
export function closure(defs: ReadonlyMap<string, EmittedDefinition>, name: string): string[] {
  const reached = new Set<string>();
  const visit = (n: string): void => {
    if (reached.has(n)) return;
    reached.add(n);
    const def = defs.get(n);
    if (!def) throw new Error(`unknown definition ${n}`);
    def.references.forEach(visit);
  };
  visit(name);
  return [...defs.keys()].filter((n) => reached.has(n));
}
