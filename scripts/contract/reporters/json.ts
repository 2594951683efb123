/**
 * `--json`: the report as JSON (report.ts `jsonReport`: its verdict, exit status and totals first; its schema is
 * report/reportSchema.ts, published as generated/contract/report.schema.json), written once the run has ended. The
 * verdict alone is also told to `tell` (the command writes it on stderr, where a person watching the progress
 * lines reads it, as the text report ends with it).
 */
import type { RunListener } from '../engine/events.js';
import { jsonReport, verdict, type Verdict } from '../report/report.js';

export const jsonPrinter = (write: (json: string) => void, tell: (verdict: Verdict) => void = () => undefined): RunListener => ({
  runEnded: (report) => {
    if (report === undefined) return;
    write(JSON.stringify(jsonReport(report), null, 2));
    tell(verdict(report));
  },
});
