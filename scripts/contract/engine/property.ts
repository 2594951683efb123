/**
 * Generated checks: each draws `runs` values with the run's seed (fast-check) and sends one request (and its
 * follow-ups) per value. Every failure met is put in a class (`classOf`: e.g. the field and the rule a
 * refused body broke, or the status and reason of a refusal); each class is then shrunk on its own, from
 * the first value that met it, to a minimal value that still fails in that class. The report has every
 * class, each with its minimal counterexample: one failing field cannot hide another.
 *
 * An attempt's result is kept by its value, so replaying and shrinking never send a value twice. Shrinking
 * costs requests: at most SHRINK_LIMIT attempts per class (the free replay of its first value among them),
 * and no more than the check's share of the budget (a class whose shrinking is cut keeps the smallest
 * counterexample found so far). Only classes that decide at the run's level are shrunk. At the limit, shrinking
 * stops there, so that it never holds the event loop (see the shrinking pass).
 */
import fc from 'fast-check';
import { Attempt, type Env } from './context.js';
import { newOutcome, runAttempt, type Check, type CheckOutcome } from './check.js';
import type { CheckInfo } from '../spec/checkInfo.js';
import { decides } from '../spec/levels.js';
import type { ResolvedOptions } from './options.js';
import type { Failure } from '../report/report.js';

/** Attempts spent on shrinking one class, at most. */
export const SHRINK_LIMIT = 40;

export interface GeneratedCheckSpec<T> extends Omit<CheckInfo, 'needsAuth'> {
  /** Requests one attempt sends on a conformant target, at most. */
  readonly perAttempt: number;
  arbitrary(env: Env): fc.Arbitrary<T>;
  body(attempt: Attempt, value: T): Promise<void>;
  /** The class of a failure met with `value`. */
  classOf(failure: Failure, value: T): string;
}

interface Tried {
  readonly failures: readonly Failure[];
}

/** Requests a generated check may send: every run, and the shrinking of one class. */
export const generatedCost = (perAttempt: number, options: ResolvedOptions) => (options.runs + SHRINK_LIMIT) * perAttempt;

export function generatedCheck<T>(spec: GeneratedCheckSpec<T>): Check {
  const { perAttempt, arbitrary, body, classOf, ...info } = spec;
  return {
    ...info,
    needsAuth: false,
    drawn: true,
    cost: (options) => generatedCost(perAttempt, options),
    async run(env) {
      const outcome: CheckOutcome = newOutcome();
      const tried = new Map<string, Tried>();
      /** The attempt for `value`, run once; undefined once the check cannot go on (skipped, or undecided at the run's level). */
      const attemptOn = async (value: T): Promise<Tried | undefined> => {
        const key = JSON.stringify(value);
        const known = tried.get(key);
        if (known !== undefined) return known;
        // Only what stops the whole check (an account's answer, a target gone) ends it; an attempt left undecided
        // on its own (a refused base) does not.
        if (outcome.skipped !== undefined || outcome.undecided.some((u) => !u.local && decides(u.level, env.options.level))) return undefined;
        const attempt = new Attempt(info, env);
        await runAttempt(attempt, (a) => body(a, value), outcome);
        const result = { failures: attempt.failures };
        tried.set(key, result);
        return result;
      };

      const { seed, runs } = env.options;
      const arb = arbitrary(env);
      // First pass: every value once; the first run index at which each class was met.
      const firstSeen = new Map<string, { at: number; failures: Failure[] }>();
      let index = 0;
      await fc.check(
        fc.asyncProperty(arb, async (value) => {
          const at = index++;
          const result = await attemptOn(value);
          for (const failure of result?.failures ?? []) {
            const cls = classOf(failure, value);
            const seen = firstSeen.get(cls) ?? { at, failures: [] };
            if (seen.at === at) seen.failures.push(failure);
            firstSeen.set(cls, seen);
          }
          return true;
        }),
        { seed, numRuns: runs },
      );

      // Then each class that decides at the run's level, shrunk from where it was first met; one above it (a
      // difference from the service in an interface run) is reported as met, so as not to spend the share on it.
      for (const [cls, { at, failures: first }] of firstSeen) {
        if (!first.some((f) => decides(f.level, env.options.level))) {
          outcome.failures.push(...first.map((f) => ({ ...f, counterexample: { seed, path: String(at), shrinks: 0 } })));
          continue;
        }
        let attempts = 0;
        let smallest: { value: T; failures: Failure[] } | undefined;
        const inClass = (failures: readonly Failure[], value: T) => failures.filter((f) => classOf(f, value) === cls);
        const details = await fc.check(
          fc.asyncProperty(arb, async (value) => {
            // Past the limit, shrinking stops: fast-check's own interruption (what its time limit throws), which keeps
            // the smallest counterexample found. Passing the value instead would have fast-check go on through every
            // other shrink of it, each answered here at once, in one microtask chain that gives the event loop no turn:
            // for a large body, tens of thousands of them (48,353 in one run, 74 s), and the whole process (the run's
            // other requests, its timers, its test site and webhook receiver) stood still all that time.
            if (attempts++ >= SHRINK_LIMIT) throw new fc.PreconditionFailure(true);
            const result = await attemptOn(value);
            const found = inClass(result?.failures ?? [], value);
            if (found.length === 0) return true;
            smallest = { value, failures: found };
            return false;
          }),
          { seed, numRuns: runs, path: String(at) },
        );
        // A target that answers the replay differently leaves the first pass's failure, unshrunk.
        const counterexample = { seed, path: smallest ? (details.counterexamplePath ?? String(at)) : String(at), shrinks: smallest ? details.numShrinks : 0 };
        outcome.failures.push(...(smallest?.failures ?? first).map((f) => ({ ...f, counterexample })));
      }
      return outcome;
    },
  };
}
