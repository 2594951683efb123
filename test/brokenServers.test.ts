/**
 * The contract kit against deliberately broken variants of the reference server (test/support/brokenServers.ts),
 * each with exactly one defect: the kit must find every defect (exit status 1), under the checks whose
 * meaning the defect breaks (each with a runnable curl line, what came back and what was expected), and
 * under no other check. The correct server, run the same way, is conformant.
 *
 * Every run is independent (its own app on its own port), so they all run at once in `beforeAll`; each
 * variant's assertions are then a test of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceApp, type ReferenceApp } from '../scripts/server/app.js';
import { listen } from '../scripts/server/http.js';
import { checkNames, exitCode, runContract, type ContractReport } from '../scripts/contract/run.js';
import { BROKEN_SERVERS, BROKEN_SERVER_TOKEN, type BrokenServer } from './support/brokenServers.js';

const SEED = 7;
const RUNS = 3;
const ALL_CHECKS = checkNames(['v1', 'v2']);

/** The kit, run once against `wrap(reference server)` on a free port of 127.0.0.1; everything is closed after. */
async function runAgainst(wrap: (app: ReferenceApp) => ReferenceApp): Promise<ContractReport> {
  let base = '';
  // Pages take long enough that a job is still running when the kit cancels it, even with every run at once.
  const app = wrap(createReferenceApp({ auth: { token: BROKEN_SERVER_TOKEN }, publicUrl: () => base, pageIntervalMs: 100 }));
  try {
    const server = await listen(app, { host: '127.0.0.1', port: 0 });
    base = server.url;
    try {
      return await runContract({
        baseUrl: server.url,
        token: BROKEN_SERVER_TOKEN,
        versions: ['v1', 'v2'],
        seed: SEED,
        runs: RUNS,
        maxRequests: 5000,
        concurrency: 4,
        siteUrl: 'https://example.com',
      });
    } finally {
      await server.close();
    }
  } finally {
    app.close();
  }
}

const failingNames = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'fail').map((c) => c.name);

/** One line per failing check, with its first failure: what a failed assertion shows. */
const summary = (report: ContractReport): string =>
  report.checks
    .filter((c) => c.status === 'fail')
    .map((c) => `${c.name}: ${c.failures[0]?.message ?? ''}`)
    .join('\n');

const reports = new Map<string, ContractReport>();
let correct: ContractReport;

beforeAll(async () => {
  const [plain, ...broken] = await Promise.all([runAgainst((app) => app), ...BROKEN_SERVERS.map((variant) => runAgainst(variant.wrap))]);
  correct = plain!;
  BROKEN_SERVERS.forEach((variant, i) => reports.set(variant.name, broken[i]!));
}, 60_000);

afterAll(() => reports.clear());

describe('the variants themselves', () => {
  it('have unique names, one-sentence defects, and name only checks the kit has', () => {
    const names = BROKEN_SERVERS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const variant of BROKEN_SERVERS) {
      expect(variant.defect, variant.name).toMatch(/^[A-Z][^]*\.$/);
      expect(variant.defect.replace(/\b(e\.g|i\.e)\./g, '').slice(0, -1), variant.name).not.toMatch(/\.\s/);
      expect(variant.expectedFailingChecks.length, variant.name).toBeGreaterThan(0);
      for (const name of [...variant.expectedFailingChecks, ...(variant.mayAlsoFail ?? [])])
        expect(ALL_CHECKS, variant.name).toContain(name);
      for (const name of variant.mayAlsoFail ?? []) expect(variant.expectedFailingChecks, variant.name).not.toContain(name);
    }
  });
});

describe('the correct reference server', () => {
  it('is conformant: exit 0, every check passes, every job cancelled', () => {
    expect(failingNames(correct), summary(correct)).toEqual([]);
    expect(correct.checks.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.status} ${c.detail ?? ''}`)).toEqual([]);
    expect(exitCode(correct)).toBe(0);
    expect(correct.unreachable).toBe(false);
    expect(correct.jobs.notCancelled).toEqual([]);
  });
});

describe('each broken variant is caught, precisely', () => {
  it.each(BROKEN_SERVERS.map((variant) => [variant.name, variant] as const))('%s', (_name, variant: BrokenServer) => {
    const report = reports.get(variant.name)!;
    const shown = `${variant.defect}\nfailing checks:\n${summary(report)}`;
    expect(report.unreachable, shown).toBe(false);
    expect(exitCode(report), shown).toBe(1);

    const byName = new Map(report.checks.map((c) => [c.name, c]));
    for (const name of variant.expectedFailingChecks) {
      const check = byName.get(name);
      expect(check?.status, `${name} should fail\n${shown}`).toBe('fail');
      const evidence = check!.failures.filter(
        (f) =>
          f.check === name &&
          typeof f.request === 'string' &&
          /^curl -sS /.test(f.request) &&
          f.got !== undefined &&
          f.got.status !== null &&
          f.got.body.length > 0 &&
          f.expected.length > 0,
      );
      expect(evidence.length, `${name}: a failure with a curl line, what came back and what was expected\n${shown}`).toBeGreaterThan(0);
    }

    const allowed = new Set([...variant.expectedFailingChecks, ...(variant.mayAlsoFail ?? [])]);
    expect(
      failingNames(report).filter((name) => !allowed.has(name)),
      `checks that failed although the defect is not theirs\n${shown}`,
    ).toEqual([]);
    expect(report.jobs.notCancelled, shown).toEqual([]);
  });
});
