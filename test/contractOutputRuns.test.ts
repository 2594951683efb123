/**
 * What the contract kit writes in narrow real runs, against the reference server and against a target that
 * answers 500 and echoes the token: each check told as it ends, cleaned of the token; the JSON report valid
 * against its published schema, incomplete and unreachable runs included; one JUnit failure per check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppResponse } from '../scripts/server/app.js';
import { jsonReport, type CheckResult, type ContractReport } from '../scripts/contract/report/report.js';
import { exitCode, formatJunit, formatText, runContract } from '../scripts/contract/index.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { kitTarget, type Handler, type KitTarget } from './support/kitTarget.js';
import { TOKEN, lines, testcases, validateReport } from './support/contractOutputParts.js';

describe('real runs', () => {
  let server: KitTarget;
  beforeAll(async () => {
    server = await kitTarget({ token: TOKEN });
  });
  afterAll(() => server.close());

  const ONLY = ['json.malformed', 'v2.status.undocumentedStatus', 'v2.crawl.start.invalid.wrongType'];

  it('the reference server: each selected check told as it ends, cleaned of the token; the JSON validates against the published schema', async () => {
    const told: { result: CheckResult; done: number; total: number }[] = [];
    const r = await runContract(server.options({ only: ONLY, runs: 2 }), {
      checkEnded: (result, progress) => {
        if (progress !== undefined) told.push({ result, ...progress });
      },
    });
    expect(told.map((t) => [t.done, t.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(told.map((t) => t.result.name).sort()).toEqual([...ONLY].sort());
    for (const { result } of told) expect(result).toEqual(r.checks.find((c) => c.name === result.name));
    const json = JSON.parse(JSON.stringify(jsonReport(r))) as ContractReport;
    expect(validateReport(json), JSON.stringify(validateReport.errors)).toBe(true);
    expect(json).toMatchObject({ verdict: 'conformant', exitCode: 0, totals: { passed: 3, skipped: r.checks.length - 3 } });
    expect(lines(formatText(r)).filter((l) => /^PASS\s/.test(l))).toHaveLength(3);
  }, 60_000);

  it('an incomplete run (no budget) and an unreachable one validate too', async () => {
    const incomplete = await runContract(server.options({ only: ONLY, runs: 1, maxRequests: 0 }));
    expect(exitCode(incomplete)).toBe(3);
    const closed = await kitTarget({ token: TOKEN });
    const options = closed.options({ only: ONLY, runs: 1 });
    await closed.close();
    const unreachable = await runContract(options);
    expect(exitCode(unreachable)).toBe(2);
    for (const r of [incomplete, unreachable]) {
      const json = JSON.parse(JSON.stringify(jsonReport(r))) as unknown;
      expect(validateReport(json), JSON.stringify(validateReport.errors)).toBe(true);
    }
    expect(jsonReport(incomplete)).toMatchObject({ verdict: 'incomplete', exitCode: 3 });
    expect(jsonReport(unreachable)).toMatchObject({ verdict: 'unreachable', exitCode: 2 });
  }, 60_000);

  it('a check told as it ends is cleaned of the token, also where the report carries what the target said (a job url)', async () => {
    // The start answers give a job url elsewhere, holding the token: the check notes it (not followed), in its own words.
    const elsewhere: Handler = async (request, next) => {
      const answer = await next(request);
      if (!(request.method === 'POST' && request.url === '/v2/crawl' && answer.status === 200)) return answer;
      const body = JSON.parse(answer.body) as { id: string };
      return { ...answer, body: JSON.stringify({ ...body, url: `https://elsewhere.example/v2/crawl/${body.id}?key=${TOKEN}` }) };
    };
    const target = await kitTarget({ token: TOKEN, deviate: elsewhere });
    try {
      const told: CheckResult[] = [];
      const r = await runContract(target.options({ only: ['v2.crawl.start.valid'], runs: 1 }), { checkEnded: (result, progress) => progress !== undefined && told.push(result) });
      expect(told).toHaveLength(1);
      expect(told[0]!.notes?.join('\n')).toContain('https://elsewhere.example/v2/crawl/');
      for (const text of [JSON.stringify(told), JSON.stringify(r), formatText(r)]) expect(text).not.toContain(TOKEN);
    } finally {
      await target.close();
    }
  }, 60_000);

  describe('a target that answers 500 to every v2 crawl start with a field beside url and limit, and echoes the token', () => {
    // The preflight's crawls (url and limit only) are answered, so that every 500 in the log is one of the check's.
    const plain = (body: string) => /^\{"url":"[^"]*","limit":\d+\}$/.test(body);
    const broken: Handler = async (request, next) =>
      request.method === 'POST' && request.url === '/v2/crawl' && !plain(request.body)
        ? ({
            status: 500,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ error: `failed for ${request.headers['authorization']}` }),
          } satisfies AppResponse)
        : next(request);
    let target: KitTarget;
    let r: ContractReport;
    const told: CheckResult[] = [];
    beforeAll(async () => {
      target = await kitTarget({ token: TOKEN, deviate: broken });
      r = await runContract(target.options({ only: ['v2.crawl.start.fieldAlone'], runs: 1 }), { checkEnded: (result, progress) => progress !== undefined && told.push(result) });
    }, 60_000);
    afterAll(() => target.close());

    it('its failures: one entry per field sent alone (each another expectation), together every 500 it answered', () => {
      const fieldAlone = r.checks.find((c) => c.name === 'v2.crawl.start.fieldAlone')!;
      expect(fieldAlone.status).toBe('fail');
      const starts = target.log.filter((e) => e.method === 'POST' && e.url === '/v2/crawl' && e.status === 500);
      expect(starts.length).toBeGreaterThan(5);
      const failures = fieldAlone.failures;
      expect(failures.every((f) => f.kind === 'serverError' && f.got?.status === 500)).toBe(true);
      expect(new Set(failures.map((f) => f.expected)).size).toBe(failures.length);
      expect(failures.reduce((n, f) => n + (f.count ?? 1), 0)).toBe(starts.length);
      expect(failures.map((f) => /--data-raw '(.*)'$/.exec(f.request ?? '')?.[1]).sort()).toEqual(starts.map((e) => e.body).sort());
      expect(formatText(r)).toContain(`v2.crawl.start.fieldAlone  (${starts.length} failures)`);
    });

    it('its JSON validates, its JUnit has one failure, nothing told or written holds the token', () => {
      const json = JSON.parse(JSON.stringify(jsonReport(r))) as unknown;
      expect(validateReport(json), JSON.stringify(validateReport.errors)).toBe(true);
      expect(jsonReport(r)).toMatchObject({ verdict: 'deviations found', exitCode: 1, totals: { failed: 1 } });
      const xml = formatJunit(r);
      expectWellFormedXml(xml);
      expect(testcases(xml)).toEqual([expect.objectContaining({ name: 'v2.crawl.start.fieldAlone', children: ['failure'] })]);
      expect(told).toHaveLength(1);
      expect(JSON.stringify(r)).toContain('Bearer ***');
      for (const text of [JSON.stringify(told), JSON.stringify(r), formatText(r), xml]) expect(text).not.toContain(TOKEN);
    });
  });
});
