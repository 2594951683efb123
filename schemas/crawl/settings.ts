/**
 * The crawler options of a v1 or v2 crawl request, with the defaults of the interface (and, where it gives
 * none, of the service) applied and the version differences folded in: v1 `ignoreSitemap` is v2 `sitemap:
 * "skip"`, v1 `allowBackwardLinks` is `crawlEntireDomain` (which wins when both are sent, as the service
 * does), v1 alone has `maxDepth`.
 */
import type { Version } from '../registry.js';

export type SitemapMode = 'skip' | 'include' | 'only';

export interface CrawlSettings {
  readonly version: Version;
  /** The start address, absolute (the scheme-less shorthand expanded). */
  readonly url: string;
  /** Interface §2.1 default 10000. */
  readonly limit: number;
  readonly includePaths: readonly string[];
  readonly excludePaths: readonly string[];
  /** v1 only (interface §2.1, default 10). */
  readonly maxDepth: number | undefined;
  readonly maxDiscoveryDepth: number | undefined;
  readonly sitemap: SitemapMode;
  readonly ignoreQueryParameters: boolean;
  /** `crawlEntireDomain`, else v1 `allowBackwardLinks`, else false. */
  readonly crawlEntireDomain: boolean;
  readonly allowExternalLinks: boolean;
  readonly allowSubdomains: boolean;
  /** Service extensions. */
  readonly regexOnFullURL: boolean;
  readonly ignoreRobotsTxt: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const flag = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
const whole = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The settings of a crawl `request` (assumed valid for `version`'s CrawlRequest); `url` is its start, absolute. */
export function crawlSettings(version: Version, request: unknown, url: string): CrawlSettings {
  const r = isRecord(request) ? request : {};
  const backward = version === 'v1' ? r['allowBackwardLinks'] : undefined;
  const sitemap: SitemapMode =
    version === 'v1'
      ? flag(r['ignoreSitemap'], false)
        ? 'skip'
        : 'include'
      : r['sitemap'] === 'skip' || r['sitemap'] === 'only'
        ? r['sitemap']
        : 'include';
  return {
    version,
    url,
    limit: whole(r['limit']) ?? 10000,
    includePaths: strings(r['includePaths']),
    excludePaths: strings(r['excludePaths']),
    maxDepth: version === 'v1' ? (whole(r['maxDepth']) ?? 10) : undefined,
    maxDiscoveryDepth: whole(r['maxDiscoveryDepth']),
    sitemap,
    ignoreQueryParameters: flag(r['ignoreQueryParameters'], false),
    crawlEntireDomain: flag(r['crawlEntireDomain'], flag(backward, false)),
    allowExternalLinks: flag(r['allowExternalLinks'], false),
    allowSubdomains: flag(r['allowSubdomains'], false),
    regexOnFullURL: flag(r['regexOnFullURL'], false),
    ignoreRobotsTxt: flag(r['ignoreRobotsTxt'], false),
  };
}
