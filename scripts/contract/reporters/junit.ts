/**
 * The contract report as JUnit XML: one test suite, one test case per check the run selected (those `--only`
 * left out are counted in the `notSelected` property, not listed). By state:
 *
 *   - `fail`: one `<failure>` (CI viewers show only the first of several): its `message` the first failure's
 *     (and how many more), its `type` that failure's kind, its text every failure of the check, each class once
 *     with how many (as the text report writes them: expected, got, the request);
 *   - `inconclusive`, `skipped`: `<skipped>`, with why;
 *   - `pass`, and the states of a check above the run's level (`differs`, `notJudged`): a passed test case,
 *     since they do not fail the run; what it differs in or could not judge, and what was not judged above
 *     the run's level, is in its `<system-out>`, so that it shows in CI without failing it.
 *   - `fail` only for known deviations (`--baseline`, knownText.ts): a passed test case too, since it does not
 *     fail the run; its failures are in its `<system-out>`, marked known, and the suite's output lists the entries.
 *
 * The suite's properties carry the run (target, level, seed, ...), the verdict and exit status, and the
 * operations not implemented, which the suite's `<system-out>` also lists, after the preflight's diagnoses.
 * Lines are cut as in the text report, and so are the failure entries past its bound (cut.ts DETAIL_LIMIT).
 */
import type { RunListener } from '../engine/events.js';
import { reportFile } from './reportFile.js';
import { cut, cutLines, DetailBudget, notShown } from '../wire/cut.js';
import { exitCode, NOT_SELECTED, totals, verdict, type CheckResult, type ContractReport, type Failure } from '../report/report.js';
import { diagnosisLines, faultLines, failureLines, LABEL, notImplementedLine } from './text.js';
import { knownLines, knownOnly } from './knownText.js';

/** Text made safe for XML 1.0: characters XML cannot hold dropped, markup characters escaped. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** Longest `message` of a `<failure>`, in bytes (before escaping). */
const MESSAGE_LIMIT = 400;

/** The entries of `failures` as text, as many as `budget` leaves room for, then how many are not shown. */
function entriesText(failures: readonly Failure[], budget: DetailBudget): string {
  const { shown, hidden } = budget.take(failures, (f) => cutLines([`[${f.level}] ${f.kind}`, ...failureLines(f)].join('\n')));
  return [...shown, ...(hidden > 0 ? [notShown(hidden)] : [])].join('\n\n');
}

/** The one `<failure>` of a failed check. */
function failureElement(check: CheckResult, budget: DetailBudget): string {
  const [first] = check.failures;
  const total = check.failures.reduce((n, f) => n + (f.count ?? 1), 0);
  const others = total - (first?.count ?? 1);
  const message = `${first?.message ?? 'failed'}${first?.count === undefined ? '' : ` (× ${first.count})`}${others > 0 ? ` (and ${others} more failure${others === 1 ? '' : 's'})` : ''}`;
  // The message in a few hundred bytes (the tag's line stays within the line bound); the entries below it, each line cut as in the text report.
  return `      <failure message="${escapeXml(cut(message, MESSAGE_LIMIT))}" type="${escapeXml(first?.kind ?? 'fail')}">\n${escapeXml(entriesText(check.failures, budget))}</failure>`;
}

/** What a check's `<system-out>` says: its state above the run's level, its differences, what was not judged above the run's level. */
function systemOut(check: CheckResult, level: ContractReport['level'], budget: DetailBudget): string[] {
  const out: string[] = [];
  if (check.status === 'differs' || check.status === 'notJudged')
    out.push(
      `${LABEL[check.status]} at ${check.level} level (informs, does not decide at ${level} level)${check.detail === undefined ? '' : `: ${check.detail}`}`,
    );
  if (check.differences.length > 0)
    out.push(`differs from the service (does not decide the verdict at ${level} level):\n${entriesText(check.differences, budget)}`);
  for (const note of check.notes ?? []) out.push(`not judged above ${level} level: ${note}`);
  return out;
}

export function formatJunit(report: ContractReport): string {
  const t = totals(report);
  const listed = report.checks.filter((c) => !(c.status === 'skipped' && c.detail === NOT_SELECTED));
  const left = report.checks.length - listed.length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const budget = new DetailBudget();
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  // A check that failed only for known deviations (--baseline) is a passed test case, as it does not fail the run;
  // its failures are in its <system-out>, marked known.
  const knownFailing = knownOnly(report);
  const counts = `tests="${listed.length}" failures="${t.failed - knownFailing.size}" skipped="${t.inconclusive + t.skipped - left}" time="${seconds(report.durationMs)}"`;
  out.push(`<testsuites name="crawlspec contract" ${counts}>`);
  out.push(`  <testsuite name="${escapeXml(`crawlspec contract ${report.target}`)}" ${counts.replace('skipped', 'errors="0" skipped')}>`);
  out.push('    <properties>');
  const properties: [string, string][] = [
    ['target', report.target],
    ['level', report.level],
    ['versions', report.versions.join(',')],
    ['seed', String(report.seed)],
    ['runs', String(report.runs)],
    ['requests', String(report.requests)],
    ['unreachable', String(report.unreachable)],
    ['notSelected', String(left)],
    ['notImplemented', report.notImplemented.map((e) => `${e.method} ${e.path} (${e.statuses.join(', ')})`).join('; ')],
    ['verdict', verdict(report)],
    ['exitCode', String(exitCode(report))],
  ];
  for (const [name, value] of properties) out.push(`      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`);
  out.push('    </properties>');
  for (const check of listed) {
    const classname = check.name.split('.').slice(0, -1).join('.') || check.name;
    const open = `    <testcase classname="${escapeXml(`crawlspec.${classname}`)}" name="${escapeXml(check.name)}" time="${seconds(check.durationMs)}"`;
    const known = knownFailing.has(check.name);
    const said = known
      ? [`known deviations only (${report.known?.file ?? ''}): does not fail the run\n${entriesText(check.failures, budget)}`]
      : systemOut(check, report.level, budget);
    const outcome =
      check.status === 'fail' && !known
        ? failureElement(check, budget)
        : check.status === 'inconclusive' || check.status === 'skipped'
          ? `      <skipped message="${escapeXml(cut(check.status === 'inconclusive' ? `inconclusive: ${check.detail ?? ''}` : (check.detail ?? 'skipped'), MESSAGE_LIMIT))}"/>`
          : undefined;
    if (outcome === undefined && said.length === 0) {
      out.push(`${open}/>`);
      continue;
    }
    out.push(`${open}>`);
    if (outcome !== undefined) out.push(outcome);
    if (said.length > 0) out.push(`      <system-out>${escapeXml(cutLines(said.join('\n\n')))}</system-out>`);
    out.push('    </testcase>');
  }
  // The suite's own output: the preflight's diagnoses (the sites the target cannot use), the operations not implemented.
  const suiteSaid = [
    ...report.diagnoses.flatMap((d) => diagnosisLines(d)),
    ...(report.notImplemented.length > 0
      ? [`not implemented (answered 404, 405 or 501):`, ...report.notImplemented.map((e) => `  ${notImplementedLine(e)}`)]
      : []),
    ...faultLines(report),
    ...knownLines(report),
  ];
  if (suiteSaid.length > 0) out.push(`    <system-out>${escapeXml(cutLines(suiteSaid.join('\n')))}</system-out>`);
  out.push('  </testsuite>');
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** `--report FILE`: the JUnit XML report written as the run ends. */
export const junitReporter = (path: string): RunListener => reportFile(path, 'the JUnit report', formatJunit);
