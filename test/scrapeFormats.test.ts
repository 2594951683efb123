/**
 * Formats recognised by their content (schemas/scrape/formatSearch.ts, judge.ts): interface §1 says a page is
 * returned in the formats asked for and the formats rows of §2.3 / §2.4 name them, while the record's field
 * names are the service's (§2.6 shows none). So at interface level the judge looks for each format asked for in
 * any field of the record, and judges what the options mean on the field the service names when it is there,
 * else on the text found to hold the format. Records here are the service's way of scraping the page
 * (test/support/serviceScrape.ts), with their fields renamed, left out or nested as an implementation might.
 * The search is bounded in depth, values and characters, and linear: a record is the implementation's.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { judgeScrapeRecord, type ScrapeFinding } from '../schemas/scrape/judge.js';
import type { ScrapeExpectation } from '../schemas/scrape/constraint.js';
import { scrapeExpectation } from '../schemas/scrape/oracle.js';
import { MAX_CHARS, MAX_DEPTH, MAX_VALUES } from '../schemas/scrape/reader.js';
import type { Version } from '../schemas/versions.js';
import { scrapePage, type ScrapePageName } from '../scripts/site/scrapePages.js';
import { serviceRecord } from './support/serviceScrape.js';

const ORIGINS = { main: 'http://127.0.0.1:4000', external: 'http://127.0.0.2:4000', tls: 'https://127.0.0.1:4001' };

/** The expectation of a scrape of `name`, and the record the service's way gives for it. */
function scrape(name: ScrapePageName, options: Record<string, unknown>, version: Version = 'v1') {
  const page = scrapePage(ORIGINS, name);
  const expectation = scrapeExpectation(page, { version, options });
  const record = serviceRecord({ url: page.url, status: page.status, title: page.title!, html: page.body! }, options);
  return { page, expectation, record };
}

/** `record` with its field `from` under the name `to` (dotted: nested), the rest unchanged. */
function renamed(record: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const { [from]: value, ...rest } = record;
  const path = to.split('.');
  const nested = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
  return { ...rest, ...nested };
}

const judged = (e: ScrapeExpectation, record: unknown) => judgeScrapeRecord(e, record);
const format = (findings: readonly ScrapeFinding[], name: string) =>
  findings.find((f) => f.constraint.kind === 'holdsFormat' && f.constraint.value === name)!;
const present = (findings: readonly ScrapeFinding[], name: string) =>
  findings.find((f) => f.constraint.kind === 'present' && f.constraint.field === name)!;
const violatedAt = (findings: readonly ScrapeFinding[], level: string) =>
  findings.filter((f) => f.outcome === 'violated' && f.level === level).map((f) => f.constraint.id);

describe('the oracle asks for each format by its content, at interface level (§1 and the formats row)', () => {
  it.each(['v1', 'v2'] as const)(
    '%s: one holdsFormat per text format asked for, citing §1 and the formats row of its version',
    (version) => {
      const { expectation, page } = scrape('article', { formats: ['markdown', 'html', 'rawHtml', 'links'] }, version);
      const formats = expectation.constraints.filter((c) => c.kind === 'holdsFormat');
      expect(formats.map((c) => `${c.value} ${c.field} ${c.level}`)).toEqual([
        'markdown record interface',
        'html record interface',
        'rawHtml record interface',
        'links record interface',
      ]);
      const row = version === 'v1' ? 'interface §2.3' : 'interface §2.4';
      expect(formats[1]!.cites).toEqual([
        { source: 'interface §1', names: ['output formats'] },
        { source: row, names: ['formats', 'html'] },
      ]);
      // What each is recognised by: the main texts (not the furniture), every text of the page, the content's links.
      const main = page.texts.filter((t) => t.region === 'main').map((t) => t.text);
      expect(formats[1]!.values).toEqual(main);
      expect(formats[2]!.values).toEqual(page.texts.map((t) => t.text));
      expect(formats[3]!.values).toEqual(page.texts.filter((t) => t.region === 'main' && t.href !== undefined).map((t) => t.href));
    },
  );

  it('a format the options leave nothing in at interface level is not looked for; nor one not asked for', () => {
    const { expectation } = scrape('article', { formats: ['html'], includeTags: ['.lead'] });
    expect(expectation.constraints.filter((c) => c.kind === 'holdsFormat')).toEqual([]);
    const plain = scrape('article', { formats: ['markdown'] }).expectation;
    expect(plain.constraints.filter((c) => c.kind === 'holdsFormat').map((c) => c.value)).toEqual(['markdown']);
  });
});

describe('the judge finds a format in any field', () => {
  it('the HTML under another name: every interface constraint holds, on the text that holds it; the service’s name is a service-level difference', () => {
    const { expectation, record } = scrape('article', { formats: ['markdown', 'html'] });
    const findings = judged(expectation, renamed(record, 'html', 'content.cleanedHtml'));
    expect(format(findings, 'html')).toMatchObject({ outcome: 'holds', seen: expect.stringMatching(/^content\.cleanedHtml is HTML/) });
    expect(violatedAt(findings, 'interface')).toEqual([]);
    expect(findings.filter((f) => f.outcome === 'notJudged').map((f) => f.constraint.id)).toEqual([]);
    expect(violatedAt(findings, 'service')).toEqual(['formats/html/present/html']);
    // The meaning of onlyMainContent is judged on the text found, and says so.
    const header = findings.find((f) => f.constraint.option === 'onlyMainContent' && f.constraint.field === 'html')!;
    expect(header).toMatchObject({
      outcome: 'holds',
      seen: expect.stringContaining('the record has no html; judged on content.cleanedHtml'),
    });
  });

  it('a markdown-only record where html was asked for breaks interface §1 and the formats row; what html means is not judged', () => {
    const { expectation, record } = scrape('article', { formats: ['markdown', 'html'] });
    const { html: _html, ...markdownOnly } = record;
    const findings = judged(expectation, markdownOnly);
    expect(format(findings, 'html')).toMatchObject({
      outcome: 'violated',
      level: 'interface',
      cite: 'interface §1 (output formats); interface §2.3 (formats, html)',
      seen: expect.stringContaining('markdown holds every one of the'),
    });
    expect(format(findings, 'html').seen).toContain('is no HTML');
    // Markdown with the service's placeholder of a base64 image, `<Base64-Image-Removed>`, is no HTML either.
    const image = scrape('image', { formats: ['markdown', 'html'] });
    expect(image.record['markdown']).toContain('<Base64-Image-Removed>');
    expect(format(judged(image.expectation, { ...image.record, html: undefined }), 'html').outcome).toBe('violated');
    expect(format(findings, 'markdown').outcome).toBe('holds');
    expect(violatedAt(findings, 'interface')).toEqual(['formats/record/holdsFormat/html']);
    expect(present(findings, 'html').outcome).toBe('violated');
    expect(new Set(findings.filter((f) => f.constraint.field === 'html' && f.constraint.kind !== 'present').map((f) => f.outcome))).toEqual(
      new Set(['notJudged']),
    );
  });

  it('a meaning broken in a format under another name is found at interface level, on the text found', () => {
    const { expectation } = scrape('article', { formats: ['html'] });
    const { record: whole } = scrape('article', { formats: ['html'], onlyMainContent: false });
    const findings = judged(expectation, renamed(whole, 'html', 'page'));
    expect(format(findings, 'html').outcome).toBe('holds');
    const broken = findings.filter((f) => f.outcome === 'violated' && f.level === 'interface');
    expect(new Set(broken.map((f) => f.constraint.option))).toEqual(new Set(['onlyMainContent']));
    expect(broken[0]!.seen).toMatch(/^the record has no html; judged on page, which is HTML .*: found in page: /);
  });

  it('of several texts that hold a format, the one that fits it best: for markdown one that is no HTML; for HTML the one that keeps the options', () => {
    const { expectation, record } = scrape('article', { formats: ['markdown', 'rawHtml'] });
    const { markdown, rawHtml, ...rest } = record;
    // The raw HTML first: it holds the main text too, and the furniture.
    const findings = judged(expectation, { ...rest, a: rawHtml, b: markdown });
    expect(format(findings, 'markdown').seen).toMatch(/^b holds/);
    expect(format(findings, 'rawHtml').seen).toMatch(/^a is HTML/);
    expect(violatedAt(findings, 'interface')).toEqual([]);

    const html = scrape('article', { formats: ['html'] });
    const raw = scrape('article', { formats: ['rawHtml'] }).record['rawHtml'];
    const two = judged(html.expectation, { raw, cleaned: html.record['html'], metadata: html.record['metadata'] });
    expect(format(two, 'html').seen).toMatch(/^cleaned is HTML/);
    expect(violatedAt(two, 'interface')).toEqual([]);

    // Two texts that fit markdown as well as each other (one of them with its headings as plain lines, which no source forbids): the one that is no HTML.
    const options = { formats: ['markdown', 'html'], onlyMainContent: false };
    const all = scrape('article', options);
    const page = scrapePage(ORIGINS, 'article');
    const flat = serviceRecord({ url: page.url, status: page.status, title: page.title!, html: page.body! }, options, 'headingsAsText');
    const tie = judged(all.expectation, { a: all.record['html'], b: flat['markdown'], metadata: all.record['metadata'] });
    expect(format(tie, 'markdown').seen).toMatch(/^b holds/);
    expect(violatedAt(tie, 'service').filter((id) => id.includes('hasLine'))).toHaveLength(0);
  });

  it('links under another name, and links that are no absolute addresses', () => {
    const { expectation, record } = scrape('article', { formats: ['links'] });
    expect(violatedAt(judged(expectation, renamed(record, 'links', 'data.urls')), 'interface')).toEqual([]);
    const relative = { ...record, links: (record['links'] as string[]).map((l) => new URL(l).pathname) };
    expect(format(judged(expectation, relative), 'links')).toMatchObject({ outcome: 'violated', seen: expect.stringContaining('no list') });
  });
});

describe('the content search is bounded and linear', () => {
  const { expectation, record } = scrape('article', { formats: ['html'] });
  const html = record['html'] as string;
  const nestedAt = (depth: number) => Array.from({ length: depth }).reduce<unknown>((inner) => ({ x: inner }), html);

  it(`in depth: a text nested ${MAX_DEPTH} deep is found, one deeper is not read, and the format is then not judged, not found missing`, () => {
    expect(format(judged(expectation, nestedAt(MAX_DEPTH)), 'html').outcome).toBe('holds');
    expect(format(judged(expectation, nestedAt(MAX_DEPTH + 1)), 'html')).toMatchObject({
      outcome: 'notJudged',
      seen: expect.stringContaining(`nested deeper than ${MAX_DEPTH}`),
    });
    expect(format(judged(expectation, { other: nestedAt(MAX_DEPTH + 1) }), 'html').outcome).toBe('notJudged');
    expect(format(judged(expectation, { markdown: 'no HTML here' }), 'html').outcome).toBe('violated');
  });

  it('a text looked for in the whole record is not found missing past the bounds either', () => {
    const slow = scrapeExpectation(scrapePage(ORIGINS, 'slow'), { version: 'v2', options: { timeout: 1000 } });
    const text = slow.constraints.find((c) => c.kind === 'lacks')!.text!;
    const outcome = (record: unknown) =>
      judgeScrapeRecord({ ...slow, constraints: [slow.constraints.find((c) => c.kind === 'lacks')!] }, record)[0]!;
    expect(outcome({ x: { y: 'nothing' } }).outcome).toBe('holds');
    expect(outcome({ deep: nestedAt(MAX_DEPTH + 1) })).toMatchObject({ outcome: 'notJudged', seen: expect.stringContaining('deeper') });
    expect(outcome({ deep: { x: text } }).outcome).toBe('violated');
  });

  it(`in values: past ${MAX_VALUES} values the walk stops`, () => {
    const filler = Array.from({ length: MAX_VALUES }, (_, i) => i);
    expect(format(judged(expectation, { filler, html }), 'html')).toMatchObject({
      outcome: 'notJudged',
      seen: expect.stringContaining(`more than ${MAX_VALUES} values`),
    });
    expect(format(judged(expectation, { filler: filler.slice(10), html }), 'html').outcome).toBe('holds');
  });

  it(`in characters: past ${MAX_CHARS} characters of text the walk reads no more`, () => {
    const big = 'x'.repeat(MAX_CHARS - html.length + 1);
    expect(format(judged(expectation, { big, html }), 'html')).toMatchObject({
      outcome: 'notJudged',
      seen: expect.stringContaining(`past ${MAX_CHARS} characters`),
    });
    expect(format(judged(expectation, { big: big.slice(1), html }), 'html').outcome).toBe('holds');
  });

  // A quadratic reading (a pattern that looks for the end of a tag from every `<`) takes hours on these; a
  // linear one about a second. They are read in a worker thread, so that a reading that never ends can be
  // stopped: the test waits for its answer, and the guard (a hundred times the time needed) only ends the wait.
  it('texts made to slow a reader down are read in one pass', { timeout: 150_000 }, async () => {
    const n = 2_000_000;
    const hostile = [
      '<'.repeat(n),
      '<a'.repeat(n / 2),
      '<!--'.repeat(n / 4),
      '<script>'.repeat(n / 8),
      '</p'.repeat(n / 3),
      '&#'.repeat(n / 2),
    ];
    expect(await inWorker(expectation, hostile, 120_000)).toEqual({ read: hostile.length, html: 'violated' });
  });
});

/**
 * Reads each of `texts` as HTML, and judges a record of them against `expectation`, in a worker thread (the
 * sources loaded with tsx); answers what it read and the html format's outcome, or rejects when `guardMs`
 * passes first (the worker is then terminated).
 */
function inWorker(expectation: ScrapeExpectation, texts: readonly string[], guardMs: number): Promise<unknown> {
  const code = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  (await import(workerData.tsx)).register();
  const { htmlText } = await import(workerData.text);
  const { judgeScrapeRecord } = await import(workerData.judge);
  const read = workerData.texts.filter((text) => typeof htmlText(text) === 'string').length;
  const record = Object.fromEntries(workerData.texts.map((text, i) => ['f' + i, text]));
  const html = judgeScrapeRecord(workerData.expectation, record).find((f) => f.constraint.kind === 'holdsFormat').outcome;
  parentPort.postMessage({ read, html });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;
  const workerData = {
    // An evaluated worker resolves a bare name from the working directory: the project's, under vitest.
    tsx: 'tsx/esm/api',
    text: new URL('../schemas/scrape/text.ts', import.meta.url).href,
    judge: new URL('../schemas/scrape/judge.ts', import.meta.url).href,
    expectation,
    texts,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData });
    const guard = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the texts were not read within ${guardMs} ms: the reading is not linear`));
    }, guardMs);
    worker.once('message', (answer) => {
      clearTimeout(guard);
      void worker.terminate();
      resolve(answer);
    });
    worker.once('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
  });
}
