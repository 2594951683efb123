/**
 * `--confirm N`: a behaviour check (a crawl's, checks/behaviour.ts; a scrape's or a batch's, checks/scrapeChecks.ts)
 * that failed is run N times more, each time whole (its jobs started again, followed to their end and judged), so
 * that a flaky target shows as flaky: the
 * check reports in how many of its runs it failed (`confirmations`: the runs that reached a verdict, and the
 * failed ones among them, the first run included). The verdict does not change: a check that failed once
 * failed, and the failures shown are those of its first run. A re-run that could not be judged (inconclusive,
 * skipped) counts in neither. Re-runs take what they need from the run's reserve (reserve.ts), and stop when
 * it has too little left (under --max-requests).
 */
import { statusOf, type Check } from './check.js';
import type { Env } from './context.js';
import { decides } from '../spec/levels.js';

export interface Confirmations {
  /** Runs of the check that reached a verdict, the first included. */
  readonly runs: number;
  /** The runs among them that failed. */
  readonly failed: number;
  /** Requests the re-runs sent. */
  readonly requests: number;
}

/** The confirmations of `check`, which failed in its first run; undefined when it is not to be confirmed. */
export async function confirm(check: Check, env: Env, share: number): Promise<Confirmations | undefined> {
  const { confirm: times, level } = env.options;
  if (times === 0 || check.behaviour === undefined) return undefined;
  let runs = 1;
  let failed = 1;
  let requests = 0;
  for (let i = 0; i < times; i += 1) {
    const budget = env.reserve.take(share);
    if (budget === undefined) break;
    const outcome = await check.run({ ...env, budget });
    requests += outcome.requests;
    const status = statusOf(
      outcome.failures.filter((f) => decides(f.level, level)),
      outcome,
      level,
    );
    if (status === 'pass' || status === 'fail') runs += 1;
    if (status === 'fail') failed += 1;
  }
  return { runs, failed, requests };
}
