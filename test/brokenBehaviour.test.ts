/**
 * The contract kit against the variants of the reference server whose defect is in what a crawl finds
 * (BROKEN_CRAWLERS, run on the crawl-behaviour checks alone) or in what a scrape returns (BROKEN_SCRAPERS, run
 * on the scrape- and batch-behaviour checks alone): see test/support/variantRuns.ts for what each run must show.
 */
import { BROKEN_CRAWLERS, BROKEN_SCRAPERS } from './support/brokenServers.js';
import { describeVariants } from './support/variantRuns.js';

describeVariants([
  ...BROKEN_CRAWLERS.map((v) => ({ ...v, scope: 'behaviour' as const })),
  ...BROKEN_SCRAPERS.map((v) => ({ ...v, scope: 'scrape' as const })),
]);
