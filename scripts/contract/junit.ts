/**
 * The contract report as JUnit XML: one test suite, one test case per check. A failed check has a
 * `<failure>` per failure; a skipped or inconclusive one is `<skipped>`; differences from the service are
 * written to the test case's `<system-out>`, with what was not judged above the run's level, so they show in
 * CI without failing it.
 */
import { totals, verdict, type ContractReport, type Failure } from './report.js';

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

function failureText(failure: Failure): string {
  return [
    failure.message,
    `level: ${failure.level}`,
    `expected: ${failure.expected}`,
    `section: ${failure.section}`,
    ...(failure.got ? [`got: ${failure.got.status ?? 'no answer'} ${failure.got.body}`] : []),
    ...(failure.request ? [`request: ${failure.request}`] : []),
    ...(failure.counterexample
      ? [`counterexample: seed ${failure.counterexample.seed}, path ${failure.counterexample.path}, ${failure.counterexample.shrinks} shrinks`]
      : []),
  ].join('\n');
}

export function formatJunit(report: ContractReport): string {
  const t = totals(report);
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const counts = `tests="${report.checks.length}" failures="${t.fail}" skipped="${t.inconclusive + t.skipped}" time="${seconds(report.durationMs)}"`;
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
    ['verdict', verdict(report)],
  ];
  for (const [name, value] of properties) out.push(`      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`);
  out.push('    </properties>');
  for (const check of report.checks) {
    const classname = check.name.split('.').slice(0, -1).join('.') || check.name;
    const open = `    <testcase classname="${escapeXml(`crawlspec.${classname}`)}" name="${escapeXml(check.name)}" time="${seconds(check.durationMs)}"`;
    const notes = check.notes ?? [];
    if (check.status === 'pass' && check.differences.length === 0 && notes.length === 0) {
      out.push(`${open}/>`);
      continue;
    }
    out.push(`${open}>`);
    if (check.status === 'fail') {
      for (const failure of check.failures)
        out.push(`      <failure message="${escapeXml(failure.message)}" type="${escapeXml(failure.kind)}">${escapeXml(failureText(failure))}</failure>`);
    } else if (check.status !== 'pass') {
      const message = check.status === 'inconclusive' ? `inconclusive: ${check.detail ?? ''}` : (check.detail ?? 'skipped');
      out.push(`      <skipped message="${escapeXml(message)}"/>`);
    }
    const systemOut = [
      ...(check.differences.length > 0
        ? [`differs from the service (${check.differences.length}; does not decide the verdict at ${report.level} level):`, ...check.differences.map(failureText)]
        : []),
      ...notes.map((note) => `not judged above ${report.level} level: ${note}`),
    ];
    if (systemOut.length > 0) out.push(`      <system-out>${escapeXml(systemOut.join('\n\n'))}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>');
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
