/**
 * `--markdown FILE`: a short summary of the run in GitHub-flavoured Markdown, fit for a CI job summary
 * (`$GITHUB_STEP_SUMMARY`, a merge request note): the verdict and what it means for the exit status, the totals,
 * the faults behind the verdict, the failing checks, what kept checks from a verdict, and the endpoints the target
 * does not implement, and the spec coverage. The full story is in the other reports (text, --json, --html); this one stays short: at most
 * FAULTS_SHOWN faults and ROWS_SHOWN checks, each cell cut to CELL_LIMIT bytes, whatever the run found.
 *
 * It is one listener of the run's events (engine/events.ts) written in one file: how an output is added.
 */
import { MEASURES, type Coverage } from '../../coverage/schema.js';
import type { RunListener } from '../engine/events.js';
import { causeLine } from '../report/causes.js';
import { exitCode, totals, unfinished, verdict, type ContractReport } from '../report/report.js';
import { cut } from '../wire/cut.js';
import { reportFile } from './reportFile.js';
import { knownLines } from './knownText.js';

const FAULTS_SHOWN = 20;
const ROWS_SHOWN = 30;
const CELL_LIMIT = 300;

const MEANING = {
  conformant: 'Every check of the run’s level ran and passed',
  'known deviations only': 'Every failure is a known deviation of the --baseline file',
  'deviations found': 'A check of the run’s level failed',
  'known deviations out of date': 'The --baseline file lists deviations no longer met (--baseline-strict)',
  unreachable: 'The target could not be reached',
  incomplete: 'No check failed, but not everything the run is meant to prove was proven',
} as const;

/** Text inside a table cell or a list item: one line, no table or HTML syntax, cut to CELL_LIMIT bytes. */
const inline = (text: string) =>
  cut(text.replace(/\s+/g, ' '), CELL_LIMIT)
    .replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`)
    .trim();

const more = (shown: number, all: number, what: string) => (all > shown ? [`- and ${all - shown} more ${what} (the text and --json reports list each)`] : []);

/** The summary as Markdown; with `coverage` (reporters/coverage.ts), a table of the spec coverage. */
export function formatMarkdown(report: ContractReport, coverage?: Coverage): string {
  const t = totals(report);
  const lines = [
    `## crawlspec contract: ${verdict(report)} (exit ${exitCode(report)})`,
    '',
    `${MEANING[verdict(report)]}. Target \`${inline(report.target)}\`, ${report.versions.join(' and ')}, ${report.level} level, seed ${report.seed}.`,
    '',
    '| passed | failed | inconclusive | skipped | differ from the service | not judged |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${t.passed} | ${t.failed} | ${t.inconclusive} | ${t.skipped} | ${t.differs} | ${t.notJudged} |`,
  ];
  if (report.causes.length > 0) {
    lines.push('', `### Faults behind the verdict (${report.causes.length})`, '');
    lines.push(...report.causes.slice(0, FAULTS_SHOWN).map((cause) => `- ${inline(causeLine(cause))}`));
    lines.push(...more(FAULTS_SHOWN, report.causes.length, 'faults'));
  }
  const [knownHead, ...knownEntries] = knownLines(report);
  if (knownHead !== undefined) {
    lines.push('', '### Known deviations', '', inline(knownHead), '');
    lines.push(...knownEntries.slice(0, ROWS_SHOWN).map((entry) => `- ${inline(entry)}`));
    lines.push(...more(ROWS_SHOWN, knownEntries.length, 'entries'));
  }
  const failing = report.checks.filter((c) => c.status === 'fail');
  if (failing.length > 0) {
    lines.push('', `### Failing checks (${failing.length})`, '', '| check | level | first failure |', '|---|---|---|');
    for (const check of failing.slice(0, ROWS_SHOWN)) {
      const first = check.failures[0];
      lines.push(`| \`${inline(check.name)}\` | ${check.level} | ${first === undefined ? '' : inline(`${first.message} (${first.section})`)} |`);
    }
    lines.push(...more(ROWS_SHOWN, failing.length, 'failing checks'));
  }
  const open = unfinished(report);
  if (open.length > 0) {
    lines.push('', `### Not run to a verdict (${open.length})`, '');
    lines.push(...open.slice(0, ROWS_SHOWN).map((c) => `- \`${inline(c.name)}\` ${c.status}: ${inline(c.detail ?? '')}`));
    lines.push(...more(ROWS_SHOWN, open.length, 'checks'));
  }
  if (report.notImplemented.length > 0) {
    lines.push('', '### Not implemented by the target', '');
    lines.push(...report.notImplemented.slice(0, ROWS_SHOWN).map((e) => `- \`${inline(`${e.method} ${e.path}`)}\``));
  }
  if (coverage !== undefined) {
    lines.push('', `### Spec coverage: ${coverage.overall}% overall`, '', '| measure | covered | of | % |', '|---|---:|---:|---:|');
    for (const m of MEASURES) {
      const { covered, total, percent } = coverage.measures[m];
      lines.push(`| ${m} | ${covered} | ${total} | ${percent} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `--markdown FILE`: the summary written as the run ends; with `coverage` (reporters/coverage.ts), the spec coverage. */
export const markdownReporter = (path: string, coverage: () => Coverage | undefined = () => undefined): RunListener =>
  reportFile(path, 'the Markdown summary', (report) => formatMarkdown(report, coverage()));
