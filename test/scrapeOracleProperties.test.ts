/**
 * Properties of the scrape oracle (schemas/scrape/) over options drawn by fast-check: excluding a tag never adds
 * text, `onlyMainContent: false` never loses main text, no text is both required and forbidden, and a scrape done
 * the service's way (test/support/serviceScrape.ts: htmlparser2, node-html-markdown) is never found wrong (with its
 * formats under other field names, never at interface level).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeScrapeRecord } from '../schemas/scrape/judge.js';
import type { ScrapeExpectation } from '../schemas/scrape/constraint.js';
import { type ScrapePageName } from '../scripts/site/scrapePages.js';
import { serviceRecord } from './support/serviceScrape.js';
import { VERSIONS, expected, page, textsIn, violations } from './support/scrapeOracleCases.js';

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
