/**
 * Building and inspecting the values of the hostile-input tests (test/hostile*.test.ts) without recursion:
 * the values are nested 10^4 levels and deeper, past what JSON.stringify, structuredClone and vitest's
 * equality can walk.
 */

/** `{"a": {"a": ... leaf}}`, `depth` objects deep. */
export function nestedObjects(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** `[[...[leaf]...]]`, `depth` arrays deep. */
export function nestedArrays(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** The JSON text of `nestedObjects(depth, 1)`. */
export const nestedObjectsText = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** A plain object or an array; not a value whose reading throws (a Proxy whose traps throw, a revoked Proxy). */
const isPlainContainer = (value: unknown): value is object => {
  try {
    if (Array.isArray(value)) return true;
    if (!isContainer(value)) return false;
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
};

/** Every plain object and array reachable from `value` through own enumerable properties (cycles included). */
function plainContainers(value: unknown): Set<object> {
  const found = new Set<object>();
  const stack = isPlainContainer(value) ? [value] : [];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (found.has(next)) continue;
    found.add(next);
    for (const key of Object.keys(next)) {
      const member: unknown = Object.getOwnPropertyDescriptor(next, key)?.value;
      if (isPlainContainer(member)) stack.push(member);
    }
  }
  return found;
}

/**
 * Freezes every plain object and array reachable from `value`, so that a write to the input throws.
 * Other objects (a Proxy whose traps throw, a Date, a Map) are left as they are.
 */
export function deepFreeze<T>(value: T): T {
  for (const container of plainContainers(value)) Object.freeze(container);
  return value;
}

/** Whether `output` holds any plain object or array of `input` (a copy must share none). */
export function sharesContainers(input: unknown, output: unknown): boolean {
  const inputs = plainContainers(input);
  for (const container of plainContainers(output)) if (inputs.has(container)) return true;
  return false;
}

/** How many objects and arrays deep `value` is (the longest chain; values must be acyclic). */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [here, depth] = next;
    if (!isContainer(here)) {
      deepest = Math.max(deepest, depth);
      continue;
    }
    const members = Object.values(here);
    if (members.length === 0) deepest = Math.max(deepest, depth + 1);
    for (const member of members) stack.push([member, depth + 1]);
  }
  return deepest;
}

/** Structural equality of acyclic JSON data (own enumerable keys, in any order), without recursion. */
export function sameJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [x, y] = next;
    if (!isContainer(x) || !isContainer(y)) {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      stack.push([Object.getOwnPropertyDescriptor(x, key)?.value, Object.getOwnPropertyDescriptor(y, key)?.value]);
    }
  }
  return true;
}

/**
 * A copy of the JSON data `body` with `value` set at `segments` (an own data property, whatever the key;
 * an index one past the end appends). The containers on the way must exist.
 */
export function placed(body: unknown, segments: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body);
  let container = copy as Record<string | number, unknown>;
  segments.forEach((segment, i) => {
    if (i === segments.length - 1) {
      Object.defineProperty(container, segment, { value, enumerable: true, writable: true, configurable: true });
    } else {
      container = container[segment] as Record<string | number, unknown>;
    }
  });
  return copy;
}
