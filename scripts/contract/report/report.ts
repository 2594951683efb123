/**
 * The result of a contract run, and its verdict. Renderings: text (reporters/text.ts, progress.ts), JUnit XML
 * (junit.ts), JSON (`jsonReport`: the object with its verdict, exit status and totals, each section with its link: reportLinks.ts;
 * its schema: reportSchema.ts).
 *
 * A run is made at one level (levels.ts). A check is in scope when it holds any expectation of that level
 * or below. Its failures at the run's level or below decide its status; the others are differences from the
 * service, reported apart, and decide nothing. The verdict:
 *
 *   - `unreachable` (exit 2): the target could not be reached at all (one lost mid-run leaves the checks after
 *     it skipped: the run is incomplete, or has deviations if some were found before);
 *   - `deviations found` (exit 1): an in-scope check failed;
 *   - `incomplete` (exit 3): no in-scope check failed, but one was skipped or inconclusive, so not everything
 *     the run is meant to prove was proven; or no in-scope check ran at all (every check of the run's level left
 *     out, e.g. by --only-no-job at interface level), so the run proved nothing;
 *   - `conformant` (exit 0): every in-scope check ran and passed.
 *
 * Judged against known deviations (`--baseline FILE`, `verdict` below says how) two more: `known deviations only`
 * (exit 0) and `known deviations out of date` (exit 1).
 */
import type { Static } from '@sinclair/typebox';
import type {
  CHECK_STATUSES,
  CheckResultSchema,
  ContractReportJsonSchema,
  ContractReportSchema,
  CrawlGraphSchema,
  FAILURE_KINDS,
  FailureSchema,
  NotImplementedSchema,
  DiagnosisSchema,
  CauseSchema,
  TotalsSchema,
  VERDICTS,
} from './reportSchema.js';
import { withSectionUrls } from './reportLinks.js';

/** `T` with every property and array read-only, all the way down (the report is never changed once built). */
type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

// The report's types are inferred from its definitions (reportSchema.ts, with a description of every field):
// add a field there.

/**
 * What a check reports. At the run's level (an in-scope check): `pass` (what it proves was observed), `fail`,
 * `inconclusive` (something it rests on could not be judged), `skipped`. A check above the run's level that
 * ran informs without deciding, and says what it saw at its own level: `pass` (everything it holds was
 * observed), `differs` (the target differs from the service there), `notJudged` (something it holds could not
 * be judged); never `fail`.
 */
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export type FailureKind = (typeof FAILURE_KINDS)[number];
/** A deviation found: the check, its kind and level, what was sent, expected and got (`count`: how many of its class). */
export type Failure = Frozen<Static<typeof FailureSchema>>;
/** One crawl of a behaviour check as a graph of the test site: what was expected of each page, what came back. */
export type CrawlGraph = Frozen<Static<typeof CrawlGraphSchema>>;
/** One check's verdict: its status, its failures (at the run's level or below) and differences (above it). */
export type CheckResult = Frozen<Static<typeof CheckResultSchema>>;
/**
 * An endpoint the target does not implement: it answered 404, 405 or 501 to requests of an operation the
 * interface or the service defines (method and path as the operation names them, e.g. `POST /v2/batch/scrape`).
 */
export type NotImplemented = Frozen<Static<typeof NotImplementedSchema>>;
/** A fault of the target and the checks it shows in (causes.ts). */
export type Cause = Frozen<Static<typeof CauseSchema>>;
/** A site the target cannot use (preflight.ts): what shows it, the fix, and how many checks it kept from running. */
export type Diagnosis = Frozen<Static<typeof DiagnosisSchema>>;
export type ContractReport = Frozen<Static<typeof ContractReportSchema>>;
/** How many checks ended in each state. */
export type Totals = Static<typeof TotalsSchema>;
/** What `--json` prints: the report with its verdict, exit status and totals (`jsonReport`). */
export type ContractReportJson = Frozen<Static<typeof ContractReportJsonSchema>>;

/** The detail of a check that `--only` left out (skipped, out of scope). */
export const NOT_SELECTED = 'not selected (--only)';

/** The detail of a check the preflight kept from running: it rests on a site the target cannot use (preflight.ts). */
export const blockedDetail = (diagnosis: Pick<Diagnosis, 'summary'>): string =>
  `not run: ${diagnosis.summary} (the diagnosis above says why and what to do)`;

export type Verdict = (typeof VERDICTS)[number];

const EXIT: Record<Verdict, 0 | 1 | 2 | 3> = {
  conformant: 0,
  'known deviations only': 0,
  'deviations found': 1,
  'known deviations out of date': 1,
  unreachable: 2,
  incomplete: 3,
};

/**
 * Whether no check of the run's level (or below) ran to a verdict: every one was left out, or none was there. A
 * run like that observed nothing it is meant to prove, and is not called conformant.
 */
export const decidedNothing = (report: ContractReport): boolean =>
  !report.checks.some((c) => c.inScope && (c.status === 'pass' || c.status === 'fail'));

/** The in-scope checks that did not run to a verdict (skipped or inconclusive). */
export const unfinished = (report: ContractReport): CheckResult[] =>
  report.checks.filter((c) => c.inScope && (c.status === 'skipped' || c.status === 'inconclusive'));

/**
 * Judged against known deviations (`report.known`, scripts/contract/known/): a failure known and not expired does
 * not fail the run; a new or expired one does; with `--baseline-strict`, so does an entry no longer met (`known
 * deviations out of date`, exit 1, before `incomplete`). A run whose only failures are known is `known deviations
 * only` (exit 0): not `conformant`, which says nothing failed.
 */
export function verdict(report: ContractReport): Verdict {
  if (report.unreachable) return 'unreachable';
  const known = report.known;
  if (known === undefined ? report.checks.some((c) => c.status === 'fail') : known.new.length + known.expired.length > 0)
    return 'deviations found';
  if (known?.strict === true && known.fixed.length > 0) return 'known deviations out of date';
  if (unfinished(report).length > 0 || decidedNothing(report)) return 'incomplete';
  return (known?.known.length ?? 0) > 0 ? 'known deviations only' : 'conformant';
}

/** 0 conformant or known deviations only, 1 deviations found or known deviations out of date, 2 target unreachable, 3 incomplete. */
export function exitCode(report: ContractReport): 0 | 1 | 2 | 3 {
  return EXIT[verdict(report)];
}

export function totals(report: ContractReport): Totals {
  const count: Totals = { passed: 0, failed: 0, inconclusive: 0, skipped: 0, differs: 0, notJudged: 0 };
  const key = {
    pass: 'passed',
    fail: 'failed',
    inconclusive: 'inconclusive',
    skipped: 'skipped',
    differs: 'differs',
    notJudged: 'notJudged',
  } as const;
  for (const check of report.checks) count[key[check.status]] += 1;
  return count;
}

/** The report as `--json` prints it: its verdict, exit status and totals first, then every key of the report. */
export const jsonReport = (report: ContractReport): ContractReportJson => ({
  verdict: verdict(report),
  exitCode: exitCode(report),
  totals: totals(report),
  ...withSectionUrls(report),
});

/** Every difference from the service, over all checks. */
export const differences = (report: ContractReport): Failure[] => report.checks.flatMap((c) => c.differences);
