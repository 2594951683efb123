/**
 * `crawlspec contract --max-duration SECONDS` (scripts/contract/wire/timeLimit.ts), run for real against a slow
 * target: the reference server answering every request a second late, within `--timeout`, as a target that
 * answers just before the timeout every time would. A run whose requests alone need ten seconds of the target's
 * time, under a limit of two, stops sending but the cancels of its jobs, ends every check not ended as not judged
 * (inconclusive; exit 3, incomplete), names the limit and the fix, and still writes its report: text, or JSON
 * valid against the published schema, JUnit and HAR. The tests wait for the command to exit; the limit is
 * reached however slow the machine is (a slower one only reaches it later).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ContractReportJson } from '../scripts/contract/index.js';
import { sleep } from '../scripts/contract/wire/http.js';
import { DEFAULT_MAX_DURATION_MS, timeLimitDetail } from '../scripts/contract/wire/timeLimit.js';
import { LIMITS } from '../scripts/cli/contract.js';
import { COMMAND_USAGE } from '../scripts/cli/usage.js';
import { kitTarget, startedAndCancelled, type KitTarget } from './support/kitTarget.js';
import { ROOT, runCli, type CliRun } from './support/runCli.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';

/** A safety net only: each run ends a few seconds after its limit. */
const CEILING_MS = 120_000;
const validateReport = new Ajv2020({ strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', 'report.schema.json'), 'utf8')) as object,
);
const DETAIL =
  'the run reached its time limit (--max-duration 2 s) before the check ended, so it is not judged: raise --max-duration, or narrow the run with --only';

describe('a run that reaches its time limit (--max-duration)', () => {
  let target: KitTarget;
  let dir: string;
  let text: CliRun;
  let json: CliRun;
  const limited = (...args: string[]) =>
    runCli(
      [
        'contract',
        '--base-url',
        target.url,
        '--no-auth',
        '--version',
        'v2',
        '--level',
        'service',
        '--max-duration',
        '2',
        '--timeout',
        '5',
        ...args,
      ],
      '',
      CEILING_MS,
    );

  beforeAll(async () => {
    // Every answer a second late: ten requests one after another need ten seconds of the target.
    target = await kitTarget({ deviate: async (request, next) => (await sleep(1000), next(request)) });
    dir = await mkdtemp(join(tmpdir(), 'crawlspec-time-limit-'));
    [text, json] = await Promise.all([
      // Ten requests, one after another, and no job: cut short inside the check.
      limited('--only', 'v2.status.undocumentedStatus'),
      // The preflight's jobs (a crawl and a batch, followed to their end) take longer than the limit.
      limited('--only', 'v2.status', '--only', 'v2.cancel', '--json', '--report', join(dir, 'junit.xml'), '--record', join(dir, 'run.har')),
    ]);
  }, CEILING_MS);
  afterAll(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the detail names the limit and the fix', () => {
    expect(timeLimitDetail(2000)).toBe(DETAIL);
  });

  it('exit 3: the check cut short is inconclusive, the limit and the fix said as it ends and in the summary', () => {
    expect(text.code, text.stderr).toBe(3);
    const lines = text.stdout.split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^\\[\\s*[\\d.]+s 1/1\\] INCONCLUSIVE\\s+v2\\.status\\.undocumentedStatus  \\(${escape(DETAIL)}\\)$`),
      ),
    );
    expect(lines).toContain(
      'time limit reached: after --max-duration 2 s the run sent nothing more but the cancels of the jobs it had started; 1 check not judged (raise --max-duration, or narrow the run with --only)',
    );
    expect(lines).toContain('incomplete: 1 in-scope check did not run to a verdict:');
    expect(lines).toContain(`  1 check: ${DETAIL}`);
    expect(text.stdout.trimEnd().split('\n').pop()).toBe('incomplete');
    // It stopped sending: of the ten requests of the check, those sent before the limit (and the one on its way).
    const sent = target.log.filter((e) => /\/v2\/(crawl|batch\/scrape)\/(c0ffee00|not-a-job-id)/.test(e.url)).length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(10);
  });

  it('exit 3 with --json, --report and --record: the report valid against its schema, JUnit and HAR written, every job started cancelled', async () => {
    expect(json.code, json.stderr).toBe(3);
    const report = JSON.parse(json.stdout) as ContractReportJson;
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect([report.verdict, report.exitCode]).toEqual(['incomplete', 3]);
    const ran = report.checks.filter((c) => c.name === 'v2.status' || c.name === 'v2.cancel');
    expect(ran.map((c) => [c.name, c.status, c.detail])).toEqual([
      ['v2.status', 'inconclusive', DETAIL],
      ['v2.cancel', 'inconclusive', DETAIL],
    ]);
    expect(report.jobs.notCancelled).toEqual([]);
    expect(report.jobs.cancelled).toBe(report.jobs.started);
    const { started, cancelled } = startedAndCancelled(target.log);
    expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
    expect(json.stderr).toContain(`INCONCLUSIVE  v2.status  (${DETAIL})`);

    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    expectWellFormedXml(junit);
    expect(junit).toContain('<property name="verdict" value="incomplete"/>');
    expect(junit).toContain(`<skipped message="inconclusive: ${DETAIL}"/>`);
    const har = JSON.parse(await readFile(join(dir, 'run.har'), 'utf8')) as { log: { entries: { request: { method: string } }[] } };
    expect(har.log.entries.length).toBeGreaterThan(0);
  });

  it("the help names --max-duration, its range and the kit's default", () => {
    const [min, max] = LIMITS.maxDurationSeconds;
    expect(COMMAND_USAGE.contract).toMatch(
      new RegExp(`--max-duration SECONDS +${min} to ${max}: .*\\(default ${DEFAULT_MAX_DURATION_MS / 1000}\\)`),
    );
  });

  it('--max-duration 0 is a usage error: one line, exit 2, nothing sent', async () => {
    const before = target.log.length;
    const run = await runCli(['contract', '--base-url', target.url, '--no-auth', '--max-duration', '0'], '', CEILING_MS);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('crawlspec: --max-duration takes a whole number from 1 to 86400, not "0" (crawlspec contract --help)');
    expect(run.stdout).toBe('');
    expect(target.log.length).toBe(before);
  });
});

/** `text` as a literal in a RegExp. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
