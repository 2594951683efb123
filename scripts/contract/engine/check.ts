/**
 * A check: a stable dotted name, what it proves and where that comes from (its level and citations), what
 * it may cost in requests, and how it runs. `simpleCheck` runs one attempt; generated checks (property.ts)
 * run many. Either way every job an attempt started is cancelled before the attempt ends, whatever
 * happened in it.
 */
import { createHash } from 'node:crypto';
import { Attempt, type Env } from './context.js';
import { decides, type Level } from '../spec/levels.js';
import type { ResolvedOptions } from './options.js';
import type { CheckStatus, CrawlGraph, Failure } from '../report/report.js';
import type { CheckInfo, Undecided } from '../spec/checkInfo.js';
import { Inconclusive, Skip, Stop } from './signals.js';

export interface CheckOutcome {
  failures: Failure[];
  /** The crawls a behaviour check judged, as graphs of the test site (for the HTML report). */
  crawls?: CrawlGraph[];
  skipped?: string;
  /** What could not be judged, first met first, each reason once. */
  undecided: Undecided[];
  requests: number;
  /** Hash of the attempts' body digests, in order. */
  digest: ReturnType<typeof createHash>;
}

export const newOutcome = (): CheckOutcome => ({ failures: [], undecided: [], requests: 0, digest: createHash('sha256') });

/** Records that `reason` could not be judged at `level` (once per reason). */
export function leaveUndecided(outcome: CheckOutcome, reason: string, level: Level, local = false, cause?: string): void {
  if (!outcome.undecided.some((u) => u.reason === reason && u.level === level))
    outcome.undecided.push({ reason, level, ...(local ? { local } : {}), ...(cause === undefined ? {} : { cause }) });
}

/** The first thing left undecided that matters at `runLevel`. */
export const undecidedAt = (outcome: Pick<CheckOutcome, 'undecided'>, runLevel: Level): Undecided | undefined =>
  outcome.undecided.find((u) => decides(u.level, runLevel));

export interface Check extends CheckInfo {
  /** The most requests the check sends to reach its verdict on a conformant target (its share of the budget is sized from it). */
  cost(options: ResolvedOptions): number;
  run(env: Env): Promise<CheckOutcome>;
}

/** Requests of one start that must be cancelled: the POST and the DELETE reserved for it. */
export const START = 2;

/** An error of the kit in one line: its name and message (a stack would bury the report; --json keeps it short too). */
const kitError = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Runs `body` in `attempt`, turning control-flow signals into the outcome, and cancels what the attempt
 * started. Returns without throwing: an error of the kit itself makes the check inconclusive, with the error.
 */
export async function runAttempt(attempt: Attempt, body: (attempt: Attempt) => Promise<void>, outcome: CheckOutcome): Promise<void> {
  try {
    await body(attempt);
  } catch (error) {
    if (error instanceof Skip) outcome.skipped ??= error.message;
    else if (error instanceof Inconclusive) leaveUndecided(outcome, error.message, error.level);
    else if (!(error instanceof Stop))
      leaveUndecided(outcome, `the contract kit failed, so the check could not be judged: ${kitError(error)}`, 'interface');
  } finally {
    for (const job of attempt.started) await attempt.cancelQuietly(job);
    outcome.requests += attempt.requests;
    outcome.digest.update(attempt.digest());
    for (const { reason, level, local, cause } of attempt.notes) leaveUndecided(outcome, reason, level, local, cause);
    if (attempt.crawls.length > 0) (outcome.crawls ??= []).push(...attempt.crawls);
  }
}

export function simpleCheck(
  info: Omit<CheckInfo, 'needsAuth'> & { readonly needsAuth?: boolean; readonly cost: number | ((options: ResolvedOptions) => number) },
  body: (attempt: Attempt) => Promise<void>,
): Check {
  const { cost, ...rest } = info;
  return {
    ...rest,
    needsAuth: info.needsAuth ?? false,
    cost: typeof cost === 'number' ? () => cost : cost,
    async run(env) {
      const outcome = newOutcome();
      const attempt = new Attempt(info, env);
      await runAttempt(attempt, body, outcome);
      outcome.failures.push(...attempt.failures);
      return outcome;
    },
  };
}

/** At `runLevel`: fail beats skipped beats inconclusive (something undecided that matters there) beats pass. */
export function statusOf(failures: readonly Failure[], outcome: Pick<CheckOutcome, 'skipped' | 'undecided'>, runLevel: Level): CheckStatus {
  if (failures.length > 0) return 'fail';
  if (outcome.skipped !== undefined) return 'skipped';
  if (undecidedAt(outcome, runLevel) !== undefined) return 'inconclusive';
  return 'pass';
}
