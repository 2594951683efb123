/**
 * The kit's spec coverage (scripts/coverage/, reporters/coverage.ts): the JSON report's `coverage` valid against the
 * published coverage.schema.json (and the report against report.schema.json), the text summary's lines, and
 * `--min-coverage`: a threshold not reached fails the run (exit 1) with a line saying so; one out of range is a usage
 * error (exit 2, one line).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { ContractReportJson } from '../scripts/contract/report/report.js';
import type { Coverage } from '../scripts/coverage/schema.js';
import { ROOT, runCli } from './support/runCli.js';

const schema = (name: string) => JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', name), 'utf8')) as object;
const validateCoverage = new Ajv2020({ strict: true, allErrors: true }).compile(schema('coverage.schema.json'));
const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(schema('report.schema.json'));
const TIMEOUT_MS = 240_000;
const FEW_CHECKS = ['--seed', '7', '--runs', '1', '--only', 'json.malformed', '--only', 'v2.status.undocumentedStatus'];

describe.concurrent('crawlspec contract: spec coverage', { timeout: TIMEOUT_MS + 20_000 }, () => {
  it('--json: the report carries its coverage, valid against the published schemas; --markdown shows it as a table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlspec-coverage-'));
    const summary = join(dir, 'summary.md');
    const run = await runCli(['contract', '--json', '--markdown', summary, ...FEW_CHECKS], '', TIMEOUT_MS);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ContractReportJson & { coverage: Coverage };
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(validateCoverage(report.coverage), JSON.stringify(validateCoverage.errors)).toBe(true);
    const { coverage } = report;
    expect(coverage.exchanges).toBe(report.requests);
    // json.malformed sends a body that is no JSON to each start: each start answered, its 400 checked.
    const start = coverage.operations.find((o) => o.operation === 'POST /v2/crawl')!;
    expect(start.statuses.find((s) => s.status === 400)).toMatchObject({ documented: true });
    expect(start.statuses.find((s) => s.status === 400)!.checked).toBeGreaterThan(0);
    expect(coverage.measures.operations.covered).toBeGreaterThan(0);
    expect(coverage.measures.operations.covered).toBeLessThan(coverage.measures.operations.total);
    expect(coverage.untouched.enumValues).toContain('v2/CrawlRequest $.sitemap = "only"');
    // The Markdown summary's table: the overall figure and a row per measure, the report's own figures.
    const markdown = readFileSync(summary, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    expect(markdown).toContain(`### Spec coverage: ${coverage.overall}% overall`);
    const { covered, total, percent } = coverage.measures.operations;
    expect(markdown).toContain(`| operations | ${covered} | ${total} | ${percent} |`);
  });

  it('the text summary says the coverage; --min-coverage not reached fails the run (exit 1) with a line saying so', async () => {
    const run = await runCli(['contract', ...FEW_CHECKS, '--min-coverage', '99', '--min-coverage', 'operations=1'], '', TIMEOUT_MS);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^Spec coverage: [\d.]+% overall \(the mean of 8 measures\) over \d+ exchange\(s\)/m);
    expect(run.stdout).toMatch(/^ {2}enumValues: [\d.]+% \(\d+ of \d+ enum values sent\)$/m);
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('conformant');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^crawlspec contract: spec coverage overall is [\d.]+%, below the --min-coverage of 99%$/),
    ]);
  });

  it('--min-coverage 101, or a measure it does not know: exit 2, one line saying what is expected', async () => {
    const run = await runCli(['contract', '--min-coverage', '101'], '', 30_000);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      'crawlspec: --min-coverage "101" is out of range; expected a percentage from 0 to 100 (of the overall coverage), or MEASURE=N with a measure of operations, statuses, checkedAnswers, requestFields, invalidFields, enumValues, rules, answerFields (crawlspec contract --help)',
    );
    const unknown = await runCli(['contract', '--min-coverage', 'fields=80'], '', 30_000);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--min-coverage "fields=80" names no measure/);
  });
});
