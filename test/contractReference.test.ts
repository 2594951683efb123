/**
 * The contract kit (scripts/contract/) against the reference server (scripts/server/), in process on
 * 127.0.0.1: every check passes against it at both levels with nothing skipped or inconclusive, by its stable name
 * and level, every started job is cancelled, the token is sent and no job reaches beyond the site, the text and
 * JUnit reports carry the budget and the seed, and a seed reproduces its request bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractReport } from '../scripts/contract/report/report.js';
import { checkNames, exitCode, formatJunit, formatText, runContract, verdict } from '../scripts/contract/index.js';
import { DEFAULT_OPTIONS } from '../scripts/contract/engine/options.js';
import { BUILT_IN_SITE_HOST } from '../scripts/site/server.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { isStart, kitTarget, startedAndCancelled, type KitTarget } from './support/kitTarget.js';
import { SEED, TOKEN, failing } from './support/contractReports.js';

/** The kit's default budget (`--runs`), which test/support/kitTarget.ts lowers for the other runs. */
const DEFAULT_RUNS = DEFAULT_OPTIONS.runs;

const notPassing = (report: ContractReport) =>
  report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.status} ${c.detail ?? ''}`);

describe('against the reference server, both versions', () => {
  let server: KitTarget;
  let report: ContractReport;
  let service: ContractReport;

  beforeAll(async () => {
    server = await kitTarget({ token: TOKEN });
    // Two whole runs with the default budget (ten generated requests per generated check), the behaviour checks
    // included (each job followed to its end): no check raises a false alarm at either level (the broken variants of
    // test/brokenServers.test.ts and its siblings are the runs that must find one); they also show the names, order
    // and levels, the cancels, the token and the jobs' safety in the server's log, and the rendering.
    [report, service] = await Promise.all([
      runContract(server.options({ runs: DEFAULT_RUNS })),
      runContract(server.options({ runs: DEFAULT_RUNS, level: 'service' })),
    ]);
  }, 240_000);
  afterAll(() => server.close());

  it('every check passes, at interface level and at service level: conformant, nothing skipped or inconclusive', () => {
    for (const r of [report, service]) {
      expect(notPassing(r), formatText(r)).toEqual([]);
      expect(exitCode(r)).toBe(0);
      expect(verdict(r)).toBe('conformant');
      expect(r.unreachable).toBe(false);
      expect(r.checks.flatMap((c) => c.differences)).toEqual([]);
    }
    expect(report.level).toBe('interface');
    expect(service.level).toBe('service');
    expect(service.checks.every((c) => c.inScope)).toBe(true);
    expect(report.checks.filter((c) => !c.inScope).map((c) => c.level)).toEqual(expect.arrayContaining(['service']));
  });

  it('reports every check, by its stable name, in order, each with its level', () => {
    expect(report.checks.map((c) => c.name)).toEqual(checkNames(['v1', 'v2']));
    const levels = new Map(report.checks.map((c) => [c.name, c.level]));
    for (const [name, level] of [
      ['auth.missing', 'interface'],
      ['json.malformed', 'interface'],
      ['v2.crawl.start.valid', 'interface'],
      ['v2.crawl.start.valid.service', 'service'],
      ['v2.crawl.start.fieldAlone', 'interface'],
      ['v2.crawl.start.enumValue', 'interface'],
      ['v1.batch.start.invalid.fraction', 'interface'],
      ['v2.crawl.start.invalid.unknownKey', 'service'],
      ['v1.batch.start.invalid.otherVersionField', 'service'],
      ['v2.crawl.start.invalid.outOfRange', 'interface'],
      ['v1.crawl.start.invalid.outOfRange', 'service'],
      ['v1.batch.invalidURLs.ignoring', 'interface'],
      ['v2.batch.invalidURLs.default', 'interface'],
      ['v2.status', 'service'],
      ['v2.status.pagination', 'service'],
      ['v2.status.undocumentedStatus', 'service'],
      ['v2.cancel', 'service'],
      ['v1.errors', 'service'],
      ['v1.active', 'service'],
      ['v1.rule.changeTrackingNeedsMarkdown', 'interface'],
      ['v2.rule.changeTrackingNeedsMarkdown', 'service'],
      ['v1.rule.urlDepthWithinMaxDepth', 'service'],
      ['v2.rule.timeout.maximum', 'interface'],
      ['v2.rule.delayAtMost60Seconds', 'service'],
    ] as const)
      expect(levels.get(name), name).toBe(level);
  });

  it('cancels every job it started', () => {
    const { started, cancelled } = startedAndCancelled(server.log);
    expect(started.length).toBeGreaterThan(100);
    expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
    expect(report.jobs.notCancelled).toEqual([]);
    expect(report.jobs.started).toBe(report.jobs.cancelled);
  });

  it('sends the token, and never a job beyond the site: one page a crawl, webhooks to loopback only, harmless actions only', () => {
    const authorized = server.log.filter((e) => e.authorization === `Bearer ${TOKEN}`);
    expect(authorized.length).toBeGreaterThan(server.log.length / 2);
    const site = `${server.url}/site`;
    const harmless = new Set(['wait', 'click', 'screenshot', 'write', 'press', 'scroll', 'scrape', 'executeJavascript', 'pdf']);
    for (const e of server.log.filter((x) => isStart(x) && x.status === 200)) {
      const body = JSON.parse(e.body) as Record<string, unknown>;
      // Only the webhook checks' jobs have a webhook (its inbox is named after the check), to the receiver the kit runs on 127.0.0.1.
      if ('webhook' in body) {
        const hook = new URL((body['webhook'] as { url: string }).url);
        expect(hook.hostname).toBe('127.0.0.1');
        expect(hook.pathname).toMatch(/\/v[12]\.webhook\.\w+$/);
      }
      expect(body['zeroDataRetention']).not.toBe(true);
      expect(body).not.toHaveProperty('prompt');
      const options = (e.url.endsWith('/crawl') ? body['scrapeOptions'] : body) as
        { actions?: { type: string; script?: string }[] } | undefined;
      for (const action of options?.actions ?? []) {
        expect(harmless).toContain(action.type);
        if (action.type === 'executeJavascript') expect(action.script).toBe('document.title');
      }
      const crawled = e.url.endsWith('/crawl') ? new URL(String(body['url'])) : undefined;
      if (
        crawled !== undefined &&
        (crawled.hostname.endsWith(BUILT_IN_SITE_HOST) || (crawled.protocol === 'https:' && crawled.hostname === '127.0.0.1'))
      ) {
        // A behaviour check's crawl of the test site the kit serves (its pages: fewer than 100), or of its page over TLS.
        expect(body['limit'], e.body).toBeLessThanOrEqual(100);
      } else if (e.url.endsWith('/crawl')) {
        expect(body['limit'], e.body).toBeLessThanOrEqual(2);
        expect(String(body['url'])).toMatch(new RegExp(`^${site}`));
      } else {
        const onSite = (body['urls'] as string[]).filter((u) => u.startsWith(site));
        expect(onSite.length).toBeLessThanOrEqual(2);
      }
    }
  });

  it('renders text and JUnit, with the budget, the seed and its promise', () => {
    const text = formatText(report);
    for (const check of report.checks) expect(text).toContain(check.name);
    expect(text).toMatch(/\d+ requests \(budget \d+\) in [\d.]+ s: [\d.]+ requests per second/);
    expect(text).toContain(`seed ${SEED}: the same seed sends the same request bodies in the same order within each check`);
    expect(text.trimEnd().split('\n').pop()).toBe('conformant');
    const xml = formatJunit(report);
    expectWellFormedXml(xml);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    expect(xml).toContain('<property name="verdict" value="conformant"/>');
  });
});

describe('the same seed sends the same request bodies', () => {
  /**
   * The checks the run with another seed is compared on: a generated one, a deterministic one, a behaviour one.
   * That run is narrowed to them, so the two that must not change also show that a check sends the same whether
   * or not the others run.
   */
  const COMPARED = ['v2.crawl.start.valid', 'v2.crawl.start.fieldAlone', 'v2.crawl.behaviour.default'];

  async function digests(seed: number, only?: string[]): Promise<Map<string, string>> {
    const server = await kitTarget({ token: TOKEN });
    try {
      // Each run has a target and a test site on ports of their own: the digests put the run's addresses in words.
      // Every v2 check, so that each one's bodies are shown to follow the seed; two generated requests per generated
      // check, so that the order of what fast-check draws is in the digest too.
      const report = await runContract(server.options({ seed, versions: ['v2'], runs: 2, ...(only === undefined ? {} : { only }) }));
      expect(failing(report)).toEqual([]);
      return new Map(report.checks.map((c) => [c.name, c.digest]));
    } finally {
      await server.close();
    }
  }

  it('twice with one seed: every check the same digest; another seed: the generated checks differ', async () => {
    const [first, again, other] = await Promise.all([digests(7), digests(7), digests(8, COMPARED)]);
    expect(again).toEqual(first);
    expect([...first.values()].every((d) => /^[0-9a-f]{64}$/.test(d))).toBe(true);
    expect(other.get('v2.crawl.start.valid')).not.toBe(first.get('v2.crawl.start.valid'));
    expect(other.get('v2.crawl.start.fieldAlone')).toBe(first.get('v2.crawl.start.fieldAlone'));
    expect(other.get('v2.crawl.behaviour.default')).toBe(first.get('v2.crawl.behaviour.default'));
  });
});
