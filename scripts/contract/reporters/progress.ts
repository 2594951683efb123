/**
 * A line per check as it ends, so that a run against a slow target (minutes) shows what it is doing from its
 * first seconds: `[  3.2s   5/132] PASS          v1.status`, the time since the run began, how many checks
 * have ended of how many the run has, and the check's line of the report (text.ts `checkLine`). A check that
 * `--only` left out is not a line of its own. A listener of the run's events (engine/events.ts): the command prints
 * these lines on stdout, or on stderr when stdout carries the JSON report.
 */
import { cut, LINE_LIMIT } from '../wire/cut.js';
import type { Level } from '../spec/levels.js';
import type { RunListener } from '../engine/events.js';
import type { CheckResult } from '../report/report.js';
import { checkLine, diagnosisLines } from './text.js';

/** `[  3.2s   5/132] ` and the check's line, cut to LINE_LIMIT bytes. */
export function progressLine(result: CheckResult, level: Level, elapsedMs: number, done: number, total: number): string {
  const time = `${(elapsedMs / 1000).toFixed(1)}s`.padStart(7);
  const count = `${done}/${total}`.padStart(2 * String(total).length + 1);
  return cut(`[${time} ${count}] ${checkLine(result, level)}`, LINE_LIMIT);
}

/** A listener writing a progress line per check selected to `write`, the time counted from `begun`. */
export function progressPrinter(write: (line: string) => void, level: Level, begun = performance.now()): RunListener {
  return {
    checkEnded: (result, progress) => {
      if (progress !== undefined) write(progressLine(result, level, performance.now() - begun, progress.done, progress.total));
    },
    diagnoses: (diagnoses) => {
      for (const diagnosis of diagnoses) for (const line of diagnosisLines(diagnosis)) write(cut(line, LINE_LIMIT));
    },
  };
}
