/**
 * The result of a contract run, and its verdict. Renderings: text (reportText.ts), JUnit XML (junit.ts), JSON
 * (the object itself).
 *
 * A run is made at one level (levels.ts). A check is in scope when it holds any expectation of that level
 * or below. Its failures at the run's level or below decide its status; the others are differences from the
 * service, reported apart, and decide nothing. The verdict:
 *
 *   - `unreachable` (exit 2): the target could not be reached at all (one lost mid-run leaves the checks after
 *     it skipped: the run is incomplete, or has deviations if some were found before);
 *   - `deviations found` (exit 1): an in-scope check failed;
 *   - `incomplete` (exit 3): no in-scope check failed, but one was skipped or inconclusive, so not everything
 *     the run is meant to prove was proven;
 *   - `conformant` (exit 0): every in-scope check ran and passed.
 */
import type { Version } from '../../schemas/registry.js';
import type { Level } from './levels.js';

/**
 * What a check reports. At the run's level (an in-scope check): `pass` (what it proves was observed), `fail`,
 * `inconclusive` (something it rests on could not be judged), `skipped`. A check above the run's level that
 * ran informs without deciding, and says what it saw at its own level: `pass` (everything it holds was
 * observed), `differs` (the target differs from the service there), `notJudged` (something it holds could not
 * be judged); never `fail`.
 */
export type CheckStatus = 'pass' | 'fail' | 'inconclusive' | 'skipped' | 'differs' | 'notJudged';

export type FailureKind =
  | 'status'
  | 'serverError'
  | 'undocumentedStatus'
  | 'unknownOperation'
  | 'body'
  | 'invalidURLs'
  | 'jobUrl'
  | 'jobId'
  | 'pagination'
  | 'cancel'
  | 'active'
  | 'crawl'
  | 'network';

export interface Failure {
  /** The check that found it. */
  readonly check: string;
  readonly kind: FailureKind;
  /** The level of the expectation that failed: `interface` (the interface states it) or `service`. */
  readonly level: Level;
  /** What went wrong, in a sentence. */
  readonly message: string;
  /** The request, as a runnable `curl` line (token redacted). */
  readonly request?: string;
  /** What came back: the status (null when nothing did) and the body, truncated. */
  readonly got?: { readonly status: number | null; readonly body: string };
  /** What was expected. */
  readonly expected: string;
  /** Where that expectation comes from: `interface §2.4`, `service`, or HTTP for a 5xx. */
  readonly section: string;
  /** For a generated request: the minimal (shrunk) counterexample of its class and how to replay it. */
  readonly counterexample?: { readonly seed: number; readonly path: string; readonly shrinks: number };
}

export interface CheckResult {
  /** Stable dotted name, e.g. `v2.crawl.start.valid`. */
  readonly name: string;
  /** The lowest level of the expectations the check holds (it is in scope from that level on). */
  readonly level: Level;
  /** Whether the check decides the verdict at the run's level. */
  readonly inScope: boolean;
  readonly status: CheckStatus;
  /** Failures at the run's level or below. */
  readonly failures: readonly Failure[];
  /** Failures above the run's level: where the target differs from the service. */
  readonly differences: readonly Failure[];
  /** Why a check was skipped or inconclusive. */
  readonly detail?: string;
  /** What the check could not judge above the run's level (e.g. a service-only claim): it decides nothing. */
  readonly notes?: readonly string[];
  readonly requests: number;
  /** SHA-256 of the request bodies the check sent, in order: the same seed gives the same digest. */
  readonly digest: string;
  readonly durationMs: number;
}

/**
 * An endpoint the target does not implement: it answered 404, 405 or 501 to requests of an operation the
 * interface or the service defines (method and path as the operation names them, e.g. `POST /v2/batch/scrape`).
 */
export interface NotImplemented {
  readonly method: string;
  /** The operation's path, e.g. `/v2/batch/scrape/{id}`. */
  readonly path: string;
  /** Where the operation comes from: `interface §4` or `service`. */
  readonly source: string;
  /** The statuses it answered (404, 405, 501). */
  readonly statuses: readonly number[];
  /** How many requests got that answer. */
  readonly requests: number;
  /** The checks those requests belonged to. */
  readonly checks: readonly string[];
}

export interface ContractReport {
  readonly target: string;
  readonly level: Level;
  readonly versions: readonly Version[];
  readonly seed: number;
  readonly runs: number;
  /** The request budget of the run (by default what every check needs), shared among the checks. */
  readonly maxRequests: number;
  readonly checks: readonly CheckResult[];
  /** The operations the target answered as not there (404, 405, 501), first met first. */
  readonly notImplemented: readonly NotImplemented[];
  /** Requests sent (retries included). */
  readonly requests: number;
  readonly durationMs: number;
  readonly requestsPerSecond: number;
  /** The target never answered. */
  readonly unreachable: boolean;
  /** Why it could not be reached: from the start (`unreachable`), or since some point in the run. */
  readonly unreachableReason?: string;
  /** Jobs the run started, those it cancelled (or found completed), and the ones it could not cancel. */
  readonly jobs: { readonly started: number; readonly cancelled: number; readonly notCancelled: readonly string[] };
}

export type Verdict = 'conformant' | 'deviations found' | 'unreachable' | 'incomplete';

const EXIT: Record<Verdict, 0 | 1 | 2 | 3> = { conformant: 0, 'deviations found': 1, unreachable: 2, incomplete: 3 };

/** The in-scope checks that did not run to a verdict (skipped or inconclusive). */
export const unfinished = (report: ContractReport): CheckResult[] =>
  report.checks.filter((c) => c.inScope && (c.status === 'skipped' || c.status === 'inconclusive'));

export function verdict(report: ContractReport): Verdict {
  if (report.unreachable) return 'unreachable';
  if (report.checks.some((c) => c.status === 'fail')) return 'deviations found';
  return unfinished(report).length > 0 ? 'incomplete' : 'conformant';
}

/** 0 conformant, 1 deviations found, 2 target unreachable, 3 incomplete. */
export function exitCode(report: ContractReport): 0 | 1 | 2 | 3 {
  return EXIT[verdict(report)];
}

export function totals(report: ContractReport): Record<CheckStatus, number> {
  const count = { pass: 0, fail: 0, inconclusive: 0, skipped: 0, differs: 0, notJudged: 0 };
  for (const check of report.checks) count[check.status] += 1;
  return count;
}

/** Every difference from the service, over all checks. */
export const differences = (report: ContractReport): Failure[] => report.checks.flatMap((c) => c.differences);
