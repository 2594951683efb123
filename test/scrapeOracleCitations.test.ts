/**
 * Every constraint of the scrape oracle (schemas/scrape/) cites what it rests on, truly: its citations against the
 * interface (the hand-made transcript of test/support/interfaceSections.ts).
 */
import { describe, expect, it } from 'vitest';
import { INTERFACE_SECTIONS } from './support/interfaceSections.js';
import { VERSIONS, expected } from './support/scrapeOracleCases.js';

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
