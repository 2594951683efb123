/**
 * The contract kit's machine-read reports: JUnit with one `<failure>` per failing test case holding every entry,
 * and the JSON report with its verdict, exit status and totals, valid against the JSON Schema the package
 * publishes. Hand-built reports.
 */
import { DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { jsonReport } from '../scripts/contract/report/report.js';
import { formatJunit } from '../scripts/contract/index.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { check, report } from './support/reportFixtures.js';
import { failure, testcases, validateReport } from './support/contractOutputParts.js';

describe('JUnit', () => {
  it('a check with several failures is one <failure>: the first message, how many more, every entry in its text', () => {
    const entries = [
      failure({ count: 22 }),
      failure({
        kind: 'status',
        message: '400 where the interface accepts the request',
        got: { status: 400, body: 'no' },
        request: 'curl two',
      }),
      failure({ kind: 'body', message: 'the 200 body is not a valid v2/CrawlStartResponse', request: 'curl three' }),
    ];
    const r = report({ checks: [check('v2.crawl.start.fieldAlone', { status: 'fail', failures: entries }), check('json.malformed')] });
    const xml = formatJunit(r);
    expectWellFormedXml(xml);
    const [fieldAlone] = testcases(xml);
    expect(fieldAlone!.children).toEqual(['failure']);
    const element = DomUtils.getElementsByTagName('failure', fieldAlone!.element)[0]!;
    expect(element.attribs['message']).toBe('500: the implementation failed to answer POST /v2/crawl (× 22) (and 2 more failures)');
    expect(element.attribs['type']).toBe('serverError');
    const body = DomUtils.textContent(element);
    for (const f of entries) expect(body).toContain(f.message);
    expect(body).toContain('× 22 (the smallest request shown)');
    expect(body).toContain('request:  curl three');
    expect(xml).toMatch(/<testsuites name="crawlspec contract" tests="2" failures="1" skipped="0"/);
    expect(xml).toContain('<property name="exitCode" value="1"/>');
  });
});

describe('the JSON report and its schema', () => {
  it('a report with every optional field validates; one without its verdict, or with a key the schema does not define, does not', () => {
    const full = report({
      checks: [
        check('v2.crawl.start.valid', {
          status: 'fail',
          failures: [
            failure({ count: 3, counterexample: { seed: 7, path: '0:1', shrinks: 4 } }),
            failure({ kind: 'network', got: { status: null, body: '' } }),
          ],
          differences: [failure({ level: 'service', section: 'service' })],
          notes: ['a note'],
        }),
        check('v2.status', { level: 'service', inScope: false, status: 'notJudged', detail: 'why', requests: 0, digest: '' }),
      ],
      notImplemented: [
        {
          method: 'POST',
          path: '/v2/batch/scrape',
          source: 'interface §4',
          statuses: [404],
          requests: 2,
          checks: ['v2.batch.start.valid'],
        },
      ],
      unreachableReason: 'ECONNRESET',
    });
    const json = JSON.parse(JSON.stringify(jsonReport(full))) as Record<string, unknown>;
    expect(validateReport(json), JSON.stringify(validateReport.errors)).toBe(true);
    expect(json).toMatchObject({
      verdict: 'deviations found',
      exitCode: 1,
      totals: { passed: 0, failed: 1, inconclusive: 0, skipped: 0, differs: 0, notJudged: 1 },
    });
    // Every key of the report is kept.
    for (const key of Object.keys(full)) expect(json).toHaveProperty(key);

    const { verdict: _verdict, ...withoutVerdict } = json;
    expect(validateReport(withoutVerdict)).toBe(false);
    expect(validateReport.errors).toContainEqual(expect.objectContaining({ keyword: 'required', params: { missingProperty: 'verdict' } }));
    expect(validateReport({ ...json, extra: 1 })).toBe(false);
    expect(validateReport({ ...json, totals: { passed: 0, failed: 1 } })).toBe(false);
  });
});
