/**
 * A web site as data: what a crawl of it can meet. The crawl oracle (oracle.ts) reads it; the contract kit
 * serves one (scripts/site/) and the reference server crawls real ones, so a site is described by what it
 * answers, not by how it is served.
 */

export interface SitePageModel {
  /** Absolute address, with its query if it has one, without fragment: `http://127.0.0.1:4000/docs/a?tab=1`. */
  readonly url: string;
  /** Absolute addresses the page links to, as they resolve (a fragment is not part of a link's page). */
  readonly links: readonly string[];
  /** HTTP status the page is answered with; 200 when absent. */
  readonly status?: number;
  /** Where a redirect (3xx) sends the client, absolute; the page has no links of its own then. */
  readonly redirectTo?: string;
}

export interface SiteModel {
  readonly pages: readonly SitePageModel[];
  /** The text of `/robots.txt` by origin (`http://127.0.0.1:4000`); an origin without one allows everything. */
  readonly robots?: Readonly<Record<string, string>>;
  /** The page addresses an origin's sitemap lists (its `/sitemap.xml`, sitemap indexes followed), by origin. */
  readonly sitemaps?: Readonly<Record<string, readonly string[]>>;
}

/** `url` as the crawl oracle compares addresses: parsed, without fragment; undefined when it is no URL. */
export function pageKey(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}
