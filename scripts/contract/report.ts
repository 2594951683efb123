/**
 * The result of a contract run, and its renderings: a readable text summary, JUnit XML, and JSON (the
 * object itself). Exit status: 0 conformant, 1 deviations, 2 target unreachable.
 */
import type { Version } from '../../schemas/registry.js';

export type CheckStatus = 'pass' | 'fail' | 'inconclusive' | 'skipped';

export type FailureKind =
  'status' | 'undocumentedStatus' | 'unknownOperation' | 'body' | 'invalidURLs' | 'jobUrl' | 'pagination' | 'cancel' | 'network' | 'kit';

export interface Failure {
  /** The check that found it. */
  readonly check: string;
  readonly kind: FailureKind;
  /** What went wrong, in a sentence. */
  readonly message: string;
  /** The request, as a runnable `curl` line (token redacted). */
  readonly request?: string;
  /** What came back: the status (null when nothing did) and the body, truncated. */
  readonly got?: { readonly status: number | null; readonly body: string };
  /** What the interface expects. */
  readonly expected: string;
  /** Where that expectation comes from: `interface §4`, or `service`. */
  readonly section: string;
  /** For a generated request: the minimal (shrunk) counterexample and how to replay it. */
  readonly counterexample?: { readonly seed: number; readonly path: string; readonly shrinks: number };
}

export interface CheckResult {
  /** Stable dotted name, e.g. `v2.crawl.start.valid`. */
  readonly name: string;
  readonly status: CheckStatus;
  readonly failures: readonly Failure[];
  /** Why a check was skipped or inconclusive. */
  readonly detail?: string;
  readonly requests: number;
  readonly durationMs: number;
}

export interface ContractReport {
  readonly target: string;
  readonly versions: readonly Version[];
  readonly seed: number;
  readonly runs: number;
  readonly maxRequests: number;
  readonly checks: readonly CheckResult[];
  /** Requests sent (retries included). */
  readonly requests: number;
  readonly durationMs: number;
  readonly requestsPerSecond: number;
  readonly unreachable: boolean;
  readonly unreachableReason?: string;
  /** Jobs the run started, those it cancelled (or found completed), and the ids it could not cancel. */
  readonly jobs: { readonly started: number; readonly cancelled: number; readonly notCancelled: readonly string[] };
}

/** 0 conformant, 1 deviations, 2 target unreachable. */
export function exitCode(report: ContractReport): 0 | 1 | 2 {
  if (report.unreachable) return 2;
  return report.checks.some((c) => c.status === 'fail') ? 1 : 0;
}

export function totals(report: ContractReport): Record<CheckStatus, number> {
  const count = { pass: 0, fail: 0, inconclusive: 0, skipped: 0 };
  for (const check of report.checks) count[check.status] += 1;
  return count;
}

const LABEL: Record<CheckStatus, string> = { pass: 'PASS', fail: 'FAIL', inconclusive: 'INCONCLUSIVE', skipped: 'SKIP' };

const indent = (text: string, prefix: string) => text.split('\n').join(`\n${prefix}`);

/** A readable summary: one line per check, each failure with what was sent, expected and got; totals. */
export function formatText(report: ContractReport): string {
  const lines: string[] = [];
  lines.push(
    `crawlspec contract: ${report.target} (${report.versions.join(', ')}), seed ${report.seed}, ${report.runs} runs per generated check`,
  );
  if (report.unreachable) lines.push(`target unreachable: ${report.unreachableReason ?? 'no connection'}`);
  lines.push('');
  const width = Math.max(...Object.values(LABEL).map((l) => l.length));
  for (const check of report.checks) {
    lines.push(`${LABEL[check.status].padEnd(width)}  ${check.name}${check.detail ? `  (${check.detail})` : ''}`);
    for (const failure of check.failures) {
      const pad = ' '.repeat(width + 4);
      lines.push(`${pad}✗ ${failure.message} [${failure.section}]`);
      lines.push(`${pad}  expected: ${indent(failure.expected, `${pad}            `)}`);
      if (failure.got)
        lines.push(`${pad}  got:      ${failure.got.status ?? 'no answer'} ${indent(failure.got.body, `${pad}            `)}`.trimEnd());
      if (failure.request) lines.push(`${pad}  request:  ${failure.request}`);
      if (failure.counterexample) {
        const { seed, path, shrinks } = failure.counterexample;
        lines.push(`${pad}  minimal counterexample after ${shrinks} shrinks (seed ${seed}, path ${JSON.stringify(path)})`);
      }
    }
  }
  const t = totals(report);
  lines.push('');
  lines.push(`${report.checks.length} checks: ${t.pass} passed, ${t.fail} failed, ${t.inconclusive} inconclusive, ${t.skipped} skipped`);
  lines.push(
    `${report.requests} requests (cap ${report.maxRequests}) in ${(report.durationMs / 1000).toFixed(1)} s: ${report.requestsPerSecond.toFixed(1)} requests per second`,
  );
  lines.push(
    `jobs: ${report.jobs.started} started, ${report.jobs.cancelled} cancelled${
      report.jobs.notCancelled.length > 0 ? `, NOT cancelled: ${report.jobs.notCancelled.join(', ')}` : ''
    }`,
  );
  lines.push(`seed ${report.seed}: the same seed sends the same requests`);
  const verdict = exitCode(report);
  lines.push(verdict === 0 ? 'conformant' : verdict === 1 ? 'deviations found' : 'unreachable');
  return `${lines.join('\n')}\n`;
}

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
    `expected: ${failure.expected}`,
    `section: ${failure.section}`,
    ...(failure.got ? [`got: ${failure.got.status ?? 'no answer'} ${failure.got.body}`] : []),
    ...(failure.request ? [`request: ${failure.request}`] : []),
    ...(failure.counterexample
      ? [
          `counterexample: seed ${failure.counterexample.seed}, path ${failure.counterexample.path}, ${failure.counterexample.shrinks} shrinks`,
        ]
      : []),
  ].join('\n');
}

/** JUnit XML: one test suite, one test case per check; inconclusive and skipped checks are `<skipped>`. */
export function formatJunit(report: ContractReport): string {
  const t = totals(report);
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="crawlspec contract" tests="${report.checks.length}" failures="${t.fail}" skipped="${t.inconclusive + t.skipped}" time="${seconds(report.durationMs)}">`,
  );
  out.push(
    `  <testsuite name="${escapeXml(`crawlspec contract ${report.target}`)}" tests="${report.checks.length}" failures="${t.fail}" errors="0" skipped="${t.inconclusive + t.skipped}" time="${seconds(report.durationMs)}">`,
  );
  out.push('    <properties>');
  const properties: [string, string][] = [
    ['target', report.target],
    ['versions', report.versions.join(',')],
    ['seed', String(report.seed)],
    ['runs', String(report.runs)],
    ['requests', String(report.requests)],
    ['unreachable', String(report.unreachable)],
  ];
  for (const [name, value] of properties) out.push(`      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`);
  out.push('    </properties>');
  for (const check of report.checks) {
    const classname = check.name.split('.').slice(0, -1).join('.') || check.name;
    const open = `    <testcase classname="${escapeXml(`crawlspec.${classname}`)}" name="${escapeXml(check.name)}" time="${seconds(check.durationMs)}"`;
    if (check.status === 'pass') {
      out.push(`${open}/>`);
      continue;
    }
    out.push(`${open}>`);
    if (check.status === 'fail') {
      for (const failure of check.failures)
        out.push(
          `      <failure message="${escapeXml(failure.message)}" type="${escapeXml(failure.kind)}">${escapeXml(failureText(failure))}</failure>`,
        );
    } else {
      const message = check.status === 'inconclusive' ? `inconclusive: ${check.detail ?? ''}` : (check.detail ?? 'skipped');
      out.push(`      <skipped message="${escapeXml(message)}"/>`);
    }
    out.push('    </testcase>');
  }
  out.push('  </testsuite>');
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
