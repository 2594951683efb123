/**
 * A report written to a file as the run ends (`--report`, `--html`, `--markdown`): a listener of the run's events
 * (engine/events.ts) rendering the report with its format. A file that cannot be written (a full disk, a folder
 * taken away) is the file's fault, not the kit's: `ReportNotWritten` names the file and the reason, and the other
 * outputs are still written (events.ts tells every listener before it throws).
 */
import { writeFile } from 'node:fs/promises';
import type { RunListener } from '../engine/events.js';
import type { ContractReport } from '../report/report.js';

/** The report could not be written to `path`. */
export class ReportNotWritten extends Error {
  constructor(
    readonly path: string,
    what: string,
    reason: string,
  ) {
    super(`cannot write ${what} to ${JSON.stringify(path)}: ${reason}`);
    this.name = 'ReportNotWritten';
  }
}

/** A listener writing `render(report)` to `path` once the run has ended (nothing when it failed). */
export function reportFile(path: string, what: string, render: (report: ContractReport) => string): RunListener {
  return {
    runEnded: async (report) => {
      if (report === undefined) return;
      await writeFile(path, render(report)).catch((error: unknown) => {
        throw new ReportNotWritten(path, what, (error as Error).message);
      });
    },
  };
}
