/**
 * The contract kit against deliberately broken variants of the reference server (test/support/brokenServers.ts),
 * each with exactly one defect: a run at the defect's level, with the default budget, must find it (exit 1),
 * under the checks whose meaning the defect breaks (each with a runnable curl line, what came back and what
 * was expected), and under no other check. A defect of the service's alone must not fail a run at interface
 * level: it is reported there as a difference from the service, and the run is conformant. The correct
 * server, run the same way at both levels, is conformant. Every class of check is caught by some variant.
 *
 * The crawler variants (BROKEN_CRAWLERS) each break one rule of a crawl; they are run on the crawl-behaviour
 * checks only, the scrape variants (BROKEN_SCRAPERS) on the scrape- and batch-behaviour checks only, and the
 * other variants on every check but those (their defects are not about what a crawl or a scrape returns, and
 * crawling the test site for each of them would only repeat the correct run).
 *
 * Every run is independent (its own app on its own port), so they run side by side in `beforeAll`; each
 * variant's assertions are then a test of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceApp } from '../scripts/server/app.js';
import { checkNames, exitCode, runContract, type ContractReport } from '../scripts/contract/run.js';
import type { Level } from '../scripts/contract/levels.js';
import {
  BROKEN_CRAWLERS,
  BROKEN_SCRAPERS,
  BROKEN_SERVERS,
  BROKEN_SERVER_TOKEN,
  CHECK_CLASSES,
  type BrokenServer,
} from './support/brokenServers.js';
import { kitTarget } from './support/kitTarget.js';
import { pooled } from './support/pooled.js';

const SEED = 7;
const ALL_CHECKS = checkNames(['v1', 'v2']);

type Scope = 'all' | 'behaviour' | 'scrape' | 'notBehaviour';
const BEHAVIOUR_CHECKS = '*.crawl.behaviour.*';
const SCRAPE_CHECKS = ['*.scrape.behaviour.*', '*.batch.behaviour.*'];

/** The kit, run once at `level` against `wrap(reference server)`, on the checks of `scope`; everything is closed after. */
async function runAgainst(wrap: (app: ReferenceApp) => ReferenceApp, level: Level, scope: Scope): Promise<ContractReport> {
  // Pages take long enough that a job is still running when the kit cancels it, even with every run at once.
  const target = await kitTarget({ token: BROKEN_SERVER_TOKEN, wrap, pageIntervalMs: 100 });
  try {
    const only =
      scope === 'behaviour'
        ? { only: [BEHAVIOUR_CHECKS] }
        : scope === 'scrape'
          ? { only: SCRAPE_CHECKS }
          : scope === 'notBehaviour'
            ? { behaviour: false }
            : {};
    // A generous per-request timeout: these runs share a loaded machine, and no variant's defect is a slow answer.
    return await runContract(target.options({ seed: SEED, level, timeoutMs: 120_000, ...only }));
  } finally {
    await target.close();
  }
}

const failingNames = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'fail').map((c) => c.name);

/** One line per failing check, with its first failure: what a failed assertion shows. */
const summary = (report: ContractReport): string =>
  report.checks
    .filter((c) => c.status === 'fail' || c.status === 'skipped' || c.status === 'inconclusive')
    .map((c) => `${c.name}: ${c.status} ${c.failures[0]?.message ?? c.detail ?? ''}`)
    .join('\n');

const VARIANTS: readonly (BrokenServer & { readonly scope: Scope })[] = [
  ...BROKEN_SERVERS.map((v) => ({ ...v, scope: 'notBehaviour' as const })),
  ...BROKEN_CRAWLERS.map((v) => ({ ...v, scope: 'behaviour' as const })),
  ...BROKEN_SCRAPERS.map((v) => ({ ...v, scope: 'scrape' as const })),
];
const SERVICE_ONLY = VARIANTS.filter((v) => v.level === 'service');
const reports = new Map<string, ContractReport>();
const atInterface = new Map<string, ContractReport>();
let correct: ContractReport;
let correctAtService: ContractReport;

/**
 * Runs at once, at most. Some 60 whole runs all at once starved the in-process servers on a shared 2-core
 * machine (pages fetched past their timeout, crawls missing pages): the runs are independent, so a pool bounds
 * what they ask of the machine without changing what each proves.
 */
const RUNS_AT_ONCE = 4;

beforeAll(async () => {
  const identity = (app: ReferenceApp) => app;
  const [plain, plainService, ...rest] = await pooled(
    [
      () => runAgainst(identity, 'interface', 'all'),
      () => runAgainst(identity, 'service', 'all'),
      ...VARIANTS.map((variant) => () => runAgainst(variant.wrap, variant.level, variant.scope)),
      ...SERVICE_ONLY.map((variant) => () => runAgainst(variant.wrap, 'interface', variant.scope)),
    ],
    RUNS_AT_ONCE,
  );
  correct = plain!;
  correctAtService = plainService!;
  VARIANTS.forEach((variant, i) => reports.set(variant.name, rest[i]!));
  SERVICE_ONLY.forEach((variant, i) => atInterface.set(variant.name, rest[VARIANTS.length + i]!));
  // The ceiling is a safety net, not a timing.
}, 900_000);

afterAll(() => reports.clear());

describe('the variants themselves', () => {
  it('have unique names, one-sentence defects, and name only checks the kit has', () => {
    const names = VARIANTS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variant of VARIANTS) {
      expect(variant.defect, variant.name).toMatch(/^[A-Z][^]*\.$/);
      expect(variant.defect.replace(/\b(e\.g|i\.e)\./g, '').slice(0, -1), variant.name).not.toMatch(/\.\s/);
      expect(variant.expectedFailingChecks.length, variant.name).toBeGreaterThan(0);
      for (const name of [...variant.expectedFailingChecks, ...(variant.mayAlsoFail ?? [])])
        expect(ALL_CHECKS, variant.name).toContain(name);
      for (const name of variant.mayAlsoFail ?? []) expect(variant.expectedFailingChecks, variant.name).not.toContain(name);
    }
  });

  it('catch every class of check between them', () => {
    const caught = new Set(VARIANTS.flatMap((v) => v.expectedFailingChecks));
    for (const cls of CHECK_CLASSES)
      expect(
        [...caught].some((name) => cls.test(name)),
        String(cls),
      ).toBe(true);
    for (const name of ALL_CHECKS)
      expect(
        CHECK_CLASSES.some((cls) => cls.test(name)),
        name,
      ).toBe(true);
  });
});

describe('the correct reference server', () => {
  it('is conformant at both levels: exit 0, every check passes, every job cancelled', () => {
    for (const report of [correct, correctAtService]) {
      expect(
        report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.status} ${c.detail ?? ''}`),
        summary(report),
      ).toEqual([]);
      expect(exitCode(report)).toBe(0);
      expect(report.unreachable).toBe(false);
      expect(report.jobs.notCancelled).toEqual([]);
    }
  });
});

describe('each broken variant is caught at its level, precisely', () => {
  it.each(VARIANTS.map((variant) => [variant.name, variant] as const))('%s', (_name, variant: BrokenServer) => {
    const report = reports.get(variant.name)!;
    const shown = `${variant.defect}\nfailing checks:\n${summary(report)}`;
    expect(report.unreachable, shown).toBe(false);
    expect(report.level).toBe(variant.level);
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

describe('a defect of the service alone does not fail a run at interface level', () => {
  it.each(SERVICE_ONLY.map((variant) => [variant.name, variant] as const))('%s', (_name, variant: BrokenServer) => {
    const report = atInterface.get(variant.name)!;
    expect(failingNames(report), summary(report)).toEqual([]);
    expect(exitCode(report), summary(report)).toBe(0);
    const differing = new Set(report.checks.filter((c) => c.differences.length > 0).map((c) => c.name));
    for (const name of variant.expectedFailingChecks) expect(differing, `${name} reports the difference`).toContain(name);
  });
});
