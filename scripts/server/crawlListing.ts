/**
 * What the active list (`/crawl/active`, `/crawl/ongoing`) shows of a running crawl: its options in the
 * words of each version that may ask (facts §8.6), made once when the crawl starts, as JSON text.
 */
import { withDefaults } from '../../schemas/defaults.js';
import { migrateToV2 } from '../../schemas/migrate.js';
import { lookup, type Version } from '../../schemas/registry.js';
import { objectOf } from '../../schemas/rule.js';
import { stringifyJson } from './jsonText.js';
import { isRecord } from '../../schemas/codeRules/codeRule.js';

type Options = Readonly<Record<string, unknown>>;

/** The fields a v1 crawl request has, read from its definition. */
const V1_CRAWL_FIELDS: ReadonlySet<string> = new Set(Object.keys(objectOf(lookup('v1/CrawlRequest')!)!.properties));

/** The scrape options a crawl runs with: its own, or the version's defaults. */
export const crawlScrapeOptions = (version: Version, effective: Record<string, unknown>): Options =>
  isRecord(effective['scrapeOptions']) ? effective['scrapeOptions'] : (withDefaults(`${version}/ScrapeOptions`, {}) as Options);

/** A crawl's options as the active list shows them: the body without `url` and `webhook`, with its scrape options. */
function crawlerOptions(version: Version, effective: Record<string, unknown>): Options {
  const { url: _url, webhook: _webhook, scrapeOptions: _scrapeOptions, ...options } = effective;
  return { ...options, scrapeOptions: crawlScrapeOptions(version, effective) };
}

/**
 * A crawl's options in the words of each version (facts §8.6: the active list gives them in the calling
 * version's vocabulary, plus `scrapeOptions`, which the service keeps v2-shaped). The starting version sees
 * the body it was sent, defaults filled. v2 sees a v1 crawl as the v2 body asking for the same thing
 * (`migrateToV2` of what was sent, then v2's defaults): `ignoreSitemap` as `sitemap`, `allowBackwardLinks`
 * as `crawlEntireDomain`, no `maxDepth`, v2-shaped scrape options. v1 sees a v2 crawl with `sitemap` as
 * `ignoreSitemap` (true for 'skip'; v1 cannot say 'only'), `crawlEntireDomain` also as `allowBackwardLinks`
 * (the service's v1 list gives both), none of the fields v1 lacks (`prompt`, `robotsUserAgent`), and its
 * v2-shaped scrape options as they are.
 */
function listedOptions(version: Version, raw: Record<string, unknown>, effective: Record<string, unknown>): Record<Version, Options> {
  if (version === 'v1') {
    const migrated = withDefaults('v2/CrawlRequest', migrateToV2(raw).request) as Record<string, unknown>;
    return { v1: crawlerOptions('v1', effective), v2: crawlerOptions('v2', migrated) };
  }
  const { sitemap, ...v2 } = crawlerOptions('v2', effective);
  const v1Words = { ...v2, ignoreSitemap: sitemap === 'skip', allowBackwardLinks: v2['crawlEntireDomain'] };
  const v1 = Object.fromEntries(Object.entries(v1Words).filter(([key, value]) => V1_CRAWL_FIELDS.has(key) && value !== undefined));
  return { v1, v2: { sitemap, ...v2 } };
}

/**
 * `listedOptions` as JSON text, made once when the crawl starts: what a caller nests in its options is
 * serialised without recursion (`stringifyJson`), so no depth makes the active list fail (issue 13, finding 7).
 */
export function listedOptionsText(
  version: Version,
  raw: Record<string, unknown>,
  effective: Record<string, unknown>,
): Record<Version, string> {
  const listed = listedOptions(version, raw, effective);
  return { v1: stringifyJson(listed.v1) ?? '{}', v2: stringifyJson(listed.v2) ?? '{}' };
}
