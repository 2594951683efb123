/**
 * One fault, one verdict (issue 40): against targets broken the way real implementations break, the kit fails the
 * checks that prove the fault and names it once (`causes`), with the target's own words where it gave them:
 *
 *   - no engine for `mobile` or `location` (every page asked with them fails, SCRAPE_ALL_ENGINES_FAILED in the
 *     job's errors): the mobile and location checks fail, naming the code, and no other option's check fails;
 *   - a record lost (a finished job delivers one record fewer than its `completed`): one cause in the report, and a
 *     crawl-behaviour check says so instead of blaming its option for the page missing;
 *   - markdown missing from every record: `vN.batch.behaviour.markdown` fails when run alone.
 *
 * The other broken variants' exact verdicts are held in test/scrapeChecks.test.ts; these assert what they cannot:
 * the report's causes and the target's own words.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOST_RECORDS_CAUSE } from '../scripts/contract/checks/lifecycle/jobAccount.js';
import { formatJunit } from '../scripts/contract/reporters/junit.js';
import { jsonReport, type ContractReport } from '../scripts/contract/report/report.js';
import { formatHtml } from '../scripts/contract/reporters/html.js';
import { formatText } from '../scripts/contract/reporters/text.js';
import { runContract } from '../scripts/contract/index.js';
import type { ContractOptions } from '../scripts/contract/engine/options.js';
import type { ReferenceApp } from '../scripts/server/app.js';
import { around, failingCrawlStarts } from './support/appWrap.js';
import { kitTarget } from './support/kitTarget.js';
import { pooled } from './support/pooled.js';
import { SCRAPE_VARIANTS } from './support/scrapeVariants.js';

const wrapOf = (name: string) => SCRAPE_VARIANTS.find((v) => v.name === name)!.wrap;

async function run(
  wrap: (app: ReferenceApp) => ReferenceApp,
  only: string[],
  extra: Partial<ContractOptions> = {},
): Promise<ContractReport> {
  const target = await kitTarget({ wrap });
  try {
    return await runContract(target.options({ only, level: 'interface', runs: 1, timeoutMs: 120_000, ...extra }));
  } finally {
    await target.close();
  }
}

/** The reference server, but it fails the PDF page whatever a job asks: no record, and `completed` counts none for it. */
const failingPdf = (app: ReferenceApp): ReferenceApp =>
  around(app, async (request, next) => {
    const answer = await next(request);
    if (request.method !== 'GET' || !/^\/v[12]\/(crawl|batch\/scrape)\/[^/]+$/.test(request.url.split('?')[0]!)) return answer;
    const body = JSON.parse(answer.body) as { completed?: number; data?: { metadata?: { sourceURL?: string } }[] };
    if (!Array.isArray(body.data)) return answer;
    const kept = body.data.filter((r) => !String(r.metadata?.sourceURL).endsWith('/scrape/document.pdf'));
    const completed = (body.completed ?? 0) - (body.data.length - kept.length);
    return { ...answer, body: JSON.stringify({ ...body, completed, data: kept }) };
  });

const failing = (report: ContractReport) => report.checks.filter((c) => c.status === 'fail').map((c) => c.name);

describe('one fault, one verdict', () => {
  const reports = new Map<string, ContractReport>();
  beforeAll(async () => {
    const tasks: [string, () => Promise<ContractReport>][] = [
      ['emulation', () => run(wrapOf('scrape.emulationUnsupported'), ['v*.scrape.behaviour.*'], { versions: ['v2'] })],
      [
        'lost',
        () =>
          run(wrapOf('job.recordLost'), ['v2.scrape.behaviour.headers', 'v2.crawl.behaviour.excludePaths', 'v2.crawl.behaviour.limit'], {
            versions: ['v2'],
          }),
      ],
      [
        'crawl500',
        () =>
          run(failingCrawlStarts(), ['v2.crawl.start.valid', 'v2.crawl.start.fieldAlone', 'v2.crawl.behaviour.limit'], { versions: ['v2'] }),
      ],
      [
        'lostService',
        () => run(wrapOf('job.recordLost'), ['v2.webhook.batch', 'v2.status.pagination'], { versions: ['v2'], level: 'service' }),
      ],
      ['pdf', () => run(failingPdf, ['v2.scrape.behaviour.parsers', 'v2.batch.behaviour.records'], { versions: ['v2'] })],
      ['markdown', () => run(wrapOf('batch.markdownMissing'), ['v*.batch.behaviour.markdown'])],
    ];
    const done = await pooled(
      tasks.map(([, task]) => task),
      3,
    );
    tasks.forEach(([key], i) => reports.set(key, done[i]!));
  }, 600_000);

  it('no engine for mobile or location: those two checks fail, with the target’s own code, and no other option’s check', () => {
    const report = reports.get('emulation')!;
    expect(failing(report).sort()).toEqual(['v2.scrape.behaviour.location', 'v2.scrape.behaviour.mobile']);
    // skipTlsVerification and the other interface options are judged on jobs without mobile or location: they pass.
    const status = Object.fromEntries(report.checks.map((c) => [c.name, c.status]));
    for (const option of ['skipTlsVerification', 'onlyMainContent', 'removeBase64Images', 'headers', 'parsers'])
      expect(status[`v2.scrape.behaviour.${option}`], option).toBe('pass');
    for (const name of ['v2.scrape.behaviour.mobile', 'v2.scrape.behaviour.location']) {
      const failures = report.checks.find((c) => c.name === name)!.failures;
      expect(failures.length).toBeGreaterThan(0);
      for (const f of failures) expect(f.message).toContain('SCRAPE_ALL_ENGINES_FAILED');
    }
  });

  it('a record lost: one cause in the report, and the crawl checks name it instead of their option', () => {
    const report = reports.get('lost')!;
    const checks = ['v2.crawl.behaviour.excludePaths', 'v2.crawl.behaviour.limit', 'v2.scrape.behaviour.headers'];
    expect(failing(report).sort()).toEqual(checks);
    expect(report.causes.map((c) => c.cause)).toEqual([LOST_RECORDS_CAUSE]);
    expect([...report.causes[0]!.failed].sort()).toEqual(checks);
    for (const name of ['v2.crawl.behaviour.excludePaths', 'v2.crawl.behaviour.limit'])
      for (const f of report.checks.find((c) => c.name === name)!.failures) {
        expect(f.cause, name).toBe(LOST_RECORDS_CAUSE);
        // The evidence: the job's count beside the records read.
        expect(JSON.parse(f.got!.body)).toMatchObject({ completed: expect.any(Number), recordsRead: expect.any(Number) });
      }
  });

  it('a server error to every crawl start: one fault, however many checks meet it', () => {
    const report = reports.get('crawl500')!;
    expect(failing(report).length).toBeGreaterThan(1);
    expect(report.causes.map((c) => c.cause)).toEqual(['POST /v2/crawl answers 500 (a server error)']);
  });

  it('a record lost, at service level: the webhook and pagination checks name it instead of blaming the events or the pages', () => {
    const report = reports.get('lostService')!;
    expect(report.causes.map((c) => c.cause)).toEqual([LOST_RECORDS_CAUSE]);
    const webhook = report.checks.find((c) => c.name === 'v2.webhook.batch')!;
    expect([webhook.status, webhook.cause]).toEqual(['inconclusive', LOST_RECORDS_CAUSE]);
    expect(report.checks.find((c) => c.name === 'v2.status.pagination')!.failures.map((f) => f.cause)).toEqual([LOST_RECORDS_CAUSE]);
  });

  it('a page the target fails whatever the options: the records check fails, the option resting on the page names the cause', () => {
    const report = reports.get('pdf')!;
    expect(failing(report)).toEqual(['v2.batch.behaviour.records']);
    const parsers = report.checks.find((c) => c.name === 'v2.scrape.behaviour.parsers')!;
    expect(parsers.status).toBe('inconclusive');
    expect(parsers.cause).toMatch(/^the target fails to scrape \/scrape\/document\.pdf/);
    expect(report.causes.find((c) => c.cause === parsers.cause)?.resting).toEqual(['v2.scrape.behaviour.parsers']);
  });

  it('markdown missing from every record: the markdown check alone fails, and the report names one cause', () => {
    const report = reports.get('markdown')!;
    expect(failing(report).sort()).toEqual(['v1.batch.behaviour.markdown', 'v2.batch.behaviour.markdown']);
    expect(report.causes).toHaveLength(1);
    expect(report.causes[0]!.cause).toMatch(/lacks the markdown asked for/);
  });

  it('every report a person reads leads with the faults: text, HTML and JUnit', () => {
    const report = reports.get('lost')!;
    for (const [format, text] of [
      ['text', formatText(report)],
      ['html', formatHtml(report)],
      ['junit', formatJunit(report)],
    ] as const) {
      expect(text, format).toContain('1 fault behind the verdict');
      expect(text, format).toContain(`${LOST_RECORDS_CAUSE}: 3 checks failed`);
    }
    // In the text, before the failures.
    const text = formatText(report);
    expect(text.indexOf('1 fault behind the verdict')).toBeLessThan(text.indexOf('failures ('));
  });

  it('the causes of every report validate against the published report schema', () => {
    const schema = JSON.parse(readFileSync(new URL('../generated/contract/report.schema.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    for (const [key, report] of reports)
      expect(validate(JSON.parse(JSON.stringify(jsonReport(report)))) ? [] : validate.errors, key).toEqual([]);
  });
});
