/**
 * The faults behind a run's failures (issue 40: one fault, one verdict). A failure names its cause when the fault
 * is not the check's own (an operation not implemented, a record lost, a page the target failed to scrape: every
 * failure it causes says it in the same words, `Failure.cause`); a check left inconclusive because it rests on
 * such a fault names it too (`CheckResult.cause`). Failures that name none are their check's own fault, one a check
 * (a check proves one thing), named by the first of them. The report lists each fault once, with the checks it made fail and those resting on it, so that a
 * missing endpoint reads as one fault with the 37 checks it shows in, not as 141 failures.
 */
import { lowest } from '../spec/levels.js';
import type { Cause, CheckResult } from './report.js';

/** The faults of `checks` (their failures at the run's level, and the causes of the inconclusive ones), most checks first. */
export function causesOf(checks: readonly CheckResult[]): Cause[] {
  const found = new Map<string, { cause: string; levels: Cause['level'][]; failures: number; failed: Set<string>; resting: Set<string> }>();
  const entry = (cause: string) => {
    let e = found.get(cause);
    if (e === undefined) found.set(cause, (e = { cause, levels: [], failures: 0, failed: new Set(), resting: new Set() }));
    return e;
  };
  for (const check of checks) {
    if (!check.inScope) continue;
    // A failure that names no cause is the check's own fault: one a check (a check proves one thing), named by its first.
    const own = check.failures.find((f) => f.cause === undefined);
    for (const failure of check.failures) {
      const e = entry(failure.cause ?? `${check.name}: ${own!.message}`);
      e.levels.push(failure.level);
      e.failures += failure.count ?? 1;
      e.failed.add(check.name);
    }
    if (check.cause !== undefined && (check.status === 'inconclusive' || check.status === 'notJudged'))
      entry(check.cause).resting.add(check.name);
  }
  return [...found.values()]
    .map((e) => ({
      cause: e.cause,
      level: e.levels.reduce(lowest, 'service'),
      failures: e.failures,
      failed: [...e.failed],
      resting: [...e.resting],
    }))
    .sort((a, b) => b.failed.length + b.resting.length - (a.failed.length + a.resting.length));
}

/** A fault in a line: `POST /v2/batch/scrape is not implemented (answers 404): 3 checks failed, 34 rest on it`. */
export function causeLine(cause: Cause): string {
  const parts = [
    ...(cause.failed.length > 0 ? [`${cause.failed.length} check${cause.failed.length === 1 ? '' : 's'} failed`] : []),
    ...(cause.resting.length > 0 ? [`${cause.resting.length} rest${cause.resting.length === 1 ? 's' : ''} on it (inconclusive)`] : []),
  ];
  return `${cause.cause}: ${parts.join(', ')}`;
}
