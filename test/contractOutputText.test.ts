/**
 * The contract kit's text report: `--only` counted in one line, the states above the run's level named as what
 * they are, the operations not implemented first (in text, JUnit and JSON), and a progress line per check as it
 * ends. Hand-built reports.
 */
import { DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { LINE_LIMIT } from '../scripts/contract/wire/cut.js';
import { progressLine } from '../scripts/contract/reporters/progress.js';
import { jsonReport } from '../scripts/contract/report/report.js';
import { formatSummary } from '../scripts/contract/reporters/text.js';
import { checkNames, formatJunit, formatText } from '../scripts/contract/index.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { check, report } from './support/reportFixtures.js';
import { bytes, failure, lines, testcases } from './support/contractOutputParts.js';

/** The text of an element's `<system-out>`. */
const systemOut = (element: Parameters<typeof DomUtils.textContent>[0]) =>
  DomUtils.textContent(DomUtils.getElementsByTagName('system-out', element));

describe('the text report', () => {
  it('--only: the checks it left out are one line, not a SKIP line each', () => {
    const left = checkNames(['v1', 'v2']).slice(3);
    const r = report({
      checks: [
        check('auth.missing'),
        check('auth.wrongToken'),
        check('json.malformed'),
        ...left.map((name) => check(name, { status: 'skipped', inScope: false, detail: 'not selected (--only)', requests: 0, digest: '' })),
      ],
    });
    const text = formatText(r);
    expect(text).toContain(`\nnot selected (--only): ${left.length} checks`);
    expect(lines(text).filter((l) => l.startsWith('SKIP'))).toEqual([]);
    expect(lines(text).filter((l) => /^PASS\s+\S/.test(l))).toHaveLength(3);
    for (const name of left) expect(text).not.toContain(name);
    expect(text.trimEnd().split('\n').pop()).toBe('conformant');
    // JUnit lists the checks of the run only, and says how many were left out.
    const xml = formatJunit(r);
    expect(testcases(xml).map((t) => t.name)).toEqual(['auth.missing', 'auth.wrongToken', 'json.malformed']);
    expect(xml).toContain(`<property name="notSelected" value="${left.length}"/>`);
    expect(xml).toMatch(/<testsuites name="crawlspec contract" tests="3" failures="0" skipped="0"/);
  });

  it('checks above the run level print what they saw: DIFFERS, NOT JUDGED; PASS only where everything was observed', () => {
    const difference = failure({
      check: 'v2.errors',
      kind: 'undocumentedStatus',
      level: 'service',
      section: 'service',
      message: '418 is not a status getCrawlErrorsV2 documents',
    });
    const r = report({
      checks: [
        check('v2.errors', { level: 'service', inScope: false, status: 'differs', differences: [difference] }),
        check('v2.active', {
          level: 'service',
          inScope: false,
          status: 'notJudged',
          detail: '429 from GET /v2/crawl/active: depends on the account',
        }),
        check('v2.status', { level: 'service', inScope: false, status: 'pass' }),
        check('auth.missing', { notes: ['401 with the error envelope: 403 from POST /v2/crawl: depends on the account'] }),
      ],
    });
    const text = formatText(r);
    expect(lines(text)).toContain('DIFFERS       v2.errors  (1 difference from the service)  [service level: informs, does not decide]');
    expect(lines(text)).toContain(
      'NOT JUDGED    v2.active  (429 from GET /v2/crawl/active: depends on the account)  [service level: informs, does not decide]',
    );
    expect(lines(text)).toContain('PASS          v2.status  [service level: informs, does not decide]');
    expect(lines(text)).toContain('PASS          auth.missing  (1 not judged above interface level)');
    expect(text).not.toMatch(/^PASS\s+v2\.(errors|active)/m);
    expect(text).toContain(
      '\nnot judged above interface level (these do not decide the verdict):\n  auth.missing: 401 with the error envelope',
    );
    expect(text).toContain(
      '\ndiffers from the service (1; these do not decide the verdict at interface level):\n  v2.errors\n    ✗ 418 is not a status',
    );
    expect(text).toContain(
      "4 checks: 2 passed, 0 failed, 0 inconclusive, 0 skipped; above the run's level: 1 differ from the service, 1 not judged",
    );
    // In JUnit they pass (they do not fail CI), their state in system-out; never skipped, never failed.
    const cases = new Map(testcases(formatJunit(r)).map((t) => [t.name, t]));
    expect(cases.get('v2.errors')!.children).toEqual(['system-out']);
    expect(systemOut(cases.get('v2.errors')!.element)).toMatch(/^DIFFERS at service level .*\n\ndiffers from the service/s);
    expect(cases.get('v2.active')!.children).toEqual(['system-out']);
    expect(systemOut(cases.get('v2.active')!.element)).toContain(
      'NOT JUDGED at service level (informs, does not decide at interface level): 429 from',
    );
    expect(cases.get('v2.status')!.children).toEqual([]);
  });

  it('the operations not implemented come first after the header, in text, JUnit and JSON', () => {
    const notImplemented = [
      {
        method: 'POST',
        path: '/v2/batch/scrape',
        source: 'interface §4',
        statuses: [404],
        requests: 38,
        checks: [
          'v2.batch.start.valid',
          'v2.batch.start.fieldAlone',
          'v2.batch.start.enumValue',
          'v2.batch.invalidURLs.default',
          'v2.batch.start.invalid.wrongType',
          'v2.batch.start.invalid.fraction',
        ],
      },
      { method: 'GET', path: '/v2/batch/scrape/{id}/errors', source: 'service', statuses: [404, 405], requests: 1, checks: ['v2.errors'] },
    ];
    const r = report({
      notImplemented,
      checks: [
        check('v2.batch.start.valid', { status: 'fail', failures: [failure({ check: 'v2.batch.start.valid', kind: 'notImplemented' })] }),
      ],
    });
    const expected = [
      'crawlspec contract: http://127.0.0.1:4000 (v1, v2), level interface, seed 7, 3 runs per generated check',
      '',
      'not implemented: 2 operations of the interface or the service answered 404, 405 or 501 (not there):',
      '  POST /v2/batch/scrape [interface §4]: 404 to 38 requests of 6 checks (v2.batch.start.valid, v2.batch.start.fieldAlone, v2.batch.start.enumValue, v2.batch.invalidURLs.default and 2 more)',
      '  GET /v2/batch/scrape/{id}/errors [service]: 404, 405 to 1 request of 1 check (v2.errors)',
      '',
    ];
    expect(lines(formatSummary(r)).slice(0, expected.length)).toEqual(expected);
    expect(lines(formatText(r)).slice(0, expected.length + 1)).toEqual([...expected, 'FAIL          v2.batch.start.valid  (1 failure)']);
    const xml = formatJunit(r);
    expectWellFormedXml(xml);
    expect(xml).toContain(
      '<property name="notImplemented" value="POST /v2/batch/scrape (404); GET /v2/batch/scrape/{id}/errors (404, 405)"/>',
    );
    expect(xml).toMatch(
      /<system-out>not implemented \(answered 404, 405 or 501\):\n {2}POST \/v2\/batch\/scrape \[interface §4\]: 404 to 38 requests/,
    );
    expect(jsonReport(r).notImplemented).toEqual(notImplemented);
  });

  it('a progress line: the time since the start, how many checks ended of how many, the check line', () => {
    expect(progressLine(check('v1.status'), 'interface', 3240, 5, 132)).toBe('[   3.2s   5/132] PASS          v1.status');
    const failed = check('v2.crawl.start.valid', { status: 'fail', failures: [failure({ count: 22 }), failure()] });
    expect(progressLine(failed, 'interface', 61_000, 132, 132)).toBe('[  61.0s 132/132] FAIL          v2.crawl.start.valid  (23 failures)');
    expect(bytes(progressLine(check('x', { status: 'skipped', detail: 'y'.repeat(5000) }), 'interface', 0, 1, 1))).toBeLessThanOrEqual(
      LINE_LIMIT,
    );
  });
});
