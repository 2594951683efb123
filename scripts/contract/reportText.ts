/**
 * The contract report as text: one line per check, each failure with what was sent, expected and got; the
 * differences from the service apart; what kept the run from being complete; totals and the verdict.
 */
import { differences, totals, unfinished, verdict, type ContractReport, type Failure } from './report.js';

const LABEL = { pass: 'PASS', fail: 'FAIL', inconclusive: 'INCONCLUSIVE', skipped: 'SKIP', differs: 'DIFFERS', notJudged: 'NOT JUDGED' } as const;
const WIDTH = Math.max(...Object.values(LABEL).map((l) => l.length));
const PAD = ' '.repeat(WIDTH + 4);

const indent = (text: string, prefix: string) => text.split('\n').join(`\n${prefix}`);

function failureLines(failure: Failure): string[] {
  const lines = [`${PAD}✗ ${failure.message} [${failure.section}]`, `${PAD}  expected: ${indent(failure.expected, `${PAD}            `)}`];
  if (failure.got) lines.push(`${PAD}  got:      ${failure.got.status ?? 'no answer'} ${indent(failure.got.body, `${PAD}            `)}`.trimEnd());
  if (failure.request) lines.push(`${PAD}  request:  ${failure.request}`);
  if (failure.counterexample) {
    const { seed, path, shrinks } = failure.counterexample;
    lines.push(`${PAD}  minimal counterexample of its class after ${shrinks} shrinks (seed ${seed}, path ${JSON.stringify(path)})`);
  }
  return lines;
}

export function formatText(report: ContractReport): string {
  const lines: string[] = [];
  lines.push(
    `crawlspec contract: ${report.target} (${report.versions.join(', ')}), level ${report.level}, seed ${report.seed}, ${report.runs} runs per generated check`,
  );
  if (report.unreachable) lines.push(`target unreachable: ${report.unreachableReason ?? 'no connection'}`);
  else if (report.unreachableReason !== undefined) lines.push(`target lost during the run: ${report.unreachableReason}`);
  lines.push('');
  for (const check of report.checks) {
    const scope = check.inScope ? '' : `  [${check.level} level: informs, does not decide]`;
    lines.push(`${LABEL[check.status].padEnd(WIDTH)}  ${check.name}${check.detail ? `  (${check.detail})` : ''}${scope}`);
    for (const failure of check.failures) lines.push(...failureLines(failure));
    for (const note of check.notes ?? []) lines.push(`${PAD}· not judged above ${report.level} level: ${note}`);
  }
  const found = differences(report);
  if (found.length > 0) {
    lines.push('');
    lines.push(`differs from the service (${found.length}; these do not decide the verdict at ${report.level} level):`);
    for (const failure of found) lines.push(`  ${failure.check}`, ...failureLines(failure));
  }
  const missing = unfinished(report);
  if (missing.length > 0 && !report.unreachable) {
    lines.push('');
    lines.push(`incomplete: ${missing.length} in-scope check${missing.length === 1 ? '' : 's'} did not run to a verdict:`);
    for (const check of missing) lines.push(`  ${check.name}: ${check.detail ?? check.status}`);
  }
  const t = totals(report);
  lines.push('');
  lines.push(
    `${report.checks.length} checks: ${t.pass} passed, ${t.fail} failed, ${t.inconclusive} inconclusive, ${t.skipped} skipped; ${found.length} difference${found.length === 1 ? '' : 's'} from the service`,
  );
  lines.push(
    `${report.requests} requests (budget ${report.maxRequests}) in ${(report.durationMs / 1000).toFixed(1)} s: ${report.requestsPerSecond.toFixed(1)} requests per second`,
  );
  lines.push(
    `jobs: ${report.jobs.started} started, ${report.jobs.cancelled} cancelled${
      report.jobs.notCancelled.length > 0 ? `, NOT cancelled: ${report.jobs.notCancelled.join(', ')}` : ''
    }`,
  );
  lines.push(
    `seed ${report.seed}: the same seed sends the same request bodies in the same order within each check (see each check's digest in --json); how many status reads and cancels a check sends depends on the target's timing`,
  );
  lines.push(verdict(report));
  return `${lines.join('\n')}\n`;
}
