/**
 * The contract kit (`crawlspec/contract`): `runContract(options, listeners)` runs every check of the catalogue
 * (checks/index.ts) against a target through the engine (engine/run.ts), telling the listeners what happens
 * (engine/events.ts), and returns the report. The outputs are listeners of reporters/: progress lines, the text
 * summary, JSON, JUnit, HTML, Markdown, and the HAR recording (`options.record`, added here).
 *
 * The rooms, each importing only those below it: spec/ (levels, citations, what the spec says of answers), wire/
 * (the HTTP client and what bounds it), report/ (the report model and verdict), generation/ (request bodies),
 * engine/ (a run, a check's attempt, expectations), checks/ (what is proven), reporters/ (outputs), replay/, and
 * this entry on top (docs/development.md draws them).
 */
import { contractChecks } from './checks/index.js';
import type { RunListener } from './engine/events.js';
import type { ContractOptions } from './engine/options.js';
import { runChecks } from './engine/run.js';
import type { ContractReport } from './report/report.js';
import { Recording } from './reporters/recording.js';

/**
 * Runs every check of `options.versions` against `options.baseUrl`, telling `listeners` what happens, and returns
 * the report, cleaned of the token. With `options.record`, the run is recorded there (HAR 1.2) too.
 */
export function runContract(options: ContractOptions, listeners: RunListener | readonly RunListener[] = []): Promise<ContractReport> {
  const given = Array.isArray(listeners) ? listeners : [listeners as RunListener];
  return runChecks(contractChecks(options.versions), options, [
    ...given,
    ...(options.record === undefined ? [] : [new Recording(options.record)]),
  ]);
}

export { checkNames, contractChecks } from './checks/index.js';
export type { Progress, RunListener } from './engine/events.js';
export type { ContractOptions, SiteProfile } from './engine/options.js';
export { DEFAULT_OPTIONS, UNKNOWN_SITE } from './engine/options.js';
export type { CheckResult, ContractReport, ContractReportJson, Failure, NotImplemented, Totals, Verdict } from './report/report.js';
export { exitCode, jsonReport, totals, verdict } from './report/report.js';
export { ContractReportJsonSchema } from './report/reportSchema.js';
export { formatHeader, formatSummary, formatText, summaryPrinter } from './reporters/text.js';
export { progressPrinter } from './reporters/progress.js';
export { formatJunit, junitReporter } from './reporters/junit.js';
export { formatHtml, htmlReporter } from './reporters/html.js';
export { formatMarkdown, markdownReporter } from './reporters/markdown.js';
export { jsonPrinter } from './reporters/json.js';
export { coverageReporter, type CoverageReporter } from './reporters/coverage.js';
export type { Coverage } from '../coverage/schema.js';
export { coverageLines } from '../coverage/lines.js';
export { knownDeviationsListener } from './reporters/knownDeviations.js';
export { ReportNotWritten } from './reporters/reportFile.js';
export { RecordingFailed } from './reporters/recording.js';
export type { Check } from './engine/check.js';
export type { CheckInfo, Citation } from './spec/checkInfo.js';
