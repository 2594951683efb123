/**
 * The contract kit against the correct reference server and against the variants whose defect is in a job's
 * life (status, pagination, cancel, errors, active, unknown jobs, webhooks): see test/support/variantRuns.ts
 * for what each run must show. The correct server, run with the default budget at both levels, is conformant:
 * every check passes and every job the kit started is cancelled. Every class of check is caught by some variant
 * (of this file, test/brokenRequests.test.ts or test/brokenBehaviour.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkNames, exitCode, type ContractReport } from '../scripts/contract/run.js';
import { BROKEN_CRAWLERS, BROKEN_SCRAPERS, BROKEN_SERVERS, CHECK_CLASSES, isJobVariant } from './support/brokenServers.js';
import { describeVariants, runAgainst, summary } from './support/variantRuns.js';

const ALL_CHECKS = checkNames(['v1', 'v2']);
const VARIANTS = [...BROKEN_SERVERS, ...BROKEN_CRAWLERS, ...BROKEN_SCRAPERS];
let correct: ContractReport;
let correctAtService: ContractReport;

describeVariants(
  BROKEN_SERVERS.filter(isJobVariant).map((v) => ({ ...v, scope: 'notBehaviour' as const })),
  {
    runs: [() => runAgainst((app) => app, 'interface', 'all'), () => runAgainst((app) => app, 'service', 'all')],
    onExtra: ([plain, plainService]) => {
      correct = plain!;
      correctAtService = plainService!;
    },
  },
);

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
