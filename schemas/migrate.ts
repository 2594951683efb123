/**
 * Migrating a v1 crawl or batch scrape request body to the v2 body that asks for the same thing.
 *
 *   migrateToV2({ url, ignoreSitemap: true, maxDepth: 3 })
 *     → { kind: 'crawl', request: { url, sitemap: 'skip', scrapeOptions: { maxAge: 0, ... } }, warnings: ['maxDepth: dropped ...'] }
 *   migrateToV2({ urls: [...], formats: ['screenshot@fullPage'] })
 *     → { kind: 'batch', request: { urls: [...], formats: [{ type: 'screenshot', fullPage: true }], ignoreInvalidURLs: false, ... }, warnings: [] }
 *   migrateToV2('nope') → { kind: 'unknown', request: undefined, warnings: ['input is not an object: ...'] }
 *
 * The result is a discriminated union on `kind`:
 *   - `crawl`: the input has `url` (and no `urls`); `request` is a v2 crawl body (POST /v2/crawl).
 *   - `batch`: the input has `urls` (and no `url`); `request` is a v2 batch scrape body (POST /v2/batch/scrape).
 *   - `unknown`: the input is not an object, or has neither or both of `url` and `urls`; `request` is
 *     undefined and `warnings` says why.
 * `warnings` lists, in words, everything v2 cannot say as v1 did (dropped fields, clamped values).
 *
 * The mapping (scrape options are a crawl's `scrapeOptions`, or a batch's top level):
 *   - crawl `ignoreSitemap` true/false → `sitemap` 'skip'/'include'; `allowBackwardLinks` → `crawlEntireDomain`
 *     (an explicit `crawlEntireDomain` wins, as the service decides); `maxDepth` (depth of the URL path) has
 *     no v2 counterpart and is dropped with a warning (`maxDiscoveryDepth` is a different measure).
 *   - `parsePDF` true/false → `parsers` ['pdf']/[]; `geolocation` → `location` (an explicit `location` wins);
 *     the deprecated `__experimental_cache: true` → `maxAge` 4 hours when no `maxAge` is sent (else it asks for
 *     nothing, and is dropped).
 *   - formats: `screenshot@fullPage` → `{ type: 'screenshot', fullPage: true }`; `json` and the deprecated
 *     `extract` with `jsonOptions` (or the `extract` options) → one `{ type: 'json', ... }` object;
 *     `changeTracking` with `changeTrackingOptions` → one `{ type: 'changeTracking', ... }` object; other names
 *     unchanged; a name given twice is kept once. Option fields the v2 format objects do not have (json:
 *     `systemPrompt`, `mode`, `temperature`) are dropped with a warning; options without their format too.
 *   - screenshot actions: fields v2 reads and v1 ignores (`viewport`) are dropped with a warning.
 *   - numbers: where v2 bounds a field more tightly than v1 (`timeout` at most 300000), a value outside the
 *     v2 bounds is clamped to them with a warning.
 *   - defaults: where a field means the same in both versions but the defaults differ (`maxAge`,
 *     `skipTlsVerification`, `proxy`, batch `ignoreInvalidURLs`), an absent field is set to its v1 default, so
 *     v2 behaves as v1 did. A crawl without `scrapeOptions` gets a `scrapeOptions` holding just those. Where
 *     the service's own v1 default differs from the interface's written out (`x-crawlspec-service-default`: v1
 *     `maxAge` one day since 2025-10-26, `skipTlsVerification` true without headers or actions since 2025-09-28),
 *     a warning says so: the same v1 body sent to the service of 2026-08-21 got the service's default. A
 *     renamed field is compared through its mapping (`parsePDF` true ≡ `parsers` ['pdf']). Only what v2 can
 *     express is kept: v1's implicit `maxDepth` default has no v2 counterpart either.
 *   - everything else (webhook, limits, paths, `origin`, `integration`, ...) is copied unchanged.
 *
 * Every table here (the defaults, the bounds, the fields the v2 format objects and actions lack) is read
 * from the TypeBox definitions (`registry.ts`), not written a second time (`migrateTables.ts`; the value helpers
 * are in `migrateValues.ts`).
 *
 * Migrating any valid v1 body gives a valid v2 body. An invalid v1 body is migrated as far as possible, with
 * a first warning naming its first problem: values of an unexpected type are left where they are, under
 * their v1 name, so that v2 validation reports them rather than the migration hiding them.
 *
 * Never throws for any input, never mutates it, and returns a new value that shares no plain object or
 * array with it (other objects are kept by reference). Keys such as `__proto__` become ordinary own
 * properties of the output; the walk is iterative (deep bodies do not exhaust the stack) and cycles stay cycles.
 */
import { EXPERIMENTAL_CACHE_MAX_AGE } from './v1Fields.js';
import { validate } from './validate.js';
import { copy, deepEqual, define, has, isRecord, own, shown, type Plain } from './migrateValues.js';
import {
  CHANGE_TRACKING_FIELDS_DROPPED,
  CRAWL,
  BATCH,
  JSON_FIELDS_DROPPED,
  SCRAPE,
  ACTION_FIELDS_V1_IGNORES,
  type Level,
} from './migrateTables.js';
import type { ServiceLevelDefault } from './annotations.js';

export type MigrationKind = 'crawl' | 'batch';

/** The input was a v1 crawl (`url`) or batch scrape (`urls`) body; `request` is the v2 body. */
export interface Migrated {
  readonly kind: MigrationKind;
  readonly request: Record<string, unknown>;
  readonly warnings: string[];
}

/** The input was neither; `warnings` says why. */
export interface NotMigrated {
  readonly kind: 'unknown';
  readonly request: undefined;
  readonly warnings: string[];
}

export type MigrationResult = Migrated | NotMigrated;

// ---------------------------------------------------------------------------------------------------------
// The migration

/** A v2 format object `{ type, ...options }`, without the option fields v2 lacks (warned about). */
function formatObject(type: string, options: Plain | undefined, dropped: readonly string[], at: string, warnings: string[]): Plain {
  const format: Plain = {};
  define(format, 'type', type);
  for (const key of options === undefined ? [] : Object.keys(options)) {
    if (key === 'type') continue;
    if (dropped.includes(key)) {
      warnings.push(`${at}.${key}: dropped; the v2 ${type} format has no ${key}`);
      continue;
    }
    define(format, key, copy(own(options!, key)));
  }
  return format;
}

/** The v2 formats, and the option fields folded into them (not to be copied on their own). */
function migrateFormats(
  input: Plain,
  formats: readonly unknown[],
  at: string,
  warnings: string[],
): { formats: unknown[]; folded: Set<string> } {
  const folded = new Set<string>();
  const names = new Set(formats.filter((f): f is string => typeof f === 'string'));
  const jsonOptions = own(input, 'jsonOptions');
  const extractOptions = own(input, 'extract');
  const changeTrackingOptions = own(input, 'changeTrackingOptions');

  let json: Plain | undefined;
  if (names.has('json') || names.has('extract')) {
    const source = isRecord(jsonOptions) ? 'jsonOptions' : isRecord(extractOptions) ? 'extract' : undefined;
    if (source !== undefined) folded.add(source);
    if (source === 'jsonOptions' && isRecord(extractOptions)) {
      folded.add('extract');
      if (!deepEqual(jsonOptions, extractOptions)) {
        warnings.push(`${at}extract: dropped; jsonOptions is given too, and the one v2 json format is made from it`);
      }
    }
    const options = source === undefined ? undefined : (own(input, source) as Plain);
    json = formatObject('json', options, JSON_FIELDS_DROPPED, `${at}${source ?? 'jsonOptions'}`, warnings);
  }
  let changeTracking: Plain | undefined;
  if (names.has('changeTracking') && isRecord(changeTrackingOptions)) {
    folded.add('changeTrackingOptions');
    changeTracking = formatObject(
      'changeTracking',
      changeTrackingOptions,
      CHANGE_TRACKING_FIELDS_DROPPED,
      `${at}changeTrackingOptions`,
      warnings,
    );
  }

  const result: unknown[] = [];
  const seen = new Set<string>();
  let jsonPlaced = false;
  for (let index = 0; index < formats.length; index++) {
    const item = own(formats, String(index));
    if (typeof item !== 'string') {
      result.push(copy(item));
      continue;
    }
    const duplicate = seen.has(item);
    seen.add(item);
    if (item === 'json' || item === 'extract') {
      // `json` and `extract` ask for the same thing: one json format, where the first of them stands.
      if (!jsonPlaced) result.push(json);
      else if (duplicate) warnings.push(`${at}formats: duplicate "${item}" removed`);
      jsonPlaced = true;
      continue;
    }
    if (duplicate) {
      warnings.push(`${at}formats: duplicate "${item}" removed`);
      continue;
    }
    if (item === 'screenshot@fullPage') result.push({ type: 'screenshot', fullPage: true });
    else if (item === 'changeTracking' && changeTracking !== undefined) result.push(changeTracking);
    else result.push(item);
  }
  return { formats: result, folded };
}

function migrateActions(actions: readonly unknown[], at: string, warnings: string[]): unknown[] {
  const result = copy(actions) as unknown[];
  result.forEach((action, index) => {
    if (!isRecord(action)) return;
    const type = own(action, 'type');
    const ignored = typeof type === 'string' ? ACTION_FIELDS_V1_IGNORES.get(type) : undefined;
    for (const key of ignored ?? []) {
      if (!has(action, key)) continue;
      delete action[key];
      warnings.push(`${at}actions[${index}].${key}: dropped; v1 ignores ${key} on ${type} actions, v2 would apply it`);
    }
  });
  return result;
}

/** The fields of one object of the request (`at`: its path, as a prefix of warnings), migrated by `rules`. */
function migrateObject(input: Plain, rules: Level, at: string, warnings: string[]): Plain {
  const out: Plain = {};
  const formats = own(input, 'formats');
  const migratedFormats = rules.scrapeOptions && Array.isArray(formats) ? migrateFormats(input, formats, at, warnings) : undefined;

  for (const key of Object.keys(input)) {
    const value = own(input, key);
    if (migratedFormats !== undefined) {
      if (key === 'formats') {
        define(out, key, migratedFormats.formats);
        continue;
      }
      if (migratedFormats.folded.has(key)) continue;
    }
    if (rules.scrapeOptions && isRecord(value)) {
      if (key === 'jsonOptions' || key === 'extract') {
        warnings.push(`${at}${key}: dropped; no ${key === 'extract' ? 'extract' : 'json'} format is requested`);
        continue;
      }
      if (key === 'changeTrackingOptions') {
        warnings.push(`${at}changeTrackingOptions: dropped; the changeTracking format is not requested, and v2 has no separate options`);
        continue;
      }
    }
    if (rules.scrapeOptions && key === '__experimental_cache' && typeof value === 'boolean') {
      if (value && !has(input, 'maxAge')) define(out, 'maxAge', EXPERIMENTAL_CACHE_MAX_AGE);
      continue;
    }
    if (rules.scrapeOptions && key === 'actions' && Array.isArray(value)) {
      define(out, key, migrateActions(value, at, warnings));
      continue;
    }
    if (!rules.scrapeOptions && key === 'maxDepth') {
      warnings.push(
        `maxDepth: dropped (was ${shown(value)}); v2 cannot limit a crawl by the depth of the URL path. maxDiscoveryDepth is a different measure (link hops in discovery order, the start page and sitemap pages at depth 0), so it is not set in its place`,
      );
      continue;
    }
    if (!rules.scrapeOptions && key === 'scrapeOptions' && isRecord(value)) {
      define(out, key, migrateObject(value, SCRAPE, 'scrapeOptions.', warnings));
      continue;
    }
    const rename = rules.renames.find((r) => r.from === key);
    const renamed = rename?.convert(value);
    if (rename !== undefined && renamed !== undefined) {
      if (!has(input, rename.to)) define(out, rename.to, copy(renamed.value));
      else if (!deepEqual(renamed.value, own(input, rename.to))) {
        warnings.push(`${at}${key}: dropped; ${rename.to} is given too and wins, as it does in v1`);
      }
      continue;
    }
    const bound = rules.bounds.find((b) => b.key === key);
    if (bound !== undefined && typeof value === 'number') {
      if (bound.maximum !== undefined && value > bound.maximum) {
        warnings.push(`${at}${key}: ${value} is above the v2 maximum of ${bound.maximum}; clamped to ${bound.maximum}`);
        define(out, key, bound.maximum);
        continue;
      }
      if (bound.minimum !== undefined && value < bound.minimum) {
        warnings.push(`${at}${key}: ${value} is below the v2 minimum of ${bound.minimum}; clamped to ${bound.minimum}`);
        define(out, key, bound.minimum);
        continue;
      }
    }
    define(out, key, copy(value));
  }

  if (!rules.scrapeOptions && !has(input, 'scrapeOptions') && SCRAPE.defaults.length > 0) {
    // v2 would apply its own scrape defaults to every page: state v1's where they differ.
    define(out, 'scrapeOptions', migrateObject({}, SCRAPE, 'scrapeOptions.', warnings));
  }
  for (const { key, value, unless, service } of rules.defaults) {
    if (has(out, key) || unless.some((k) => has(input, k))) continue;
    define(out, key, copy(value));
    const warning = service === undefined ? undefined : serviceDefaultWarning(input, at, key, value, service);
    if (warning !== undefined) warnings.push(warning);
  }
  return out;
}

/**
 * The warning for a v1 default written out that the service does not apply to this body: the migrated body asks
 * for the interface's v1 default, where the same v1 body sent to the service of 2026-08-21 got the service's own.
 */
function serviceDefaultWarning(input: Plain, at: string, key: string, value: unknown, service: ServiceLevelDefault): string | undefined {
  const beside = service.ifNonEmpty;
  const sent = beside?.fields.filter((f) => {
    const v = own(input, f);
    return v !== undefined && v !== null && v !== '' && !(typeof v === 'object' && Object.keys(v).length === 0);
  });
  const effective = beside !== undefined && sent!.length > 0 ? beside.value : service.value;
  if (deepEqual(effective, value)) return undefined;
  const since = service.since.startsWith('by ') ? service.since : `since ${service.since}`;
  const why = beside === undefined ? '' : ` when ${beside.fields.join(' and ')} ${beside.fields.length > 1 ? 'are' : 'is'} empty or absent`;
  return `${at}${key}: set to ${shown(value)}, the interface's v1 default; the service's own v1 default (${since}) is ${shown(effective)}${why}: send ${key}: ${shown(effective)} to keep what the service did`;
}

const notMigrated = (warning: string): NotMigrated => ({ kind: 'unknown', request: undefined, warnings: [warning] });

function migrate(request: unknown): MigrationResult {
  if (!isRecord(request)) {
    return notMigrated(
      `input is not an object (${Array.isArray(request) ? 'an array' : request === null ? 'null' : typeof request}); expected a v1 crawl request (with url) or batch scrape request (with urls)`,
    );
  }
  const crawl = has(request, 'url');
  const batch = has(request, 'urls');
  if (crawl && batch) return notMigrated('input has both url (crawl) and urls (batch scrape); cannot tell which request it is');
  if (!crawl && !batch) return notMigrated('input has neither url (crawl request) nor urls (batch scrape request)');

  const kind: MigrationKind = crawl ? 'crawl' : 'batch';
  const warnings: string[] = [];
  const checked = validate(crawl ? 'v1/CrawlRequest' : 'v1/BatchScrapeRequest', request);
  // What cannot be read as JSON data (an array with holes, a getter that throws) cannot be migrated either.
  const unreadable = checked.valid ? undefined : checked.errors.find((e) => e.rule === 'readable');
  if (unreadable !== undefined) return notMigrated(`input ${unreadable.message}`);
  if (!checked.valid) {
    const [first] = checked.errors;
    const count = checked.errors.length;
    warnings.push(
      `input is not a valid v1 ${crawl ? 'crawl' : 'batch scrape'} request (${count} problem${count === 1 ? '' : 's'}${first === undefined ? '' : `, first: ${first.path}: ${first.message}`}); it is migrated as far as possible, and the result may not be a valid v2 request`,
    );
  }
  const migrated = migrateObject(request, crawl ? CRAWL : BATCH, '', warnings);
  return { kind, request: migrated, warnings };
}

/** The v2 request that asks for what the v1 crawl or batch scrape request `request` asks for; see the module comment. */
export function migrateToV2(request: unknown): MigrationResult {
  try {
    return migrate(request);
  } catch (error) {
    // Only exotic inputs get here (e.g. a proxy whose traps throw); the answer is still a result.
    let reason = 'unknown error';
    try {
      reason = error instanceof Error ? error.message : String(error);
    } catch {
      // keep 'unknown error'
    }
    return notMigrated(`input could not be migrated: ${reason}`);
  }
}
