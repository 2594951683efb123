/**
 * What the contract kit writes for a CI to act on (scripts/contract/{report,reportSchema,reportText,junit,
 * progress,collapse,cut}.ts): a line per check as it ends; the JSON report with its verdict, exit status and
 * totals, valid against the JSON Schema the package publishes; JUnit with one `<failure>` per failing test case
 * holding every entry; repeated failures collapsed with a count and the smallest request; bodies and lines cut
 * saying how much; `--only` counted in one line; the states above the run's level named as what they are; the
 * operations not implemented first. Hand-built reports for the renderings, narrow real runs for the rest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppResponse } from '../scripts/server/app.js';
import { collapse } from '../scripts/contract/report/collapse.js';
import { Attempt, truncate, type Env } from '../scripts/contract/engine/context.js';
import { DEFAULT_OPTIONS, resolveOptions } from '../scripts/contract/engine/options.js';
import { cut, DETAIL_LIMIT, FAILURE_TEXT_LIMIT, LINE_LIMIT, REPORT_LIMIT } from '../scripts/contract/wire/cut.js';
import { SERVER_ERROR_CITATION } from '../scripts/contract/spec/levels.js';
import { progressLine } from '../scripts/contract/reporters/progress.js';
import { jsonReport, type CheckResult, type ContractReport, type Failure } from '../scripts/contract/report/report.js';
import { formatHtml } from '../scripts/contract/reporters/html.js';
import { formatSummary } from '../scripts/contract/reporters/text.js';
import { checkNames, exitCode, formatJunit, formatText, runContract } from '../scripts/contract/index.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { kitTarget, type Handler, type KitTarget } from './support/kitTarget.js';
import { check, report } from './support/reportFixtures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The schema as the package publishes it (`crawlspec/contract/report.schema.json`). */
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', 'report.schema.json'), 'utf8')) as object;
const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(SCHEMA);
const TOKEN = 'contract-output-secret-token';

const bytes = (text: string) => Buffer.byteLength(text);
const lines = (text: string) => text.split('\n');

function failure(over: Partial<Failure> = {}): Failure {
  return {
    check: 'v2.crawl.start.fieldAlone',
    kind: 'serverError',
    level: 'interface',
    message: '500: the implementation failed to answer POST /v2/crawl',
    expected: 'accepted: 200 and a start answer (limit alone)',
    section: SERVER_ERROR_CITATION,
    request: `curl -sS -X POST 'http://127.0.0.1:4000/v2/crawl' --data-raw '{"url":"http://127.0.0.1:4000/site","limit":1}'`,
    got: { status: 500, body: '{"success":false,"error":"Internal error"}' },
    ...over,
  };
}

/** Each test case of a JUnit document: its name and the names of its child elements. */
function testcases(xml: string): { name: string; children: string[]; element: ReturnType<typeof DomUtils.getElementsByTagName>[number] }[] {
  const document = parseDocument(xml, { xmlMode: true });
  return DomUtils.getElementsByTagName('testcase', document).map((element) => ({
    name: element.attribs['name']!,
    children: DomUtils.getChildren(element)
      .filter((c) => c.type === 'tag')
      .map((c) => (c as typeof element).name),
    element,
  }));
}

/** The text of an element's `<system-out>`. */
const systemOut = (element: Parameters<typeof DomUtils.textContent>[0]) =>
  DomUtils.textContent(DomUtils.getElementsByTagName('system-out', element));

describe('repeated failures of one check collapse', () => {
  it('the same 500 to 22 requests differing in numbers, addresses and ids is one entry × 22 with the smallest request; another answer stays apart; a generated class is kept', () => {
    const same = Array.from({ length: 22 }, (_, i) =>
      failure({
        expected: `accepted: 200 and a start answer (limit: ${22 - i} alone)`,
        request: `curl -X POST 'http://127.0.0.1:4000/v2/crawl' --data-raw '{"url":"http://127.0.0.1:4000/site/${i}","limit":${'1'.repeat(30 - i)}}'`,
        got: { status: 500, body: `{"error":"Internal error","requestId":"6f1c2a9e-0b7d-4c1e-9a55-${String(i).padStart(12, '0')}"}` },
      }),
    );
    const other = failure({
      kind: 'status',
      message: '400 where the interface accepts the request',
      got: { status: 400, body: '{"error":"maxDepth refused"}' },
    });
    const generated = [0, 1].map((n) => failure({ counterexample: { seed: 7, path: String(n), shrinks: 3 } }));
    const out = collapse([...same.slice(0, 10), other, ...same.slice(10), ...generated]);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({ count: 22, message: same[0]!.message });
    // The smallest request is the last one built (its value has the fewest digits), shown with its own expectation.
    expect(out[0]!.request).toBe(same[21]!.request);
    expect(out[0]!.expected).toBe('accepted: 200 and a start answer (limit: 1 alone)');
    expect(out[1]).toBe(other);
    expect(out[1]!.count).toBeUndefined();
    expect(out.slice(2)).toEqual(generated);
  });

  it('three fields accepted with a fraction are three entries; the same field met again with other numbers, addresses and ids is one × 2', () => {
    // Issue 40: `limit: 2.5`, `maxDepth: 1.5` and `maxDiscoveryDepth: 1.5` accepted were one line `limit: 2.5 × 3`.
    const accepted = (field: string, value: number, id: string) =>
      failure({
        check: 'v2.crawl.start.invalid.fraction',
        kind: 'status',
        message: '200: the request was not refused, although the interface refuses it',
        expected: `refused: a 4xx answer and no job (${field}: ${value} is not an integer: /${field}: must be integer)`,
        section: 'interface §2.1',
        request: `curl -X POST 'http://127.0.0.1:4000/v2/crawl' --data-raw '{"url":"http://127.0.0.1:4000/site","${field}":${value}}'`,
        got: { status: 200, body: `{"success":true,"id":"${id}","url":"http://127.0.0.1:4000/v2/crawl/${id}"}` },
      });
    const out = collapse([
      accepted('limit', 2.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000001'),
      accepted('maxDepth', 1.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000002'),
      accepted('maxDiscoveryDepth', 1.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000003'),
      accepted('limit', 12.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000004'),
    ]);
    expect(out.map((f) => [f.expected, f.count])).toEqual([
      ['refused: a 4xx answer and no job (limit: 2.5 is not an integer: /limit: must be integer)', 2],
      ['refused: a 4xx answer and no job (maxDepth: 1.5 is not an integer: /maxDepth: must be integer)', undefined],
      ['refused: a 4xx answer and no job (maxDiscoveryDepth: 1.5 is not an integer: /maxDiscoveryDepth: must be integer)', undefined],
    ]);
    const text = formatText(report({ checks: [check('v2.crawl.start.invalid.fraction', { status: 'fail', failures: out })] }));
    for (const field of ['limit', 'maxDepth', 'maxDiscoveryDepth']) expect(text).toContain(`(${field}: `);
    expect(text).toContain('(4 failures)');
  });

  it("a field whose name ends in a digit is not another field's number: field1 and field2 are two classes", () => {
    const alone = (field: string) => failure({ expected: `accepted: 200 and a start answer (${field} alone)` });
    expect(collapse([alone('field1'), alone('field2'), alone('field1')]).map((f) => [f.expected, f.count])).toEqual([
      ['accepted: 200 and a start answer (field1 alone)', 2],
      ['accepted: 200 and a start answer (field2 alone)', undefined],
    ]);
  });

  it('a 400 naming another field is another class', () => {
    const refused = (field: string) =>
      failure({
        kind: 'status',
        message: '400 where the interface accepts the request',
        got: { status: 400, body: `{"error":"${field} refused"}` },
      });
    expect(collapse([refused('maxDepth'), refused('sitemap'), refused('maxDepth')]).map((f) => [f.got!.body, f.count])).toEqual([
      ['{"error":"maxDepth refused"}', 2],
      ['{"error":"sitemap refused"}', undefined],
    ]);
  });
});

describe('cutting', () => {
  it('a body past 600 bytes is cut between characters, saying how many bytes more', () => {
    const body = 'é'.repeat(1000);
    const shown = truncate(body);
    const [, head, more] = /^(.*)\.\.\. (\d+) bytes more$/su.exec(shown) ?? [];
    expect(head, shown).toBeDefined();
    expect(bytes(shown)).toBeLessThanOrEqual(600);
    expect(body.startsWith(head!)).toBe(true);
    expect(bytes(head!) + Number(more)).toBe(2000);
    expect(truncate('short')).toBe('short');
  });

  it('no line of the text report or of a JUnit entry is longer than the bound, and each cut says how much', () => {
    const long = 'x'.repeat(15_000);
    const failing = check('v2.crawl.start.valid', {
      status: 'fail',
      failures: [
        failure({
          check: 'v2.crawl.start.valid',
          message: `the body is not valid: ${long}`,
          request: `curl --data-raw '{"url":"${long}"}'`,
        }),
      ],
    });
    const r = report({ checks: [failing], unreachableReason: long });
    const text = formatText(r);
    for (const line of lines(text)) expect(bytes(line)).toBeLessThanOrEqual(LINE_LIMIT);
    expect(text).toMatch(/^ {6}request: {2}curl --data-raw '\{"url":"x+\.\.\. \d+ bytes more$/m);
    // In JUnit, what a viewer shows: the text of each element and each attribute (markup escaped, which lengthens it).
    const junit = parseDocument(formatJunit(r), { xmlMode: true });
    const shown = DomUtils.findAll(() => true, junit.children).flatMap((e) => [DomUtils.textContent(e), ...Object.values(e.attribs)]);
    expect(shown.join('\n')).toContain('bytes more');
    for (const line of lines(shown.join('\n'))) expect(bytes(line)).toBeLessThanOrEqual(LINE_LIMIT);
    // The JSON keeps the request as the failure holds it (cut only where it is made, past FAILURE_TEXT_LIMIT).
    expect(jsonReport(r).checks[0]!.failures[0]!.request).toHaveLength(15_000 + `curl --data-raw '{"url":""}'`.length);
  });

  it('no report a person reads is over REPORT_LIMIT, with a 12 MB request, body and message and every check failing at the most a failure keeps', () => {
    // Issue 40: a 12 MB request body made a 12.7 MB HTML report.
    const huge = `curl --data-raw '${'{"url":"http://127.0.0.1:4000/site"}\n'.repeat((12 * 1024 * 1024) / 36)}'`;
    const most = (text: string) => text.repeat(Math.ceil(FAILURE_TEXT_LIMIT / text.length)).slice(0, FAILURE_TEXT_LIMIT);
    const [message, expected, request, body, note] = ['<&> message ', 'expected\n', `curl '&'\n`, '<b>&amp;</b>\n', 'note '].map(most) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const entries = (name: string, n: number) =>
      Array.from({ length: n }, (_, i) =>
        failure({ check: name, message: `${i} ${message}`, expected, request, got: { status: 500, body } }),
      );
    const names = checkNames(['v1', 'v2']);
    const r = report({
      checks: [
        check(names[0]!, {
          status: 'fail',
          failures: [failure({ request: huge, message: huge, expected: huge, got: { status: 400, body: huge } })],
        }),
        ...names
          .slice(1)
          .map((name) =>
            check(name, { status: 'fail', failures: entries(name, 5), differences: entries(name, 2), notes: [note], detail: note }),
          ),
      ],
    });
    const [text, junit, html] = [formatText(r), formatJunit(r), formatHtml(r)];
    for (const [format, written] of [
      ['text', text],
      ['JUnit', junit],
      ['HTML', html],
    ] as const) {
      expect(bytes(written), format).toBeLessThanOrEqual(REPORT_LIMIT);
      expect(written, format).toContain(
        `more entries not shown: this report shows ${DETAIL_LIMIT} bytes of failure details at most (--json lists each)`,
      );
      // The 12 MB entry, shown first, is cut saying how much.
      expect(written, format).toMatch(/\.\.\. 12\d{6} bytes more/);
    }
    expectWellFormedXml(junit);
    expect(text.trimEnd().split('\n').pop()).toBe('deviations found');
  });

  it('a failure keeps FAILURE_TEXT_LIMIT bytes of a 12 MB request and message, so the JSON report of it is under REPORT_LIMIT', () => {
    const options = resolveOptions({ ...DEFAULT_OPTIONS, seed: 7, baseUrl: 'http://127.0.0.1:4000', token: TOKEN, versions: ['v2'] });
    const attempt = new Attempt({ name: 'v2.crawl.start.valid', level: 'interface' }, { options } as unknown as Env);
    const huge = 'x'.repeat(12 * 1024 * 1024);
    attempt.fail({
      kind: 'status',
      level: 'interface',
      message: `400 to ${huge}`,
      expected: 'accepted',
      section: 'interface §2.1',
      request: `curl -H 'Authorization: Bearer ${TOKEN}' --data-raw '{"url":"${huge}"}'`,
      got: { status: 400, body: huge },
    });
    const [kept] = attempt.failures;
    for (const text of [kept!.request!, kept!.message]) {
      expect(bytes(text)).toBeLessThanOrEqual(FAILURE_TEXT_LIMIT);
      expect(text).toMatch(/x\.\.\. 12\d{6} bytes more$/);
    }
    // Cleaned before it was cut: the token is redacted, not cut in half.
    expect(kept!.request).toContain("'Authorization: Bearer ***'");
    const json = JSON.stringify(
      jsonReport(report({ checks: [check('v2.crawl.start.valid', { status: 'fail', failures: attempt.failures })] })),
    );
    expect(bytes(json)).toBeLessThanOrEqual(REPORT_LIMIT);
  });

  it('cut keeps whole characters and counts the bytes left out', () => {
    expect(cut('abcdef', 6)).toBe('abcdef');
    const cutText = cut('😀'.repeat(100), 60);
    expect(bytes(cutText)).toBeLessThanOrEqual(60);
    const [, head, more] = /^(.*)\.\.\. (\d+) bytes more$/su.exec(cutText)!;
    expect([...head!].every((c) => c === '😀')).toBe(true);
    expect(bytes(head!) + Number(more)).toBe(400);
  });
});

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
