/**
 * A line per check as it ends, so that a run against a slow target (minutes) shows what it is doing from its
 * first seconds: `[  3.2s   5/132] PASS          v1.status`, the time since the run began, how many checks
 * have ended of how many the run has, and the check's line of the report (reporters/text.ts `checkLine`). A check
 * that `--only` left out is not a line of its own. `runContract(options, { onCheck })` reports each check as it
 * ends; the command prints these lines on stdout, or on stderr when stdout carries the JSON report.
 */
import { cut, LINE_LIMIT } from '../wire/cut.js';
import type { Level } from '../spec/levels.js';
import type { CheckResult, Diagnosis } from '../report/report.js';
import { checkLine, diagnosisLines } from './text.js';

/** What a run tells as it goes (runContract's second parameter). */
export interface RunObserver {
  /**
   * A check has ended (its result cleaned of the token, like the report): the `done`-th of the `total` checks
   * the run selected (`--only` leaves the others out of both).
   */
  onCheck?(result: CheckResult, done: number, total: number): void;
  /** Before any check runs: the sites the target cannot use (preflight.ts), whose checks will not run. */
  onDiagnoses?(diagnoses: readonly Omit<Diagnosis, 'checks'>[]): void;
}

/** `[  3.2s   5/132] ` and the check's line, cut to LINE_LIMIT bytes. */
export function progressLine(result: CheckResult, level: Level, elapsedMs: number, done: number, total: number): string {
  const time = `${(elapsedMs / 1000).toFixed(1)}s`.padStart(7);
  const count = `${done}/${total}`.padStart(2 * String(total).length + 1);
  return cut(`[${time} ${count}] ${checkLine(result, level)}`, LINE_LIMIT);
}

/** An observer writing a progress line per check to `write`, the time counted from `begun`. */
export function progressPrinter(write: (line: string) => void, level: Level, begun = performance.now()): RunObserver {
  return {
    onCheck: (result, done, total) => write(progressLine(result, level, performance.now() - begun, done, total)),
    onDiagnoses: (diagnoses) => {
      for (const diagnosis of diagnoses) for (const line of diagnosisLines(diagnosis)) write(cut(line, LINE_LIMIT));
    },
  };
}
