/** The hot-loop assertions of test/support/hotExpect.ts fail as `expect` does, and only then. */
import { describe, expect, it } from 'vitest';
import { expectEqual, expectTrue } from './support/hotExpect.js';

describe('expectEqual', () => {
  it('passes on equal values, and where toEqual passes though strict equality does not', () => {
    expectEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] });
    expectEqual({ a: 1, b: undefined }, { a: 1 });
  });
  it("fails with toEqual's failure and the message, built only then", () => {
    let built = 0;
    const message = () => `message ${++built}`;
    expectEqual([1], [1], message);
    expect(built).toBe(0);
    expect(() => expectEqual({ a: 1 }, { a: 2 }, message)).toThrow(/message 1: expected \{ a: 1 \} to deeply equal \{ a: 2 \}/);
  });
});

describe('expectTrue', () => {
  it('passes on true, fails on false with the message', () => {
    expectTrue(true, () => {
      throw new Error('not built');
    });
    expect(() => expectTrue(false, 'the path of $.x')).toThrow(/the path of \$\.x: expected false to be true/);
  });
});
