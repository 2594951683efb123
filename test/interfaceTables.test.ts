/**
 * Interface-table conformance: every field, type, default, enum value and
 * limit that the interface document states in its tables (sections 2.1-2.5,
 * 4, 8 and 9) must appear, with that value, in the generated OpenAPI
 * documents `generated/openapi/v1.json` and `generated/openapi/v2.json`.
 *
 * The tables below are an independent oracle: the facts were transcribed by
 * hand from the interface document (which is NOT read at run time). The
 * generated documents are the thing under test. Each oracle row becomes one
 * `it(...)`, so a failure names the exact field and the value that deviates.
 *
 * Conventions used by the checks:
 * - `$ref` is followed; keywords written beside a `$ref` (description,
 *   default, x-crawlspec-source, ...) win over the referenced definition.
 * - A field's JSON type must be among the types its schema allows (for a
 *   union, among the branches). "integer" fields must say `integer`;
 *   "string (URI)" fields only need a string schema.
 * - Defaults are compared with `toEqual`. A "-" default in the interface is
 *   not checked; "team's concurrency limit" means no fixed default value.
 * - Enums may carry values beyond the interface's, but each extra value must
 *   be listed in that schema's `x-crawlspec-extension-values`, and every
 *   interface value must be present.
 * - Every interface-stated field carries `x-crawlspec-source: "interface §..."`
 *   (on the property, beside its `$ref`, or on the referenced definition).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// ---------------------------------------------------------------------------
// Generated documents and a small $ref resolver
// ---------------------------------------------------------------------------

type Version = 'v1' | 'v2';
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: unknown };

const VERSIONS: readonly Version[] = ['v1', 'v2'];

function loadDoc(version: Version): Schema {
  const text = readFileSync(new URL(`../generated/openapi/${version}.json`, import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (!isObj(parsed)) throw new Error(`${version}.json is not a JSON object`);
  return parsed;
}

const DOCS: Record<Version, Schema> = { v1: loadDoc('v1'), v2: loadDoc('v2') };

function isObj(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const COMPONENT = '#/components/schemas/';

/** Follow a local JSON pointer (`#/...`) inside `doc`. */
function lookup(doc: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $ref is supported, got ${ref}`);
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(cur) || !(key in cur)) throw new Error(`dangling $ref ${ref}`);
    cur = cur[key];
  }
  if (!isObj(cur)) throw new Error(`$ref ${ref} does not point at a schema`);
  return cur;
}

interface Resolved {
  /** The schema with every `$ref` replaced; keywords beside a `$ref` win. */
  schema: Schema;
  /** The `$ref`s followed, outermost first. */
  refs: string[];
}

function resolve(doc: Schema, schema: Schema): Resolved {
  let cur = schema;
  const refs: string[] = [];
  while (typeof cur.$ref === 'string') {
    const ref = cur.$ref;
    if (refs.includes(ref)) throw new Error(`$ref cycle through ${ref}`);
    refs.push(ref);
    const { $ref: _ignored, ...beside } = cur;
    cur = { ...lookup(doc, ref), ...beside };
  }
  return { schema: cur, refs };
}

function component(doc: Schema, name: string): Schema {
  return resolve(doc, { $ref: COMPONENT + name }).schema;
}

/** The alternatives of a schema: union members (anyOf/oneOf, flattened, resolved) or the schema itself. */
function branches(doc: Schema, schema: Schema): Schema[] {
  const members = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (!members) return [schema];
  return members.flatMap((m) => {
    if (!isObj(m)) throw new Error('union member is not a schema');
    return branches(doc, resolve(doc, m).schema);
  });
}

/** JSON types a schema admits, across union branches. */
function typesOf(doc: Schema, schema: Schema): Set<string> {
  const out = new Set<string>();
  for (const b of branches(doc, schema)) {
    if (typeof b.type === 'string') out.add(b.type);
    else if (Array.isArray(b.type)) for (const t of b.type) out.add(String(t));
  }
  return out;
}

/** String values a (resolved, non-union) schema names through `const` or `enum`. */
function namedValues(schema: Schema): string[] | undefined {
  if (typeof schema.const === 'string') return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  return undefined;
}

function extensionValues(schema: Schema): string[] {
  const ext = schema['x-crawlspec-extension-values'];
  return Array.isArray(ext) ? ext.map(String) : [];
}

/** The value(s) of the `type` discriminator property of an object branch. */
function discriminatorValues(doc: Schema, branch: Schema): { values: string[]; holder: Schema } | undefined {
  const props = branch.properties;
  if (!isObj(props) || !isObj(props.type)) return undefined;
  const holder = resolve(doc, props.type).schema;
  const values = namedValues(holder);
  return values ? { values, holder } : undefined;
}

interface Located {
  node: Schema;
  refs: string[];
  /** The object schema that holds the last property on the path, if the path ends in a property. */
  parent?: Schema;
  key?: string;
}

/**
 * Walk `Owner.prop.prop[].<kind>.prop` from a component:
 *   `name`   a property;  `name[]` that property's array items;
 *   `<kind>` the union member whose `type` property is (preferably `const`) that value.
 */
function locate(doc: Schema, path: string): Located {
  const [owner, ...steps] = path.split('.');
  if (!owner) throw new Error(`empty path`);
  let here: Located = resolveRef(doc, { $ref: COMPONENT + owner });
  let walked = owner;
  for (const step of steps) {
    const kind = /^<(.+)>$/.exec(step);
    if (kind) {
      const wanted = kind[1] ?? '';
      const candidates = branches(doc, here.node).filter((b) => discriminatorValues(doc, b)?.values.includes(wanted));
      const exact = candidates.find((b) => discriminatorValues(doc, b)?.values.length === 1) ?? candidates[0];
      if (!exact) throw new Error(`${walked} has no member with type "${wanted}"`);
      here = { node: exact, refs: [] };
      walked += `.${step}`;
      continue;
    }
    const items = step.endsWith('[]');
    const key = items ? step.slice(0, -2) : step;
    const props = here.node.properties;
    const raw = isObj(props) ? props[key] : undefined;
    if (!isObj(raw)) throw new Error(`${walked} has no property "${key}"`);
    const parent = here.node;
    here = { ...resolveRef(doc, raw), parent, key };
    walked += `.${key}`;
    if (items) {
      const arrayBranch = branches(doc, here.node).find((b) => b.type === 'array');
      if (!arrayBranch || !isObj(arrayBranch.items)) throw new Error(`${walked} is not an array with items`);
      here = resolveRef(doc, arrayBranch.items);
      walked += '[]';
    }
  }
  return here;
}

function resolveRef(doc: Schema, schema: Schema): Located {
  const { schema: node, refs } = resolve(doc, schema);
  return { node, refs };
}

function hasProperty(doc: Schema, path: string, key: string): boolean {
  const { node } = locate(doc, path);
  return isObj(node.properties) && key in node.properties;
}

// ---------------------------------------------------------------------------
// Oracle vocabulary
// ---------------------------------------------------------------------------

/** What the interface says about a field's type. */
type TypeFact =
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
  | { kinds: readonly string[] }; // union of objects selected by `type`

/** Marker for "default: the team's concurrency limit" (no fixed value). */
const TEAM_LIMIT = { noFixedDefault: 'team concurrency limit' } as const;
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

interface Row extends Omit<Fact, 'defBy' | 'maxBy' | 'only'> {
  v: Version;
  path: string; // Owner.field
  max?: number;
}

function typeLabel(t: TypeFact): string {
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

function rowName(r: Row): string {
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
function rows(versions: readonly Version[], owners: readonly string[], facts: readonly Fact[]): Row[] {
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
const CRAWL: Fact[] = [
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
const BATCH: Fact[] = [
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
const SCRAPE_V1: Fact[] = [
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
const SCRAPE_V2: Fact[] = [
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
const LOCATION: Fact[] = [
  { field: 'country', type: 'string', required: false },
  { field: 'languages', type: { array: 'string' }, required: false },
];

// §4 start responses
const CRAWL_STARTED: Fact[] = [
  { field: 'success', type: 'boolean' },
  { field: 'id', type: 'string' },
  { field: 'url', type: 'uri' },
];
const BATCH_STARTED: Fact[] = [...CRAWL_STARTED, { field: 'invalidURLs', type: { either: [{ array: 'string' }, 'null'] } }];

// §4 endpoints: request body and success response
const ENDPOINTS: { v: Version; path: string; body: string; response: string }[] = [
  { v: 'v1', path: '/v1/crawl', body: 'CrawlRequest', response: 'CrawlStartResponse' },
  { v: 'v2', path: '/v2/crawl', body: 'CrawlRequest', response: 'CrawlStartResponse' },
  { v: 'v1', path: '/v1/batch/scrape', body: 'BatchScrapeRequest', response: 'BatchScrapeStartResponse' },
  { v: 'v2', path: '/v2/batch/scrape', body: 'BatchScrapeRequest', response: 'BatchScrapeStartResponse' },
];

// §8 limits (restated as their own rows so the limits table is checked on its own terms)
const BOTH_SCRAPE_OWNERS = ['ScrapeOptions', 'BatchScrapeRequest'];
const LIMIT_ROWS: Row[] = [
  ...rows(VERSIONS, ['CrawlRequest'], [{ field: 'limit', def: 10000 }]),
  ...rows(['v1'], ['CrawlRequest'], [{ field: 'maxDepth', def: 10 }]),
  ...rows(VERSIONS, BOTH_SCRAPE_OWNERS, [{ field: 'timeout', def: 30000, maxBy: { v2: 300000 } }]),
  ...rows(VERSIONS, ['CrawlRequest', 'BatchScrapeRequest'], [{ field: 'maxConcurrency', def: TEAM_LIMIT }]),
  ...rows(VERSIONS, BOTH_SCRAPE_OWNERS, [{ field: 'maxAge', defBy: { v1: 0, v2: 172800000 } }]),
  ...rows(VERSIONS, BOTH_SCRAPE_OWNERS, [{ field: 'proxy', type: { enum: PROXIES } }]),
];

// §9 version differences: defaults that change between versions
const VERSION_DEFAULT_ROWS: Row[] = rows(VERSIONS, BOTH_SCRAPE_OWNERS, [
  { field: 'maxAge', defBy: { v1: 0, v2: 172800000 } },
  { field: 'skipTlsVerification', defBy: { v1: false, v2: true } },
  { field: 'proxy', defBy: { v1: 'basic', v2: 'auto' } },
]).concat(rows(VERSIONS, ['BatchScrapeRequest'], [{ field: 'ignoreInvalidURLs', defBy: { v1: false, v2: true } }]));

// Fields that must NOT be present: [version, owner, field, reason]
const ABSENT: [Version, string, string, string][] = [
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

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

function checkType(doc: Schema, node: Schema, t: TypeFact, at: string): void {
  const types = typesOf(doc, node);
  if (typeof t === 'string') {
    const want = t === 'uri' ? 'string' : t;
    expect([...types], `${at}: JSON type should include "${want}"`).toContain(want);
    return;
  }
  if ('array' in t) {
    const arrayBranch = branches(doc, node).find((b) => b.type === 'array');
    expect(arrayBranch, `${at}: should be an array`).toBeDefined();
    if (!arrayBranch || t.array === 'any') return;
    expect(isObj(arrayBranch.items), `${at}: array should declare its items`).toBe(true);
    if (isObj(arrayBranch.items)) checkType(doc, resolve(doc, arrayBranch.items).schema, t.array, `${at}[]`);
    return;
  }
  if ('enum' in t) {
    expect([...types], `${at}: enum should be of type string`).toContain('string');
    checkEnum(node, t.enum, at);
    return;
  }
  if ('constant' in t) {
    expect([...types], `${at}: should be a string`).toContain('string');
    expect(namedValues(node), `${at}: fixed value`).toEqual([t.constant]);
    return;
  }
  if ('accepts' in t) {
    const ok = branches(doc, node).some((b) => {
      if (b.type !== 'string') return false;
      const values = namedValues(b);
      return values === undefined || values.includes(t.accepts);
    });
    expect(ok, `${at}: should accept the string "${t.accepts}"`).toBe(true);
    return;
  }
  if ('either' in t) {
    for (const alt of t.either) checkType(doc, node, alt, `${at} (${typeLabel(alt)} alternative)`);
    return;
  }
  if ('formatNames' in t) {
    const named = branches(doc, node).filter((b) => b.type === 'string' && namedValues(b) !== undefined);
    expect(named.length, `${at}: should admit a format name string`).toBeGreaterThan(0);
    const all = named.flatMap((b) => namedValues(b) ?? []);
    expect(all, `${at}: format names`).toEqual(expect.arrayContaining([...t.formatNames]));
    for (const b of named) checkExtras(b, t.formatNames, `${at} (format name enum)`);
    return;
  }
  if ('formatObjects' in t) {
    const objects = branches(doc, node).filter((b) => b.type === 'object');
    const found = objects.flatMap((b) => discriminatorValues(doc, b)?.values ?? []);
    expect(found, `${at}: object format types`).toEqual(expect.arrayContaining([...t.formatObjects]));
    for (const b of objects) {
      const d = discriminatorValues(doc, b);
      if (d && Array.isArray(d.holder.enum))
        checkExtras(d.holder, t.formatObjects, `${at} (${String(b.title ?? 'format object')}.type enum)`);
    }
    return;
  }
  const kinds = branches(doc, node).flatMap((b) => discriminatorValues(doc, b)?.values ?? []);
  expect(kinds, `${at}: kinds`).toEqual(expect.arrayContaining([...t.kinds]));
}

function checkEnum(node: Schema, expected: readonly string[], at: string): void {
  const values = namedValues(node);
  expect(values, `${at}: should be an enum`).toBeDefined();
  expect(values, `${at}: enum values`).toEqual(expect.arrayContaining([...expected]));
  checkExtras(node, expected, at);
}

/** Values beyond the interface's must be declared as extensions, and extensions must not shadow interface values. */
function checkExtras(node: Schema, expected: readonly string[], at: string): void {
  const values = namedValues(node) ?? [];
  const extras = values.filter((v) => !expected.includes(v));
  const declared = extensionValues(node);
  expect(declared, `${at}: values beyond the interface's must be listed in x-crawlspec-extension-values`).toEqual(
    expect.arrayContaining(extras),
  );
  expect(
    declared.filter((v) => expected.includes(v)),
    `${at}: x-crawlspec-extension-values must not list interface values`,
  ).toEqual([]);
}

function checkRow(r: Row): void {
  const doc = DOCS[r.v];
  const at = `${r.v} ${r.path}`;
  const { node, refs, parent, key } = locate(doc, r.path);

  if (r.type !== undefined) checkType(doc, node, r.type, at);

  if (r.required !== undefined) {
    expect(parent && key, `${at}: required-ness needs a property`).toBeTruthy();
    const required = Array.isArray(parent?.required) ? parent.required : [];
    expect(required.includes(key), `${at}: ${r.required ? 'must' : 'must not'} be in "required"`).toBe(r.required);
  }

  if ('def' in r) {
    if (r.def === TEAM_LIMIT) expect(node.default, `${at}: no fixed default (team concurrency limit)`).toBeUndefined();
    else expect(node.default, `${at}: default`).toEqual(r.def);
  }

  if (r.max !== undefined) expect(node.maximum, `${at}: maximum`).toBe(r.max);

  if (r.deprecated) expect(node.deprecated, `${at}: deprecated`).toBe(true);

  if (r.ref !== undefined) expect(refs, `${at}: should resolve to ${r.ref}`).toContain(COMPONENT + r.ref);

  expect(node['x-crawlspec-source'], `${at}: x-crawlspec-source`).toMatch(/^interface §/);
}

function suite(title: string, list: readonly Row[]): void {
  describe(title, () => {
    for (const r of list) it(rowName(r), () => checkRow(r));
  });
}

// ---------------------------------------------------------------------------
// Row sets
// ---------------------------------------------------------------------------

const CRAWL_ROWS = rows(VERSIONS, ['CrawlRequest'], CRAWL);
const BATCH_ROWS = rows(VERSIONS, ['BatchScrapeRequest'], BATCH);
// Scrape options: nested under the crawl's `scrapeOptions` (the ScrapeOptions component) and at the top level of
// the batch scrape body.
const SCRAPE_ROWS = [...rows(['v1'], BOTH_SCRAPE_OWNERS, SCRAPE_V1), ...rows(['v2'], BOTH_SCRAPE_OWNERS, SCRAPE_V2)];
const LOCATION_ROWS = rows(VERSIONS, ['Location'], LOCATION);
const RESPONSE_ROWS = [
  ...rows(VERSIONS, ['CrawlStartResponse'], CRAWL_STARTED),
  ...rows(VERSIONS, ['BatchScrapeStartResponse'], BATCH_STARTED),
];

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

describe('interface tables vs generated OpenAPI', () => {
  it('the oracle names each row once per section', () => {
    const all = [CRAWL_ROWS, BATCH_ROWS, SCRAPE_ROWS, LOCATION_ROWS, RESPONSE_ROWS, LIMIT_ROWS, VERSION_DEFAULT_ROWS];
    for (const list of all) {
      const names = list.map(rowName);
      expect(new Set(names).size, names.join('\n')).toBe(names.length);
    }
  });

  suite('§2.1 crawl request', CRAWL_ROWS);
  suite('§2.2 batch scrape request', BATCH_ROWS);
  suite('§2.3/§2.4 scrape options (crawl scrapeOptions and batch top level)', SCRAPE_ROWS);
  suite('§2.5 location', LOCATION_ROWS);
  suite('§4 start responses', RESPONSE_ROWS);
  suite('§8 limits', LIMIT_ROWS);
  suite('§9 version defaults', VERSION_DEFAULT_ROWS);

  describe('§2.1/§2.3/§2.4/§4/§9 fields absent by version', () => {
    for (const [v, owner, field, why] of ABSENT) {
      it(`${v} ${owner}.${field}: absent (${why})`, () => {
        expect(hasProperty(DOCS[v], owner, field), `${v} ${owner} should not have "${field}"`).toBe(false);
      });
    }
  });

  describe('§4 endpoints', () => {
    for (const e of ENDPOINTS) {
      it(`${e.v} POST ${e.path}: application/json ${e.body} -> ${e.response}`, () => {
        const paths = DOCS[e.v].paths;
        const item = isObj(paths) ? paths[e.path] : undefined;
        const post = isObj(item) ? item.post : undefined;
        expect(isObj(post), `${e.v} ${e.path}: POST operation`).toBe(true);
        if (!isObj(post)) return;
        const body = isObj(post.requestBody) ? post.requestBody : {};
        const bodySchema = (body.content as Schema | undefined)?.['application/json'];
        expect(isObj(bodySchema) ? bodySchema.schema : undefined, `${e.path}: request body`).toEqual({ $ref: COMPONENT + e.body });
        const responses = isObj(post.responses) ? post.responses : {};
        const ok = Object.entries(responses).find(([code]) => /^2\d\d$/.test(code))?.[1];
        const okContent = isObj(ok) && isObj(ok.content) ? ok.content['application/json'] : undefined;
        expect(isObj(okContent) ? okContent.schema : undefined, `${e.path}: success response`).toEqual({ $ref: COMPONENT + e.response });
      });
    }
    for (const v of VERSIONS) {
      it(`${v}: every path starts with /${v}/ (§9: version is the first path segment)`, () => {
        const paths = Object.keys(isObj(DOCS[v].paths) ? DOCS[v].paths : {});
        expect(paths.length).toBeGreaterThan(0);
        expect(paths.filter((p) => !p.startsWith(`/${v}/`))).toEqual([]);
      });
    }
  });
});
