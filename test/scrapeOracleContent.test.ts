/**
 * The scrape oracle (schemas/scrape/) on what a record's content must and must not hold for a page, sentence by
 * sentence of interface §2.3 / §2.4, at the level each rests on: `onlyMainContent`, `includeTags`, `excludeTags`
 * and `removeBase64Images`.
 */
import { describe, expect, it } from 'vitest';
import { FIRST, VERSIONS, cites, expected, on, page, textOf, textsIn, verdict } from './support/scrapeOracleCases.js';

const LEAD = textOf('article', (p) => p.endsWith('p.lead'));
const PLAIN = textOf('article', (p) => p === 'main>section#details.note>p');
const QUOTED = textOf('article', (p) => p.includes('blockquote'));
const EXTRA = textOf('article', (p) => p.includes('#extra'));
const H2 = textOf('article', (p) => p === 'main>section#details.note>h2');

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
