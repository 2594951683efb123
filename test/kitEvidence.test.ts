/**
 * What a verdict rests on: a refusal check passes only when the target accepted the same body without the
 * breaking change in the run (scripts/contract/engine/baseline.ts), and an endpoint the target does not implement is
 * reported once, with every check that needed it failing, never passing (scripts/contract/engine/endpoints.ts). Each
 * is shown against the reference server wrapped so that it breaks exactly that: every batch path answered 404,
 * every body on the run's site refused as an SSRF guard would, and (the control) nothing broken. And a run in
 * which no check of its level ran (a target answering 404 to everything, with --only-no-job at interface level)
 * is incomplete: it observed nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeredAsMissing } from '../scripts/contract/engine/endpoints.js';
import type { Exchange } from '../scripts/contract/wire/http.js';
import type { ContractReport } from '../scripts/contract/report/report.js';
import { exitCode, formatText, runContract, verdict } from '../scripts/contract/index.js';
import { operationById } from '../scripts/contract/spec/operations.js';
import { kitTarget, type Handler, type KitTarget } from './support/kitTarget.js';

const TOKEN = 'kit-evidence-token';
const BATCH = /^\/v[12]\/batch\/scrape(\/|$|\?)/;

/** Every batch path answered as by a server without the route (Express's page). */
const noBatch: Handler = async (request, next) =>
  BATCH.test(request.url)
    ? { status: 404, headers: { 'content-type': 'text/html' }, body: `<pre>Cannot ${request.method} ${request.url.split('?')[0]}</pre>` }
    : next(request);

/** The start bodies naming the run's site (its address holds `/site`), refused as an SSRF guard refuses them. */
const refusesSite: Handler = async (request, next) =>
  request.method === 'POST' && /^\/v[12]\/(crawl|batch\/scrape)$/.test(request.url) && request.body.includes('/site')
    ? {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ success: false, error: 'URL is not allowed: loopback' }),
      }
    : next(request);

const byName = (report: ContractReport) => new Map(report.checks.map((c) => [c.name, c]));

/** The checks that refuse a broken body: their names end in what breaks it. */
const REFUSAL_CHECKS = [
  'auth.*',
  'json.malformed',
  'v*.rule.*',
  'v*.*.start.invalid.*',
  'v1.batch.invalidURLs.notIgnoring',
  'v1.batch.invalidURLs.default',
];

describe('an endpoint that is not there', () => {
  let target: KitTarget;
  let report: ContractReport;

  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN, deviate: noBatch });
    report = await runContract(target.options({ runs: 2, only: ['v1.batch.*', 'v2.batch.*', 'v2.active'] }));
  }, 120_000);
  afterAll(() => target.close());

  it('no batch check passes, and the run is not conformant', () => {
    const batch = report.checks.filter((c) => /^v[12]\.batch\./.test(c.name));
    expect(batch.length).toBeGreaterThan(20);
    const passed = batch.filter((c) => c.status === 'pass').map((c) => c.name);
    expect(passed, formatText(report)).toEqual([]);
    // The missing route fails the check that proves it, once; a refusal check, whose valid base met the missing
    // route, rests on it (inconclusive, naming it) instead of failing for it.
    const cause = 'POST /v2/batch/scrape is not implemented (answers 404)';
    const valid = byName(report).get('v2.batch.start.valid')!;
    expect(valid.status).toBe('fail');
    expect(valid.failures.every((f) => f.cause === cause)).toBe(true);
    const invalid = byName(report).get('v2.batch.start.invalid.wrongType')!;
    expect([invalid.status, invalid.cause]).toEqual(['inconclusive', cause]);
    expect(byName(report).get('v1.batch.invalidURLs.notIgnoring')!.status).toBe('inconclusive');
    // One fault per route in the report: the check that proves it failed, the others rest on it.
    const fault = report.causes.find((c) => c.cause === cause)!;
    expect(fault.failed).toEqual(['v2.batch.start.valid']);
    expect(fault.resting.length).toBeGreaterThan(5);
    expect(report.causes.map((c) => c.cause).filter((c) => c.startsWith('POST '))).toEqual(
      expect.arrayContaining(['POST /v1/batch/scrape is not implemented (answers 404)', cause]),
    );
  });

  it('each missing operation is listed once, with its statuses, requests and checks', () => {
    const starts = report.notImplemented.filter((n) => n.method === 'POST');
    expect(starts.map((n) => n.path).sort()).toEqual(['/v1/batch/scrape', '/v2/batch/scrape']);
    for (const n of starts) {
      expect(n.statuses).toEqual([404]);
      expect(n.source).toBe('interface §4');
      expect(n.requests).toBeGreaterThan(5);
      expect(n.checks).toEqual(expect.arrayContaining([expect.stringMatching(/\.batch\.start\.valid$/)]));
    }
    // What is there is not listed: the crawl endpoints answer.
    expect(report.notImplemented.some((n) => n.path.includes('/crawl'))).toBe(false);
  });

  it('the text names the missing endpoint where a status is wrong', () => {
    expect(formatText(report)).toMatch(/404 where the interface accepts the request: POST \/v2\/batch\/scrape is not implemented/);
  });
});

describe('a target that refuses every body on the run’s site', () => {
  let target: KitTarget;
  let report: ContractReport;

  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN, deviate: refusesSite });
    report = await runContract(target.options({ runs: 2, only: REFUSAL_CHECKS }));
  }, 120_000);
  afterAll(() => target.close());

  it('no refusal check passes: each is inconclusive (the preflight found the site refused, or the check its base)', () => {
    expect(report.checks.filter((c) => c.status === 'pass').map((c) => c.name)).toEqual([]);
    const ran = report.checks.filter((c) => c.inScope && c.detail !== 'not selected (--only)');
    expect(ran.length).toBeGreaterThan(20);
    for (const check of ran) {
      expect(check.status, `${check.name}: ${check.detail}`).toBe('inconclusive');
      expect(check.detail).toMatch(
        /the target refuses http:\/\/127\.0\.0\.1:\d+\/site|the same body without the breaking change was refused too \(400: URL is not allowed: loopback/,
      );
    }
  });

  it('the run is incomplete (exit 3), not conformant', async () => {
    const { exitCode } = await import('../scripts/contract/index.js');
    expect(exitCode(report)).toBe(3);
  });
});

describe('a target that refuses every start body but the smallest (a crawl’s url and limit, a batch’s urls)', () => {
  let target: KitTarget;
  let report: ContractReport;
  const SMALL = new Set(['url', 'limit', 'urls']);
  const refusesRich: Handler = async (request, next) => {
    if (request.method !== 'POST' || !/^\/v[12]\/(crawl|batch\/scrape)$/.test(request.url)) return next(request);
    let keys: string[] = [];
    try {
      keys = Object.keys(JSON.parse(request.body) as object);
    } catch {
      return next(request);
    }
    return keys.every((k) => SMALL.has(k))
      ? next(request)
      : {
          status: 400,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ success: false, error: 'unsupported field' }),
        };
  };

  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN, deviate: refusesRich });
    report = await runContract(
      target.options({
        versions: ['v2'],
        runs: 2,
        only: ['v2.batch.start.invalid.*', 'v2.rule.waitForWithinTimeout', 'v2.rule.timeout.maximum'],
      }),
    );
  }, 120_000);
  afterAll(() => target.close());

  it('a refusal whose base was refused too is no pass: the check is inconclusive (or not judged above the run’s level), saying with what', () => {
    const checks = byName(report);
    for (const name of ['v2.batch.start.invalid.wrongType', 'v2.rule.timeout.maximum']) {
      const check = checks.get(name)!;
      expect(check.status, `${name}: ${check.detail}`).toBe('inconclusive');
      expect(check.detail).toMatch(/the same body without the breaking change was refused too \(400: unsupported field; the body: \{/);
      expect(check.detail).toContain('see v2.');
    }
    expect(checks.get('v2.rule.waitForWithinTimeout')).toMatchObject({ status: 'notJudged', inScope: false });
    expect(report.checks.filter((c) => c.status === 'pass').map((c) => c.name)).toEqual([]);
  });
});

describe('the control: the same checks against the reference server as it is', () => {
  let target: KitTarget;
  let report: ContractReport;

  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN });
    report = await runContract(target.options({ runs: 2, only: REFUSAL_CHECKS }));
  }, 120_000);
  afterAll(() => target.close());

  it('every refusal check passes, each having seen its base accepted', () => {
    const ran = report.checks.filter((c) => c.status !== 'skipped');
    expect(ran.filter((c) => c.status !== 'pass').map((c) => `${c.name} ${c.status} ${c.detail}`)).toEqual([]);
    // Each base was sent: for every refused start, a start with a 200 answer followed (and its job was cancelled).
    const starts = target.log.filter((e) => e.method === 'POST');
    expect(starts.filter((e) => e.status === 200).length).toBeGreaterThan(20);
    expect(report.notImplemented).toEqual([]);
  });

  it('the job endpoints asked of jobs that do not exist are not taken for missing ones', async () => {
    const run = await runContract(target.options({ runs: 1, only: ['v1.status.undocumentedStatus', 'v2.status.undocumentedStatus'] }));
    expect(run.checks.filter((c) => c.status !== 'skipped').map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(run.notImplemented).toEqual([]);
  });
});

describe('answeredAsMissing', () => {
  const exchange = (status: number, body: string, requestBody?: string): Exchange => {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    return {
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:1/v2/batch/scrape',
        headers: {},
        ...(requestBody === undefined ? {} : { body: requestBody }),
      },
      status,
      headers: new Headers(),
      text: body,
      json,
      isJson: json !== undefined,
      retried: false,
    };
  };
  const envelope = JSON.stringify({ success: false, error: 'Job not found' });

  it('405 and 501 always; 404 where the operation would not answer it, or not with its envelope', () => {
    const start = operationById('v2', 'startBatchScrapeV2');
    const status = operationById('v2', 'getBatchScrapeStatusV2');
    expect(answeredAsMissing(exchange(405, ''), 'v2', status)).toBe(true);
    expect(answeredAsMissing(exchange(501, envelope), 'v2', status)).toBe(true);
    expect(answeredAsMissing(exchange(400, ''), 'v2', start)).toBe(false);
    // A start answers 404 only for an appendToId it does not know.
    expect(answeredAsMissing(exchange(404, envelope, '{"urls":["https://example.com"]}'), 'v2', start)).toBe(true);
    expect(answeredAsMissing(exchange(404, envelope, '{"urls":["https://example.com"],"appendToId":"x"}'), 'v2', start)).toBe(false);
    // A job's 404 with the envelope is "Job not found"; a framework's page is a missing route.
    expect(answeredAsMissing(exchange(404, envelope), 'v2', status)).toBe(false);
    expect(answeredAsMissing(exchange(404, '<pre>Cannot GET /v2/batch/scrape/x</pre>'), 'v2', status)).toBe(true);
    // A cancel's 404 is its own body, without `success`, as the service answers it.
    const cancel = operationById('v2', 'cancelCrawlV2');
    expect(answeredAsMissing(exchange(404, JSON.stringify({ error: 'Job not found' })), 'v2', cancel)).toBe(false);
    expect(answeredAsMissing(exchange(404, 'Not Found'), 'v2', cancel)).toBe(true);
  });
});

describe('a run in which no check of its level ran', () => {
  // A target that answers 404 to everything, as a server without any of the API's routes.
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('Not Found');
  });
  let baseUrl: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const run = (level: 'interface' | 'service') =>
    runContract({ baseUrl, token: undefined, versions: ['v1', 'v2'], seed: 1, runs: 1, concurrency: 2, onlyNoJob: true, level });

  it('is incomplete (exit 3), not conformant, saying why no check ran and what to run', async () => {
    const report = await run('interface');
    // Every check of the level was left out (the no-job checks are the service's): nothing passed or failed there.
    expect(report.checks.filter((c) => c.inScope).map((c) => c.status)).toEqual([]);
    expect(verdict(report)).toBe('incomplete');
    expect(exitCode(report)).toBe(3);
    const text = formatText(report);
    expect(text).toMatch(
      /\nincomplete: no check at interface level ran, so the run observed nothing it is meant to prove:\n(  \d+ checks? at interface level or below: .+\n)+  run checks of that level \(a wider --only, without --only-no-job\), or hold the target to the service too \(--level service\)\n/,
    );
    expect(text).toMatch(/\n  \d+ checks at interface level or below: starts a job \(--only-no-job\)\n/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('incomplete');
  }, 60_000);

  it('at service level the same checks are in scope and decide: deviations found', async () => {
    const report = await run('service');
    expect(report.checks.some((c) => c.inScope && c.status === 'fail')).toBe(true);
    expect(verdict(report)).toBe('deviations found');
    expect(formatText(report)).not.toMatch(/no check at service level ran/);
  }, 60_000);
});
