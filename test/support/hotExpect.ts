/**
 * Assertions for the hot loops of property tests, where one run makes thousands of them: vitest's `expect` costs
 * some microseconds a call before it compares anything (it records its state on every call), which over the suite
 * came to some 20 s of CPU. These compare in plain JavaScript first and call `expect` only when the comparison
 * fails, so a failure reads exactly as `expect`'s would; a message is built only then.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

type Message = string | (() => string);
const text = (message: Message | undefined) => (typeof message === 'function' ? message() : message);

/**
 * `expect(actual, message).toEqual(expected)`. Strict deep equality implies `toEqual`'s, so when it holds there is
 * nothing to check; when it does not, `toEqual` decides (it may still pass: it ignores undefined properties).
 */
export function expectEqual(actual: unknown, expected: unknown, message?: Message): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, text(message)).toEqual(expected);
}

/** `expect(condition, message).toBe(true)`. */
export function expectTrue(condition: boolean, message?: Message): void {
  if (!condition) expect(condition, text(message)).toBe(true);
}
