/**
 * The contract kit against the variants of the reference server whose defect is in a job's life (status,
 * pagination, cancel, errors, active, unknown jobs, webhooks): see test/support/variantRuns.ts for what each run
 * must show. Every class of check is caught by some variant (of this file, test/brokenRequests.test.ts or
 * test/brokenBehaviour.test.ts). That the correct server raises no false alarm with the default budget at either
 * level is shown by test/contractReference.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkNames } from '../scripts/contract/index.js';
import { BROKEN_CRAWLERS, BROKEN_SCRAPERS, BROKEN_SERVERS, CHECK_CLASSES, isJobVariant } from './support/brokenServers.js';
import { describeVariants } from './support/variantRuns.js';

const ALL_CHECKS = checkNames(['v1', 'v2']);
const VARIANTS = [...BROKEN_SERVERS, ...BROKEN_CRAWLERS, ...BROKEN_SCRAPERS];

describeVariants(BROKEN_SERVERS.filter(isJobVariant).map((v) => ({ ...v, scope: 'notBehaviour' as const })));

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
