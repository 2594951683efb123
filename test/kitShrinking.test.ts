/**
 * How a generated check shrinks (scripts/contract/engine/property.ts): at most SHRINK_LIMIT attempts per class, then it
 * stops. A value with thousands of shrinks (a large body) once kept fast-check going through every one of them
 * past the limit, each answered at once, in one chain of microtasks that gave the event loop no turn: the whole
 * process stood still for over a minute, and every other request of the run (and of any other run in the
 * process) ran past its timeout. Here a check whose every value fails, over values with thousands of shrinks,
 * run on an environment that sends nothing: the values it draws are counted, and the failure is still reported
 * shrunk, with its counterexample.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Env } from '../scripts/contract/engine/context.js';
import { resolveOptions } from '../scripts/contract/engine/options.js';
import { generatedCheck, SHRINK_LIMIT } from '../scripts/contract/engine/property.js';

const RUNS = 3;

describe('a generated check whose every value fails', () => {
  it('shrinks each class with at most SHRINK_LIMIT attempts, then stops: no value past them is drawn', async () => {
    let drawn = 0;
    // 300 numbers: some 300 × 30 shrinks at every step.
    const values = fc.array(fc.nat(), { minLength: 300, maxLength: 300 }).map((numbers) => {
      drawn += 1;
      return numbers;
    });
    let attempts = 0;
    const check = generatedCheck<number[]>({
      name: 'v1.test.shrinking',
      level: 'interface',
      proves: 'Nothing: every value fails.',
      cites: [],
      startsJob: false,
      perAttempt: 1,
      arbitrary: () => values,
      body: async (attempt, numbers) => {
        attempts += 1;
        attempt.fail({ kind: 'body', level: 'interface', message: `${numbers.length} numbers`, expected: 'none', section: 'interface §4' });
      },
      classOf: (failure) => failure.message,
    });
    // The address is never connected to: the body sends nothing.
    const options = resolveOptions({
      baseUrl: 'http://127.0.0.1:65535',
      token: undefined,
      versions: ['v1'],
      seed: 42,
      runs: RUNS,
      concurrency: 1,
      behaviour: false,
    });
    const outcome = await check.run({ options } as Env);

    expect(outcome.failures.length).toBeGreaterThan(0);
    const { counterexample } = outcome.failures[0]!;
    expect(counterexample?.shrinks).toBeGreaterThan(0);
    expect(counterexample?.shrinks).toBeLessThanOrEqual(SHRINK_LIMIT);
    // The first pass sends each of its values; shrinking sends at most SHRINK_LIMIT more (a value met twice is sent once).
    expect(attempts).toBeLessThanOrEqual(RUNS + SHRINK_LIMIT);
    // Drawn: the first pass's values, their replay up to the failing one, SHRINK_LIMIT shrinks, and the one that stops it.
    expect(drawn).toBeLessThanOrEqual(2 * RUNS + SHRINK_LIMIT + 1);
  });
});
