/**
 * The oracle of test/interfaceTables.test.ts: the fields, types, defaults, enum values and limits that the
 * interface document states in its tables (sections 2.1-2.5, 4, 8 and 9), transcribed by hand (the document is NOT
 * read at run time), and the rows (one per version, owner and field) that the tests check one by one.
 */

// ---------------------------------------------------------------------------
// Generated documents and a small $ref resolver
// ---------------------------------------------------------------------------

export type Version = 'v1' | 'v2';
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const VERSIONS: readonly Version[] = ['v1', 'v2'];

// ---------------------------------------------------------------------------
// Oracle vocabulary
// ---------------------------------------------------------------------------

/** What the interface says about a field's type. */
export type TypeFact =
  | 'string'
  | 'uri' // "string (URI)": any string schema is accepted
  | 'boolean'
  | 'integer'
  | 'number'
  | 'object'
  | 'null' // "nullable"
  | { array: TypeFact | 'any' }
  | { enum: readonly string[] } // complete value list; extras must be marked as extensions
  | { constant: string } // a fixed string value (e.g. an action's type)
  | { accepts: string } // a string value that must be accepted (list not complete)
  | { either: readonly TypeFact[] } // "X or Y": every alternative must be admitted
  | { formatNames: readonly string[] } // v2 format item, string form
  | { formatObjects: readonly string[] } // v2 format item, object form `{ type, ... }`
  | { kinds: readonly string[] };
 // union of objects selected by `type`

/** Marker for "default: the team's concurrency limit" (no fixed value). */
export const TEAM_LIMIT = { noFixedDefault: 'team concurrency limit' } as const;
type DefaultFact = Json | typeof TEAM_LIMIT;

interface Fact {
  /** Path below the owner component: `name`, `name[]`, `name.<kind>.sub`, ... */
  field: string;
  type?: TypeFact;
  /** The field exists only in this version (and must be absent from the other). */
  only?: Version;
  /** Stated required-ness; omitted when the interface says nothing. */
  required?: boolean;
  def?: DefaultFact;
  defBy?: Record<Version, Json>;
  maxBy?: Partial<Record<Version, number>>;
  deprecated?: boolean;
  /** The property must resolve through this component. */
  ref?: string;
}

export interface Row extends Omit<Fact, 'defBy' | 'maxBy' | 'only'> {
  v: Version;
  path: string; // Owner.field
  max?: number;
}

export function typeLabel(t: TypeFact): string {
  if (typeof t === 'string') return t === 'uri' ? 'string (URI)' : t === 'null' ? 'nullable' : t;
  if ('array' in t) {
    if (t.array === 'any') return 'array';
    return typeof t.array === 'string' ? `${typeLabel(t.array)}[]` : `array of (${typeLabel(t.array)})`;
  }
  if ('enum' in t) return `enum ${t.enum.join('|')}`;
  if ('constant' in t) return `"${t.constant}"`;
  if ('accepts' in t) return `accepts "${t.accepts}"`;
  if ('either' in t) return t.either.map((alt) => (alt === 'null' ? 'null' : typeLabel(alt))).join(' or ');
  if ('formatNames' in t) return `format name ${t.formatNames.join('|')}`;
  if ('formatObjects' in t) return `format object with type ${t.formatObjects.join('|')}`;
  return `kinds ${t.kinds.join('|')}`;
}

export function rowName(r: Row): string {
  const parts: string[] = [];
  if (r.type !== undefined) parts.push(typeLabel(r.type));
  if (r.required === true) parts.push('required');
  if (r.required === false) parts.push('optional');
  if ('def' in r) parts.push(r.def === TEAM_LIMIT ? 'no fixed default (team limit)' : `default ${JSON.stringify(r.def)}`);
  if (r.max !== undefined) parts.push(`maximum ${r.max}`);
  if (r.deprecated) parts.push('deprecated');
  if (r.ref !== undefined) parts.push(`-> ${r.ref}`);
  return `${r.v} ${r.path}: ${parts.join(', ')}`;
}

/** Expand facts into rows for each version and owner component. */
export function rows(versions: readonly Version[], owners: readonly string[], facts: readonly Fact[]): Row[] {
  const out: Row[] = [];
  for (const v of versions) {
    for (const owner of owners) {
      for (const f of facts) {
        if (f.only && f.only !== v) continue;
        const { defBy, maxBy, only: _only, field, ...rest } = f;
        const row: Row = { ...rest, field, v, path: `${owner}.${field}` };
        if (defBy) row.def = defBy[v];
        const max = maxBy?.[v];
        if (max !== undefined) row.max = max;
        out.push(row);
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Oracle: facts transcribed from the interface tables
// ---------------------------------------------------------------------------

// §2.1 crawl request body
export const CRAWL: Fact[] = [
  { field: 'url', type: 'uri', required: true },
  { field: 'prompt', only: 'v2', type: 'string', required: false },
  { field: 'excludePaths', type: { array: 'string' }, required: false },
  { field: 'includePaths', type: { array: 'string' }, required: false },
  { field: 'maxDepth', only: 'v1', type: 'integer', required: false, def: 10 },
  { field: 'maxDiscoveryDepth', type: 'integer', required: false },
  { field: 'ignoreSitemap', only: 'v1', type: 'boolean', required: false, def: false },
  { field: 'sitemap', only: 'v2', type: { enum: ['skip', 'include', 'only'] }, required: false, def: 'include' },
  { field: 'ignoreQueryParameters', type: 'boolean', required: false, def: false },
  { field: 'limit', type: 'integer', required: false, def: 10000 },
  { field: 'allowBackwardLinks', only: 'v1', type: 'boolean', required: false, def: false, deprecated: true },
  { field: 'crawlEntireDomain', type: 'boolean', required: false, def: false },
  { field: 'allowExternalLinks', type: 'boolean', required: false, def: false },
  { field: 'allowSubdomains', type: 'boolean', required: false, def: false },
  { field: 'delay', type: 'number', required: false },
  { field: 'maxConcurrency', type: 'integer', required: false, def: TEAM_LIMIT },
  { field: 'webhook', type: 'object', required: false },
  { field: 'scrapeOptions', type: 'object', required: false, ref: 'ScrapeOptions' },
  { field: 'zeroDataRetention', type: 'boolean', required: false, def: false },
];

// §2.2 batch scrape request body (batch-specific fields; scrape options follow below)
export const BATCH: Fact[] = [
  { field: 'urls', type: { array: 'uri' }, required: true },
  { field: 'webhook', type: 'object', required: false },
  { field: 'maxConcurrency', type: 'integer', required: false, def: TEAM_LIMIT },
  { field: 'ignoreInvalidURLs', type: 'boolean', required: false, defBy: { v1: false, v2: true } },
  { field: 'zeroDataRetention', type: 'boolean', required: false, def: false },
];

const V1_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'screenshot@fullPage', 'json', 'changeTracking'];
// v2 named format kinds (Markdown, Summary, HTML, Raw HTML, Links, Images, Screenshot, JSON, Change Tracking,
// Branding), spelled as their wire names; the v1 enum above fixes the spelling of rawHtml/changeTracking.
const V2_FORMATS = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'json', 'changeTracking', 'branding'];
// Action kinds (Wait, Screenshot, Click, Write text, Press a key, Scroll, Scrape, Execute JavaScript, Generate PDF)
// as `type` values.
const ACTION_KINDS = ['wait', 'screenshot', 'click', 'write', 'press', 'scroll', 'scrape', 'executeJavascript', 'pdf'];
const PROXIES = ['basic', 'stealth', 'auto'];

const WAIT_ACTION: Fact[] = [
  { field: 'actions[]', type: { kinds: ACTION_KINDS } },
  { field: 'actions[].<wait>.type', type: { constant: 'wait' } },
  { field: 'actions[].<wait>.milliseconds', type: 'number' },
  { field: 'actions[].<wait>.selector', type: 'string' },
];

// §2.3 scrape options, v1 (all optional)
export const SCRAPE_V1: Fact[] = [
  { field: 'onlyMainContent', type: 'boolean', required: false, def: true },
  { field: 'includeTags', type: { array: 'string' }, required: false },
  { field: 'excludeTags', type: { array: 'string' }, required: false },
  { field: 'maxAge', type: 'integer', required: false, def: 0 },
  { field: 'headers', type: 'object', required: false },
  { field: 'waitFor', type: 'integer', required: false, def: 0 },
  { field: 'mobile', type: 'boolean', required: false, def: false },
  { field: 'skipTlsVerification', type: 'boolean', required: false, def: false },
  { field: 'timeout', type: 'integer', required: false, def: 30000 },
  { field: 'parsePDF', type: 'boolean', required: false, def: true },
  { field: 'jsonOptions', type: 'object', required: false },
  { field: 'jsonOptions.schema', type: 'object' },
  { field: 'jsonOptions.systemPrompt', type: 'string' },
  { field: 'jsonOptions.prompt', type: 'string' },
  { field: 'actions', type: { array: 'object' }, required: false },
  ...WAIT_ACTION,
  { field: 'location', type: 'object', required: false, ref: 'Location' },
  { field: 'removeBase64Images', type: 'boolean', required: false, def: true },
  { field: 'blockAds', type: 'boolean', required: false, def: true },
  { field: 'proxy', type: { enum: PROXIES }, required: false, def: 'basic' },
  { field: 'storeInCache', type: 'boolean', required: false, def: true },
  { field: 'formats', type: { array: { enum: V1_FORMATS } }, required: false },
  { field: 'changeTrackingOptions', type: 'object', required: false },
  { field: 'changeTrackingOptions.modes', type: { array: { accepts: 'git-diff' } } },
  { field: 'changeTrackingOptions.schema', type: 'object' },
  { field: 'changeTrackingOptions.prompt', type: 'string' },
  { field: 'changeTrackingOptions.tag', type: 'null', def: null },
];

// §2.4 scrape options, v2 (all optional)
export const SCRAPE_V2: Fact[] = [
  { field: 'formats', type: { array: 'any' }, required: false },
  { field: 'formats[]', type: { formatNames: V2_FORMATS } },
  { field: 'formats[]', type: { formatObjects: V2_FORMATS } },
  { field: 'formats[].<json>.schema', type: 'object' },
  { field: 'onlyMainContent', type: 'boolean', required: false, def: true },
  { field: 'includeTags', type: { array: 'string' }, required: false },
  { field: 'excludeTags', type: { array: 'string' }, required: false },
  { field: 'maxAge', type: 'integer', required: false, def: 172800000 },
  { field: 'headers', type: 'object', required: false },
  { field: 'waitFor', type: 'integer', required: false, def: 0 },
  { field: 'mobile', type: 'boolean', required: false, def: false },
  { field: 'skipTlsVerification', type: 'boolean', required: false, def: true },
  { field: 'timeout', type: 'integer', required: false, def: 30000, maxBy: { v2: 300000 } },
  { field: 'parsers', type: { array: 'any' }, required: false, def: ['pdf'] },
  { field: 'parsers[]', type: { accepts: 'pdf' } },
  { field: 'actions', type: { array: 'object' }, required: false },
  ...WAIT_ACTION,
  { field: 'location', type: 'object', required: false, ref: 'Location' },
  { field: 'removeBase64Images', type: 'boolean', required: false, def: true },
  { field: 'blockAds', type: 'boolean', required: false, def: true },
  { field: 'proxy', type: { enum: PROXIES }, required: false, def: 'auto' },
  { field: 'storeInCache', type: 'boolean', required: false, def: true },
];

// §2.5 location object
export const LOCATION: Fact[] = [
  { field: 'country', type: 'string', required: false },
  { field: 'languages', type: { array: 'string' }, required: false },
];

// §4 start responses
export const CRAWL_STARTED: Fact[] = [
  { field: 'success', type: 'boolean' },
  { field: 'id', type: 'string' },
  { field: 'url', type: 'uri' },
];
export const BATCH_STARTED: Fact[] = [...CRAWL_STARTED, { field: 'invalidURLs', type: { either: [{ array: 'string' }, 'null'] } }];

// §4 endpoints: request body and success response
export const ENDPOINTS: { v: Version; path: string; body: string; response: string }[] = [
  { v: 'v1', path: '/v1/crawl', body: 'CrawlRequest', response: 'CrawlStartResponse' },
  { v: 'v2', path: '/v2/crawl', body: 'CrawlRequest', response: 'CrawlStartResponse' },
  { v: 'v1', path: '/v1/batch/scrape', body: 'BatchScrapeRequest', response: 'BatchScrapeStartResponse' },
  { v: 'v2', path: '/v2/batch/scrape', body: 'BatchScrapeRequest', response: 'BatchScrapeStartResponse' },
];

// §8 limits (restated as their own rows so the limits table is checked on its own terms)
export const BOTH_SCRAPE_OWNERS = ['ScrapeOptions', 'BatchScrapeRequest'];
export const LIMIT_ROWS: Row[] = [
  ...rows(VERSIONS, ['CrawlRequest'], [{ field: 'limit', def: 10000 }]),
  ...rows(['v1'], ['CrawlRequest'], [{ field: 'maxDepth', def: 10 }]),
  ...rows(VERSIONS, BOTH_SCRAPE_OWNERS, [{ field: 'timeout', def: 30000, maxBy: { v2: 300000 } }]),
  ...rows(VERSIONS, ['CrawlRequest', 'BatchScrapeRequest'], [{ field: 'maxConcurrency', def: TEAM_LIMIT }]),
  ...rows(VERSIONS, BOTH_SCRAPE_OWNERS, [{ field: 'maxAge', defBy: { v1: 0, v2: 172800000 } }]),
  ...rows(VERSIONS, BOTH_SCRAPE_OWNERS, [{ field: 'proxy', type: { enum: PROXIES } }]),
];

// §9 version differences: defaults that change between versions
export const VERSION_DEFAULT_ROWS: Row[] = rows(VERSIONS, BOTH_SCRAPE_OWNERS, [
  { field: 'maxAge', defBy: { v1: 0, v2: 172800000 } },
  { field: 'skipTlsVerification', defBy: { v1: false, v2: true } },
  { field: 'proxy', defBy: { v1: 'basic', v2: 'auto' } },
]).concat(rows(VERSIONS, ['BatchScrapeRequest'], [{ field: 'ignoreInvalidURLs', defBy: { v1: false, v2: true } }]));

// Fields that must NOT be present: [version, owner, field, reason]
export const ABSENT: [Version, string, string, string][] = [
  ...(['maxDepth', 'ignoreSitemap', 'allowBackwardLinks'] as const).map((f): [Version, string, string, string] => [
    'v2',
    'CrawlRequest',
    f,
    'v1-only crawl field',
  ]),
  ...(['prompt', 'sitemap'] as const).map((f): [Version, string, string, string] => ['v1', 'CrawlRequest', f, 'v2-only crawl field']),
  ...BOTH_SCRAPE_OWNERS.flatMap((owner) =>
    (['parsePDF', 'jsonOptions', 'changeTrackingOptions'] as const).map((f): [Version, string, string, string] => [
      'v2',
      owner,
      f,
      'v1-only scrape option',
    ]),
  ),
  ...VERSIONS.map((v): [Version, string, string, string] => [
    v,
    'BatchScrapeRequest',
    'scrapeOptions',
    'batch scrape options are top-level, not nested',
  ]),
  ...VERSIONS.map((v): [Version, string, string, string] => [
    v,
    'CrawlStartResponse',
    'invalidURLs',
    'only the batch start response carries it',
  ]),
];
