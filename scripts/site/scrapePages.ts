/**
 * The test site's scrape pages, under `/scrape/`: pages that make the meaning of each scrape option visible
 * in what a scrape returns (the scrape oracle, schemas/scrape/, reads their models). Each page is written
 * once, as a tree of elements, and both its HTML and its model (`ScrapePageModel`: its texts with where they
 * stand, its images and links) come from that tree, so the page served and the page judged cannot disagree.
 *
 *   - `article.html`: a header, a navigation, an aside and a footer around a main region of known texts, two
 *     headings, elements selectable by tag, class and id, and links written relative, root-relative, with a
 *     query and to the other site;
 *   - `image.html`: an image written into the page as base64, with alt text;
 *   - `document.pdf`: a one-page PDF with two known lines of text (pdfDocument.ts);
 *   - `gone.html`: a page of its own answered with status 404;
 *   - `headers.html`: shows every request header it received, one line each (`headers`; the user agent of
 *     `mobile`, the Accept-Language of `location.languages`);
 *   - `counter.html`: counts the GETs each of its addresses (path and query) received and shows the count
 *     (a cache: `maxAge`, `storeInCache`);
 *   - `slow.html`: answers `SLOW_MS` after it is asked (`timeout`);
 *   - `secure.html`, on the TLS origin only: served with a self-signed certificate (`skipTlsVerification`).
 *
 * None is linked from the crawl pages or listed in the sitemap: the crawl site (testSite.ts) and what the crawl
 * oracle expects of it are unchanged. A static copy of the site holds only the pages that answer the same to
 * everyone, at once, over plain HTTP: `COPY_MISSING` names the others and why.
 */
import type { ScrapeDynamic, ScrapeElement, ScrapeImage, ScrapePageModel, ScrapeRegion, ScrapeText } from '../../schemas/scrape/page.js';
import { echoLine, fetchCountLine } from '../../schemas/scrape/page.js';
import { pdfDocument } from './pdfDocument.js';
import type { SiteAnswer, SiteOrigins } from './testSite.js';

export const SCRAPE_PATHS = {
  article: '/scrape/article.html',
  image: '/scrape/image.html',
  pdf: '/scrape/document.pdf',
  gone: '/scrape/gone.html',
  headers: '/scrape/headers.html',
  counter: '/scrape/counter.html',
  slow: '/scrape/slow.html',
  secure: '/scrape/secure.html',
} as const;
export type ScrapePageName = keyof typeof SCRAPE_PATHS;

/** How late the slow page answers, in ms: past a timeout of 1000 (the least the service takes), well within the default 30000. */
export const SLOW_MS = 3000;
/** Addresses of the counter page counted at once; the oldest is forgotten past that (a test site runs for one kit run). */
const MAX_COUNTED = 10_000;
/** Request headers the headers page shows at most, and how much of each value. */
const MAX_ECHOED = 100;
const MAX_ECHOED_CHARS = 4096;

/** The pages a static copy of the site cannot hold, by path, with why (export.ts writes them into SERVING.md). */
export const COPY_MISSING: readonly { readonly path: string; readonly why: string }[] = [
  { path: SCRAPE_PATHS.gone, why: 'it answers 404 with a page of its own, which a static host serves as 200' },
  { path: SCRAPE_PATHS.headers, why: 'it shows the request headers of each fetch' },
  { path: SCRAPE_PATHS.counter, why: 'it counts its fetches' },
  { path: SCRAPE_PATHS.slow, why: `it answers ${SLOW_MS} ms late` },
  { path: SCRAPE_PATHS.secure, why: 'it is served over TLS with a self-signed certificate, on an origin of its own' },
];

interface Element extends ScrapeElement {
  /** Other attributes, written after `id` and `class` in this order. */
  readonly attributes?: Readonly<Record<string, string>>;
  readonly children?: readonly Child[];
}
type Child = Element | string;

const el = (tag: string, props: Omit<Element, 'tag' | 'children'>, ...children: Child[]): Element => ({ tag, ...props, children });
const p = (text: string, props: Omit<Element, 'tag' | 'children'> = {}): Element => el('p', props, text);
const VOID = new Set(['img', 'meta', 'br']);

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The furniture of every HTML page: a header, a navigation with a link home, a footer. */
const header = el('header', {}, p('The crawlspec test site shows this header above every scrape page.'));
const nav = el(
  'nav',
  {},
  p('This navigation leads back to the test site.'),
  el('p', {}, el('a', { attributes: { href: '/' } }, 'Home page of the crawlspec test site')),
);
const footer = el('footer', {}, p('This footer closes every scrape page of the crawlspec test site.'));

interface HtmlSpec {
  readonly title: string;
  readonly status?: number;
  /** The main region's children, given the request's extra lines (the headers page's, the counter's). */
  readonly main: (origins: SiteOrigins, lines: readonly string[]) => Child[];
  readonly aside?: Element;
}

/** A 4×4 red PNG. */
const RED_SQUARE = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGM4IScHRwzEcQCxYxBBO0tjggAAAABJRU5ErkJggg==';

const HTML_PAGES: Readonly<Record<Exclude<ScrapePageName, 'pdf'>, HtmlSpec>> = {
  article: {
    title: 'Reading scrape options',
    main: (origins) => [
      el('h1', {}, 'Reading scrape options on one page'),
      p('The first paragraph of the main content says what this page is for.'),
      el(
        'section',
        { id: 'details', classes: ['note'] },
        el('h2', {}, 'Details of the main content'),
        p('A lead paragraph in the details section carries a class of its own.', { classes: ['lead'] }),
        p('A plain paragraph in the details section carries no class.'),
      ),
      el('blockquote', { classes: ['quoted'] }, p('A quoted paragraph stands inside a blockquote.')),
      el('div', { id: 'extra' }, p('The extra division is known by its identifier.')),
      el('h2', {}, 'Links of the main content'),
      el(
        'ul',
        {},
        ...[
          ['image.html', 'The page with an inline image'],
          ['image.html?from=article', 'The same image page with a query'],
          ['/about.html', 'The about page of the test site'],
          ['../docs/', 'The documentation of the test site'],
          [`${origins.external}/elsewhere.html`, 'A page of another site'],
        ].map(([href, text]) => el('li', {}, el('a', { attributes: { href: href! } }, text!))),
      ),
    ],
    aside: el('aside', {}, p('An aside beside the main content holds a remark.')),
  },
  image: {
    title: 'An inline image',
    main: () => [
      el('h1', {}, 'An inline image written as base64'),
      p('The image below is written into the page as base64 data.'),
      el(
        'p',
        {},
        el('img', { attributes: { alt: 'A small red square drawn for the test site', src: `data:image/png;base64,${RED_SQUARE}` } }),
      ),
    ],
  },
  gone: {
    title: 'Gone',
    status: 404,
    main: () => [el('h1', {}, 'This page is gone on purpose'), p('The address of this page answers with status 404.')],
  },
  headers: {
    title: 'Request headers',
    main: (_origins, lines) => [
      el('h1', {}, 'The request headers of this fetch'),
      p('This page shows each request header it received on a line of its own.'),
      el('section', { id: 'received' }, ...lines.map((line) => p(line))),
    ],
  },
  counter: {
    title: 'A counter',
    main: (_origins, lines) => [
      el('h1', {}, 'A page that counts its fetches'),
      p('This page counts the fetches of each of its addresses.'),
      ...lines.map((line) => p(line, { id: 'count' })),
    ],
  },
  slow: {
    title: 'A slow page',
    main: () => [el('h1', {}, 'A page that answers late'), p(`This page answers ${SLOW_MS} milliseconds after it is asked.`)],
  },
  secure: {
    title: 'A page over TLS',
    main: () => [el('h1', {}, 'A page served over TLS'), p('This page is served over TLS with a self-signed certificate.')],
  },
};

/** Where the lines of the headers page and of the counter go (the element each line is in). */
const ECHO_PATH: readonly ScrapeElement[] = [{ tag: 'main' }, { tag: 'section', id: 'received' }, { tag: 'p' }];
const COUNT_PATH: readonly ScrapeElement[] = [{ tag: 'main' }, { tag: 'p', id: 'count' }];

/** How each page's answer depends on the request, or what its meaning rests on besides its content. */
const DYNAMIC: Readonly<Partial<Record<ScrapePageName, ScrapeDynamic>>> = {
  headers: { echoesHeaders: { region: 'main', path: ECHO_PATH } },
  counter: { countsFetches: { region: 'main', path: COUNT_PATH } },
  slow: { slowMs: SLOW_MS },
  secure: { selfSignedTls: true },
};

/** The origin a page is served on. */
const originOf = (origins: SiteOrigins, name: ScrapePageName): string | undefined => (name === 'secure' ? origins.tls : origins.main);

interface Rendered {
  readonly html: string;
  readonly texts: ScrapeText[];
  readonly images: ScrapeImage[];
  readonly links: string[];
}

/** An address as written on the page at `base`, absolute and without fragment. */
function resolved(href: string, base: string): string {
  const url = new URL(href, base);
  url.hash = '';
  return url.href;
}

/** The HTML of the body's regions, and what the model says of them. */
function render(regions: readonly Element[], url: string): Rendered {
  const out: Rendered = { html: '', texts: [], images: [], links: [] };
  let html = '';
  const walk = (node: Child, path: readonly Element[]): void => {
    const region = (path[0]?.tag ?? 'main') as ScrapeRegion;
    const modelPath = path.map(({ tag, id, classes }): ScrapeElement => ({
      tag,
      ...(id === undefined ? {} : { id }),
      ...(classes === undefined ? {} : { classes }),
    }));
    if (typeof node === 'string') {
      html += escapeText(node);
      const parent = path[path.length - 1]!;
      const href = parent.tag === 'a' ? parent.attributes?.['href'] : undefined;
      out.texts.push({
        text: node,
        region,
        path: modelPath,
        ...(href === undefined ? {} : { href: resolved(href, url) }),
      });
      return;
    }
    const attributes = [
      ...(node.id === undefined ? [] : [['id', node.id]]),
      ...(node.classes === undefined ? [] : [['class', node.classes.join(' ')]]),
      ...Object.entries(node.attributes ?? {}),
    ];
    html += `<${node.tag}${attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value!)}"`).join('')}>`;
    const inside = [...path, node];
    if (node.tag === 'a' && node.attributes?.['href'] !== undefined) {
      const link = resolved(node.attributes['href'], url);
      if (!out.links.includes(link)) out.links.push(link);
    }
    if (node.tag === 'img') {
      const src = node.attributes?.['src'] ?? '';
      const base64 = /^data:[^,;]+;base64,(.*)$/.exec(src)?.[1];
      out.images.push({
        alt: node.attributes?.['alt'] ?? '',
        src,
        ...(base64 === undefined ? {} : { base64 }),
        region,
        path: [...modelPath, { tag: 'img' }],
      });
    }
    if (VOID.has(node.tag)) return;
    for (const child of node.children ?? []) walk(child, inside);
    html += `</${node.tag}>`;
  };
  for (const region of regions) walk(region, []);
  return { ...out, html };
}

/** An HTML page with the request's extra lines: its document and model. */
function htmlPage(
  origins: SiteOrigins,
  name: Exclude<ScrapePageName, 'pdf'>,
  lines: readonly string[],
): { readonly model: ScrapePageModel; readonly answer: SiteAnswer } {
  const spec = HTML_PAGES[name];
  const url = `${originOf(origins, name)}${SCRAPE_PATHS[name]}`;
  const regions = [header, nav, el('main', {}, ...spec.main(origins, lines)), ...(spec.aside === undefined ? [] : [spec.aside]), footer];
  const body = render(regions, url);
  const description = `${spec.title}: a scrape page of the crawlspec test site.`;
  const document =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeText(spec.title)}</title>` +
    `<meta name="description" content="${escapeAttribute(description)}"></head><body>${body.html}</body></html>`;
  const status = spec.status ?? 200;
  const contentType = 'text/html; charset=utf-8';
  const dynamic = DYNAMIC[name];
  return {
    model: {
      url,
      status,
      kind: 'html',
      contentType,
      title: spec.title,
      ...(dynamic?.echoesHeaders === undefined && dynamic?.countsFetches === undefined ? { body: document } : {}),
      texts: body.texts,
      images: body.images,
      links: body.links,
      ...(dynamic === undefined ? {} : { dynamic }),
    },
    answer: { status, headers: { 'content-type': contentType }, body: document },
  };
}

/** The two lines of text of the PDF. */
const PDF_LINES = ['The crawlspec test document holds one page of text.', 'Its second line shows that the text can be extracted.'];

function pdfPage(origins: SiteOrigins): { readonly model: ScrapePageModel; readonly answer: SiteAnswer } {
  const body = pdfDocument(PDF_LINES);
  const contentType = 'application/pdf';
  return {
    model: {
      url: `${origins.main}${SCRAPE_PATHS.pdf}`,
      status: 200,
      kind: 'pdf',
      contentType,
      body,
      texts: PDF_LINES.map((text) => ({ text, region: 'main' as const, path: [] })),
      images: [],
      links: [],
    },
    answer: { status: 200, headers: { 'content-type': contentType }, body },
  };
}

const NAMES = Object.keys(SCRAPE_PATHS) as ScrapePageName[];

/** The model of every scrape page served with these origins (the TLS page only with a TLS origin). */
export function scrapePages(origins: SiteOrigins): ScrapePageModel[] {
  return NAMES.flatMap((name) => (originOf(origins, name) === undefined ? [] : [scrapePage(origins, name)]));
}

/** The model of one scrape page; a RangeError for the TLS page without a TLS origin. */
export function scrapePage(origins: SiteOrigins, name: ScrapePageName): ScrapePageModel {
  if (originOf(origins, name) === undefined) throw new RangeError(`the ${name} page needs a TLS origin`);
  return name === 'pdf' ? pdfPage(origins).model : htmlPage(origins, name, []).model;
}

/** The scrape pages a static copy holds: their paths below the main origin. */
export const COPIED_PATHS: readonly string[] = NAMES.map((n) => SCRAPE_PATHS[n]).filter(
  (path) => !COPY_MISSING.some((m) => m.path === path),
);

/** The answer of a page a static copy holds (testSite.ts `siteAnswer`); undefined for any other path. */
export function copiedScrapeAnswer(origins: SiteOrigins, path: string): SiteAnswer | undefined {
  if (!COPIED_PATHS.includes(path)) return undefined;
  const name = NAMES.find((n) => SCRAPE_PATHS[n] === path)!;
  return name === 'pdf' ? pdfPage(origins).answer : htmlPage(origins, name as Exclude<ScrapePageName, 'pdf'>, []).answer;
}

/** Counts the GETs of each address (path and query) of the counter page. */
export class FetchCounter {
  readonly #counts = new Map<string, number>();

  /** The count of `address`, this fetch included. */
  count(address: string): number {
    const count = (this.#counts.get(address) ?? 0) + 1;
    this.#counts.delete(address);
    this.#counts.set(address, count);
    if (this.#counts.size > MAX_COUNTED) this.#counts.delete(this.#counts.keys().next().value!);
    return count;
  }
}

export interface ScrapeFetch {
  readonly method: string;
  readonly path: string;
  /** The query as received, with its `?` (empty when none). */
  readonly search: string;
  /** The request's raw headers: name, value, name, value... (Node's `rawHeaders`). */
  readonly rawHeaders: readonly string[];
  /** Received on the TLS origin. */
  readonly tls: boolean;
}

/**
 * The answer of a scrape page to a request, and how long to wait before giving it; undefined when the path is
 * no scrape page served there (the secure page is served on the TLS origin only, the others never there).
 */
export function scrapeAnswer(
  origins: SiteOrigins,
  fetch: ScrapeFetch,
  counter: FetchCounter,
): { readonly answer: SiteAnswer; readonly delayMs: number } | undefined {
  const name = NAMES.find((n) => SCRAPE_PATHS[n] === fetch.path);
  if (name === undefined || (name === 'secure') !== fetch.tls || originOf(origins, name) === undefined) return undefined;
  if (name === 'pdf') return { answer: pdfPage(origins).answer, delayMs: 0 };
  const lines: string[] = [];
  if (name === 'headers') {
    const received: [string, string][] = [];
    for (let i = 0; i + 1 < fetch.rawHeaders.length && received.length < MAX_ECHOED; i += 2)
      received.push([fetch.rawHeaders[i]!.toLowerCase(), fetch.rawHeaders[i + 1]!.slice(0, MAX_ECHOED_CHARS)]);
    received.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    lines.push(...received.map(([n, v]) => echoLine(n, v)));
  }
  // Only a GET is counted: a HEAD gets no body (its line is never sent).
  if (name === 'counter') lines.push(fetchCountLine(fetch.method === 'GET' ? counter.count(`${fetch.path}${fetch.search}`) : 0));
  return { answer: htmlPage(origins, name, lines).answer, delayMs: name === 'slow' ? SLOW_MS : 0 };
}
