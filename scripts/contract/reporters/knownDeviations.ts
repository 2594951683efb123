/**
 * Known deviations (`--baseline FILE`, scripts/contract/known/) for the outputs of a run: a listener that tells
 * `listeners` every event as it comes, and at the end the report judged against the file (its `known` member, which
 * the verdict follows), so that the text, JSON, JUnit, HTML and Markdown outputs all say the same. `report` is that
 * judged report once the run has ended (the command's exit status is its verdict's).
 *
 * A judge that fails (a file `--update-baseline` cannot write) leaves the outputs the report as the run made it,
 * then its error is thrown, as a report file that cannot be written loses no other output (engine/events.ts).
 */
import type { RunListener } from '../engine/events.js';
import type { ContractReport } from '../report/report.js';

export interface KnownDeviationsListener extends RunListener {
  /** The report judged, once the run has ended; undefined before, or when the run or the judge failed. */
  readonly report: ContractReport | undefined;
}

export function knownDeviationsListener(
  judge: (report: ContractReport) => Promise<ContractReport>,
  listeners: readonly RunListener[],
): KnownDeviationsListener {
  let judged: ContractReport | undefined;
  return {
    get report() {
      return judged;
    },
    async runStarted(options) {
      for (const l of listeners) await l.runStarted?.(options);
    },
    diagnoses: (diagnoses) => listeners.forEach((l) => l.diagnoses?.(diagnoses)),
    checkStarted: (check) => listeners.forEach((l) => l.checkStarted?.(check)),
    exchange: (record, check) => listeners.forEach((l) => l.exchange?.(record, check)),
    judged: (exchange, expectation, failures, check) => listeners.forEach((l) => l.judged?.(exchange, expectation, failures, check)),
    checkEnded: (result, progress) => listeners.forEach((l) => l.checkEnded?.(result, progress)),
    causeFound: (cause) => listeners.forEach((l) => l.causeFound?.(cause)),
    // As engine/events.ts tells the end: every listener awaited in turn, the first error thrown once all have run.
    async runEnded(report) {
      const errors: unknown[] = [];
      let told = report;
      if (report !== undefined)
        try {
          told = judged = await judge(report);
        } catch (error) {
          errors.push(error);
        }
      for (const l of listeners)
        try {
          await l.runEnded?.(told);
        } catch (error) {
          errors.push(error);
        }
      if (errors.length > 0) throw errors[0];
    },
  };
}
