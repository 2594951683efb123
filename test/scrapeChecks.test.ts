/**
 * The kit's scrape-behaviour and batch-behaviour checks (scripts/contract/checks/scrape/scrapeChecks.ts):
 *
 *   - the jobs they send are requests the interface accepts, and each crawl is one the crawl oracle says
 *     returns its scrape page and nothing else;
 *   - against the reference server every one passes, at both levels; one check alone sends only its own jobs;
 *   - each broken variant (test/support/scrapeVariants.ts) fails exactly the checks that hold what it breaks,
 *     with failures that say so (a curl line starting the job, what came back, what was expected), and every
 *     other check passes; a defect of the service's alone decides nothing at interface level;
 *   - a record without a format asked for (by content, in any field) fails `formats` at interface level, and
 *     leaves the meanings shown in that format not judged there (saying how to hold the target to the
 *     service's names); a format under a field name of the implementation's is judged by content, passes at
 *     interface level and differs from the service; a batch without the record of a valid URL fails `records`;
 *   - against a copy of the test site, the checks resting on pages a copy cannot hold are skipped, saying why;
 *   - a failing check run again (`--confirm`) starts its jobs again.
 *
 * Every run is narrowed to these checks, on loopback, each against its own server; runs go a few at a time.
 */
import { citationLink } from '../scripts/reference/citationLink.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedCrawl } from '../schemas/crawl/oracle.js';
import { scrapeExpectation } from '../schemas/scrape/oracle.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { readFileSync } from 'node:fs';
import { checkNames, contractChecks, exitCode, runContract, type Check, type ContractReport } from '../scripts/contract/index.js';
import type { ContractOptions } from '../scripts/contract/engine/options.js';
import { NOT_SELECTED } from '../scripts/contract/report/report.js';
import type { Level } from '../scripts/contract/spec/levels.js';
import { bodyOf, optionsOf, RECORDS_INVALID, scrapeJobs, type Addresses } from '../scripts/contract/checks/scrape/scrapeJobs.js';
import type { ReferenceApp } from '../scripts/server/app.js';
import { scrapePage } from '../scripts/site/scrapePages.js';
import { serveSite, type ServedSite } from '../scripts/site/server.js';
import { kitTarget } from './support/kitTarget.js';
import { pooled } from './support/pooled.js';
import { atInterfaceChecks } from './support/variantRuns.js';
import { OPTIONS_DROPPED, SCRAPE_VARIANTS, type ScrapeVariant } from './support/scrapeVariants.js';

const ONLY = ['v*.scrape.behaviour.*', 'v*.batch.behaviour.*'];
const ALL = checkNames(['v1', 'v2']).filter((n) => /\.(scrape|batch)\.behaviour\./.test(n));
const VERSIONS = ['v1', 'v2'] as const;
const identity = (app: ReferenceApp) => app;

/** The kit on these checks, against `wrap(reference server)`; the starts the server got, by kind. */
async function runAgainst(
  wrap: (app: ReferenceApp) => ReferenceApp,
  level: Level,
  extra: Partial<ContractOptions> = {},
): Promise<{ report: ContractReport; starts: number }> {
  const target = await kitTarget({ wrap });
  try {
    // A generous per-request timeout: these runs share a loaded machine, and no variant's defect is a slow answer.
    const options = target.options({ only: ONLY, level, runs: 1, timeoutMs: 120_000, ...extra });
    // With a copy of the site the kit serves none, so it takes no host name for one.
    if (extra.behaviourSite !== undefined) delete options.siteHost;
    const report = await runContract(options);
    // The starts of the scrape pages' jobs (the preflight's are of the crawl pages).
    const starts = target.log.filter(
      (e) => e.method === 'POST' && /^\/v[12]\/(crawl|batch\/scrape)$/.test(e.url) && e.status === 200 && e.body.includes('/scrape/'),
    ).length;
    return { report, starts };
  } finally {
    await target.close();
  }
}

const RUNS_AT_ONCE = 3;

/** What a format under a field name of the implementation's is judged by (the batch.formatsRenamed variant). */
const RENAMED_JUDGED = ['v2.scrape.behaviour.onlyMainContent', 'v2.batch.behaviour.rawHtml', 'v2.batch.behaviour.links'];

const ran = (report: ContractReport) => report.checks.filter((c) => c.status !== 'skipped' || c.inScope);
const statusOf = (report: ContractReport) => Object.fromEntries(ran(report).map((c) => [c.name, c.status]));
const summary = (report: ContractReport) =>
  ran(report)
    .filter((c) => c.status !== 'pass')
    .map((c) => `${c.name}: ${c.status} ${c.failures[0]?.message ?? c.detail ?? ''}`)
    .join('\n');

describe('the jobs the checks send', () => {
  const at: Addresses = {
    origins: { main: 'http://crawlspec.example.com:4000', external: 'http://127.0.0.2:4000', tls: 'https://127.0.0.1:4001' },
    run: 'r1',
  };
  const specs = VERSIONS.flatMap((v) => [...scrapeJobs(v, false).values()]);

  it('are requests the interface accepts, and the service too', () => {
    expect(specs.length).toBeGreaterThan(40);
    for (const spec of specs) {
      const schema = `${spec.version}/${spec.kind === 'crawl' ? 'CrawlRequest' : 'BatchScrapeRequest'}` as SchemaName;
      const body = bodyOf(spec, at);
      // The records batch carries an entry that is no URL, which ignoreInvalidURLs drops (interface §4 rule 1).
      const valid = Array.isArray(body['urls']) ? { ...body, urls: body['urls'].filter((u) => !RECORDS_INVALID.includes(u)) } : body;
      const result = validate(schema, valid);
      expect(result.valid ? [] : result.errors, `${spec.version} ${spec.key}: ${JSON.stringify(body)}`).toEqual([]);
    }
  });

  it('each crawl is one the crawl oracle says returns its scrape page and nothing else', () => {
    for (const spec of specs.filter((s) => s.kind === 'crawl')) {
      const body = bodyOf(spec, at);
      const url = String(body['url']);
      const page = scrapePage(at.origins, spec.pages[0]!.name);
      // The page, at its address (the counter's with its query), with its links: what a crawl of it may find.
      const site = {
        pages: [{ url, links: [...page.links] }, ...page.links.map((link) => ({ url: link, links: [] }))],
        robots: {},
        sitemaps: {},
      };
      const expected = expectedCrawl(site, spec.version, body, { start: url });
      expect(expected.atMost, spec.key).toBe(1);
      for (const level of ['interface', 'service'] as const) {
        expect(
          expected.pages.filter((p) => p.verdict[level] === 'must').map((p) => p.url),
          `${spec.key} ${level}`,
        ).toEqual([url]);
        expect(
          expected.pages.filter((p) => p.verdict[level] !== 'mustNot').map((p) => p.url),
          `${spec.key} ${level}`,
        ).toEqual([url]);
      }
    }
  });

  it('ask of each page something of every option set (no case is empty)', () => {
    for (const spec of specs)
      for (const ref of spec.pages) {
        const expectation = scrapeExpectation({ ...scrapePage(at.origins, ref.name) }, { version: spec.version, options: optionsOf(spec) });
        expect(expectation.constraints.length, `${spec.key} ${ref.name}`).toBeGreaterThan(0);
      }
  });

  it('are listed: at least 8 scrape- and batch-behaviour checks per version', () => {
    for (const v of VERSIONS) expect(ALL.filter((n) => n.startsWith(`${v}.`)).length).toBeGreaterThanOrEqual(8);
  });
});

describe("docs/scrape-behaviour.md's table of checks", () => {
  it('has one row per check of the kit (both versions in one), with its level, citations and what it proves', () => {
    const checks = contractChecks(['v1', 'v2']).filter((c) => ALL.includes(c.name));
    const byName = new Map<string, Check[]>();
    for (const c of checks) byName.set(c.name.replace(/^v\d/, 'vN'), [...(byName.get(c.name.replace(/^v\d/, 'vN')) ?? []), c]);
    const rows = [...byName].map(([name, list]) => {
      const versions = list.map((c) => c.name.slice(0, 2)).join(', ');
      const proves =
        new Set(list.map((c) => c.proves)).size === 1 ? list[0]!.proves : list.map((c) => `${c.name.slice(0, 2)}: ${c.proves}`).join(' ');
      const cites = [...new Set(list.flatMap((c) => c.cites.map((x) => x.source)))].sort((a, b) =>
        a === 'service' ? 1 : b === 'service' ? -1 : a < b ? -1 : 1,
      );
      // Each section cited links to its part of the reference, as everywhere in docs/ (test/reference.test.ts).
      const linked = cites.map((cite) => {
        const href = cite === 'service' ? undefined : citationLink(cite, '../generated/spec/reference.md');
        return href === undefined ? cite : `[${cite}](${href})`;
      });
      return `| \`${name}\` | ${versions} | ${list[0]!.level} | ${linked.join(', ')} | ${proves} |`;
    });
    const doc = readFileSync(new URL('../docs/scrape-behaviour.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('| check | versions | level | where it comes from | what a pass proves |')).split('\n');
    expect(table.slice(2, 2 + rows.length + 1)).toEqual([...rows, '']);
  });
});

describe('against the reference server and its broken variants', () => {
  const reports = new Map<string, { report: ContractReport; starts: number }>();
  const variantRuns = SCRAPE_VARIANTS.map((v) => ({ key: v.name, variant: v, level: v.level }));
  // A defect of the service's alone, run at interface level: it decides nothing there. That run is narrowed as the
  // other variants' are (atInterfaceChecks), with the checks the renamed formats are judged by.
  const atInterface = SCRAPE_VARIANTS.filter((v) => v.level === 'service').map((v) => ({
    key: `${v.name}@interface`,
    variant: v,
    level: 'interface' as const,
    only: atInterfaceChecks(v, v.name === 'batch.formatsRenamed' ? RENAMED_JUDGED : []),
  }));

  beforeAll(async () => {
    const tasks: [string, () => Promise<{ report: ContractReport; starts: number }>][] = [
      ['correct@interface', () => runAgainst(identity, 'interface')],
      ['correct@service', () => runAgainst(identity, 'service')],
      ['alone', () => runAgainst(identity, 'interface', { only: ['v2.scrape.behaviour.headers'] })],
      // A check whose second scrapes come after first scrapes of other checks' pairs too (v1's maxAge: a batch of two pairs).
      ['maxAgeAlone', () => runAgainst(identity, 'service', { only: ['v1.scrape.behaviour.maxAge'] })],
      [
        'confirmed',
        () =>
          runAgainst(OPTIONS_DROPPED.find((v) => v.name === 'scrape.includeTagsDropped')!.wrap, 'interface', {
            only: ['v2.scrape.behaviour.includeTags'],
            confirm: 1,
          }),
      ],
      ...[...variantRuns, ...atInterface].map(
        ({ key, variant, level, ...narrowed }) =>
          [key, () => runAgainst(variant.wrap, level, { versions: [...(variant.versions ?? VERSIONS)], ...narrowed })] as [
            string,
            () => Promise<{ report: ContractReport; starts: number }>,
          ],
      ),
    ];
    const done = await pooled(
      tasks.map(([, task]) => task),
      RUNS_AT_ONCE,
    );
    tasks.forEach(([key], i) => reports.set(key, done[i]!));
  }, 600_000);
  afterAll(() => reports.clear());

  it('the correct server passes every check at both levels, and every job is cancelled', () => {
    for (const key of ['correct@interface', 'correct@service']) {
      const { report } = reports.get(key)!;
      expect(summary(report), key).toBe('');
      expect(
        ran(report)
          .map((c) => c.name)
          .sort(),
      ).toEqual([...ALL].sort());
      expect(exitCode(report)).toBe(0);
      expect(report.jobs.notCancelled).toEqual([]);
      expect(report.jobs.started).toBe(report.jobs.cancelled);
    }
  });

  it('the jobs are shared: one check alone sends its own two, the whole run each job once', () => {
    const alone = reports.get('alone')!;
    expect(summary(alone.report)).toBe('');
    expect(statusOf(alone.report)).toEqual({ 'v2.scrape.behaviour.headers': 'pass' });
    // The batch and the crawl of the headers page with headers alone, and the defaults' batch and crawl it is compared with
    // when the page is missing (scrapeJudging.ts).
    expect(alone.starts).toBe(4);
    const maxAge = reports.get('maxAgeAlone')!;
    expect(summary(maxAge.report)).toBe('');
    expect(statusOf(maxAge.report)).toEqual({ 'v1.scrape.behaviour.maxAge': 'pass' });
    const whole = reports.get('correct@interface')!;
    const specs = VERSIONS.flatMap((v) => [...scrapeJobs(v, false).values()]);
    expect(whole.starts).toBe(specs.length);
    // Only the first check sends them; the others take what they rest on.
    expect(whole.report.checks.filter((c) => c.requests > 0).map((c) => c.name)).toEqual(['v1.scrape.behaviour.onlyMainContent']);
  });

  it.each(SCRAPE_VARIANTS.map((v) => [v.name, v] as const))('%s fails exactly its checks', (name, variant: ScrapeVariant) => {
    const { report } = reports.get(name)!;
    const status = statusOf(report);
    const failing = Object.keys(status).filter((n) => status[n] === 'fail');
    const allowed = new Set([...variant.expectedFailingChecks, ...(variant.mayAlsoFail ?? [])]);
    expect(
      failing.filter((n) => !allowed.has(n)),
      summary(report),
    ).toEqual([]);
    for (const check of variant.expectedFailingChecks) expect(status[check], `${check}\n${summary(report)}`).toBe('fail');
    for (const [check, s] of Object.entries(status))
      if (!allowed.has(check)) expect(s, `${check}\n${summary(report)}`).toBe(variant.resting?.includes(check) ? 'inconclusive' : 'pass');
    // One fault, named once: the checks failing for it share its cause, those resting on it name it.
    for (const check of report.checks.filter((c) => variant.resting?.includes(c.name)))
      expect(check.cause, check.name).toBe(report.causes[0]!.cause);
    expect(exitCode(report)).toBe(1);
    for (const check of report.checks.filter((c) => c.status === 'fail'))
      for (const failure of check.failures) {
        expect(failure.kind, check.name).toBe('scrape');
        expect(failure.request, check.name).toMatch(/^curl -sS -X POST '.*\/v[12]\/(crawl|batch\/scrape)'/);
        expect(failure.expected.length).toBeGreaterThan(0);
      }
  });

  it.each(SCRAPE_VARIANTS.filter((v) => v.level === 'service').map((v) => [v.name] as const))(
    '%s, a defect of the service alone, is a difference at interface level: the run is conformant',
    (name) => {
      const { report } = reports.get(`${name}@interface`)!;
      expect(
        ran(report)
          .filter((c) => c.inScope && c.status !== 'pass')
          .map((c) => c.name),
      ).toEqual([]);
      expect(exitCode(report)).toBe(0);
      // Reported all the same, as a difference from the service.
      expect(report.checks.some((c) => c.differences.length > 0)).toBe(true);
    },
  );

  it('a format asked for that no text of the record holds fails at interface level; a meaning shown in it is not judged there', () => {
    const { report } = reports.get('batch.onlyMarkdown')!;
    expect(report.level).toBe('interface');
    expect(exitCode(report)).toBe(1);
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    const formats = byName.get('v2.batch.behaviour.formats')!;
    expect(formats.status).toBe('fail');
    const html = formats.failures.find(
      (f) => f.level === 'interface' && /no text of the record is HTML holding every text the page.s content must show/.test(f.message),
    );
    expect(html?.section).toMatch(/^interface §1 \(output formats\); interface §2\.4 \(formats, html\)/);
    expect(html?.expected).toMatch(/the record holds, in some field, the format "html"/);
    // The raw HTML and the links are missing too.
    expect(formats.failures.map((f) => f.message).join('\n')).toMatch(/no text of the record is HTML holding every text of the page/);
    expect(formats.failures.map((f) => f.message).join('\n')).toMatch(/no list of the record lists every address/);
    // What the HTML would show is not judged at interface level, saying why, and differs from the service.
    const onlyMain = byName.get('v2.scrape.behaviour.onlyMainContent')!;
    expect(onlyMain.status).toBe('inconclusive');
    expect(onlyMain.detail).toMatch(
      /the record has no html .*, so what onlyMainContent means was not judged there: the service names the field html; run with --level service/,
    );
    expect(onlyMain.differences.map((d) => d.message).join('\n')).toMatch(/the record has no html/);
    // What the markdown shows is judged all the same: the markdown check passes.
    expect(byName.get('v2.batch.behaviour.markdown')?.status).toBe('pass');
  });

  it('formats under field names of the implementation pass at interface level, judged by content; they differ from the service only', () => {
    const atInterface = reports.get('batch.formatsRenamed@interface')!.report;
    const byName = new Map(atInterface.checks.map((c) => [c.name, c]));
    // An interface-level check: it passes, and names the difference from the service.
    expect(byName.get('v2.batch.behaviour.formats')?.status).toBe('pass');
    expect(
      byName
        .get('v2.batch.behaviour.formats')!
        .differences.map((d) => d.message)
        .join('\n'),
    ).toMatch(/the record has no html/);
    // The meanings shown in the renamed HTML, raw HTML and links are judged there.
    for (const name of RENAMED_JUDGED) expect(byName.get(name)?.status, name).toBe('pass');
    const atService = reports.get('batch.formatsRenamed')!.report;
    expect(statusOf(atService)['v2.batch.behaviour.formats']).toBe('fail');
    expect(atService.checks.find((c) => c.name === 'v2.batch.behaviour.formats')!.failures.every((f) => f.level === 'service')).toBe(true);
  });

  it('a batch without the record of a valid URL fails the records check at interface level', () => {
    const { report } = reports.get('batch.recordMissing')!;
    const records = report.checks.find((c) => c.name === 'v2.batch.behaviour.records')!;
    expect(records.status).toBe('fail');
    const failure = records.failures.find((f) => f.level === 'interface')!;
    expect(failure.message).toMatch(/: 2 record\(s\) for 3 valid URLs$/);
    expect(failure.section).toBe('interface §4');
    // No record names the missing URL: a difference from the service, at interface level.
    expect(records.differences.map((f) => f.message).join('\n')).toMatch(
      /0 records have the metadata\.sourceURL http:\/\/.*\/scrape\/.*\.pdf/,
    );
  });

  it('a failing check run again (--confirm) starts its jobs again, and fails again', () => {
    const { report, starts } = reports.get('confirmed')!;
    const check = report.checks.find((c) => c.name === 'v2.scrape.behaviour.includeTags')!;
    expect(check.status).toBe('fail');
    expect(check.confirmations).toEqual({ runs: 2, failed: 2 });
    // Its batch and its crawl of the tags, and of the defaults, twice.
    expect(starts).toBe(8);
  });
});

describe('against a copy of the test site', () => {
  let site: ServedSite;
  let report: ContractReport;
  beforeAll(async () => {
    site = await serveSite();
    // The site as a copy is given: its main origin and the other site, no TLS origin.
    ({ report } = await runAgainst(identity, 'interface', {
      versions: ['v2'],
      behaviourSite: { main: site.origins.main, external: site.origins.external },
    }));
  }, 120_000);
  afterAll(() => site.close());

  it('the checks resting on pages a copy cannot hold are skipped, saying which and why; the others pass', () => {
    // Skipped whatever their level (those of the service's are out of an interface run's scope, and say so too).
    const skipped = report.checks.filter((c) => c.status === 'skipped' && c.detail !== NOT_SELECTED);
    expect(skipped.map((c) => c.name).sort()).toEqual(
      ['headers', 'location', 'maxAge', 'mobile', 'skipTlsVerification', 'storeInCache', 'timeout']
        .map((o) => `v2.scrape.behaviour.${o}`)
        .concat('v2.batch.behaviour.metadata')
        .sort(),
    );
    expect(skipped.find((c) => c.name === 'v2.scrape.behaviour.headers')?.detail).toMatch(
      /rests on \/scrape\/headers\.html \(it shows the request headers of each fetch\), which a static copy .*--skip 'v\*\.scrape\.behaviour\.headers'$/,
    );
    expect(
      ran(report)
        .filter((c) => c.status !== 'pass' && c.status !== 'skipped')
        .map((c) => `${c.name}: ${c.detail}`),
    ).toEqual([]);
    expect(exitCode(report)).toBe(3);
  });
});
