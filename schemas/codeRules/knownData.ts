/**
 * A value's data as a JSON schema of a request is compared with one seen before (jsonSchemas.ts `compiledBefore`):
 * cheaply, with recursion and without allocating. Split from jsonSchemas.ts: the comparison is a concept of its own.
 */
import { isRecord } from './codeRule.js';

/** The data of `text` (the schema's JSON text) as `Known`, when the schema holds exactly that data; else undefined. */
export function exactData(schema: unknown, text: string): Known | undefined {
  const known = knownOf(JSON.parse(text));
  return sameAs(schema, known, 0) ? known : undefined;
}

/**
 * The cheap answers (`keeps`) walk a schema with recursion and without allocating; a schema nested deeper than this
 * (or holding a cycle, which only a caller of the JavaScript API can make) is left to `check`.
 */
export const CHEAP_DEPTH = 64;
/**
 * A schema's data as `compiledBefore` compares it: an object as its keys in their order and its values, an array as
 * its items, anything else as it is. Comparing with it reads nothing but the body's schema.
 */
export type Known = string | number | boolean | null | readonly Known[] | KnownObject;

class KnownObject {
  constructor(
    readonly keys: readonly string[],
    readonly values: readonly Known[],
  ) {}
}

/** JSON data (parsed from a schema's text) as `Known`. */
export function knownOf(value: unknown): Known {
  if (Array.isArray(value)) return value.map(knownOf);
  if (isRecord(value)) {
    const keys = Object.keys(value);
    return new KnownObject(
      keys,
      keys.map((key) => knownOf(value[key])),
    );
  }
  return value as Known;
}

/**
 * Whether `value` holds exactly the data `known` holds, its objects' own keys in the same order, without
 * allocating; false past CHEAP_DEPTH. A key the value only inherits is not its data (JSON.stringify, which the
 * verdicts by text go by, leaves it out): such a key makes it differ.
 */
export function sameAs(value: unknown, known: Known, depth: number): boolean {
  if (typeof known !== 'object' || known === null) return value === known;
  if (typeof value !== 'object' || value === null || depth >= CHEAP_DEPTH) return false;
  // `Known` holds arrays and KnownObjects: told apart by Array.isArray, which costs a map check where `instanceof`
  // cost a third of the comparison.
  if (!isKnownArray(known)) {
    if (Array.isArray(value)) return false;
    const { keys, values } = known;
    const object = value as Readonly<Record<string, unknown>>;
    let i = 0;
    for (const key in object) {
      if (i >= keys.length || key !== keys[i] || !Object.prototype.hasOwnProperty.call(object, key)) return false;
      if (!sameMember(object[key], values[i]!, depth)) return false;
      i += 1;
    }
    return i === keys.length;
  }
  if (!Array.isArray(value) || value.length !== known.length) return false;
  for (let i = 0; i < known.length; i++) if (!sameMember(value[i], known[i]!, depth)) return false;
  return true;
}

const isKnownArray = (known: Known): known is readonly Known[] => Array.isArray(known);

/** `sameAs` of a member at `depth + 1`, a primitive compared in place (most members are: no call for them). */
const sameMember = (value: unknown, known: Known, depth: number): boolean =>
  typeof known !== 'object' || known === null ? value === known : sameAs(value, known, depth + 1);
