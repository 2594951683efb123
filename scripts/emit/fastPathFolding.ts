/**
 * The rules of an object schema that the fast path decides in the object's own pass instead of by a pass of their
 * own: `allOf` members that only constrain properties (foldable), and conditions between properties
 * (betweenProperties), decided on the values the walk keeps.
 */
import { isObject } from './fastPathCode.js';
import { ANNOTATIONS } from './fastPathKeywords.js';
import type { JsonSchema } from './jsonSchema.js';

/** `allOf` members of an object schema that only constrain its properties: checked where each property is. */
export function foldable(schema: JsonSchema): JsonSchema[] {
  const members = (schema.allOf as unknown[] | undefined) ?? [];
  return members.filter(
    (m): m is JsonSchema =>
      isObject(m) &&
      m.type === 'object' &&
      isObject(m.properties) &&
      Object.keys(m).every((k) => k === 'type' || k === 'properties' || ANNOTATIONS.has(k)),
  );
}

/**
 * The conditions between properties of an object schema: its `anyOf`, and each `allOf` member that is only an
 * `anyOf`, when every branch only constrains named properties of the object (`onlyProperties`). Such a condition
 * ("`json` in `formats` exactly when `jsonOptions` is given", "`milliseconds` or `selector`, not both") is decided on
 * the values the object's walk keeps of those properties, instead of by a walk of its own per branch: a v1 batch
 * body was walked five times, two of them per condition.
 */
export function betweenProperties(schema: JsonSchema): { readonly member: unknown; readonly branches: readonly unknown[] }[] {
  const conditions = [schema, ...((schema.allOf as unknown[] | undefined) ?? [])].filter(
    (m): m is JsonSchema =>
      isObject(m) &&
      Array.isArray(m.anyOf) &&
      (m === schema || Object.keys(m).every((k) => k === 'anyOf' || ANNOTATIONS.has(k))) &&
      m.anyOf.every(onlyProperties),
  );
  return conditions.map((m) => ({ member: m, branches: m.anyOf as unknown[] }));
}

/** Whether `schema` says nothing but what named properties of an object must be (with `required`, `allOf`, `anyOf`, `not`). */
function onlyProperties(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isObject(schema)) return false;
  const keys = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
  if (!keys.every((k) => ['type', 'required', 'properties', 'allOf', 'anyOf', 'not'].includes(k))) return false;
  if (schema.type !== undefined && schema.type !== 'object') return false;
  if (schema.properties !== undefined && !isObject(schema.properties)) return false;
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string')))
    return false;
  const members = [...((schema.allOf as unknown[] | undefined) ?? []), ...((schema.anyOf as unknown[] | undefined) ?? [])];
  if (schema.not !== undefined) members.push(schema.not);
  return members.every(onlyProperties);
}

/** The property names `schemas` (each `onlyProperties`) name, in order of first mention. */
export function propertiesNamed(schemas: readonly unknown[]): string[] {
  const names = new Set<string>();
  const visit = (schema: unknown) => {
    if (!isObject(schema)) return;
    for (const name of (schema.required as string[] | undefined) ?? []) names.add(name);
    for (const name of Object.keys((schema.properties as object | undefined) ?? {})) names.add(name);
    for (const member of [
      ...((schema.allOf as unknown[] | undefined) ?? []),
      ...((schema.anyOf as unknown[] | undefined) ?? []),
      schema.not,
    ])
      visit(member);
  };
  schemas.forEach(visit);
  return [...names];
}
