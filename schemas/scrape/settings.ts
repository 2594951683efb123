/**
 * The scrape options of a v1 or v2 request (a batch scrape's top-level fields, or a crawl's `scrapeOptions`)
 * with the defaults of the interface applied per version (interface §2.3, §2.4, §9): `onlyMainContent` true,
 * `removeBase64Images` true, `storeInCache` true, `mobile` false, `timeout` 30000; `maxAge` 0 in v1 and
 * 172800000 (2 days) in v2; `skipTlsVerification` false in v1 and true in v2; PDF text extracted unless v1
 * `parsePDF` is false or v2 `parsers` leaves `pdf` out. `formats` has no default in the interface; the
 * service's is markdown alone.
 */
import type { Version } from '../versions.js';

export interface ScrapeSettings {
  readonly version: Version;
  /** The format names asked for (a v2 format object by its `type`), in order; undefined when `formats` is not given. */
  readonly formats: readonly string[] | undefined;
  readonly onlyMainContent: boolean;
  /** The selectors given, blank ones left out (the service ignores them). */
  readonly includeTags: readonly string[];
  readonly excludeTags: readonly string[];
  readonly removeBase64Images: boolean;
  /** The headers to send, by name as given. */
  readonly headers: Readonly<Record<string, string>>;
  readonly mobile: boolean;
  /** `location.languages`. */
  readonly languages: readonly string[];
  readonly maxAge: number;
  /** `storeInCache` as asked (default true). */
  readonly storeInCache: boolean;
  /**
   * Whether the scrape stores the page in the cache: `storeInCache`, false whatever it says when `headers` or
   * `actions` are used (interface §2.3), which this reads as a non-empty headers object or actions list.
   */
  readonly stores: boolean;
  readonly timeout: number;
  readonly skipTlsVerification: boolean;
  /** v1 `parsePDF`, or v2 `parsers` holding `pdf` (a string or an object of that type). */
  readonly extractsPdf: boolean;
  /** The request has a non-empty `actions` list. */
  readonly hasActions: boolean;
}

/** Interface §2.4 `maxAge` default: 2 days. */
export const V2_MAX_AGE_MS = 172_800_000;
/** Interface §2.3, §2.4 `timeout` default. */
export const DEFAULT_TIMEOUT_MS = 30_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const flag = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
const whole = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const typeOf = (entry: unknown): string | undefined =>
  typeof entry === 'string' ? entry : isRecord(entry) && typeof entry['type'] === 'string' ? entry['type'] : undefined;

/** The settings of scrape `options` (assumed valid for `version`'s scrape options). */
export function scrapeSettings(version: Version, options: unknown): ScrapeSettings {
  const o = isRecord(options) ? options : {};
  const headers: Record<string, string> = {};
  if (isRecord(o['headers']))
    for (const [name, value] of Object.entries(o['headers'])) if (typeof value === 'string') headers[name] = value;
  const hasActions = Array.isArray(o['actions']) && o['actions'].length > 0;
  const storeInCache = flag(o['storeInCache'], true);
  const location = isRecord(o['location']) ? o['location'] : {};
  const parsers = o['parsers'];
  return {
    version,
    formats: Array.isArray(o['formats']) ? o['formats'].flatMap((f) => typeOf(f) ?? []) : undefined,
    onlyMainContent: flag(o['onlyMainContent'], true),
    includeTags: strings(o['includeTags']).filter((t) => t.trim() !== ''),
    excludeTags: strings(o['excludeTags']).filter((t) => t.trim() !== ''),
    removeBase64Images: flag(o['removeBase64Images'], true),
    headers,
    mobile: flag(o['mobile'], false),
    languages: strings(location['languages']),
    maxAge: whole(o['maxAge']) ?? (version === 'v1' ? 0 : V2_MAX_AGE_MS),
    storeInCache,
    stores: storeInCache && Object.keys(headers).length === 0 && !hasActions,
    timeout: whole(o['timeout']) ?? DEFAULT_TIMEOUT_MS,
    skipTlsVerification: flag(o['skipTlsVerification'], version === 'v2'),
    extractsPdf: version === 'v1' ? flag(o['parsePDF'], true) : Array.isArray(parsers) ? parsers.some((p) => typeOf(p) === 'pdf') : true,
    hasActions,
  };
}
