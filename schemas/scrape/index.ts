/**
 * The `crawlspec/scrape` entry point: what a scrape of a page must, may and must not return for a set of options,
 * each constraint with its level and the sentence it rests on, and the judge that holds a scrape's record to them
 * (docs/scrape-behaviour.md).
 *
 *   scrapeExpectation(page, { version, options }) → what a scrape of a page (a ScrapePageModel) must and must
 *                                              not return, per field, at each level
 *   judgeScrapeRecord(expectation, record)   → each of those held against the record a scrape returned
 *
 * An entry of its own, not part of `crawlspec`: a server validating requests does not load it (the main entry's
 * import took 33 to 40 ms with it, 24 to 30 without, on a 2-core machine; docs/speed.md).
 */
export {
  echoLine,
  fetchCountLine,
  type ScrapeDynamic,
  type ScrapeElement,
  type ScrapeImage,
  type ScrapePageModel,
  type ScrapeRegion,
  type ScrapeText,
} from './page.js';
export { scrapeExpectation, type EarlierScrape, type ScrapeRequest } from './oracle.js';
export type { NotJudged, ScrapeCitation, ScrapeConstraint, ScrapeConstraintKind, ScrapeExpectation, ScrapeLevel } from './constraint.js';
export type { ScrapeSettings } from './settings.js';
export { fetchCountOf, judgeScrapeRecord, type ScrapeFinding, type ScrapeOutcome } from './judge.js';
