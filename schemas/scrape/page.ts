/**
 * A page as data: what a scrape of it can show. The scrape oracle (oracle.ts) reads it, as the crawl oracle
 * reads a site (../crawl/site.ts); the contract kit serves such pages (scripts/site/scrapePages.ts), so the
 * page served and the page judged come from one description.
 *
 * A page is described by its known texts: each one text node of the page, written in plain words (no
 * character that a markdown converter escapes or an HTML writer encodes), with where it stands: the region
 * of the body it is in (`main`, or the `header`, `nav`, `aside` or `footer` around it) and the elements it is
 * inside, from the region's element down to its own. That is all the oracle needs to say what a format may
 * hold: which texts `onlyMainContent`, `includeTags` and `excludeTags` keep, which images, which links.
 *
 * Some pages answer differently each time (`dynamic`): one that shows the request headers it received, one
 * that counts its fetches, one that answers late, one served over TLS with a self-signed certificate. Their
 * body varies or their meaning lies in how they are served, so `body` is absent for them and a static copy
 * of the site cannot hold them.
 */

/** Where a text stands in the body: the main region, or the page furniture around it. */
export type ScrapeRegion = 'main' | 'header' | 'nav' | 'aside' | 'footer';

/** An element a text is inside, as a selector sees it. */
export interface ScrapeElement {
  /** Lower-case tag name: `p`, `section`. */
  readonly tag: string;
  readonly id?: string;
  readonly classes?: readonly string[];
}

export interface ScrapeText {
  /** One text node of the page, as a reader sees it (entities decoded, whitespace as written: single spaces). */
  readonly text: string;
  readonly region: ScrapeRegion;
  /** The elements it is inside, outermost first: the region's element (`main`, `header`...) down to its own. */
  readonly path: readonly ScrapeElement[];
  /** When it is the text of a link: the address the link leads to, absolute, without fragment. */
  readonly href?: string;
}

export interface ScrapeImage {
  /** Its alternative text, in plain words. */
  readonly alt: string;
  /** `src` as written: a `data:` URL for an image written into the page as base64. */
  readonly src: string;
  /** For an image written into the page: its base64 data (what follows `;base64,`). */
  readonly base64?: string;
  readonly region: ScrapeRegion;
  /** The elements the `<img>` is inside, as for a text (its own `img` last). */
  readonly path: readonly ScrapeElement[];
}

/** How a page's answer depends on the request, or what its meaning rests on besides its content. */
export interface ScrapeDynamic {
  /**
   * The page lists the request headers it received, one text each (`echoLine`), inside `path`. Header names
   * are lower-cased; a value is shown as received.
   */
  readonly echoesHeaders?: { readonly region: ScrapeRegion; readonly path: readonly ScrapeElement[] };
  /**
   * The page counts the GET requests each address of it (path and query) received, and shows the count of
   * this one (`fetchCountLine`), inside `path`: a scrape that fetched the page again shows a higher count.
   */
  readonly countsFetches?: { readonly region: ScrapeRegion; readonly path: readonly ScrapeElement[] };
  /** The page answers this many milliseconds after it is asked. */
  readonly slowMs?: number;
  /** The page is served over TLS with a self-signed certificate: verification fails, unless it is skipped. */
  readonly selfSignedTls?: boolean;
}

export interface ScrapePageModel {
  /** Absolute address, without fragment: `http://127.0.0.1:4000/scrape/article.html`. */
  readonly url: string;
  /** HTTP status the page is answered with. */
  readonly status: number;
  /** `html`, or `pdf`: a PDF whose text extraction gives the texts (`region` `main`, `path` empty). */
  readonly kind: 'html' | 'pdf';
  /** The `content-type` it is served with. */
  readonly contentType: string;
  /** Its `<title>` (an HTML page). */
  readonly title?: string;
  /** The body as served, byte for byte (ASCII for a PDF), when every fetch gets the same. */
  readonly body?: string;
  /** Every known text, in page order. A dynamic page's texts are those it always shows. */
  readonly texts: readonly ScrapeText[];
  readonly images: readonly ScrapeImage[];
  /** Every address the page links to, absolute, without fragment, each once. */
  readonly links: readonly string[];
  readonly dynamic?: ScrapeDynamic;
}

/** The text a header-echoing page shows for a header it received (its name lower-cased, its value as received). */
export const echoLine = (name: string, value: string): string => `Header ${name.toLowerCase()}: ${value}`;

/** The text a fetch-counting page shows: the number of GET requests its address received, this one included. */
export const fetchCountLine = (count: number): string => `Fetch number ${count} of this address.`;

/** `fetchCountLine` as a pattern, the count its first group (judge.ts reads it). */
export const FETCH_COUNT = /Fetch number (\d{1,15}) of this address\./;
