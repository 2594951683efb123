/**
 * The kit's HTML report (`crawlspec contract --html FILE`, scripts/contract/reporters/html.ts): one page that loads
 * nothing from elsewhere, says the verdict and the totals, and lists every check in a table, each failure with
 * expected, got, source and curl line, all of it escaped. The command writes it on a real run, and headless
 * Chromium opens it: its filter script ran (skipped with a notice without Chromium outside CI).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINE_LIMIT } from '../scripts/contract/wire/cut.js';
import type { ContractReport, Failure } from '../scripts/contract/report/report.js';
import { formatHtml, REPORT_CONTENT_SECURITY_POLICY } from '../scripts/contract/reporters/html.js';
import { externalLoads } from '../scripts/emit/docs.js';
import { installedReference } from '../scripts/reference/citationLink.js';
import { browserForTests, renderPage } from './support/renderPage.js';
import { check, report } from './support/reportFixtures.js';
import { runCli } from './support/runCli.js';

const BROWSER = browserForTests('the render tests of test/contractHtml.test.ts');

const HOSTILE = '</script><img src="https://evil.example/x.png" onerror="alert(1)">';

const failure = (over: Partial<Failure> = {}): Failure => ({
  check: 'v2.crawl.start.valid',
  kind: 'status',
  level: 'interface',
  message: `refused a valid crawl: 400 ${HOSTILE}`,
  expected: 'accepted: 200 and a start answer',
  section: 'interface §2.1',
  request: `curl -sS -X POST 'http://127.0.0.1:4000/v2/crawl' -H 'Authorization: Bearer ***' --data-raw '{"url":"http://127.0.0.1:4000/site"}'`,
  got: { status: 400, body: `{"success":false,"error":"${HOSTILE}"}` },
  ...over,
});

const REPORT: ContractReport = report({
  checks: [
    check('json.malformed'),
    check('v2.crawl.start.valid', { status: 'fail', failures: [failure(), failure({ count: 4 })] }),
    check('v2.rule.delay.maximum', {
      level: 'service',
      inScope: false,
      status: 'differs',
      differences: [failure({ level: 'service', section: 'service', message: 'accepted a delay of 61' })],
    }),
    check('v1.crawl.behaviour.limit', { status: 'skipped', detail: 'not selected (--only)', requests: 0 }),
    check('v2.crawl.behaviour.includePaths', {
      status: 'fail',
      failures: [
        failure({
          kind: 'crawl',
          message:
            'only /docs/: 1 page(s) not returned, though the crawl reaches them and no rule keeps them out: http://site.test/docs/a.html',
        }),
      ],
      crawls: [
        {
          title: 'only /docs/',
          start: 'http://site.test/',
          pages: [
            { url: 'http://site.test/', expected: 'may', returned: false },
            { url: 'http://site.test/docs/', expected: 'must', returned: true },
            { url: 'http://site.test/docs/a.html', expected: 'must', returned: false, problem: 'missing' },
            { url: 'http://site.test/blog/', expected: 'mustNot', returned: true, problem: 'extra' },
            { url: 'http://site.test/private/', expected: 'mustNot', returned: false },
          ],
          links: [
            [0, 1],
            [1, 2],
            [0, 3],
            [0, 4],
          ],
          strays: [`http://elsewhere.test/${HOSTILE}`],
          strayCount: 1,
        },
      ],
    }),
  ],
  notImplemented: [
    { method: 'POST', path: '/v2/batch/scrape', source: 'interface §4', statuses: [404], requests: 12, checks: ['v2.batch.start.valid'] },
  ],
});

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crawlspec-html-report-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the HTML report', () => {
  const html = formatHtml(REPORT);

  it('says the verdict, the exit status and the totals, and what kept the target from being tested as a whole', () => {
    expect(html).toContain('<span class="verdict deviations-found">deviations found</span>');
    expect(html).toContain('exit status 1');
    expect(html).toContain('<span>passed 1</span><span>failed 2</span>');
    expect(html).toContain('not implemented: 1 operation');
    expect(html).toContain('POST /v2/batch/scrape [interface §4]: 404 to 12 requests');
  });

  it('has a row per check with its state, and each failure with expected, got, source and the curl line', () => {
    expect(html.match(/<tr class="check" /g)).toHaveLength(REPORT.checks.length);
    expect(html).toContain('<tr class="check" data-status="fail"');
    expect(html).toContain('<dt>expected</dt><dd>accepted: 200 and a start answer</dd>');
    expect(html).toContain(`<dt>source</dt><dd><a href="${installedReference()}#s2-1">interface §2.1</a> (interface level, status)</dd>`);
    expect(html).toContain('<dt>request</dt><dd><pre>curl -sS -X POST &#39;http://127.0.0.1:4000/v2/crawl&#39;');
    expect(html).toContain('<b>× 4</b>');
    expect(html).toContain('differs from the service (does not decide the verdict):');
    expect(html).toContain('not selected (--only)');
  });

  it("draws a behaviour check's crawl as the test site, its pages marked missing, extra, returned or kept out", () => {
    expect(html).toContain('<figcaption>only /docs/ (from http://site.test/): 1 missing, 2 extra</figcaption>');
    expect(html.match(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" class="crawl-graph"/g)).toHaveLength(1);
    expect(html).toContain('<title>http://site.test/docs/a.html: missing: it must be returned</title>');
    expect(html).toContain('<title>http://site.test/blog/: extra: returned, though a rule keeps it out</title>');
    expect(html).toContain('<title>http://site.test/docs/: returned, as it must be</title>');
    expect(html).toContain('<title>http://site.test/private/: not returned, as it must not be</title>');
    expect(html.match(/<line /g)).toHaveLength(4);
    expect(html).toContain('returned, but no page of the test site (1): http://elsewhere.test/&lt;/script&gt;');
  });

  it('escapes what the target sent: no markup of it survives, and the page loads nothing from elsewhere', () => {
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;/script&gt;&lt;img src=&quot;https://evil.example/x.png&quot;');
    expect(externalLoads(html)).toEqual([]);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CONTENT_SECURITY_POLICY}">`);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });
});

/** A run with failing, passing and unfinished checks, long dotted names, a long answer and curl line (issue 40). */
const READ_FIRST: ContractReport = report({
  checks: [
    check('json.malformed'),
    check('v2.crawl.behaviour.maxDiscoveryDepthAndIncludePathsTogether', { status: 'inconclusive', detail: 'the crawl did not end within 60 s' }),
    check('v2.batch.scrape.behaviour.ignoreInvalidURLs', { status: 'skipped', detail: 'no test site: --behaviour-site not given' }),
    check('v1.crawl.behaviour.limit', { status: 'skipped', detail: 'no test site: --behaviour-site not given' }),
    check('v2.crawl.start.fieldAlone', {
      status: 'fail',
      failures: [
        failure({
          message: `refused a valid crawl: 400 https://example.com/${'y'.repeat(400)}`,
          request: `curl -sS -X POST 'http://127.0.0.1:4000/v2/crawl' --data-raw '{"url":"http://127.0.0.1:4000/site","pad":"${'x'.repeat(50_000)}"}'`,
          got: { status: 400, body: `{"error":"${'z'.repeat(3000)}\n${'w'.repeat(3000)}"}` },
        }),
      ],
    }),
  ],
});

describe('the HTML report: what a person reads first', () => {
  const html = formatHtml(READ_FIRST);
  const rowOrder = [...html.matchAll(/<tr class="check" data-status="(\w+)"/g)].map((m) => m[1]);

  it('the failing checks first, then those that did not run to a verdict, the passing ones last', () => {
    expect(rowOrder).toEqual(['fail', 'inconclusive', 'skipped', 'skipped', 'pass']);
  });

  it('an incomplete run says why at the top, before the table: the unfinished in-scope checks grouped by detail', () => {
    const r = report({ checks: READ_FIRST.checks.filter((c) => c.status !== 'fail') });
    const page = formatHtml(r);
    expect(page).toContain('<span class="verdict incomplete">incomplete</span>');
    const notice = /<div class="notice">([^<]*(?:<wbr>[^<]*)*)<\/div>/.exec(page)?.[1]?.replace(/<wbr>/g, '');
    expect(notice).toBe(
      [
        'incomplete: 3 in-scope checks did not run to a verdict:',
        '  v2.crawl.behaviour.maxDiscoveryDepthAndIncludePathsTogether: the crawl did not end within 60 s',
        '  2 checks: no test site: --behaviour-site not given: v2.batch.scrape.behaviour.ignoreInvalidURLs, v1.crawl.behaviour.limit',
      ].join('\n'),
    );
    expect(page.indexOf('<div class="notice">')).toBeLessThan(page.indexOf('<table>'));
  });

  it('a check name breaks after its dots and nowhere else; no style lets a word break anywhere', () => {
    expect(html).toContain('<td class="name">v2.<wbr>crawl.<wbr>behaviour.<wbr>maxDiscoveryDepthAndIncludePathsTogether</td>');
    expect(html).not.toMatch(/overflow-wrap:\s*anywhere/);
    expect(html).toMatch(/td\.name \{[^}]*word-break: keep-all/);
  });

  it('the answer and the curl line are cut as in the text report: each line LINE_LIMIT bytes at most, saying how much', () => {
    const pres = [...html.matchAll(/<pre>([^<]*)<\/pre>/g)].map((m) => m[1]!.replace(/&#39;|&quot;/g, "'"));
    expect(pres).toHaveLength(2);
    for (const pre of pres) for (const line of pre.split('\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(LINE_LIMIT);
    expect(pres[1]).toMatch(/\.\.\. \d+ bytes more$/);
  });
});

describe.skipIf(BROWSER.skip)('the HTML report in headless Chromium', () => {
  // The page measured as it lays out, in a frame of the width (headless Chromium's window is 500 pixels wide at
  // least): a script the test adds posts how wide the page is against its window to the frame's parent, which writes it.
  const MEASURE = `<script>addEventListener('load', () => parent.postMessage(document.documentElement.scrollWidth + ' ' + innerWidth, '*'));</script>`;
  const frame = (file: string, width: number) =>
    `<!DOCTYPE html><html><body style="margin:0"><iframe src="${file}" style="width:${width}px;height:900px;border:0"></iframe><script>addEventListener('message', (m) => { const o = document.createElement('output'); o.id = 'measured'; o.textContent = m.data; document.body.append(o); });</script></body></html>`;
  for (const width of [1280, 400])
    it(`at ${width} pixels wide the page does not scroll sideways`, async () => {
      await writeFile(join(scratch, `wide-${width}.html`), formatHtml(READ_FIRST).replace('</body>', `${MEASURE}</body>`));
      const file = join(scratch, `frame-${width}.html`);
      await writeFile(file, frame(`wide-${width}.html`, width));
      const page = await renderPage(BROWSER.path(), file, '', '<output id="measured">', 1300);
      const [scroll, window] = /<output id="measured">(\d+) (\d+)<\/output>/.exec(page.dom)!.slice(1).map(Number);
      expect(window).toBe(width);
      expect(scroll).toBeLessThanOrEqual(width);    }, 120_000);


  it('a failing report: the filter script ran over every row, failures shown, nothing fetched', async () => {
    const chromium = BROWSER.path();
    const file = join(scratch, 'failing.html');
    await writeFile(file, formatHtml(REPORT));
    const page = await renderPage(chromium, file, '', '<table>');
    expect(page.dom).toContain('5 of 5 checks shown');
    expect(page.dom).toContain('class="crawl-graph"');
    expect(page.dom).not.toContain('<img src="https://evil.example');
    expect(page.requests).toEqual([]);
  }, 120_000);

  it('crawlspec contract --html FILE writes the report of a real run, which opens with its table', async () => {
    const chromium = BROWSER.path();
    const file = join(scratch, 'report.html');
    const run = await runCli(['contract', '--only', 'json.malformed', '--html', file], '', 120_000);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const html = await readFile(file, 'utf8');
    const rows = html.match(/<tr class="check" /g)?.length ?? 0;
    expect(rows).toBeGreaterThan(100);
    expect(html).toContain('<span class="verdict conformant">conformant</span>');
    expect(html).toContain('<tr class="check" data-status="pass" data-search="json.malformed');
    const page = await renderPage(chromium, file, '', '<table>');
    expect(page.dom).toContain(`${rows} of ${rows} checks shown`);
    expect(page.requests).toEqual([]);
  }, 180_000);
});

describe('crawlspec contract --html: usage errors before anything runs', () => {
  it('the same file as --report is refused, one line, exit 2', async () => {
    const file = join(scratch, 'same.out');
    const run = await runCli(['contract', '--only', 'json.malformed', '--report', file, '--html', file], '', 60_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^crawlspec: --report and --html name the same file /);
  });
});
