/**
 * Known deviations and the checks that draw their cases from the seed (scripts/contract/known/judge.ts): an entry
 * of such a check (`drawn` in the report) that a run did not meet is NOT JUDGED, never FIXED, since another seed or
 * fewer `--runs` may just not have drawn it; an entry of any other check that ran to a verdict is FIXED. So a
 * baseline does not flap between runs with other seeds (a QA run saw `--baseline-strict` fail on seed 99999 for a
 * deviation seed 11 had found, the target unchanged).
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../scripts/contract/known/judge.js';
import type { ContractReport } from '../scripts/contract/report/report.js';
import { knownLines } from '../scripts/contract/reporters/knownText.js';
import { check as made, report as madeReport } from './support/reportFixtures.js';

const check = (name: string, drawn: boolean) => made(name, drawn ? { drawn: true } : {});
const report = (checks: ReturnType<typeof check>[]) => madeReport({ checks });

const file = {
  entries: [
    { check: 'v2.crawl.start.valid', what: 'a valid body refused', signature: '0123456789abcdef' },
    { check: 'v2.status', what: 'a field missing', signature: 'fedcba9876543210' },
  ],
};

describe('an entry not met', () => {
  it('of a check that draws its cases: NOT JUDGED, saying why; of another that ran to a verdict: FIXED', () => {
    const r = report([check('v2.crawl.start.valid', true), check('v2.status', false)]);
    const known = judge(r, file, { path: 'known.json', strict: true, today: '2026-11-29' });
    expect(known.unjudged.map((e) => e.check)).toEqual(['v2.crawl.start.valid']);
    expect(known.fixed.map((e) => e.check)).toEqual(['v2.status']);
    const lines = knownLines({ ...r, known } as ContractReport);
    expect(lines.find((l) => l.includes('v2.crawl.start.valid'))).toMatch(/NOT JUDGED .*draws its bodies from the seed/);
  });

  it('of the same check, not drawn: FIXED (the flag alone decides)', () => {
    const known = judge(report([check('v2.crawl.start.valid', false)]), file, { path: 'known.json', strict: false, today: '2026-11-29' });
    expect(known.fixed.map((e) => e.check)).toEqual(['v2.crawl.start.valid']);
  });
});
