/**
 * What the contract kit writes for a CI to act on is cut, saying how much: bodies past 600 bytes, lines of the
 * text report and of JUnit entries, a failure past FAILURE_TEXT_LIMIT, and no report a person reads is over
 * REPORT_LIMIT. Hand-built reports.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { Attempt, truncate, type Env } from '../scripts/contract/engine/context.js';
import { DEFAULT_OPTIONS, resolveOptions } from '../scripts/contract/engine/options.js';
import { cut, DETAIL_LIMIT, FAILURE_TEXT_LIMIT, LINE_LIMIT, REPORT_LIMIT } from '../scripts/contract/wire/cut.js';
import { jsonReport } from '../scripts/contract/report/report.js';
import { formatHtml } from '../scripts/contract/reporters/html.js';
import { checkNames, formatJunit, formatText } from '../scripts/contract/index.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { check, report } from './support/reportFixtures.js';
import { TOKEN, bytes, failure, lines } from './support/contractOutputParts.js';

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
