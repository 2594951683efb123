/**
 * The scrape oracle (schemas/scrape/): what a record must and must not hold for a page, sentence by sentence
 * of interface §2.3 / §2.4 / §2.5, at the level each rests on; its citations against the interface (the
 * hand-made transcript of test/support/interfaceSections.ts); the judge on records written by hand; and
 * properties over options drawn by fast-check: excluding a tag never adds text, `onlyMainContent: false`
 * never loses main text, no text is both required and forbidden, and a scrape done the service's way
 * (test/support/serviceScrape.ts: htmlparser2, node-html-markdown) is never found wrong (with its formats
 * under other field names, never at interface level), while each way of breaking it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fetchCountOf, judgeScrapeRecord, type ScrapeFinding } from '../schemas/scrape/judge.js';
import type { ScrapeConstraint, ScrapeExpectation } from '../schemas/scrape/constraint.js';
import { scrapeExpectation, type EarlierScrape } from '../schemas/scrape/oracle.js';
import { echoLine, fetchCountLine, type ScrapePageModel, type ScrapeRegion } from '../schemas/scrape/page.js';
import type { Version } from '../schemas/versions.js';
import { scrapePage, type ScrapePageName } from '../scripts/site/scrapePages.js';
import { INTERFACE_SECTIONS } from './support/interfaceSections.js';
import { serviceRecord, type Break } from './support/serviceScrape.js';

const ORIGINS = { main: 'http://127.0.0.1:4000', external: 'http://127.0.0.2:4000', tls: 'https://127.0.0.1:4001' };
const VERSIONS: readonly Version[] = ['v1', 'v2'];
const page = (name: ScrapePageName): ScrapePageModel => scrapePage(ORIGINS, name);
const expected = (name: ScrapePageName, version: Version, options: Record<string, unknown>, earlier?: EarlierScrape): ScrapeExpectation =>
  scrapeExpectation(page(name), { version, options, ...(earlier === undefined ? {} : { earlier }) });

/** The constraints on `text` in `field`. */
const on = (e: ScrapeExpectation, text: string, field = 'markdown'): ScrapeConstraint[] =>
  e.constraints.filter((c) => c.text === text && c.field === field);
/** The one constraint on `text` in `field`, as kind and level (undefined: none). */
function verdict(e: ScrapeExpectation, text: string, field = 'markdown'): string | undefined {
  const found = on(e, text, field).filter((c) => c.kind === 'contains' || c.kind === 'lacks');
  expect(found.length, `${text} in ${field}`).toBeLessThanOrEqual(1);
  return found[0] === undefined ? undefined : `${found[0].kind} ${found[0].level}`;
}
const textsIn = (name: ScrapePageName, ...regions: ScrapeRegion[]) =>
  page(name)
    .texts.filter((t) => regions.includes(t.region))
    .map((t) => t.text);
const textOf = (name: ScrapePageName, pred: (path: string) => boolean) =>
  page(name).texts.find((t) =>
    pred(t.path.map((e) => `${e.tag}${e.id === undefined ? '' : `#${e.id}`}${(e.classes ?? []).map((c) => `.${c}`).join('')}`).join('>')),
  )!.text;
const LEAD = textOf('article', (p) => p.endsWith('p.lead'));
const PLAIN = textOf('article', (p) => p === 'main>section#details.note>p');
const QUOTED = textOf('article', (p) => p.includes('blockquote'));
const EXTRA = textOf('article', (p) => p.includes('#extra'));
const H2 = textOf('article', (p) => p === 'main>section#details.note>h2');
const FIRST = textOf('article', (p) => p === 'main>p');
const cites = (version: Version, option: string) =>
  version === 'v1'
    ? [{ source: 'interface §2.3', names: [option] }]
    : [
        { source: 'interface §2.4', names: [option] },
        { source: 'interface §2.3', names: [option] },
      ];

const violations = (findings: readonly ScrapeFinding[]) => findings.filter((f) => f.outcome === 'violated');

describe('onlyMainContent (§2.3; §2.4 refers back to it): the main content alone, without the header, the navigation or the footer', () => {
  it.each(VERSIONS)(
    '%s default true: the header, navigation and footer texts are absent at interface level, the main texts present, the aside absent at service level',
    (version) => {
      const e = expected('article', version, { formats: ['markdown', 'html'] });
      for (const field of ['markdown', 'html']) {
        for (const text of textsIn('article', 'header', 'nav', 'footer')) {
          expect(verdict(e, text, field)).toBe('lacks interface');
          expect(on(e, text, field)[0]!.cites).toEqual(cites(version, 'onlyMainContent'));
        }
        for (const text of textsIn('article', 'main')) expect(verdict(e, text, field), text).toBe('contains interface');
        for (const text of textsIn('article', 'aside')) expect(verdict(e, text, field)).toBe('lacks service');
      }
    },
  );

  it('false: every text of the page is present at interface level, the aside too', () => {
    const e = expected('article', 'v1', { onlyMainContent: false });
    for (const text of page('article').texts.map((t) => t.text)) expect(verdict(e, text), text).toBe('contains interface');
  });
});

describe('includeTags (§2.3): the tags whose content the output holds', () => {
  it('a tag name keeps what is inside it and nothing else, at interface level', () => {
    const e = expected('article', 'v2', { includeTags: ['blockquote'] });
    expect(verdict(e, QUOTED)).toBe('contains interface');
    for (const text of page('article')
      .texts.map((t) => t.text)
      .filter((t) => t !== QUOTED))
      expect(verdict(e, text), text).toBe('lacks interface');
    expect(on(e, FIRST)[0]!.option).toBe('includeTags');
  });

  it('a class or an id is the service’s reading: judged at service level, and what it cannot select stays out at interface level', () => {
    const e = expected('article', 'v1', { includeTags: ['.lead'] });
    expect(verdict(e, LEAD)).toBe('contains service');
    expect(verdict(e, PLAIN)).toBe('lacks interface');
    const byId = expected('article', 'v1', { includeTags: ['#extra'] });
    expect(verdict(byId, EXTRA)).toBe('contains service');
    expect(verdict(byId, QUOTED)).toBe('lacks interface');
  });

  it('a tag to include inside the furniture, with onlyMainContent: the interface leaves it open; the service keeps a copied paragraph, not a copied footer', () => {
    const footer = textsIn('article', 'footer')[0]!;
    expect(verdict(expected('article', 'v1', { includeTags: ['p'] }), footer)).toBe('contains service');
    expect(verdict(expected('article', 'v1', { includeTags: ['footer'] }), footer)).toBe('lacks service');
    expect(verdict(expected('article', 'v1', { includeTags: ['footer'], onlyMainContent: false }), footer)).toBe('contains interface');
  });

  it('a selector the oracle does not read is named as not judged, and decides nothing', () => {
    const e = expected('article', 'v1', { includeTags: ['main > p'] });
    expect(e.notJudged).toContainEqual({ option: 'includeTags', why: expect.stringContaining('"main > p"') });
    // It may select anything: no text of the page is held to anything in the content formats.
    expect(e.constraints.filter((c) => c.field === 'markdown' && (c.kind === 'contains' || c.kind === 'lacks'))).toEqual([]);
    // Beside a tag name, it may select anything inside an excluded section on its own: what is there is not judged.
    const beside = expected('article', 'v1', { includeTags: ['main', 'main > p'], excludeTags: ['section'] });
    expect([verdict(beside, LEAD), verdict(beside, H2), verdict(beside, FIRST)]).toEqual([undefined, undefined, 'contains interface']);
  });
});

describe('excludeTags (§2.3): the tags left out of the output', () => {
  it('a tag name removes what is inside it at interface level; the rest stays', () => {
    const e = expected('article', 'v1', { excludeTags: ['blockquote', 'h2'] });
    expect(verdict(e, QUOTED)).toBe('lacks interface');
    expect(verdict(e, H2)).toBe('lacks interface');
    expect(on(e, QUOTED)[0]!.cites).toEqual(cites('v1', 'excludeTags'));
    expect(verdict(e, FIRST)).toBe('contains interface');
  });

  it('a class removes at service level what it selects; what it cannot select stays at interface level', () => {
    const e = expected('article', 'v2', { excludeTags: ['.note'] });
    expect(verdict(e, LEAD)).toBe('lacks service');
    expect(verdict(e, H2)).toBe('lacks service');
    expect(verdict(e, QUOTED)).toBe('contains interface');
  });

  it('with includeTags: an excluded tag inside an included one removes; one around it is the interface’s open question, and the service keeps the copy', () => {
    const inside = expected('article', 'v1', { includeTags: ['section'], excludeTags: ['p'] });
    expect(verdict(inside, LEAD)).toBe('lacks interface');
    expect(verdict(inside, H2)).toBe('contains interface');
    const around = expected('article', 'v1', { includeTags: ['p'], excludeTags: ['section'] });
    expect(verdict(around, LEAD)).toBe('contains service');
    // p.lead may select (as CSS it does) the lead paragraph inside the excluded section: the service copies it out
    // on its own, beside the copy of main whose section goes, and keeps it; the plain paragraph has no copy of its own.
    const copied = expected('article', 'v1', { includeTags: ['main', 'p.lead'], excludeTags: ['section'] });
    expect(verdict(copied, LEAD)).toBe('contains service');
    expect(verdict(copied, PLAIN)).toBe('lacks interface');
    expect(verdict(expected('article', 'v1', { includeTags: ['main', 'p.lead'], excludeTags: ['p'] }), LEAD)).toBe('lacks interface');
  });
});

describe('removeBase64Images (§2.3): base64 images taken out of the output, their alt text kept, a placeholder for their address', () => {
  const image = page('image').images[0]!;

  it.each(VERSIONS)(
    '%s default true: the markdown lacks the data, keeps the alt text (interface), and holds the placeholder (service)',
    (version) => {
      const e = expected('image', version, { formats: ['markdown', 'html'] });
      const mine = e.constraints.filter((c) => c.option === 'removeBase64Images');
      expect(mine.map((c) => `${c.field} ${c.kind} ${c.level} ${c.text}`)).toEqual([
        `markdown lacksBase64 interface ${image.base64}`,
        `markdown contains interface ${image.alt}`,
        'markdown contains service <Base64-Image-Removed>',
      ]);
      expect(mine[0]!.cites).toEqual(cites(version, 'removeBase64Images'));
    },
  );

  it('false: the data stays in the markdown and the HTML', () => {
    const e = expected('image', 'v1', { removeBase64Images: false, formats: ['markdown', 'html'] });
    const mine = e.constraints.filter((c) => c.option === 'removeBase64Images');
    expect(mine.map((c) => `${c.field} ${c.kind} ${c.level}`)).toEqual(['markdown holdsBase64 interface', 'html holdsBase64 interface']);
  });
});

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

describe('every constraint cites what it rests on, truly', () => {
  const grid: Record<string, unknown>[] = [
    {},
    { onlyMainContent: false, formats: ['markdown', 'html', 'rawHtml', 'links'] },
    { includeTags: ['section', '.lead'], excludeTags: ['h2'] },
    { removeBase64Images: false, headers: { 'X-A': 'b' }, mobile: true, location: { languages: ['fr'] } },
    { parsePDF: false, parsers: [], timeout: 1000, skipTlsVerification: false },
  ];
  const all = VERSIONS.flatMap((version) =>
    (['article', 'image', 'pdf', 'gone', 'headers', 'counter', 'slow', 'secure'] as const).flatMap((name) =>
      grid.flatMap((options) => expected(name, version, options, { options: {}, count: 1, ageMs: 10 }).constraints),
    ),
  );

  it('an interface citation names a section of the interface and what it states; a service one cites only the service', () => {
    expect(all.length).toBeGreaterThan(500);
    for (const c of all) {
      expect(c.cites.length, c.id).toBeGreaterThan(0);
      expect(c.level, c.id).toBe(c.cites.some((x) => x.source.startsWith('interface')) ? 'interface' : 'service');
      if (c.level === 'service')
        expect(
          c.cites.every((x) => x.source === 'service'),
          c.id,
        ).toBe(true);
      for (const cite of c.cites) {
        expect(cite.names.length, c.id).toBeGreaterThan(0);
        if (cite.source === 'service') continue;
        const section = /^interface (§\d+(?:\.\d+)?)$/.exec(cite.source)?.[1];
        expect(section, cite.source).toBeDefined();
        for (const name of cite.names) expect(INTERFACE_SECTIONS[section!], `${c.id}: ${section} does not state ${name}`).toContain(name);
      }
      expect(c.why, c.id).toMatch(/^[a-z<(0-9A-Z]/);
    }
    expect(new Set(all.map((c) => c.option))).toEqual(
      new Set([
        'formats',
        'page',
        'onlyMainContent',
        'includeTags',
        'excludeTags',
        'removeBase64Images',
        'headers',
        'mobile',
        'location',
        'maxAge',
        'timeout',
        'skipTlsVerification',
        'parsePDF',
        'parsers',
      ]),
    );
  });
});

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

/** Options drawn from what the test pages show: tag names, classes and ids of their elements. */
const SELECTORS = [
  'p',
  'h1',
  'h2',
  'section',
  'blockquote',
  'div',
  'ul',
  'a',
  'main',
  'header',
  'nav',
  'aside',
  'footer',
  'img',
  '.lead',
  '.note',
  '.quoted',
  '#details',
  '#extra',
  'p.lead',
  'section#details.note',
  '*',
];
const optionsArbitrary = fc.record(
  {
    onlyMainContent: fc.boolean(),
    includeTags: fc.uniqueArray(fc.constantFrom(...SELECTORS), { maxLength: 3 }),
    excludeTags: fc.uniqueArray(fc.constantFrom(...SELECTORS), { maxLength: 3 }),
    removeBase64Images: fc.boolean(),
    formats: fc.subarray(['markdown', 'html', 'rawHtml', 'links'], { minLength: 1 }),
  },
  { requiredKeys: ['formats'] },
);
const versionArbitrary = fc.constantFrom(...VERSIONS);
const pageArbitrary = fc.constantFrom<ScrapePageName>('article', 'image');

/** The texts the constraints of `e` require (`contains`) or forbid (`lacks`) in the content formats, at any level. */
const required = (e: ScrapeExpectation, kind: 'contains' | 'lacks') =>
  new Set(
    e.constraints.filter((c) => c.kind === kind && (c.field === 'markdown' || c.field === 'html')).map((c) => `${c.field} ${c.text}`),
  );
const subset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));

describe('properties', () => {
  it('excluding one more tag never adds a text, and never lets a removed one back', () => {
    fc.assert(
      fc.property(pageArbitrary, versionArbitrary, optionsArbitrary, fc.constantFrom(...SELECTORS), (name, version, options, more) => {
        const before = expected(name, version, options);
        const after = expected(name, version, { ...options, excludeTags: [...(options.excludeTags ?? []), more] });
        expect(subset(required(after, 'contains'), required(before, 'contains'))).toBe(true);
        expect(subset(required(before, 'lacks'), required(after, 'lacks'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('onlyMainContent false never loses a main text', () => {
    fc.assert(
      fc.property(pageArbitrary, versionArbitrary, optionsArbitrary, (name, version, options) => {
        const main = new Set(textsIn(name, 'main'));
        const mainOnly = [...required(expected(name, version, { ...options, onlyMainContent: true }), 'contains')].filter((x) =>
          main.has(x.replace(/^\w+ /, '')),
        );
        expect(subset(new Set(mainOnly), required(expected(name, version, { ...options, onlyMainContent: false }), 'contains'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('no text is both required and forbidden in one field', () => {
    fc.assert(
      fc.property(pageArbitrary, versionArbitrary, optionsArbitrary, (name, version, options) => {
        const e = expected(name, version, options);
        const contains = required(e, 'contains');
        for (const x of required(e, 'lacks')) expect(contains.has(x), x).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('a scrape done the service’s way is never found wrong', () => {
    fc.assert(
      fc.property(pageArbitrary, versionArbitrary, optionsArbitrary, (name, version, options) => {
        const p = page(name);
        const e = expected(name, version, options);
        const findings = judgeScrapeRecord(e, serviceRecord({ url: p.url, status: p.status, title: p.title!, html: p.body! }, options));
        expect(violations(findings).map((f) => `${f.constraint.id}: ${f.seen}`)).toEqual([]);
        // Everything asked for is there to judge.
        expect(findings.filter((f) => f.outcome === 'notJudged').map((f) => f.constraint.id)).toEqual([]);
      }),
      {
        numRuns: 150,
        // Once found wrong: an element copied out on its own (p.lead) inside an excluded one of another copy (main).
        examples: [['article', 'v1', { includeTags: ['main', 'p.lead'], excludeTags: ['section'], formats: ['html', 'links'] }]],
      },
    );
  });

  it('a scrape done the service’s way with every format under another name is never found wrong at interface level', () => {
    fc.assert(
      fc.property(pageArbitrary, versionArbitrary, optionsArbitrary, fc.boolean(), (name, version, options, nest) => {
        const p = page(name);
        const e = expected(name, version, options);
        const record = serviceRecord({ url: p.url, status: p.status, title: p.title!, html: p.body! }, options);
        const formats = ['markdown', 'html', 'rawHtml', 'links'];
        const moved = Object.fromEntries(formats.filter((f) => f in record).map((f) => [`my_${f}`, record[f]]));
        const renamed = {
          ...Object.fromEntries(Object.entries(record).filter(([k]) => !formats.includes(k))),
          ...(nest ? { output: moved } : moved),
        };
        const findings = judgeScrapeRecord(e, renamed);
        expect(
          violations(findings)
            .filter((f) => f.level === 'interface')
            .map((f) => `${f.constraint.id}: ${f.seen}`),
        ).toEqual([]);
        // The service's names are the only difference; a format the oracle recognises is judged wherever it is.
        expect(new Set(violations(findings).map((f) => f.constraint.kind))).toEqual(
          new Set(formats.some((f) => f in record) ? ['present'] : []),
        );
        const recognised = new Set(e.constraints.filter((c) => c.kind === 'holdsFormat').map((c) => c.value));
        expect(findings.filter((f) => f.outcome === 'notJudged' && recognised.has(f.constraint.field)).map((f) => f.constraint.id)).toEqual(
          [],
        );
      }),
      { numRuns: 150 },
    );
  });

  it('taking a required text out of the markdown is found, at the constraint’s level', () => {
    fc.assert(
      fc.property(pageArbitrary, versionArbitrary, optionsArbitrary, fc.nat(), (name, version, options, pick) => {
        const p = page(name);
        const e = expected(name, version, { ...options, formats: ['markdown'] });
        const record = serviceRecord(
          { url: p.url, status: p.status, title: p.title!, html: p.body! },
          { ...options, formats: ['markdown'] },
        );
        const wanted = e.constraints.filter((c) => c.field === 'markdown' && c.kind === 'contains');
        fc.pre(wanted.length > 0);
        const c = wanted[pick % wanted.length]!;
        const markdown = (record['markdown'] as string).split(c.text!).join('');
        const found = judgeScrapeRecord(e, { ...record, markdown }).find((f) => f.constraint === c)!;
        expect(found).toMatchObject({ outcome: 'violated', level: c.level });
      }),
      { numRuns: 150 },
    );
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
