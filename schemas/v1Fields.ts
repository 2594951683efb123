/**
 * The v1 request fields v2 does not have, and what v2 uses instead: one table for `migrateToV2` (migrate.ts), which
 * converts the renamed ones, and for `validate()`'s message on such a field in a v2 body (issues.ts):
 *
 *   validate('v2/CrawlRequest', { url, scrapeOptions: { parsePDF: false } })
 *     → $.scrapeOptions.parsePDF: `parsePDF` is v1; v2 uses `parsers` (["pdf"] for true, [] for false)
 *
 * Plain data and functions, no TypeBox: the `crawlspec` entry, which loads none, holds validate() and so this table.
 */

/** The cache window the deprecated v1 `__experimental_cache: true` stands for when `maxAge` is absent (the service's). */
export const EXPERIMENTAL_CACHE_MAX_AGE = 4 * 60 * 60 * 1000;

/** A v1 field that v2 does not have. */
export interface V1Field {
  readonly from: string;
  /** What v2 does instead, in words, after "v2" ("uses `parsers`"). */
  readonly inV2: string;
}

/** A v1 field that v2 names differently, with the v2 value of a v1 value. */
export interface Rename extends V1Field {
  readonly to: string;
  /**
   * The v2 value of a v1 value; undefined when the v1 value has an unexpected type (it is then left as it is). The
   * value may be the v1 value itself: a caller that must not share it copies it.
   */
  readonly convert: (value: unknown) => { value: unknown } | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fields of a crawl request (its top level). */
export const CRAWL_RENAMES: readonly Rename[] = [
  {
    from: 'ignoreSitemap',
    to: 'sitemap',
    inV2: 'uses `sitemap` ("skip" for true, "include" for false)',
    convert: (v) => (typeof v === 'boolean' ? { value: v ? 'skip' : 'include' } : undefined),
  },
  {
    from: 'allowBackwardLinks',
    to: 'crawlEntireDomain',
    inV2: 'uses `crawlEntireDomain`',
    convert: (v) => (typeof v === 'boolean' ? { value: v } : undefined),
  },
];

/** Fields of scrape options (a crawl's `scrapeOptions`, a batch scrape's top level). */
export const SCRAPE_RENAMES: readonly Rename[] = [
  {
    from: 'parsePDF',
    to: 'parsers',
    inV2: 'uses `parsers` (["pdf"] for true, [] for false)',
    convert: (v) => (typeof v === 'boolean' ? { value: v ? ['pdf'] : [] } : undefined),
  },
  { from: 'geolocation', to: 'location', inV2: 'uses `location`', convert: (v) => (isRecord(v) ? { value: v } : undefined) },
];

const CRAWL_DROPPED: readonly V1Field[] = [
  {
    from: 'maxDepth',
    inV2: 'cannot limit a crawl by the depth of the URL path (`maxDiscoveryDepth` is a different measure: link hops in discovery order, the start page and sitemap pages at depth 0)',
  },
];

const SCRAPE_FOLDED: readonly V1Field[] = [
  { from: 'jsonOptions', inV2: 'uses a `{ "type": "json", ... }` object in `formats`, holding these options' },
  { from: 'extract', inV2: 'uses a `{ "type": "json", ... }` object in `formats`, holding these options (`extract` was the deprecated `json`)' },
  { from: 'changeTrackingOptions', inV2: 'uses a `{ "type": "changeTracking", ... }` object in `formats`, holding these options' },
  {
    from: '__experimental_cache',
    inV2: `uses \`maxAge\` (true stood for pages cached up to 4 hours: \`maxAge\` ${EXPERIMENTAL_CACHE_MAX_AGE})`,
  },
];

const SCRAPE_FIELDS: readonly V1Field[] = [...SCRAPE_RENAMES, ...SCRAPE_FOLDED];

/** The v1 fields of each v2 request definition, by its name (a crawl's `scrapeOptions` is a `ScrapeOptions`). */
export const V1_FIELDS: Readonly<Record<string, readonly V1Field[]>> = {
  CrawlRequest: [...CRAWL_RENAMES, ...CRAWL_DROPPED],
  ScrapeOptions: SCRAPE_FIELDS,
  BatchScrapeRequest: SCRAPE_FIELDS,
};

/**
 * What to say of `field`, unknown in an object of the definition `definition`, when it is a v1 field of that
 * definition: "`parsePDF` is v1; v2 uses `parsers` ...". Undefined for any other field. Only asked of a field the object does
 * not know, which in a v1 body a v1 field never is.
 */
export function v1FieldMessage(definition: unknown, field: string): string | undefined {
  const fields = typeof definition === 'string' && Object.hasOwn(V1_FIELDS, definition) ? V1_FIELDS[definition] : undefined;
  const found = fields?.find((f) => f.from === field);
  return found === undefined ? undefined : `\`${field}\` is v1; v2 ${found.inV2}`;
}
