/**
 * The contract report as text, in sections separated by a blank line:
 *
 *   - the header (`formatHeader`): the target, versions, level, seed and runs, one line;
 *   - what keeps the target from being tested as a whole: the target lost, the operations not implemented;
 *   - the check list: one line per check (`checkLine`), its state and, for one that did not pass, a few words;
 *     checks that `--only` left out are not listed, but counted in one line at the end;
 *   - the failures in detail (each class of failure once, with how many and the smallest request: collapse.ts),
 *     the differences from the service, what was not judged above the run's level, what kept the run
 *     incomplete; the totals, the budget, the jobs, and the verdict on the last line.
 *
 * `formatText` is all of it. The command prints the header when it starts and each check's line as the check
 * ends (progress.ts), then `formatSummary`: the report without its check list, which was just printed. No line
 * is longer than LINE_LIMIT bytes, no field of a failure longer than FIELD_LIMIT, and the failure entries past
 * DETAIL_LIMIT bytes are counted, not shown (cut.ts): a long message, answer or curl line says how much of it
 * was cut.
 */
import { coverageLines } from '../../coverage/lines.js';
import type { Coverage } from '../../coverage/schema.js';
import type { RunListener } from '../engine/events.js';
import { causeLine } from '../report/causes.js';
import { knownLines } from './knownText.js';
import { cut, cutLines, DetailBudget, LINE_LIMIT, notShown, shownField } from '../wire/cut.js';
import { timeLimitOf } from '../wire/timeLimit.js';
import { decides } from '../spec/levels.js';
import {
  blockedDetail,
  decidedNothing,
  differences,
  NOT_SELECTED,
  totals,
  unfinished,
  verdict,
  type CheckResult,
  type ContractReport,
  type Diagnosis,
  type Failure,
  type NotImplemented,
} from '../report/report.js';

export const LABEL = {
  pass: 'PASS',
  fail: 'FAIL',
  inconclusive: 'INCONCLUSIVE',
  skipped: 'SKIP',
  differs: 'DIFFERS',
  notJudged: 'NOT JUDGED',
} as const;
const WIDTH = Math.max(...Object.values(LABEL).map((l) => l.length));

/** What the header says of a run: known before it starts. */
export type RunHeader = Pick<ContractReport, 'target' | 'versions' | 'level' | 'seed' | 'runs'>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** How many failures `failures` stand for (a collapsed entry stands for `count`). */
const entries = (failures: readonly Failure[]) => failures.reduce((n, f) => n + (f.count ?? 1), 0);
const indent = (text: string, prefix: string) => text.split('\n').join(`\n${prefix}`);
const notSelected = (check: CheckResult) => check.status === 'skipped' && check.detail === NOT_SELECTED;

export function formatHeader(run: RunHeader): string {
  return `crawlspec contract: ${run.target} (${run.versions.join(', ')}), level ${run.level}, seed ${run.seed}, ${plural(run.runs, 'run')} per generated check`;
}

/** How often a failing check failed when run again (--confirm): `; confirmed: failed 3 of 3 runs`, or `; flaky: ...`. */
function confirmedWords(check: CheckResult): string {
  const c = check.confirmations;
  if (c === undefined) return '';
  return `; ${c.failed < c.runs ? 'flaky' : 'confirmed'}: failed ${c.failed} of ${plural(c.runs, 'run')} (--confirm)`;
}

/** One check in a line: its state, its name, a few words on what did not pass, and whether it decides. */
export function checkLine(check: CheckResult, level: ContractReport['level']): string {
  const words =
    check.status === 'fail'
      ? `${plural(entries(check.failures), 'failure')}${confirmedWords(check)}`
      : check.status === 'differs'
        ? `${plural(entries(check.differences), 'difference')} from the service`
        : check.status === 'pass'
          ? check.notes === undefined
            ? undefined
            : `${check.notes.length} not judged above ${level} level`
          : check.detail;
  const scope = check.inScope ? '' : `  [${check.level} level: informs, does not decide]`;
  return `${LABEL[check.status].padEnd(WIDTH)}  ${check.name}${words === undefined ? '' : `  (${words})`}${scope}`;
}

/** A failure as lines (not indented): what, where, how many; expected, got, the request, the counterexample. */
export function failureLines(failure: Failure): string[] {
  const label = (name: string, text: string) => `  ${`${name}:`.padEnd(10)}${indent(text, ' '.repeat(12))}`;
  const times = failure.count === undefined ? '' : `  × ${failure.count} (the smallest request shown)`;
  const lines = [
    `✗ ${indent(shownField(failure.message), '  ')} [${failure.section}]${times}`,
    label('expected', shownField(failure.expected)),
  ];
  if (failure.got) lines.push(label('got', shownField(`${failure.got.status ?? 'no answer'} ${failure.got.body}`)).trimEnd());
  if (failure.request) lines.push(label('request', shownField(failure.request)));
  if (failure.counterexample) {
    const { seed, path, shrinks } = failure.counterexample;
    lines.push(`  minimal counterexample of its class after ${shrinks} shrinks (seed ${seed}, path ${JSON.stringify(path)})`);
  }
  return lines;
}

/** An operation the target does not implement, in a line. */
export function notImplementedLine(entry: NotImplemented): string {
  const shown = entry.checks.slice(0, 4).join(', ');
  const rest = entry.checks.length > 4 ? ` and ${entry.checks.length - 4} more` : '';
  return `${entry.method} ${entry.path} [${entry.source}]: ${entry.statuses.join(', ')} to ${plural(entry.requests, 'request')} of ${plural(entry.checks.length, 'check')} (${shown}${rest})`;
}

/** The checks' failures of one kind, each check's name then its entries, as many as `budget` leaves room for. */
function detailed(checks: readonly CheckResult[], of: (check: CheckResult) => readonly Failure[], budget: DetailBudget): string[] {
  return checks.flatMap((check) => {
    const { shown, hidden } = budget.take(of(check), (f) =>
      failureLines(f)
        .map((line) => `    ${line}`)
        .join('\n'),
    );
    return [`  ${check.name}`, ...shown, ...(hidden > 0 ? [`    ${notShown(hidden)}`] : [])];
  });
}

/** A site the target cannot use (preflight.ts): what, what showed it, the fix; with how many checks it kept from running once known. */
export function diagnosisLines(diagnosis: Omit<Diagnosis, 'checks'> & { readonly checks?: number }): string[] {
  const kept = diagnosis.checks === undefined ? '' : `: ${plural(diagnosis.checks, 'check')} resting on it not run (inconclusive)`;
  return [`diagnosis: ${diagnosis.summary}${kept}`, `  seen: ${diagnosis.problem}`, `  fix:  ${diagnosis.fix}`];
}

/** The sections before the check list, each a list of lines: what keeps the target from being tested as a whole. */
export function leading(report: ContractReport): string[][] {
  const out: string[][] = [];
  if (report.unreachable) out.push([`target unreachable: ${report.unreachableReason ?? 'no connection'}`]);
  else if (report.unreachableReason !== undefined) out.push([`target lost during the run: ${report.unreachableReason}`]);
  for (const diagnosis of report.diagnoses) out.push(diagnosisLines(diagnosis));
  const stopped = report.checks.filter((c) => timeLimitOf(c.detail) !== undefined);
  if (stopped.length > 0)
    out.push([
      `time limit reached: after --max-duration ${timeLimitOf(stopped[0]!.detail)} s the run sent nothing more but the cancels of the jobs it had started; ${plural(stopped.length, 'check')} not judged (raise --max-duration, or narrow the run with --only)`,
    ]);
  if (report.notImplemented.length > 0)
    out.push([
      `not implemented: ${plural(report.notImplemented.length, 'operation')} of the interface or the service answered 404, 405 or 501 (not there):`,
      ...report.notImplemented.map((entry) => `  ${notImplementedLine(entry)}`),
    ]);
  return out;
}

/** The names of `checks` by their detail (their state when they have none), first met first. */
function byDetail(checks: readonly CheckResult[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const check of checks) {
    const detail = check.detail ?? check.status;
    const names = groups.get(detail);
    if (names === undefined) groups.set(detail, [check.name]);
    else names.push(check.name);
  }
  return groups;
}

/**
 * Why the run is incomplete, as sections of lines (none when it is not): each in-scope check that did not run to
 * a verdict, grouped by why (a diagnosis, the time limit, each other detail), or, when no check of the run's
 * level ran, how many were left out for each reason. The text report says it after the failures, the HTML
 * report at its top.
 */
export function incompleteSections(report: ContractReport): string[][] {
  if (report.unreachable) return [];
  const out: string[][] = [];
  const missing = unfinished(report);
  // The checks a diagnosis kept from running are one line per diagnosis, not one each.
  const blocked = (d: Diagnosis) => missing.filter((check) => check.detail === blockedDetail(d)).length;
  // So are the checks the time limit cut short, which all say the same (timeLimit.ts).
  const late = missing.filter((check) => timeLimitOf(check.detail) !== undefined);
  const unblocked = missing.filter(
    (check) => !report.diagnoses.some((d) => check.detail === blockedDetail(d)) && timeLimitOf(check.detail) === undefined,
  );
  if (missing.length > 0)
    out.push([
      `incomplete: ${plural(missing.length, 'in-scope check')} did not run to a verdict:`,
      ...report.diagnoses
        .filter((d) => blocked(d) > 0)
        .map((d) => `  ${plural(blocked(d), 'check')} resting on ${d.site}: ${blockedDetail(d)}`),
      ...(late.length === 0 ? [] : [`  ${plural(late.length, 'check')}: ${late[0]!.detail}`]),
      ...[...byDetail(unblocked)].map(([detail, names]) =>
        names.length === 1 ? `  ${names[0]}: ${detail}` : `  ${plural(names.length, 'check')}: ${detail}: ${names.join(', ')}`,
      ),
    ]);
  if (missing.length === 0 && decidedNothing(report)) {
    // Why no check of the run's level ran: how many were left out, by each reason given.
    const why = new Map<string, number>();
    for (const check of report.checks.filter((c) => decides(c.level, report.level)))
      why.set(check.detail ?? check.status, (why.get(check.detail ?? check.status) ?? 0) + 1);
    out.push([
      `incomplete: no check at ${report.level} level ran, so the run observed nothing it is meant to prove:`,
      ...[...why].map(([reason, n]) => `  ${plural(n, 'check')} at ${report.level} level or below: ${reason}`),
      `  run checks of that level (a wider --only, without --only-no-job), or hold the target to the service too (--level service)`,
    ]);
  }
  return out;
}

/**
 * The faults behind the verdict, one line each however many checks each shows in (causes.ts): what the text
 * report says before its failures, the HTML report at its top and the JUnit report in its suite's output.
 */
export function faultLines(report: ContractReport): string[] {
  if (report.causes.length === 0) return [];
  const shown = report.causes.slice(0, FAULTS_SHOWN);
  const more = report.causes.length - shown.length;
  return [
    `${plural(report.causes.length, 'fault')} behind the verdict, most checks first:`,
    ...shown.map((cause) => `  ${cut(causeLine(cause), LINE_LIMIT - 2)}`),
    ...(more > 0 ? [`  and ${plural(more, 'fault')} more, each with its failures below (--json lists each in causes)`] : []),
  ];
}

/** Faults listed at the most: past them each is still said with its failures (the report's size stays bounded). */
const FAULTS_SHOWN = 50;

/** The sections after the check list, each a list of lines. */
function trailing(report: ContractReport): string[][] {
  const budget = new DetailBudget();
  const out: string[][] = [];
  const failing = report.checks.filter((c) => c.status === 'fail');
  const faults = faultLines(report);
  if (faults.length > 0) out.push(faults);
  const known = knownLines(report);
  if (known.length > 0) out.push(known);
  if (failing.length > 0)
    out.push([
      `failures (${plural(failing.length, 'check')}, ${plural(entries(failing.flatMap((c) => c.failures)), 'failure')}):`,
      ...detailed(failing, (c) => c.failures, budget),
    ]);
  const differing = report.checks.filter((c) => c.differences.length > 0);
  if (differing.length > 0)
    out.push([
      `differs from the service (${entries(differences(report))}; these do not decide the verdict at ${report.level} level):`,
      ...detailed(differing, (c) => c.differences, budget),
    ]);
  const noted = report.checks.filter((c) => (c.notes ?? []).length > 0);
  if (noted.length > 0)
    out.push([
      `not judged above ${report.level} level (these do not decide the verdict):`,
      ...noted.flatMap((c) => (c.notes ?? []).map((note) => `  ${c.name}: ${note}`)),
    ]);
  out.push(...incompleteSections(report));
  const t = totals(report);
  const left = report.checks.filter(notSelected).length;
  out.push([
    ...(left > 0 ? [`${NOT_SELECTED}: ${plural(left, 'check')} (crawlspec contract --list-checks lists them)`] : []),
    `${plural(report.checks.length, 'check')}: ${t.passed} passed, ${t.failed} failed, ${t.inconclusive} inconclusive, ${t.skipped} skipped; above the run's level: ${t.differs} differ from the service, ${t.notJudged} not judged`,
    `${report.requests} requests (budget ${report.maxRequests}) in ${(report.durationMs / 1000).toFixed(1)} s: ${report.requestsPerSecond.toFixed(1)} requests per second`,
    `jobs: ${report.jobs.started} started, ${report.jobs.cancelled} cancelled${
      report.jobs.notCancelled.length > 0 ? `, NOT cancelled: ${report.jobs.notCancelled.join(', ')}` : ''
    }${
      report.jobs.mayHaveStarted === undefined
        ? ''
        : `; ${plural(report.jobs.mayHaveStarted.length, 'lost start')} may have started ${report.jobs.mayHaveStarted.length === 1 ? 'a job' : 'jobs'} the kit could not find to cancel: ${report.jobs.mayHaveStarted.join(', ')}`
    }`,
    ...(report.transport.lost > 0
      ? [
          `transport: ${plural(report.transport.lost, 'connection')} lost before an answer (none is a failure), ${report.transport.retried} sent again, ${plural(report.transport.inconclusive, 'request')} lost twice (its check inconclusive)`,
        ]
      : []),
    `seed ${report.seed}: the same seed sends the same request bodies in the same order within each check (see each check's digest in --json); how many status reads and cancels a check sends depends on the target's timing`,
    verdict(report),
  ]);
  return out;
}

const render = (sections: readonly (readonly string[])[]) => `${cutLines(sections.map((lines) => lines.join('\n')).join('\n\n'))}\n`;

/** The whole report: the header, what kept the target from being tested, one line per check (but those `--only` left out), the rest. */
export function formatText(report: ContractReport): string {
  const list = report.checks.filter((c) => !notSelected(c)).map((c) => checkLine(c, report.level));
  return render([[formatHeader(report)], ...leading(report), list, ...trailing(report)]);
}

/** The report without its check list: what the command prints once the run has ended, the check lines printed as the checks ended. */
export function formatSummary(report: ContractReport): string {
  return render([[formatHeader(report)], ...leading(report), ...trailing(report)]);
}

/** The spec coverage in a few lines, each measure's figure (--json lists what nothing touched). */
export const coverageSummary = (coverage: Coverage): string =>
  `${[...coverageLines(coverage, false), '  (crawlspec contract --json lists what nothing touched, under coverage.untouched)'].join('\n')}\n`;

/**
 * The summary (`formatSummary`) written once the run has ended, after a blank line (the progress lines precede it);
 * with `coverage` (reporters/coverage.ts), the spec coverage before it.
 */
export const summaryPrinter = (write: (text: string) => void, coverage: () => Coverage | undefined = () => undefined): RunListener => ({
  runEnded: (report) => {
    if (report === undefined) return;
    const covered = coverage();
    write(`\n${covered === undefined ? '' : `${coverageSummary(covered)}\n`}${formatSummary(report)}`);
  },
});
