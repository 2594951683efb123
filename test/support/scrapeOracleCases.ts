/**
 * What the test files of the scrape oracle (test/scrapeOracleContent, scrapeOracleOptions, scrapeOracleCitations,
 * scrapeOracleJudge and scrapeOracleProperties .test.ts) share: the pages of the scrape site at fixed origins, the
 * oracle's expectation for a page, version and options, the constraints it holds on a text and their verdict, the
 * texts of a page's regions, the citations an option rests on, and the violations among a judge's findings.
 */
import { expect } from 'vitest';
import { type ScrapeFinding } from '../../schemas/scrape/judge.js';
import type { ScrapeConstraint, ScrapeExpectation } from '../../schemas/scrape/constraint.js';
import { scrapeExpectation, type EarlierScrape } from '../../schemas/scrape/oracle.js';
import { type ScrapePageModel, type ScrapeRegion } from '../../schemas/scrape/page.js';
import type { Version } from '../../schemas/versions.js';
import { scrapePage, type ScrapePageName } from '../../scripts/site/scrapePages.js';

const ORIGINS = { main: 'http://127.0.0.1:4000', external: 'http://127.0.0.2:4000', tls: 'https://127.0.0.1:4001' };
export const VERSIONS: readonly Version[] = ['v1', 'v2'];
export const page = (name: ScrapePageName): ScrapePageModel => scrapePage(ORIGINS, name);
export const expected = (name: ScrapePageName, version: Version, options: Record<string, unknown>, earlier?: EarlierScrape): ScrapeExpectation =>
  scrapeExpectation(page(name), { version, options, ...(earlier === undefined ? {} : { earlier }) });

/** The constraints on `text` in `field`. */
export const on = (e: ScrapeExpectation, text: string, field = 'markdown'): ScrapeConstraint[] =>
  e.constraints.filter((c) => c.text === text && c.field === field);
/** The one constraint on `text` in `field`, as kind and level (undefined: none). */
export function verdict(e: ScrapeExpectation, text: string, field = 'markdown'): string | undefined {
  const found = on(e, text, field).filter((c) => c.kind === 'contains' || c.kind === 'lacks');
  expect(found.length, `${text} in ${field}`).toBeLessThanOrEqual(1);
  return found[0] === undefined ? undefined : `${found[0].kind} ${found[0].level}`;
}
export const textsIn = (name: ScrapePageName, ...regions: ScrapeRegion[]) =>
  page(name)
    .texts.filter((t) => regions.includes(t.region))
    .map((t) => t.text);
export const textOf = (name: ScrapePageName, pred: (path: string) => boolean) =>
  page(name).texts.find((t) =>
    pred(t.path.map((e) => `${e.tag}${e.id === undefined ? '' : `#${e.id}`}${(e.classes ?? []).map((c) => `.${c}`).join('')}`).join('>')),
  )!.text;

export const FIRST = textOf('article', (p) => p === 'main>p');
export const cites = (version: Version, option: string) =>
  version === 'v1'
    ? [{ source: 'interface §2.3', names: [option] }]
    : [
        { source: 'interface §2.4', names: [option] },
        { source: 'interface §2.3', names: [option] },
      ];

export const violations = (findings: readonly ScrapeFinding[]) => findings.filter((f) => f.outcome === 'violated');
