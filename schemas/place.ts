/**
 * Where a value stands in a body walked without recursion (validate.ts's search for a long array with holes, the
 * free-form check of codeRules/jsonSchemas.ts): a link to its parent, so that a walk allocates one small object a
 * value and spells a path only for what it reports.
 */
export interface Place {
  readonly value: unknown;
  /** Undefined for the root. */
  readonly parent: Place | undefined;
  /** The key or index of `value` in its parent ('' for the root). */
  readonly key: string | number;
}

/** The root of a walk over `value`. */
export const rootPlace = (value: unknown): Place => ({ value, parent: undefined, key: '' });

/** A key or index as a JSON Pointer spells it (RFC 6901: `~` is `~0`, `/` is `~1`), without the leading `/`. */
export const pointerSegment = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** The keys from the root down to `place`, in order (none for the root). */
export function keysTo(place: Place): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let p: Place | undefined = place; p?.parent !== undefined; p = p.parent) keys.push(p.key);
  return keys.reverse();
}
