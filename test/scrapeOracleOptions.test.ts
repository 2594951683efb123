/**
 * The scrape oracle (schemas/scrape/) on the options of a scrape request and the formats of its record, sentence by
 * sentence of interface §2.3 / §2.4 / §2.5, at the level each rests on: `headers` (with `mobile` and
 * `location.languages`), `maxAge` and `storeInCache`, `timeout` and `skipTlsVerification`, `parsePDF` and
 * `parsers`, and the formats and the record's own fields.
 */
import { describe, expect, it } from 'vitest';
import { fetchCountOf, judgeScrapeRecord } from '../schemas/scrape/judge.js';
import type { ScrapeConstraint, ScrapeExpectation } from '../schemas/scrape/constraint.js';
import { type EarlierScrape } from '../schemas/scrape/oracle.js';
import { echoLine, fetchCountLine } from '../schemas/scrape/page.js';
import { cites, expected, on, page, verdict } from './support/scrapeOracleCases.js';

describe('headers (§2.3): the headers the page is asked for with; mobile and location.languages (service)', () => {
  it('a header given is shown by the page that echoes them, at interface level; one an HTTP client sets itself is not judged', () => {
    const e = expected('headers', 'v1', { headers: { 'X-Crawlspec-Probe': 'probe value', Host: 'elsewhere.example' } });
    const mine = e.constraints.filter((c) => c.option === 'headers');
    expect(mine.map((c) => `${c.field} ${c.kind} ${c.level} ${c.text}`)).toEqual([
      `markdown hasLine interface ${echoLine('x-crawlspec-probe', 'probe value')}`,
    ]);
    expect(mine[0]!.cites).toEqual(cites('v1', 'headers'));
    expect(e.notJudged.map((n) => n.option)).toContain('headers');
  });

  it('a page that does not echo them says so', () => {
    expect(expected('article', 'v1', { headers: { 'X-A': 'b' } }).notJudged).toContainEqual({
      option: 'headers',
      why: expect.stringContaining('does not show'),
    });
  });

  it('mobile: a mobile browser’s user agent, and without it a desktop one (service)', () => {
    const mobile = expected('headers', 'v2', { mobile: true }).constraints.find((c) => c.option === 'mobile' && c.field !== 'record')!;
    const desktop = expected('headers', 'v2', {}).constraints.find((c) => c.option === 'mobile')!;
    expect([mobile.kind, mobile.level, desktop.kind, desktop.level]).toEqual(['hasLineMatching', 'service', 'noLineMatching', 'service']);
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const record = (agent: string) => ({ markdown: `${echoLine('user-agent', agent.replace(/_/g, '\\_'))}\n\nrest` });
    const judged = (c: ScrapeConstraint, agent: string) =>
      judgeScrapeRecord({ url: '', settings: {} as never, constraints: [c], notJudged: [] }, record(agent))[0]!.outcome;
    expect([judged(mobile, iphone), judged(mobile, 'Mozilla/5.0 (X11; Linux x86_64)')]).toEqual(['holds', 'violated']);
    expect([judged(desktop, iphone), judged(desktop, 'Mozilla/5.0 (X11; Linux x86_64)')]).toEqual(['violated', 'holds']);
  });

  it('location.languages: the first language in Accept-Language (service), a language tag and not a prefix of one', () => {
    const c = expected('headers', 'v1', { location: { country: 'DE', languages: ['de-DE', 'en'] } }).constraints.find(
      (x) => x.option === 'location' && x.field !== 'record',
    )!;
    expect([c.kind, c.level]).toEqual(['hasLineMatching', 'service']);
    const judged = (value: string) =>
      judgeScrapeRecord(
        { url: '', settings: {} as never, constraints: [c], notJudged: [] },
        { markdown: echoLine('accept-language', value) },
      )[0]!.outcome;
    expect(['de-DE,de;q=0.9', 'en-US, de-DE;q=0.5', 'de-DE-x', 'en-US', 'xde-DE'].map(judged)).toEqual([
      'holds',
      'holds',
      'violated',
      'violated',
      'violated',
    ]);
  });
});

describe('maxAge and storeInCache (§2.3): 0 turns the cache off; a page is stored unless storeInCache is false, which headers or actions force', () => {
  const earlier = (options: Record<string, unknown> = {}): EarlierScrape => ({ options, count: 3, ageMs: 1000 });
  const count = (e: ScrapeExpectation) =>
    e.constraints.filter((c) => c.field === 'record' && c.kind.includes('etched')).map((c) => `${c.kind} ${c.level} ${c.option}`);

  it('v1 default maxAge 0: the page is fetched again (interface); v2 default 2 days, the earlier scrape stored: answered from the cache (service)', () => {
    expect(count(expected('counter', 'v1', {}, earlier()))).toEqual(['fetchedAgain interface maxAge']);
    expect(count(expected('counter', 'v2', {}, earlier()))).toEqual(['notFetchedAgain service maxAge']);
    expect(count(expected('counter', 'v2', { maxAge: 0 }, earlier({ maxAge: 0 })))).toEqual(['fetchedAgain interface maxAge']);
  });

  it('nothing stored before (storeInCache false, or forced false by headers or actions): fetched again, at interface level', () => {
    expect(count(expected('counter', 'v2', {}, earlier({ storeInCache: false })))).toEqual(['fetchedAgain interface storeInCache']);
    expect(count(expected('counter', 'v2', {}, earlier({ headers: { 'X-A': 'b' } })))).toEqual(['fetchedAgain interface storeInCache']);
    expect(count(expected('counter', 'v1', { maxAge: 60_000 }, earlier({ actions: [{ type: 'wait', milliseconds: 1 }] })))).toEqual([
      'fetchedAgain interface storeInCache',
    ]);
  });

  it('a cached answer possibly older than maxAge, or scrapes with other options: not judged', () => {
    expect(count(expected('counter', 'v2', { maxAge: 500 }, earlier({ maxAge: 500 })))).toEqual([]);
    const other = expected('counter', 'v2', { formats: ['html'] }, earlier());
    expect(count(other)).toEqual([]);
    expect(other.notJudged.map((n) => n.option)).toContain('maxAge');
  });

  it('the judge reads the count the record shows', () => {
    const e = expected('counter', 'v1', {}, earlier());
    const found = (markdown: string) => judgeScrapeRecord(e, { markdown }).find((f) => f.constraint.kind === 'fetchedAgain')!;
    expect(found(fetchCountLine(4)).outcome).toBe('holds');
    expect(found(fetchCountLine(3)).outcome).toBe('violated');
    expect(found('no count here').outcome).toBe('notJudged');
    expect(fetchCountOf({ html: `<p id="count">${fetchCountLine(12)}</p>` })).toBe(12);
  });
});

describe('timeout (§2.3, §2.4): the time a request may take; skipTlsVerification (§2.3 default false, §2.4 default true)', () => {
  const failed = (e: ScrapeExpectation) =>
    e.constraints.filter((c) => c.field === 'record' && c.kind !== 'holdsFormat').map((c) => `${c.kind} ${c.level} ${c.option}`);

  it('a page slower than the timeout: the scrape fails (interface), no record (service); within it, the page is returned', () => {
    const slow = page('slow');
    const e = expected('slow', 'v2', { timeout: 1000 });
    expect(failed(e)).toEqual([...slow.texts.map(() => 'lacks interface timeout'), 'absent service timeout']);
    expect(e.constraints.every((c) => c.field === 'record')).toBe(true);
    expect(on(e, slow.texts[0]!.text, 'record')[0]!.cites).toEqual([{ source: 'interface §2.4', names: ['timeout'] }]);
    expect(failed(expected('slow', 'v1', {}))).toEqual(['contains interface timeout']);
    expect(expected('slow', 'v1', { timeout: 4000 }).notJudged.map((n) => n.option)).toContain('timeout');
  });

  it('a self-signed certificate: v1 by default fails, v2 by default succeeds, each as asked otherwise', () => {
    const secure = page('secure');
    expect(failed(expected('secure', 'v1', {}))).toEqual([
      ...secure.texts.map(() => 'lacks interface skipTlsVerification'),
      'absent service skipTlsVerification',
    ]);
    expect(failed(expected('secure', 'v2', {}))).toEqual(['contains interface skipTlsVerification']);
    expect(failed(expected('secure', 'v1', { skipTlsVerification: true }))).toEqual(['contains interface skipTlsVerification']);
    expect(failed(expected('secure', 'v2', { skipTlsVerification: false }))[0]).toBe('lacks interface skipTlsVerification');
    expect(on(expected('secure', 'v1', {}), secure.texts[0]!.text, 'record')[0]!.cites).toEqual([
      { source: 'interface §2.3', names: ['skipTlsVerification'] },
    ]);
  });
});

describe('parsePDF (§2.3) and parsers (§2.4): PDF text extracted to markdown, or the PDF base64-encoded', () => {
  const pdf = page('pdf');
  const shape = (e: ScrapeExpectation) =>
    e.constraints.filter((c) => c.option === 'parsePDF' || c.option === 'parsers').map((c) => `${c.field} ${c.kind} ${c.level}`);

  it.each([
    ['v1', {}],
    ['v1', { parsePDF: true }],
    ['v2', {}],
    ['v2', { parsers: ['pdf'] }],
    ['v2', { parsers: [{ type: 'pdf' }] }],
  ] as const)('%s %j: the markdown holds the text', (version, options) => {
    expect(shape(expected('pdf', version, options))).toEqual(pdf.texts.map(() => 'markdown contains interface'));
  });

  it.each([
    ['v1', { parsePDF: false }],
    ['v2', { parsers: [] }],
  ] as const)('%s %j: the record holds the PDF base64-encoded, not its text; the service returns it as markdown', (version, options) => {
    const e = expected('pdf', version, options);
    expect(shape(e)).toEqual([
      'record holdsBase64 interface',
      ...pdf.texts.map(() => 'record lacks interface'),
      'markdown holdsBase64 service',
    ]);
    expect(e.constraints.find((c) => c.kind === 'holdsBase64')!.text).toBe(Buffer.from(pdf.body!, 'latin1').toString('base64'));
  });
});

describe('formats and the record’s own fields (§2.3, §2.4 formats; record fields: service, §2.6 not shown)', () => {
  it('the formats asked for are present and the others absent (service); markdown by default', () => {
    const presence = (e: ScrapeExpectation) => e.constraints.filter((c) => c.kind === 'present').map((c) => c.field);
    expect(presence(expected('article', 'v1', {}))).toEqual(['markdown']);
    expect(presence(expected('article', 'v2', { formats: [{ type: 'html' }, 'rawHtml', 'links'] }))).toEqual(['html', 'rawHtml', 'links']);
    expect(presence(expected('article', 'v1', { formats: ['screenshot@fullPage'] }))).toEqual(['screenshot']);
    const e = expected('article', 'v1', { formats: ['html'] });
    expect(e.constraints.find((c) => c.field === 'markdown')).toMatchObject({ kind: 'absent', level: 'service' });
  });

  it('raw HTML holds the page as served, furniture and all, whatever the options (interface); it is the page byte for byte (service)', () => {
    const e = expected('article', 'v2', { formats: ['rawHtml'], includeTags: ['h1'] });
    for (const text of page('article').texts.map((t) => t.text)) expect(verdict(e, text, 'rawHtml'), text).toBe('contains interface');
    expect(e.constraints.find((c) => c.field === 'rawHtml' && c.kind === 'equals')).toMatchObject({
      value: page('article').body,
      level: 'service',
    });
  });

  it('links: every link of the main content as its absolute address, and only the page’s links (interface)', () => {
    const e = expected('article', 'v1', { formats: ['links'] });
    const includes = e.constraints.filter((c) => c.kind === 'includes').map((c) => c.text);
    expect(includes).toEqual([
      'http://127.0.0.1:4000/scrape/image.html',
      'http://127.0.0.1:4000/scrape/image.html?from=article',
      'http://127.0.0.1:4000/about.html',
      'http://127.0.0.1:4000/docs/',
      'http://127.0.0.2:4000/elsewhere.html',
    ]);
    expect(e.constraints.find((c) => c.kind === 'only')).toMatchObject({
      level: 'interface',
      values: [...includes.slice(0, 0), 'http://127.0.0.1:4000/', ...includes],
    });
  });

  it('the metadata: the address asked for, the page’s own status and title (service)', () => {
    const gone = expected('gone', 'v1', {});
    expect(gone.constraints.filter((c) => c.field.startsWith('metadata.')).map((c) => `${c.field} ${c.value} ${c.level}`)).toEqual([
      'metadata.sourceURL http://127.0.0.1:4000/scrape/gone.html service',
      'metadata.statusCode 404 service',
      'metadata.title Gone service',
    ]);
  });

  it('no heading style is asserted (no source states one: `# Title` and setext headings alike), only the headings’ text', () => {
    const e = expected('article', 'v1', {});
    expect(e.constraints.filter((c) => c.field === 'markdown' && c.kind === 'hasLine')).toEqual([]);
    expect(e.constraints.filter((c) => c.field === 'markdown' && c.kind === 'contains').map((c) => c.text)).toContain(
      'Reading scrape options on one page',
    );
  });

  it('a page asked with mobile true or a location is returned (interface §1, §2.5), each on its own constraint', () => {
    for (const [option, given] of [
      ['mobile', { mobile: true }],
      ['location', { location: { languages: ['de-DE'] } }],
    ] as const) {
      const returned = expected('headers', 'v2', given).constraints.filter((c) => c.option === option && c.field === 'record');
      expect(returned.map((c) => [c.kind, c.level, c.cites[0]!.source])).toEqual([['contains', 'interface', 'interface §1']]);
    }
    expect(expected('headers', 'v2', { mobile: false }).constraints.filter((c) => c.option === 'mobile' && c.field === 'record')).toEqual(
      [],
    );
  });

  it('options no page can show are named as not judged', () => {
    const e = expected('article', 'v1', { waitFor: 10, proxy: 'basic', blockAds: false, actions: [{ type: 'wait', milliseconds: 1 }] });
    expect(e.notJudged.map((n) => n.option)).toEqual(expect.arrayContaining(['waitFor', 'proxy', 'blockAds', 'actions']));
  });
});
