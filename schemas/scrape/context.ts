/**
 * What the parts of the scrape oracle (oracle.ts, serving.ts) share while they build one expectation: the
 * page, the request and its settings, the selectors read, and the constraints collected.
 */
import type { Version } from '../versions.js';
import type { Constraints } from './constraint.js';
import type { ScrapePageModel } from './page.js';
import type { ScrapeSettings } from './settings.js';
import type { Selectors } from './verdicts.js';

/** The scrape before this one, of the same address (what a fetch-counting page shows of the second one). */
export interface EarlierScrape {
  /** Its scrape options. */
  readonly options: unknown;
  /** The fetch count its record showed (`fetchCountOf`, judge.ts). */
  readonly count: number;
  /** Time from its start to this scrape's start, in ms: the most its answer can have aged. */
  readonly ageMs: number;
}

export interface ScrapeRequest {
  readonly version: Version;
  /** The scrape options: a batch scrape's body, or a crawl's `scrapeOptions` (assumed valid for `version`). */
  readonly options: unknown;
  /** For a fetch-counting page: the scrape of the same address before this one, and the only one. */
  readonly earlier?: EarlierScrape;
}

export interface Context {
  readonly page: ScrapePageModel;
  readonly request: ScrapeRequest;
  readonly s: ScrapeSettings;
  readonly sel: Selectors;
  readonly out: Constraints;
  /** The options as given (to tell a default from a value given). */
  readonly given: Readonly<Record<string, unknown>>;
  /** The content formats asked for (markdown when `formats` is not given: the service's default). */
  readonly contentFields: readonly string[];
  asked(format: string): boolean;
}

/** ` (the v1 default)` when `option` was not given. */
export const defaultNote = (c: Context, option: string) => (c.given[option] === undefined ? ` (the ${c.s.version} default)` : '');

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
