/**
 * Where scrape options stand: a `ScrapeOptions` body itself (`$`), a crawl's `scrapeOptions` (`$.scrapeOptions`) and
 * a batch scrape's top level (`$`). A scrape option rule case is written once, relative to a set of scrape options
 * (`OptionCase`), and placed at each.
 */
import type { Version } from '../../../../schemas/registry.js';
import { EXAMPLE_URL, type RuleCase, type RuleKind } from './ruleCase.js';

/** A scrape option rule case, relative to the scrape options (`at` is the path suffix, '' for the options object). */
export interface OptionCase {
  readonly title: string;
  readonly kind: RuleKind;
  readonly versions: readonly Version[];
  readonly rule: string;
  readonly valid: Record<string, unknown>;
  readonly invalid: Record<string, unknown>;
  readonly at: string;
  readonly message: string;
}

/** The three places scrape options stand, for each version. */
const PLACEMENTS = [
  { schema: 'ScrapeOptions', base: '$', place: (o: Record<string, unknown>): unknown => o },
  {
    schema: 'CrawlRequest',
    base: '$.scrapeOptions',
    place: (o: Record<string, unknown>): unknown => ({ url: EXAMPLE_URL, scrapeOptions: o }),
  },
  { schema: 'BatchScrapeRequest', base: '$', place: (o: Record<string, unknown>): unknown => ({ urls: [EXAMPLE_URL], ...o }) },
] as const;

/** Each of `cases` at each place scrape options stand, in each of its versions. */
export const placed = (cases: readonly OptionCase[]): RuleCase[] =>
  cases.flatMap((c) =>
    c.versions.flatMap((version) =>
      PLACEMENTS.map(({ schema, base, place }): RuleCase => ({
        title: `${c.rule}: ${c.title}`,
        kind: c.kind,
        version,
        schema,
        valid: place(c.valid),
        invalid: place(c.invalid),
        issues: [{ path: `${base}${c.at}`, rule: c.rule, message: c.message }],
      })),
    ),
  );
