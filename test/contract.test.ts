/**
 * The contract kit (scripts/contract/) against the reference server (scripts/server/), in process on
 * 127.0.0.1: every check passes against it at both levels with nothing skipped or inconclusive, every started
 * job is cancelled, the budget is shared so that a low cap leaves the run incomplete (exit 3) rather than
 * conformant, a seed reproduces its request bodies, `--no-auth` and `--only-no-job` leave their checks out,
 * an unreachable target is reported as such, and a deviating server is caught at the level its deviation
 * is at, each distinct failure shrunk on its own, with a redacted, runnable curl line.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppResponse } from '../scripts/server/app.js';
import { retryAfterMs } from '../scripts/contract/wire/http.js';
import { type CheckResult, type ContractReport } from '../scripts/contract/report/report.js';
import { escapeXml } from '../scripts/contract/reporters/junit.js';
import { checkNames, exitCode, formatJunit, formatText, runContract, UNKNOWN_SITE, verdict } from '../scripts/contract/index.js';
import { toCurl } from '../scripts/contract/wire/curl.js';
import { DEFAULT_OPTIONS, type ContractOptions } from '../scripts/contract/engine/options.js';
import { redact, runRedaction } from '../scripts/contract/wire/redact.js';
import { withCpuMs } from './support/cpuTime.js';
import { WRONG_TOKEN } from '../scripts/contract/checks/requests/auth.js';
import { fieldPlan } from '../scripts/contract/checks/requests/fields.js';
import { TEST_SITE_PROFILE } from '../scripts/site/testSite.js';
import { BUILT_IN_SITE_HOST } from '../scripts/site/server.js';
import { REFERENCE_SITE_PROFILE } from '../scripts/server/site.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { isStart, kitTarget, startedAndCancelled, type Handler, type KitTarget, type Logged } from './support/kitTarget.js';

const TOKEN = 'contract-test-secret-token';
/** The kit's default budget (`--runs`), which test/support/kitTarget.ts lowers for the other runs. */
const DEFAULT_RUNS = DEFAULT_OPTIONS.runs;
const SEED = 42;

const byName = (report: ContractReport) => new Map(report.checks.map((c) => [c.name, c]));
const failing = (report: ContractReport): CheckResult[] => report.checks.filter((c) => c.status === 'fail');
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

describe('budget, scope and modes', () => {
  it('a low maxRequests is shared among the checks: each keeps its part, the run is incomplete (exit 3), jobs are cancelled', async () => {
    const server = await kitTarget({ token: TOKEN });
    try {
      const cap = 300;
      const report = await runContract(server.options({ maxRequests: cap }));
      expect(report.requests).toBeLessThanOrEqual(cap);
      expect(server.log.length).toBeLessThanOrEqual(cap);
      expect(failing(report), formatText(report)).toEqual([]);
      const skipped = report.checks.filter((c) => c.status === 'skipped');
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((c) => c.detail?.includes('share of the request budget'))).toBe(true);
      // Shares, not first come first served: checks at the end of the order still ran.
      expect(report.checks.slice(-10).some((c) => c.requests > 0)).toBe(true);
      expect(exitCode(report)).toBe(3);
      expect(formatText(report)).toMatch(/incomplete: \d+ in-scope checks? did not run to a verdict/);
      const { started, cancelled } = startedAndCancelled(server.log);
      expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('maxRequests 0: nothing is sent, every check is skipped, incomplete (exit 3)', async () => {
    const server = await kitTarget({ token: TOKEN });
    try {
      const report = await runContract(server.options({ maxRequests: 0 }));
      expect(server.log).toEqual([]);
      expect(report.checks.every((c) => c.status === 'skipped')).toBe(true);
      expect(exitCode(report)).toBe(3);
      expect(formatText(report).trimEnd().split('\n').pop()).toBe('incomplete');
    } finally {
      await server.close();
    }
  });

  it('--no-auth against a server without auth: the auth checks are left out of the run, no token is sent, conformant', async () => {
    const server = await kitTarget({ token: undefined });
    try {
      // The token goes on every request in one place (http.ts), which the behaviour checks go through like the rest:
      // the other checks, once each, show that none sends it.
      const report = await runContract(server.options({ token: undefined, versions: ['v2'], runs: 1, behaviour: false }));
      const checks = byName(report);
      for (const name of ['auth.missing', 'auth.wrongToken']) {
        expect(checks.get(name)).toMatchObject({ status: 'skipped', inScope: false });
        expect(checks.get(name)?.detail).toContain('--no-auth');
      }
      const others = report.checks.filter((c) => !c.name.startsWith('auth.') && !c.detail?.includes('--no-behaviour'));
      expect(others.length).toBeGreaterThan(50);
      expect(
        others.every((c) => c.status === 'pass'),
        formatText(report),
      ).toBe(true);
      expect(server.log.every((e) => e.authorization === undefined)).toBe(true);
      expect(exitCode(report)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('onlyNoJob: no job is started, the checks that would start one are left out (at service level, where the others are)', async () => {
    const server = await kitTarget({ token: TOKEN });
    try {
      const report = await runContract(server.options({ onlyNoJob: true, level: 'service' }));
      expect(failing(report)).toEqual([]);
      expect(startedAndCancelled(server.log).started).toEqual([]);
      const checks = byName(report);
      expect(checks.get('v2.crawl.start.valid')).toMatchObject({ status: 'skipped', inScope: false });
      // A refusal is evidence only against its accepted base, which starts a job: the refusal checks are left out too.
      expect(checks.get('v2.crawl.start.invalid.wrongType')).toMatchObject({ status: 'skipped', inScope: false });
      expect(checks.get('auth.missing')).toMatchObject({ status: 'skipped', inScope: false });
      expect(checks.get('v2.status.undocumentedStatus')?.status).toBe('pass');
      expect(exitCode(report)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a request that gets no answer in time fails its check (network) at its level, and the run goes on', async () => {
    const hang: Handler = (request, next) =>
      request.method === 'GET' && request.url.startsWith('/v2/crawl/c0ffee00') ? new Promise<AppResponse>(() => {}) : next(request);
    const server = await kitTarget({ token: TOKEN, deviate: hang });
    // Every other request must be answered within the timeout, also on a loaded 2-core machine running the suite
    // in parallel: 300 ms once timed out an ordinary one there. The hanging request costs the run this long.
    const timeoutMs = 3_000;
    try {
      const [atInterface, atService] = await Promise.all([
        runContract(server.options({ versions: ['v2'], onlyNoJob: true, timeoutMs })),
        runContract(server.options({ versions: ['v2'], onlyNoJob: true, timeoutMs, level: 'service' })),
      ]);
      // The job endpoints are the service's: at interface level the missing answer is a difference, and no check
      // of interface level ran, so the run proved nothing (incomplete).
      expect(failing(atInterface)).toEqual([]);
      expect(byName(atInterface).get('v2.status.undocumentedStatus')?.differences[0]).toMatchObject({ kind: 'network', level: 'service' });
      expect(exitCode(atInterface)).toBe(3);
      expect(failing(atService).map((c) => c.name)).toEqual(['v2.status.undocumentedStatus']);
      const [failure] = failing(atService)[0]!.failures;
      expect(failure).toMatchObject({ kind: 'network', level: 'service' });
      expect(failure!.got).toBeUndefined();
      expect(failure!.request).toContain(`${server.url}/v2/crawl/c0ffee00`);
      expect(exitCode(atService)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('an unreachable target (a closed port) is reported as unreachable, exit 2', async () => {
    const server = await kitTarget({ token: TOKEN });
    const options = server.options();
    await server.close();
    const report = await runContract(options);
    expect(report.unreachable).toBe(true);
    expect(report.unreachableReason).toMatch(/ECONNREFUSED/);
    expect(exitCode(report)).toBe(2);
    expect(report.checks.every((c) => c.status === 'skipped')).toBe(true);
    // One request per check running at once, before the first refused connection is known.
    expect(report.requests).toBeLessThanOrEqual(4);
    expect(formatText(report)).toContain('target unreachable');
  });
});

describe('a deviating server', () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): AppResponse => ({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const refuse = (path: string) =>
    json(400, {
      success: false,
      code: 'BAD_REQUEST',
      error: 'Bad Request',
      details: [{ code: 'custom', path: [path], message: `${path} refused` }],
    });
  let rateLimited = false;
  /**
   * v2 crawl starts with an unknown top-level key are accepted (the key dropped: a job starts); v2 crawls
   * with `sitemap: "only"` and with a `maxConcurrency` are refused (two reasons, named in the details); every
   * v1 request is answered 402; the v2 batch errors endpoint answers 418; the first authorised v2 active list
   * answers 429 with Retry-After: 0.
   */
  const deviate: Handler = async (request, next) => {
    if (request.method === 'POST' && request.url === '/v2/crawl') {
      try {
        const body = JSON.parse(request.body) as Record<string, unknown>;
        if (typeof body === 'object' && body !== null) {
          if (body['sitemap'] === 'only') return refuse('sitemap');
          if ('maxConcurrency' in body) return refuse('maxConcurrency');
          if ('unknownKey' in body) {
            delete body['unknownKey'];
            return next({ ...request, body: JSON.stringify(body) });
          }
        }
      } catch {
        // not JSON: the server answers
      }
    }
    if (request.url.startsWith('/v1/')) return json(402, { success: false, error: 'Insufficient credits to perform this request.' });
    if (request.method === 'GET' && /^\/v2\/batch\/scrape\/[^/]+\/errors$/.test(request.url))
      return { status: 418, headers: {}, body: "I'm a teapot <&>" };
    if (request.url === '/v2/crawl/active' && request.headers['authorization'] === `Bearer ${TOKEN}` && !rateLimited) {
      rateLimited = true;
      return json(429, { success: false, error: 'Rate limit exceeded. Please retry after 0s.' }, { 'retry-after': '0' });
    }
    return next(request);
  };

  let server: KitTarget;
  let report: ContractReport;
  let service: ContractReport;
  /** What the server saw during the runs (the curl test below adds to the live log). */
  let log: Logged[];
  beforeAll(async () => {
    server = await kitTarget({ token: TOKEN, deviate });
    // The deviations are in requests and answers, not in what a crawl returns: the behaviour checks are left out.
    // Five generated requests per generated check: at this seed v2.crawl.start.valid meets both of its failing
    // classes within the first four, one to spare (fast-check draws with the seed, so these are the first five of the
    // default budget's ten). A change to how bodies are drawn moves those draws: this test then fails on a class,
    // and the count is found again by trying.
    report = await runContract(server.options({ runs: 5, behaviour: false }));
    service = await runContract(server.options({ runs: 5, level: 'service', behaviour: false }));
    log = [...server.log];
  }, 240_000);
  afterAll(() => server.close());

  it('at interface level: the refused interface values fail; the service-only deviations are differences; v1 (402) is incomplete', () => {
    expect(failing(report).map((c) => c.name)).toEqual(['v2.crawl.start.fieldAlone', 'v2.crawl.start.enumValue', 'v2.crawl.start.valid']);
    const checks = byName(report);
    expect(checks.get('v2.crawl.start.enumValue')!.failures.map((f) => f.message)).toEqual(['400 where the interface accepts the request']);
    expect(checks.get('v2.crawl.start.enumValue')!.failures[0]!.request).toContain('"sitemap":"only"');
    expect(checks.get('v2.crawl.start.fieldAlone')!.failures[0]!.request).toContain('"maxConcurrency"');
    expect(checks.get('v2.crawl.start.invalid.unknownKey')).toMatchObject({ status: 'differs', inScope: false });
    expect(checks.get('v2.crawl.start.invalid.unknownKey')!.differences.length).toBeGreaterThan(0);
    expect(checks.get('v1.crawl.start.valid')).toMatchObject({ status: 'inconclusive' });
    expect(checks.get('v1.crawl.start.valid')?.detail).toContain('402');
    expect(exitCode(report)).toBe(1);
  });

  it('a generated check reports each distinct failing class, each shrunk on its own', () => {
    const failures = byName(report).get('v2.crawl.start.valid')!.failures;
    const bodies = failures.map((f) => f.request ?? '');
    expect(bodies.some((b) => b.includes('"sitemap":"only"'))).toBe(true);
    expect(bodies.some((b) => b.includes('"maxConcurrency"'))).toBe(true);
    for (const failure of failures) {
      expect(failure.counterexample).toMatchObject({ seed: SEED });
      // Shrunk: the refused field and what a safe body must have, nothing else.
      const body = JSON.parse(/--data-raw '(.*)'$/.exec(failure.request!)![1]!) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['limit', 'url']));
      expect(Object.keys(body).length, failure.request).toBe(3);
    }
  });

  it('at service level the service-only deviations fail too, each named and cited', () => {
    const names = failing(service).map((c) => c.name);
    for (const name of ['v2.status.undocumentedStatus', 'v2.errors', 'v2.crawl.start.invalid.unknownKey', 'v2.crawl.start.fieldAlone'])
      expect(names).toContain(name);
    const [unknown] = byName(service).get('v2.crawl.start.invalid.unknownKey')!.failures;
    expect(unknown).toMatchObject({
      kind: 'status',
      level: 'service',
      got: { status: 200 },
      section: 'service',
      counterexample: { seed: SEED },
    });
    expect(unknown!.expected).toContain('400');
    expect(unknown!.request).toBe(
      `curl -sS -X POST '${server.url}/v2/crawl' -H 'Authorization: Bearer ***' -H 'Content-Type: application/json' --data-raw '{"url":"${server.url}/site","limit":1,"unknownKey":1}'`,
    );
    const teapot = byName(service).get('v2.errors')!.failures[0]!;
    expect(teapot).toMatchObject({ kind: 'undocumentedStatus', section: 'service', got: { status: 418 } });
    expect(teapot.message).toContain('getBatchScrapeErrorsV2');
    for (const r of [report, service]) {
      expect(JSON.stringify(r)).not.toContain(TOKEN);
      expect(formatText(r)).not.toContain(TOKEN);
      expect(formatJunit(r)).not.toContain(TOKEN);
    }
  });

  it('the curl line runs as it is (with the token put back)', async () => {
    const failure = byName(service).get('v2.crawl.start.invalid.unknownKey')!.failures[0]!;
    const line = `${failure.request!.replace('Bearer ***', `Bearer ${TOKEN}`)} -o /dev/null -w '%{http_code}'`;
    const { stdout } = await promisify(execFile)('sh', ['-c', line]);
    expect(stdout).toBe('200');
  });

  it('honours Retry-After on a 429 and retries once', () => {
    const active = log.filter((e) => e.url === '/v2/crawl/active' && e.authorization === `Bearer ${TOKEN}`);
    expect(active.map((e) => e.status).slice(0, 2)).toEqual([429, 200]);
  });

  it('cancels every job it started, the ones it did not mean to start included', () => {
    const { started, cancelled } = startedAndCancelled(log);
    const unintended = log.filter((e) => e.method === 'POST' && e.url === '/v2/crawl' && e.body.includes('unknownKey') && e.status === 200);
    expect(unintended.length).toBeGreaterThan(1);
    expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
    expect(report.jobs.notCancelled).toEqual([]);
  });

  it('JUnit escapes what came back, and carries the differences in system-out', () => {
    const xml = formatJunit(report);
    expectWellFormedXml(xml);
    expect(xml).toContain('I&apos;m a teapot &lt;&amp;&gt;');
    expect(xml).toMatch(/<system-out>(DIFFERS at service level [^\n]*\n\n)?differs from the service/);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    // One <failure> per failing check, holding every failure of it.
    expect(xml.match(/<failure /g)?.length).toBe(failing(report).length);
  });
});

describe('a hostile target', () => {
  const rewriteStart =
    (edit: (answer: Record<string, unknown>, request: { url: string }) => Record<string, unknown>): Handler =>
    async (request, next) => {
      const answer = await next(request);
      if (!(request.method === 'POST' && /^\/v[12]\/(crawl|batch\/scrape)$/.test(request.url) && answer.status === 200)) return answer;
      return { ...answer, body: JSON.stringify(edit(JSON.parse(answer.body) as Record<string, unknown>, request)) };
    };

  it('job ids no URL can carry (a lone surrogate, "..") crash nothing; the other jobs are all cancelled; the unusable ones are named', async () => {
    let n = 0;
    const server = await kitTarget({
      token: TOKEN,
      deviate: rewriteStart((answer) => {
        n += 1;
        if (n % 7 === 3) return { ...answer, id: '..', url: 'http://127.0.0.1:1/elsewhere' };
        if (n % 7 === 5) return { ...answer, id: '\ud800job' };
        return answer;
      }),
    });
    try {
      // Every check but the behaviour ones, which record the jobs they start where the others do (context.ts), each
      // generated check once: some 40 of the starts get an unusable id.
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', behaviour: false, runs: 1 }));
      const texts = report.checks.map((c) => c.detail ?? '').join('\n');
      expect(texts).not.toMatch(/contract kit failed|URIError/);
      const ids = report.checks.flatMap((c) => c.failures).filter((f) => f.kind === 'jobId');
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.map((f) => f.message).join('\n')).toMatch(/cannot be used in a URL path/);
      expect(report.jobs.notCancelled.length).toBeGreaterThan(0);
      expect(report.jobs.notCancelled.every((j) => j.includes('".."') || j.includes('"\\ud800job"'))).toBe(true);
      // Every job with a usable id was cancelled.
      const { started, cancelled } = startedAndCancelled(server.log);
      expect(report.jobs.started - report.jobs.notCancelled.length).toBe(report.jobs.cancelled);
      // A start whose answer was lost on a loaded machine may have started a job the kit never learnt of: one that
      // ended by itself needs no cancel, one still running must be named in the report (jobs.mayHaveStarted).
      const unaccounted = started.filter((id) => id !== '..' && id !== '\ud800job' && !cancelled.has(id));
      const stillRunning: string[] = [];
      for (const id of unaccounted) {
        const start = server.log.find((e) => isStart(e) && e.status === 200 && e.answer.includes(id))!;
        const status = await fetch(`${server.url}${start.url}/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        const state = ((await status.json()) as { status?: unknown }).status;
        if (state !== 'completed' && state !== 'failed' && state !== 'cancelled') stillRunning.push(id);
      }
      expect(stillRunning.length).toBeLessThanOrEqual(report.jobs.mayHaveStarted?.length ?? 0);
      expect(exitCode(report)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a target that echoes the token back: it is in no text, JSON or JUnit the kit writes', async () => {
    const echo: Handler = async (request, next) => {
      const answer = await next(request);
      const token = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      // Every error answer echoes the token, as sent and percent-encoded.
      if (answer.status >= 400)
        return { ...answer, body: JSON.stringify({ success: false, error: `token ${token} / ${encodeURIComponent(token)} refused` }) };
      return answer;
    };
    const server = await kitTarget({ token: TOKEN, deviate: echo });
    try {
      // The checks that are refused (the behaviour checks' crawls are not): the report is cleaned as a whole (run.ts).
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', behaviour: false, runs: 1 }));
      expect(JSON.stringify(report)).toContain('token *** / *** refused');
      for (const text of [JSON.stringify(report), formatText(report), formatJunit(report)]) expect(text).not.toContain(TOKEN);
    } finally {
      await server.close();
    }
  });

  it('a start answered 201 with a numeric id is still a job the kit cancels; a cancel answered 204 counts as done', async () => {
    let n = 0;
    const odd: Handler = async (request, next) => {
      const answer = await next(request);
      if (request.method === 'DELETE' && answer.status === 200) return { ...answer, status: 204, body: '' };
      if (!(isStart({ ...request, status: 0, answer: '', authorization: undefined }) && answer.status === 200)) return answer;
      n += 1;
      // Every other start: its real id as 201; the rest: a number the target does not know.
      return n % 2 === 0
        ? { ...answer, status: 201 }
        : { ...answer, body: JSON.stringify({ ...(JSON.parse(answer.body) as object), id: 1000 + n }) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: odd });
    try {
      const report = await runContract(server.options({ versions: ['v2'], only: ['v2.crawl.start.valid'] }));
      const deletes = server.log.filter((e) => e.method === 'DELETE').map((e) => e.url);
      // Each numeric id was recorded as a job (as its digits) and a cancel sent for it.
      for (let i = 1; i <= n; i += 2) expect(deletes).toContain(`/v2/crawl/${1000 + i}`);
      // Each real job (answered 201) was cancelled once: a 204 is a cancel, not a failure to retry.
      const { started, cancelled } = startedAndCancelled(server.log.map((e) => (e.status === 201 ? { ...e, status: 200 } : e)));
      const real = started.filter((id) => typeof id === 'string');
      expect(real.length).toBeGreaterThan(0);
      for (const id of real) expect(cancelled.has(id), id).toBe(true);
      for (const id of real)
        expect(
          deletes.filter((u) => u.endsWith(`/${id}`)),
          id,
        ).toHaveLength(1);
      const check = byName(report).get('v2.crawl.start.valid')!;
      expect(check.failures.some((f) => f.level === 'interface' && /^201 where the interface accepts/.test(f.message))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('a token the target echoes where a failure body is cut is cleaned before the cut: no part of it is left', async () => {
    const echo: Handler = async (request, next) => {
      const answer = await next(request);
      const token = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      if (answer.status < 400) return answer;
      // 422, not the service's 400: a failure at service level, whose body the report shows cut to 600 bytes
      // with what it says of the rest (some 580 bytes of the body), which fall inside the token (it stands at 571 to 597).
      return { ...answer, status: 422, body: JSON.stringify({ success: false, error: `${'x'.repeat(545)}${token}${'y'.repeat(100)}` }) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: echo });
    try {
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', only: ['v2.rule.*', 'json.malformed'] }));
      const bodies = report.checks.flatMap((c) => c.failures).map((f) => f.got?.body ?? '');
      expect(bodies.some((b) => b.includes('x***y'))).toBe(true);
      for (const text of [JSON.stringify(report), formatText(report), formatJunit(report)]) expect(text).not.toContain(TOKEN.slice(0, 10));
    } finally {
      await server.close();
    }
  });

  it('a job url on another origin: the job is read at its own address, and only the service level is left undecided', async () => {
    const elsewhere = rewriteStart((answer) => ({ ...answer, url: `https://elsewhere.example/v2/crawl/${String(answer.id)}` }));
    const server = await kitTarget({ token: TOKEN, deviate: elsewhere });
    try {
      const only = ['v2.crawl.start.valid'];
      const atInterface = byName(await runContract(server.options({ versions: ['v2'], only }))).get('v2.crawl.start.valid')!;
      expect(atInterface.status).toBe('pass');
      expect(atInterface.notes?.join('\n')).toMatch(
        /the job url https:\/\/elsewhere\.example\/v2\/crawl\/\S+ is not on the target; not followed/,
      );
      const atService = byName(await runContract(server.options({ versions: ['v2'], only, level: 'service' }))).get(
        'v2.crawl.start.valid',
      )!;
      expect(atService.status).toBe('inconclusive');
      // The status was read at the job's own address, never elsewhere.
      expect(server.log.some((e) => e.method === 'GET' && /^\/v2\/crawl\/[0-9a-f-]{36}$/.test(e.url))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("a wrong token answered 403: refused as the interface asks (pass at interface level); the service's 401 is left undecided", async () => {
    const forbidden: Handler = async (request, next) =>
      request.headers['authorization'] === `Bearer ${WRONG_TOKEN}`
        ? { status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: false, error: 'Forbidden' }) }
        : next(request);
    const server = await kitTarget({ token: TOKEN, deviate: forbidden });
    try {
      const only = ['auth.wrongToken'];
      const atInterface = byName(await runContract(server.options({ versions: ['v2'], only }))).get('auth.wrongToken')!;
      expect(atInterface.status).toBe('pass');
      expect(atInterface.notes?.join('\n')).toMatch(/403 from POST \/v2\/crawl: depends on the account/);
      const atService = byName(await runContract(server.options({ versions: ['v2'], only, level: 'service' }))).get('auth.wrongToken')!;
      expect(atService.status).toBe('inconclusive');
    } finally {
      await server.close();
    }
  });

  it('a target lost mid-run: not "unreachable" (exit 2); what ran before decides, what came after is skipped', async () => {
    let seen = 0;
    let server: KitTarget | undefined;
    const dying: Handler = async (request, next) => {
      seen += 1;
      if (seen === 12) setImmediate(() => void server?.close());
      return next(request);
    };
    server = await kitTarget({ token: TOKEN, deviate: dying });
    const report = await runContract(server.options({ versions: ['v2'], concurrency: 1, only: ['auth.*', 'json.malformed', 'v2.rule.*'] }));
    expect(report.unreachable).toBe(false);
    expect(report.unreachableReason).toMatch(/ECONNREFUSED/);
    expect(report.checks.filter((c) => c.inScope && c.status === 'pass').length).toBeGreaterThan(0);
    expect(report.checks.some((c) => c.status === 'skipped' && /target unreachable/.test(c.detail ?? ''))).toBe(true);
    // Incomplete (3), or deviations found (1) when the request in flight as it went down got no answer.
    const lostInFlight = report.checks.some((c) => c.failures.some((f) => f.kind === 'network'));
    expect(exitCode(report)).toBe(lostInFlight ? 1 : 3);
    expect(formatText(report)).toMatch(/target lost during the run: .*ECONNREFUSED/);
  });

  it('extra keys in a start answer break interface §1 ("carries only success, id, url")', async () => {
    const server = await kitTarget({ token: TOKEN, deviate: rewriteStart((answer) => ({ ...answer, queued: true })) });
    try {
      const check = byName(await runContract(server.options({ versions: ['v2'], only: ['v2.crawl.start.valid'] }))).get(
        'v2.crawl.start.valid',
      )!;
      expect(check.status).toBe('fail');
      expect(check.failures.map((f) => `${f.level} ${f.section}: ${f.message}`)).toContainEqual(
        expect.stringMatching(/^interface interface §1: .*queued/),
      );
    } finally {
      await server.close();
    }
  });

  it('page records nested deeper than JSON.stringify can go crash nothing', async () => {
    const text = `${'['.repeat(20_000)}"bottom"${']'.repeat(20_000)}`;
    const nested: Handler = async (request, next) => {
      const answer = await next(request);
      if (request.method !== 'GET' || !/^\/v2\/batch\/scrape\/[0-9a-f-]{36}/.test(request.url) || answer.status !== 200) return answer;
      const body = JSON.parse(answer.body) as { data: Record<string, unknown>[] };
      // The nesting goes in as text, so that the target's own JSON writer does not have to walk it.
      const marked = JSON.stringify({ ...body, data: body.data.map((d) => ({ ...d, deep: '@@DEEP@@' })) });
      return { ...answer, body: marked.replaceAll('"@@DEEP@@"', text) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: nested });
    try {
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', only: ['v2.status.pagination'] }));
      const check = byName(report).get('v2.status.pagination')!;
      expect(check.detail ?? '').not.toMatch(/contract kit failed/);
      expect(check.status).toBe('pass');
    } finally {
      await server.close();
    }
  });

  it('answers longer than maxResponseBytes are not read whole: their checks are inconclusive, saying how to judge them', async () => {
    const huge = 'x'.repeat(4 * 1024 * 1024);
    const big: Handler = async (request, next) => {
      const answer = await next(request);
      if (request.method !== 'GET' || !/^\/v2\/crawl\/[0-9a-f-]{36}$/.test(request.url.split('?')[0]!) || answer.status !== 200)
        return answer;
      return { ...answer, body: JSON.stringify({ ...(JSON.parse(answer.body) as object), padding: huge }) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: big });
    try {
      const report = await runContract(
        server.options({ versions: ['v2'], level: 'service', only: ['v2.status'], maxResponseBytes: 1024 * 1024 }),
      );
      const status = byName(report).get('v2.status')!;
      expect(status.status).toBe('inconclusive');
      expect(status.detail).toMatch(
        /longer than 1048576 bytes \(--max-response-bytes\); it was not read: raise --max-response-bytes to judge it/,
      );
      expect(exitCode(report)).toBe(3);
    } finally {
      await server.close();
    }
  });
});

describe('pieces', () => {
  it('Retry-After: seconds or a date, bounded', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('3600')).toBe(30_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5000);
    expect(retryAfterMs('soon')).toBe(1000);
  });

  it('curl: single quotes survive the shell, the token is redacted', async () => {
    const line = toCurl({
      method: 'POST',
      url: 'http://127.0.0.1:1/v2/crawl',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: `{"url":"https://example.com/it's"}`,
    });
    expect(line).not.toContain(TOKEN);
    expect(line).toContain(`-H 'Authorization: Bearer ***'`);
    const { stdout } = await promisify(execFile)('sh', ['-c', `printf '%s\\n' ${line.slice('curl '.length)}`]);
    expect(stdout.split('\n')).toContain(`{"url":"https://example.com/it's"}`);
  });

  it('a site that is no valid crawl address is refused before anything is sent', async () => {
    await expect(
      runContract({
        baseUrl: 'http://127.0.0.1:4',
        token: TOKEN,
        versions: ['v1'],
        seed: 1,
        runs: 1,
        concurrency: 1,
        siteUrl: 'http://localhost:8080',
      }),
    ).rejects.toThrow(/siteUrl http:\/\/localhost:8080 is not a valid v1 crawl address: URL must have a valid top-level domain/);
  });

  it('the kit reaches a target on any port; an address the target is to fetch, on a port fetch never connects to, is refused first', async () => {
    const run = (port: number, extra: Partial<ContractOptions> = {}) =>
      runContract({
        baseUrl: `http://127.0.0.1:${port}`,
        token: TOKEN,
        versions: ['v1'],
        seed: 1,
        runs: 1,
        concurrency: 1,
        only: ['none'],
        ...extra,
      });
    // The kit's own requests go over node:http, which has no bad ports.
    await expect(run(6000)).resolves.toMatchObject({ checks: expect.any(Array) });
    await expect(run(6001, { webhookUrl: 'http://127.0.0.1:6000/hooks' })).rejects.toThrow(
      /^webhookUrl http:\/\/127\.0\.0\.1:6000\/hooks uses port 6000, which a target built on fetch never connects to \(the Fetch standard's bad ports\); use another port$/,
    );
    await expect(run(6001, { webhookUrl: 'http://127.0.0.1:1/hooks' })).rejects.toThrow(/uses port 1,/);
    await expect(run(6001, { webhookUrl: 'http://127.0.0.1:6001/hooks' })).resolves.toMatchObject({ checks: expect.any(Array) });
  });

  it("every field and enum value the interface states is sent on the kit's sites and on a deep site address", () => {
    const sites = [
      { siteUrl: 'http://127.0.0.1:4000', site: TEST_SITE_PROFILE },
      { siteUrl: 'http://127.0.0.1:4000/site', site: REFERENCE_SITE_PROFILE },
      { siteUrl: 'https://example.com/a/b/c/d', site: UNKNOWN_SITE },
    ];
    for (const site of sites)
      for (const version of ['v1', 'v2'] as const)
        for (const kind of ['crawl', 'batch'] as const) {
          const plan = fieldPlan(version, kind, site);
          expect(plan.unsent, `${site.siteUrl} ${version} ${kind}`).toEqual({ alone: [], enumValues: [] });
          // Each optional member of an object field stands alone in one body (location: country, then languages).
          const location = plan.alone.filter((b) => b.field.endsWith('location')).map((b) => Object.keys(b.value as object));
          expect(location).toEqual([['country'], ['languages']]);
        }
  });

  it('redaction: a token in every spelling, wherever it stands; a short one only as a word of its own', () => {
    expect(redact({ a: `x${TOKEN}y`, b: [encodeURIComponent(`${TOKEN}/`)], [TOKEN]: 1 }, { secrets: [TOKEN] })).toEqual({
      a: 'x***y',
      b: ['***%2F'],
      '***': 1,
    });
    expect(redact('a "quote\\"d" token', { secrets: ['quote"d'] })).toBe('a "***" token');
    const token = 'fc-Sec/ret+To<ken>&"9';
    const base64 = (text: string, alphabet: BufferEncoding = 'base64') => Buffer.from(text).toString(alphabet);
    const spellings = [
      token.toUpperCase(),
      encodeURIComponent(token).toLowerCase(),
      encodeURIComponent(encodeURIComponent(token)),
      JSON.stringify(token).slice(1, -1).replace(/\//g, '\\/'),
      JSON.stringify(token)
        .slice(1, -1)
        .replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
      token.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    ];
    for (const spelling of spellings) expect(redact(`<${spelling}>`, { secrets: [token] }), spelling).toBe('<***>');
    // Base64 at each alignment: only the characters the token alone determines can be recognised.
    for (const prefix of ['', 'u', 'us', 'user:']) {
      for (const alphabet of ['base64', 'base64url'] as const) {
        const encoded = base64(`${prefix}${token}!`, alphabet);
        const cleaned = redact(encoded, { secrets: [token] });
        expect(cleaned, `${alphabet} after ${JSON.stringify(prefix)}`).toContain('***');
        expect(cleaned.length, 'at most 4 characters left of the encoding on either side').toBeLessThanOrEqual(
          3 + 4 + 4 + Math.ceil((prefix.length * 4) / 3),
        );
      }
    }
    expect(redact('auth.missing: t, Bearer t', { secrets: ['t'] })).toBe('auth.missing: ***, Bearer ***');
    expect(redact({ n: 5 }, { secrets: [undefined] })).toEqual({ n: 5 });
  });

  it("redaction leaves the run's own addresses whole: a short secret (`1`, `127`) eats into none of them, and is cleaned elsewhere", () => {
    const redaction = runRedaction({
      token: '127',
      headers: { 'X-A': '1' },
      baseUrl: 'http://127.0.0.1:1',
      siteUrl: 'http://127.0.0.1:4001/site',
    });
    const text =
      'crawlspec contract: http://127.0.0.1:1 (v1, v2); connect ECONNREFUSED 127.0.0.1:1; page http://127.0.0.1:4001/site/a; echoed 1 and 127';
    expect(redact(text, redaction)).toBe(
      'crawlspec contract: http://127.0.0.1:1 (v1, v2); connect ECONNREFUSED 127.0.0.1:1; page http://127.0.0.1:4001/site/a; echoed *** and ***',
    );
    // Kept only where the secret lies wholly within an address: one that runs on past it is cleaned.
    const long = runRedaction({ token: '1:1secret-and-more', baseUrl: 'http://127.0.0.1:1' });
    expect(redact('at 127.0.0.1:1secret-and-more', long)).toBe('at 127.0.0.***');
    // No address given: as before.
    expect(redact('127.0.0.1:1', { secrets: ['1'] })).toBe('127.0.0.***:***');
    // Linear in what a target echoes: 10^5 addresses each holding the secret twice (it took their product before).
    const echoed = 'http://127.0.0.1:1 '.repeat(100_000);
    const [cleaned, cpuMs] = withCpuMs(() => redact(`${echoed}1`, redaction));
    expect(cleaned).toBe(`${echoed}***`);
    expect(cpuMs).toBeLessThan(5_000);
  });

  it('XML escaping drops what XML cannot hold', () => {
    const nasty = `a<b>&"'\u0000\u0007\uD800z`;
    expect(escapeXml(nasty)).toBe('a&lt;b&gt;&amp;&quot;&apos;\uFFFDz');
  });
});
