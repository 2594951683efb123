/**
 * Object schemas that allow any property without naming one (`"additionalProperties": true` with neither
 * `properties` nor `patternProperties`), inside a JSON Schema a request gives: the rule `jsonSchemaNotFreeForm`
 * (jsonSchemas.ts) finds them, cheaply (`noFreeForm`) or with the place of the first (`freeFormObject`).
 */
import { keysTo, pointerSegment, rootPlace, type Place } from '../place.js';
import { field } from './codeRule.js';
import { CHEAP_DEPTH } from './knownData.js';

/**
 * Cheaply: true only when no object schema inside `value` allows any property without naming one (as
 * `freeFormObject` finds none); false when it cannot tell (nested deeper than CHEAP_DEPTH, an inherited key).
 */
export function noFreeForm(value: unknown, skipRefs: boolean, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth >= CHEAP_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!noFreeForm(value[i], skipRefs, depth + 1)) return false;
    return true;
  }
  // Plain reads, `type` then `additionalProperties` as the check reads them (see CodeRule.keeps): an inherited one,
  // or an inherited key, can only make the walk find more than `freeFormObject` does. Skipping an object for `$ref`,
  // or counting `properties` as named, needs them own.
  const object = value as Readonly<Record<string, unknown>>;
  // The own-property test first, as `freeFormObject` does: a schema that throws when read says so alike.
  if (skipRefs && Object.hasOwn(object, '$ref')) return true;
  if (
    object.type === 'object' &&
    object.additionalProperties === true &&
    !Object.hasOwn(object, 'properties') &&
    !Object.hasOwn(object, 'patternProperties')
  )
    return false;
  for (const key in object) {
    const member = object[key];
    if (typeof member === 'object' && member !== null && !noFreeForm(member, skipRefs, depth + 1)) return false;
  }
  return true;
}

/** A JSON Pointer into the schema, for a message. */
function pointer(place: Place): string {
  const keys = keysTo(place).map(pointerSegment);
  return keys.length === 0 ? 'the root' : `/${keys.join('/')}`;
}

/**
 * The first object schema inside `schema` that allows any property without naming one, as a pointer, or
 * undefined. Every object and array inside is visited once (the service walks them all, keywords or data);
 * `skipRefs`: an object holding `$ref` is not entered (v2).
 */
export function freeFormObject(schema: unknown, skipRefs: boolean): string | undefined {
  const seen = new Set<object>();
  const stack: Place[] = [rootPlace(schema)];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { value } = place;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: place, key: i });
      continue;
    }
    const object = value as Readonly<Record<string, unknown>>;
    if (skipRefs && Object.hasOwn(object, '$ref')) continue;
    if (
      field(object, 'type') === 'object' &&
      field(object, 'additionalProperties') === true &&
      !Object.hasOwn(object, 'properties') &&
      !Object.hasOwn(object, 'patternProperties')
    )
      return pointer(place);
    const keys = Object.keys(object);
    for (let k = keys.length - 1; k >= 0; k--) stack.push({ value: field(object, keys[k]!), parent: place, key: keys[k]! });
  }
  return undefined;
}

export const freeFormMessage = (where: string) =>
  `The JSON Schema's object at ${where} allows any property ("additionalProperties": true) but names none ("properties" or "patternProperties"): the extraction cannot fill a free-form object. Give its properties.`;
