/**
 * JSON text of the reference server's answers, never recursing on what a caller nests.
 *
 * `JSON.stringify` recurses on the value's nesting, and V8 gives up (a RangeError) a few thousand levels
 * down: a crawl whose options nest 6000 deep, listed by `/crawl/active`, made every list a 500 (issue 13,
 * finding 7). What the server holds of a caller's nesting is therefore serialised once, by `stringifyJson`
 * here, which keeps its own stack on the heap, and kept as text; answers splice such text in with
 * `withRawFields` instead of serialising it again.
 */

/** What `JSON.stringify` makes of a value before writing it: `toJSON()`, boxed primitives unboxed. */
function prepared(value: unknown, key: string): unknown {
  let v = value;
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (v instanceof Number) return Number(v);
  if (v instanceof String) return String(v);
  if (v instanceof Boolean) return v.valueOf();
  return v;
}

/** The text of a value with no nesting of its own, or undefined when JSON has none for it (undefined, a function, a symbol). */
function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      return undefined;
  }
}

interface Frame {
  readonly source: object;
  /** An object's keys; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  index: number;
  /** Whether a member has been written (an object's members may be skipped). */
  wrote: boolean;
}

/** Thrown by `stringifyJson` once the text passes its `maxLength`: what was written so far is dropped. */
export class JsonTooLong extends Error {
  readonly maxLength: number;

  constructor(maxLength: number) {
    super(`the JSON text is longer than ${maxLength} characters`);
    this.maxLength = maxLength;
  }
}

/**
 * The same text as `JSON.stringify(value)` (no replacer, no indentation) for any nesting depth: objects
 * (own enumerable string keys), arrays, strings, numbers, booleans, null, `toJSON`. Throws a TypeError on a
 * cycle or a BigInt, as `JSON.stringify` does; undefined when the value itself has no JSON. With `maxLength`,
 * throws `JsonTooLong` as soon as the text passes that many characters, so that a value that would serialise
 * to far more (the same long string referenced many times) costs no more than `maxLength` to refuse.
 */
export function stringifyJson(value: unknown, maxLength = Number.POSITIVE_INFINITY): string | undefined {
  const root = prepared(value, '');
  const first = scalar(root);
  if (first !== undefined && first.length > maxLength) throw new JsonTooLong(maxLength);
  if (first !== undefined || typeof root !== 'object' || root === null) return first;

  let text = '';
  const frames: Frame[] = [];
  const open = new Set<object>();
  const enter = (source: object): void => {
    if (open.has(source)) throw new TypeError('Converting circular structure to JSON');
    open.add(source);
    const array = Array.isArray(source);
    frames.push({ source, keys: array ? undefined : Object.keys(source), index: 0, wrote: false });
    text += array ? '[' : '{';
  };
  /** Writes a prepared value (a scalar, or the opening of a nested frame); false when it has no JSON. */
  const write = (member: unknown): boolean => {
    const simple = scalar(member);
    if (simple !== undefined) text += simple;
    else if (typeof member === 'object' && member !== null) enter(member);
    else return false;
    return true;
  };
  /** Whether a prepared value has JSON (an object's member without any is left out). */
  const hasJson = (member: unknown): boolean => (typeof member === 'object' && member !== null) || scalar(member) !== undefined;

  enter(root);
  while (frames.length > 0) {
    if (text.length > maxLength) throw new JsonTooLong(maxLength);
    const frame = frames[frames.length - 1]!;
    const { source, keys } = frame;
    if (keys === undefined) {
      const items = source as readonly unknown[];
      if (frame.index >= items.length) {
        text += ']';
        open.delete(source);
        frames.pop();
        continue;
      }
      const i = frame.index++;
      if (i > 0) text += ',';
      if (!write(prepared(items[i], String(i)))) text += 'null';
      continue;
    }
    let member: unknown;
    let key: string | undefined;
    while (frame.index < keys.length) {
      const candidate = keys[frame.index++]!;
      const v = prepared((source as Record<string, unknown>)[candidate], candidate);
      if (!hasJson(v)) continue; // undefined, functions, symbols: left out
      key = candidate;
      member = v;
      break;
    }
    if (key === undefined) {
      text += '}';
      open.delete(source);
      frames.pop();
      continue;
    }
    text += `${frame.wrote ? ',' : ''}${JSON.stringify(key)}:`;
    frame.wrote = true;
    write(member);
  }
  if (text.length > maxLength) throw new JsonTooLong(maxLength);
  return text;
}

/**
 * The JSON text of `object` (JSON.stringify: it must not nest deeply) with `raw` fields appended after its
 * own, each value given as JSON text already (e.g. made by `stringifyJson`), written as it is.
 */
export function withRawFields(object: Readonly<Record<string, unknown>>, raw: Readonly<Record<string, string>>): string {
  const own = JSON.stringify(object);
  const extra = Object.entries(raw).map(([key, text]) => `${JSON.stringify(key)}:${text}`);
  if (extra.length === 0) return own;
  return `${own.slice(0, -1)}${own === '{}' ? '' : ','}${extra.join(',')}}`;
}
