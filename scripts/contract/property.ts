/**
 * Generated checks: each runs as a fast-check async property with the run's seed, one request (and its
 * follow-ups) per generated value. A failing value is shrunk by fast-check to a minimal one; the failures
 * reported are those of that minimal request, with the seed and path that replay it.
 */
import fc from 'fast-check';
import { Attempt, type Env } from './context.js';
import { runAttempt, type Check, type CheckOutcome } from './check.js';
import type { Failure } from './report.js';

/** Attempts spent on shrinking, at most, per check (each costs requests). */
export const SHRINK_LIMIT = 40;

export function generatedCheck<T>(
  name: string,
  flags: { startsJob: boolean },
  arbitrary: (env: Env) => fc.Arbitrary<T>,
  body: (attempt: Attempt, value: T) => Promise<void>,
): Check {
  return {
    name,
    startsJob: flags.startsJob,
    needsAuth: false,
    async run(env) {
      const outcome: CheckOutcome = { failures: [], requests: 0 };
      let failing: Failure[] | undefined;
      let shrinkAttempts = 0;
      const property = fc.asyncProperty(arbitrary(env), async (value) => {
        // Once the budget is gone or the account decides, further values tell nothing: stop sending.
        if (outcome.skipped !== undefined || outcome.inconclusive !== undefined) return true;
        if (failing !== undefined && ++shrinkAttempts > SHRINK_LIMIT) return true;
        const attempt = new Attempt(name, env);
        await runAttempt(attempt, (a) => body(a, value), outcome);
        if (attempt.failures.length === 0) return true;
        failing = attempt.failures;
        return false;
      });
      const { seed } = env.options;
      const details = await fc.check(property, { seed, numRuns: env.options.runs });
      if (details.failed) {
        const counterexample = { seed, path: details.counterexamplePath ?? '', shrinks: details.numShrinks };
        if (failing !== undefined && details.counterexample !== null)
          outcome.failures.push(...failing.map((f) => ({ ...f, counterexample })));
        else
          outcome.failures.push({
            check: name,
            kind: 'kit',
            message: `the generated check could not run: ${String(details.errorInstance ?? 'fast-check gave no counterexample')}`,
            expected: 'the property to run',
            section: 'service',
          });
      }
      return outcome;
    },
  };
}
