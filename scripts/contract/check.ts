/**
 * A check: a stable dotted name, whether it starts jobs, and how it runs. `simpleCheck` runs one attempt;
 * generated checks (property.ts) run many. Either way every job an attempt started is cancelled before
 * the attempt ends, whatever happened in it.
 */
import { Attempt, Inconclusive, Skip, Stop, type Env } from './context.js';
import type { CheckStatus, Failure } from './report.js';

export interface CheckOutcome {
  failures: Failure[];
  skipped?: string;
  inconclusive?: string;
  requests: number;
}

export interface Check {
  /** Stable dotted identifier, e.g. `v2.crawl.start.valid`. */
  readonly name: string;
  /** Whether the check starts jobs on a conformant target (`onlyNoJob` leaves these out). */
  readonly startsJob: boolean;
  /** Whether the check needs a token (skipped without one). */
  readonly needsAuth: boolean;
  run(env: Env): Promise<CheckOutcome>;
}

/**
 * Runs `body` in `attempt`, turning control-flow signals into the outcome, and cancels what the attempt
 * started. Returns without throwing.
 */
export async function runAttempt(attempt: Attempt, body: (attempt: Attempt) => Promise<void>, outcome: CheckOutcome): Promise<void> {
  try {
    await body(attempt);
  } catch (error) {
    if (error instanceof Skip) outcome.skipped ??= error.message;
    else if (error instanceof Inconclusive) outcome.inconclusive ??= error.message;
    else if (!(error instanceof Stop)) {
      attempt.fail({
        kind: 'kit',
        message: `the contract kit failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        expected: 'the check to run to its end',
        section: 'service',
      });
    }
  } finally {
    for (const job of attempt.started) await attempt.cancelQuietly(job);
    outcome.requests += attempt.requests;
    if (attempt.note !== undefined) outcome.inconclusive ??= attempt.note;
  }
}

export function simpleCheck(
  name: string,
  flags: { startsJob: boolean; needsAuth?: boolean },
  body: (attempt: Attempt) => Promise<void>,
): Check {
  return {
    name,
    startsJob: flags.startsJob,
    needsAuth: flags.needsAuth ?? false,
    async run(env) {
      const outcome: CheckOutcome = { failures: [], requests: 0 };
      const attempt = new Attempt(name, env);
      await runAttempt(attempt, body, outcome);
      outcome.failures.push(...attempt.failures);
      return outcome;
    },
  };
}

/** fail beats skipped beats inconclusive beats pass. */
export function statusOf(outcome: CheckOutcome): CheckStatus {
  if (outcome.failures.length > 0) return 'fail';
  if (outcome.skipped !== undefined) return 'skipped';
  if (outcome.inconclusive !== undefined) return 'inconclusive';
  return 'pass';
}
