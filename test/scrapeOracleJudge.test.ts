/**
 * The scrape judge (schemas/scrape/judge.ts) on records written by hand, and on records of a scrape done the
 * service's way (test/support/serviceScrape.ts) broken one way at a time: each way of breaking a scrape is caught,
 * at the level it breaks.
 */
import { describe, expect, it } from 'vitest';
import { judgeScrapeRecord } from '../schemas/scrape/judge.js';
import type { ScrapeConstraint } from '../schemas/scrape/constraint.js';
import type { Version } from '../schemas/versions.js';
import { type ScrapePageName } from '../scripts/site/scrapePages.js';
import { serviceRecord, type Break } from './support/serviceScrape.js';
import { FIRST, expected, page, textsIn, violations } from './support/scrapeOracleCases.js';

describe('the judge', () => {
  const e = expected('article', 'v1', { formats: ['markdown', 'html', 'links'] });
  const lacking = (text: string, field: string) => e.constraints.find((c) => c.text === text && c.field === field && c.kind === 'lacks')!;
  const containing = (text: string, field: string) =>
    e.constraints.find((c) => c.text === text && c.field === field && c.kind === 'contains')!;
  const judgeOne = (c: ScrapeConstraint, record: unknown) => judgeScrapeRecord({ ...e, constraints: [c] }, record)[0]!;
  const header = textsIn('article', 'header')[0]!;

  it('reads markdown as a reader sees it: escapes, references and line breaks do not hide a text', () => {
    const c = containing(FIRST, 'markdown');
    const written = FIRST.replace(' of the', '\n of&#32;the').replace('.', '\\.');
    expect(judgeOne(c, { markdown: written }).outcome).toBe('holds');
    expect(judgeOne(c, { markdown: FIRST.replace('main', 'mean') }).outcome).toBe('violated');
  });

  it('reads HTML as its text: tags, comments and references do not hide or make a text', () => {
    const html = (text: string) => judgeOne(containing(FIRST, 'html'), { html: `<div><p class="x">${text}</p></div>` }).outcome;
    expect(html(FIRST.replace('what', 'wh<!-- -->at').replace('for', '&#102;or'))).toBe('holds');
    expect(html(FIRST.replace('what', '<span>wh</span>at'))).toBe('holds');
    expect(html(FIRST.replace('what', 'wh</p><p>at'))).toBe('violated');
    expect(
      judgeOne(containing(FIRST, 'html'), { html: `<div><p class="x">${FIRST.replace('for', '&#102;or').replace(/ /g, '\n  ')}</p></div>` })
        .outcome,
    ).toBe('holds');
    expect(judgeOne(lacking(header, 'html'), { html: `<p title="${header}">x</p>` }).outcome).toBe('holds');
    expect(judgeOne(lacking(header, 'html'), { html: `<header><p>${header}</p></header>` })).toMatchObject({
      outcome: 'violated',
      seen: expect.stringContaining('found in html'),
    });
  });

  it('a field missing leaves a meaning not judged (its field name is the service’s); a field of the wrong type is violated; no record: record constraints only', () => {
    const findings = judgeScrapeRecord(e, { content: FIRST, html: 7 });
    expect(findings.find((f) => f.constraint === containing(FIRST, 'markdown'))).toMatchObject({
      outcome: 'notJudged',
      level: 'interface',
      seen: expect.stringContaining('§2.6'),
    });
    expect(findings.find((f) => f.constraint.field === 'markdown' && f.constraint.kind === 'present')!.outcome).toBe('violated');
    expect(findings.find((f) => f.constraint === containing(FIRST, 'html'))!.outcome).toBe('violated');
    expect(new Set(judgeScrapeRecord(e, undefined).map((f) => f.outcome))).toEqual(new Set(['notJudged']));
    const slow = expected('slow', 'v2', { timeout: 1000 });
    expect(new Set(judgeScrapeRecord(slow, undefined).map((f) => f.outcome))).toEqual(new Set(['holds']));
    expect(violations(judgeScrapeRecord(slow, { markdown: page('slow').texts[1]!.text })).map((f) => f.constraint.kind)).toEqual([
      'lacks',
      'absent',
    ]);
  });

  it('links: a relative address, or one that is no link of the page, is wrong', () => {
    const includes = e.constraints.find((c) => c.kind === 'includes')!;
    const only = e.constraints.find((c) => c.kind === 'only')!;
    expect(judgeOne(includes, { links: ['image.html'] }).outcome).toBe('violated');
    expect(judgeOne(includes, { links: ['http://127.0.0.1:4000/scrape/image.html#top'] }).outcome).toBe('holds');
    expect(judgeOne(only, { links: ['http://127.0.0.1:4000/about.html', 'image.html'] })).toMatchObject({
      outcome: 'violated',
      seen: expect.stringContaining('image.html'),
    });
    expect(judgeOne(only, { links: 'http://127.0.0.1:4000/about.html' }).outcome).toBe('violated');
  });

  it('base64 data is found with whitespace in it; what was seen is bounded', () => {
    const c = expected('image', 'v1', { removeBase64Images: false }).constraints.find((x) => x.kind === 'holdsBase64')!;
    const data = c.text!;
    expect(judgeOne(c, { markdown: `![a](data:image/png;base64,${data.slice(0, 20)}\n${data.slice(20)})` }).outcome).toBe('holds');
    const huge = judgeOne(c, { markdown: 'x'.repeat(100_000) });
    expect(huge.outcome).toBe('violated');
    expect(huge.seen.length).toBeLessThanOrEqual(400);
  });

  it('raw HTML that is not the page says where it first differs', () => {
    const body = page('article').body!;
    const c = expected('article', 'v1', { formats: ['rawHtml'] }).constraints.find((x) => x.kind === 'equals' && x.field === 'rawHtml')!;
    const at = body.indexOf('<main>');
    expect(judgeOne(c, { rawHtml: body }).outcome).toBe('holds');
    expect(judgeOne(c, { rawHtml: `${body.slice(0, at)}<main class="x">${body.slice(at + 6)}` })).toMatchObject({
      outcome: 'violated',
      seen: expect.stringMatching(new RegExp(`^rawHtml differs from character ${at + 5} on: it has " class=`)),
    });
    expect(judgeOne(c, { rawHtml: 3 }).outcome).toBe('violated');
  });

  it('a finding repeats the level and the citation, and says what was seen', () => {
    const [finding] = judgeScrapeRecord({ ...e, constraints: [lacking(header, 'markdown')] }, { markdown: `# x\n\n${header}` });
    expect(finding).toMatchObject({
      outcome: 'violated',
      level: 'interface',
      cite: 'interface §2.3 (onlyMainContent)',
      seen: expect.stringContaining(header),
    });
  });
});

describe('each way of breaking a scrape is caught, at the level it breaks', () => {
  const run = (name: ScrapePageName, version: Version, options: Record<string, unknown>, breaks?: Break) => {
    const p = page(name);
    const findings = judgeScrapeRecord(
      expected(name, version, options),
      serviceRecord({ url: p.url, status: p.status, title: p.title!, html: p.body! }, options, breaks),
    );
    return [...new Set(violations(findings).map((f) => `${f.level} ${f.constraint.option} ${f.constraint.field}`))].sort();
  };

  it.each<[Break, ScrapePageName, Record<string, unknown>, string[]]>([
    ['includeTags', 'article', { includeTags: ['blockquote'] }, ['interface includeTags markdown']],
    ['excludeTags', 'article', { excludeTags: ['blockquote'] }, ['interface excludeTags markdown']],
    ['onlyMainContent', 'article', {}, ['interface onlyMainContent markdown', 'service onlyMainContent markdown']],
    ['removeBase64Images', 'image', {}, ['interface removeBase64Images markdown', 'service removeBase64Images markdown']],
    ['onlyMarkdown', 'article', { formats: ['markdown', 'html'] }, ['interface formats record', 'service formats html']],
    ['emptyMarkdown', 'article', {}, ['interface formats markdown', 'interface formats record']],
    ['relativeLinks', 'article', { formats: ['links'] }, ['interface formats links', 'interface formats record']],
    [
      'cleanedRawHtml',
      'article',
      { formats: ['rawHtml'] },
      ['interface formats rawHtml', 'interface formats record', 'service formats rawHtml'],
    ],
  ])('%s', (breaks, name, options, caught) => {
    expect(run(name, 'v1', options)).toEqual([]);
    expect(run(name, 'v1', options, breaks)).toEqual(caught);
  });
});
