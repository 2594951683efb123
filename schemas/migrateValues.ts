/**
 * The value helpers of `migrateToV2` (migrate.ts): tolerant of any input, they read own data properties only and
 * never invoke anything on the prototype chain; copies are iterative, so deep bodies do not exhaust the stack.
 */
export type Plain = Record<string, unknown>;

export const isRecord = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

const isPlainObject = (value: unknown): value is Plain => {
  if (!isRecord(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Plain objects and arrays: what is copied rather than shared. */
const isContainer = (value: unknown): value is object => Array.isArray(value) || isPlainObject(value);

export const has = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** The own value of `key` (undefined for an accessor: it is never invoked). */
export const own = (object: object, key: string): unknown => Object.getOwnPropertyDescriptor(object, key)?.value;

/** Sets `key` as an ordinary own data property, whatever its name (`__proto__` included). */
export const define = (target: object, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

const isIndex = (key: string, length: number): boolean => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < length;

/** A deep copy: plain objects and arrays are copied (shared and cyclic references copied once), the rest kept. */
export function copy(value: unknown): unknown {
  if (!isContainer(value)) return value;
  const made = new Map<object, object>();
  const work: [object, object][] = [];
  const shell = (source: object): object => {
    let target = made.get(source);
    if (target === undefined) {
      target = Array.isArray(source) ? new Array<unknown>(source.length) : {};
      made.set(source, target);
      work.push([source, target]);
    }
    return target;
  };
  const result = shell(value);
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    const [source, target] = next;
    for (const key of Object.keys(source)) {
      const item = own(source, key);
      const copied = isContainer(item) ? shell(item) : item;
      if (Array.isArray(target)) {
        if (isIndex(key, target.length)) target[Number(key)] = copied;
      } else define(target, key, copied);
    }
  }
  return result;
}

/** Structural equality of JSON-like values (own enumerable keys; cycles tolerated). Iterative. */
export function deepEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  const seen = new Map<object, Set<object>>();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [x, y] = next;
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    let pairs = seen.get(x);
    if (pairs?.has(y)) continue;
    if (pairs === undefined) seen.set(x, (pairs = new Set()));
    pairs.add(y);
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!has(y, key)) return false;
      stack.push([own(x, key), own(y, key)]);
    }
  }
  return true;
}

export const shown = (value: unknown): string => {
  try {
    const text = JSON.stringify(value);
    return typeof text === 'string' ? (text.length > 80 ? `${text.slice(0, 77)}...` : text) : String(value);
  } catch {
    return 'a value';
  }
};
