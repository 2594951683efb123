/**
 * The kit against a mock of the OpenAPI document (test/support/openApiMock.ts: every start answered with the same
 * job id, every token accepted, jobs that never end): the checks that start two jobs see one id and fail
 * (`vN.<kind>.start.distinctIds`, interface §1), and no check passes on jobs it could not tell apart: each that
 * follows a job whose id an earlier start got too is inconclusive, naming the cause. What passes rests on what the
 * mock did: it accepted a start with a valid start answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runContract, type ContractReport } from '../scripts/contract/index.js';
import { startOpenApiMock, type OpenApiMock } from './support/openApiMock.js';

/** Checks that follow a started job (its status, pages, cancel, errors, the active list, its webhook). */
const FOLLOWING = /\.(status|status\.pagination|cancel|errors|active|start\.valid|start\.valid\.service)$|\.webhook\./;
/** Checks whose pass rests on starts accepted with a valid start answer alone, which the mock does give. */
const RESTS_ON_ACCEPTED_STARTS = /\.start\.(fieldAlone|enumValue)$/;

describe('a mock of the OpenAPI document (one job id for every start)', () => {
  let mock: OpenApiMock;
  let report: ContractReport;
  beforeAll(async () => {
    mock = await startOpenApiMock();
    // At service level, so that the job endpoints' checks (the service's) decide too; the crawl behaviour is left out.
    report = await runContract({
      baseUrl: mock.url,
      token: 'any-token-will-do',
      versions: ['v1', 'v2'],
      level: 'service',
      seed: 7,
      runs: 2,
      concurrency: 8,
      behaviour: false,
    });
  }, 300_000);
  afterAll(() => mock.close());

  it('the distinct-ids checks fail, citing interface §1', () => {
    for (const name of ['v1.crawl', 'v1.batch', 'v2.crawl', 'v2.batch'].map((p) => `${p}.start.distinctIds`)) {
      const check = report.checks.find((c) => c.name === name);
      expect(check?.status, name).toBe('fail');
      expect(check!.failures[0]).toMatchObject({ level: 'interface', section: 'interface §1' });
      expect(check!.failures[0]!.message).toMatch(/were answered with the same job id "0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e"$/);
    }
    expect(exitCode(report)).toBe(1);
  });

  it('no check that follows a job passes: each is inconclusive naming the shared id, or fails', () => {
    const following = report.checks.filter((c) => FOLLOWING.test(c.name) && c.status !== 'skipped');
    expect(following.length).toBeGreaterThan(10);
    for (const check of following) {
      expect(check.status, check.name).not.toBe('pass');
      if (check.status === 'inconclusive')
        expect(check.detail, check.name).toMatch(/^the target gave the job id "[^"]+" to an earlier v[12] (crawl|batch) start too/);
    }
  });

  it('every pass rests on what the mock did (a start accepted with a valid start answer); every token accepted: no diagnosis', () => {
    const passing = report.checks.filter((c) => c.status === 'pass').map((c) => c.name);
    expect(passing.length).toBeGreaterThan(0);
    expect(passing.filter((name) => !RESTS_ON_ACCEPTED_STARTS.test(name))).toEqual([]);
    expect(report.diagnoses).toEqual([]);
  });
});
