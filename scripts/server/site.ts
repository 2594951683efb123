/**
 * The reference server's own demo site: about thirty deterministic HTML pages under `/site/`, in a small
 * tree, linked to each other, and the origin's `/robots.txt`. The server answers them over HTTP (without
 * auth), and its crawler reads the very same answers in process when a job's address is on the server's
 * own origin (`fetcher.ts`): a crawl of the demo site is a real crawl of what the site serves.
 *
 * What a crawl meets on it:
 *   - links with query strings (`/site/docs/a?ref=home`, `/site/docs/a?tab=1`, `/site/blog/2024/?page=2`),
 *     so `ignoreQueryParameters` changes the result, and a fragment link (`/site/#top`), which is never a page;
 *   - one external link (`https://example.org/elsewhere`), never followed (the server may not reach it);
 *   - `/site/broken`, which redirects to itself: no client can read it, so a job reports it on its errors
 *     endpoint (too many redirects);
 *   - `/site/private`, disallowed by the origin's `/robots.txt` (a crawl lists it in `robotsBlocked` unless
 *     it ignores robots.txt).
 *
 * Pages link with absolute addresses built from the server's public base URL, so the HTML is the same for
 * the same base. Site paths are server paths (they start with `/site/`).
 */

const SITE_PREFIX = '/site/';

/** The path robots.txt disallows. */
const ROBOTS_DISALLOWED = '/site/private';

/** The path that always fails (it redirects to itself). */
const BROKEN_PATH = '/site/broken';

/**
 * What the contract kit is told of this site when it tests the reference server (`crawlspec contract`
 * without `--base-url`): pages that give page records, and the page that always fails. Paths are below the
 * site's address (`<base>/site`).
 */
export const REFERENCE_SITE_PROFILE = { pages: ['/', '/about', '/docs/', '/blog/'], failing: '/broken' } as const;

/** The external link of the site. */
const EXTERNAL_LINK = 'https://example.org/elsewhere';

export interface SitePage {
  /** Server path, e.g. `/site/docs/a`. */
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly paragraph: string;
  /** Links as written: a site path (maybe with query or fragment), or an absolute external address. */
  readonly links: readonly string[];
  /** Site paths of the page's images. */
  readonly images: readonly string[];
}

const LOGO = '/site/logo.svg';

const page = (path: string, title: string, links: string[], extra: Partial<Pick<SitePage, 'images'>> = {}): SitePage => ({
  path,
  title,
  description: `${title}: a page of the crawlspec reference site.`,
  paragraph: `This is the ${title} page of the synthetic site at ${path}. Its content never changes.`,
  links,
  images: extra.images ?? [LOGO],
});

const PAGES: readonly SitePage[] = [
  page('/site/', 'Home', [
    '/site/#top',
    '/site/docs/',
    '/site/blog/',
    '/site/products/',
    '/site/about',
    '/site/private',
    '/site/docs/a?ref=home',
    EXTERNAL_LINK,
  ]),
  page('/site/about', 'About', ['/site/', '/site/contact']),
  page('/site/contact', 'Contact', ['/site/about', '/site/']),
  page('/site/private', 'Private', ['/site/']),

  page('/site/docs/', 'Documentation', [
    '/site/',
    '/site/docs/a',
    '/site/docs/b',
    '/site/docs/c',
    '/site/docs/guides/',
    '/site/docs/reference/',
  ]),
  page('/site/docs/a', 'Doc A', ['/site/docs/', '/site/docs/b', '/site/docs/a?tab=1']),
  page('/site/docs/b', 'Doc B', ['/site/docs/', '/site/docs/c']),
  page('/site/docs/c', 'Doc C', ['/site/docs/', '/site/docs/a']),
  page('/site/docs/guides/', 'Guides', [
    '/site/docs/',
    '/site/docs/guides/getting-started',
    '/site/docs/guides/install',
    '/site/docs/guides/advanced',
  ]),
  page('/site/docs/guides/getting-started', 'Getting started', ['/site/docs/guides/', '/site/docs/guides/install']),
  page('/site/docs/guides/install', 'Install', ['/site/docs/guides/', '/site/docs/guides/advanced']),
  page('/site/docs/guides/advanced', 'Advanced', ['/site/docs/guides/', '/site/docs/reference/config']),
  page('/site/docs/reference/', 'Reference', [
    '/site/docs/',
    '/site/docs/reference/api',
    '/site/docs/reference/cli',
    '/site/docs/reference/config',
  ]),
  page('/site/docs/reference/api', 'API reference', ['/site/docs/reference/']),
  page('/site/docs/reference/cli', 'CLI reference', ['/site/docs/reference/']),
  page('/site/docs/reference/config', 'Configuration reference', ['/site/docs/reference/']),

  page('/site/blog/', 'Blog', ['/site/', '/site/blog/2023/', '/site/blog/2024/', '/site/broken']),
  page('/site/blog/2023/', 'Posts of 2023', ['/site/blog/', '/site/blog/2023/post-1', '/site/blog/2023/post-2']),
  page('/site/blog/2023/post-1', 'First post of 2023', ['/site/blog/2023/', '/site/blog/2023/post-2']),
  page('/site/blog/2023/post-2', 'Second post of 2023', ['/site/blog/2023/', '/site/blog/2024/post-1']),
  page('/site/blog/2024/', 'Posts of 2024', ['/site/blog/', '/site/blog/2024/post-1', '/site/blog/2024/post-2', '/site/blog/2024/post-3']),
  page('/site/blog/2024/post-1', 'First post of 2024', ['/site/blog/2024/', '/site/docs/a']),
  page('/site/blog/2024/post-2', 'Second post of 2024', ['/site/blog/2024/']),
  page('/site/blog/2024/post-3', 'Third post of 2024', ['/site/blog/2024/', '/site/blog/2024/?page=2']),

  page('/site/products/', 'Products', ['/site/', '/site/products/widget', '/site/products/gadget', '/site/products/gizmo']),
  page('/site/products/widget', 'Widget', ['/site/products/', '/site/products/gadget'], { images: [LOGO, '/site/widget.svg'] }),
  page('/site/products/gadget', 'Gadget', ['/site/products/', '/site/products/gizmo'], { images: [LOGO, '/site/gadget.svg'] }),
  page('/site/products/gizmo', 'Gizmo', ['/site/products/', '/site/products/widget'], { images: [LOGO, '/site/gizmo.svg'] }),
];

const BY_PATH: ReadonlyMap<string, SitePage> = new Map(PAGES.map((p) => [p.path, p]));

/** Every page of the site, in a fixed order. */
export function sitePages(): readonly SitePage[] {
  return PAGES;
}

/** The page at a server path (no query or fragment), if the site has one. */
function sitePage(path: string): SitePage | undefined {
  return BY_PATH.get(path);
}

const ROBOTS_TXT = `User-agent: *\nDisallow: ${ROBOTS_DISALLOWED}\n`;

/** The address of a link written on a page, given the server's base URL (no trailing slash). */
const absoluteLink = (link: string, base: string): string => (link.startsWith('/') ? `${base}${link}` : link);

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const linkText = (link: string): string => link.replace(/^https?:\/\//, '');

/** The whole HTML document of a page. */
function pageHtml(p: SitePage, base: string): string {
  const links = p.links.map((l) => `<li><a href="${escapeHtml(absoluteLink(l, base))}">${escapeHtml(linkText(l))}</a></li>`).join('');
  const images = p.images.map((i) => `<img src="${escapeHtml(absoluteLink(i, base))}" alt="">`).join('');
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(p.title)}</title>` +
    `<meta name="description" content="${escapeHtml(p.description)}"></head>` +
    `<body><nav><a href="${escapeHtml(base)}/site/">Home</a></nav>` +
    `<main><h1>${escapeHtml(p.title)}</h1><p>${escapeHtml(p.paragraph)}</p>${images}<ul>${links}</ul></main>` +
    `<footer>crawlspec reference site</footer></body></html>`
  );
}

/** A small SVG image, served for every image and screenshot address of the site (any `/site/....svg`). */
const SVG_IMAGE = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#36c"/></svg>';

export interface SiteResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const html = (status: number, body: string): SiteResponse => ({ status, headers: { 'content-type': 'text/html; charset=utf-8' }, body });

/** Whether the server answers a path (no query) with its site: `/robots.txt`, `/site` and below. */
export const isSitePath = (path: string): boolean => path === '/robots.txt' || path === '/site' || path.startsWith(SITE_PREFIX);

/** The site's answer to a GET of a server path (no query) on the server's origin; `base` is the public base URL. */
export function siteResponse(path: string, base: string): SiteResponse {
  if (path === '/robots.txt') return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: ROBOTS_TXT };
  if (path === '/site') return { status: 301, headers: { 'content-type': 'text/html; charset=utf-8', location: SITE_PREFIX }, body: '' };
  if (path === BROKEN_PATH)
    return { status: 302, headers: { 'content-type': 'text/html; charset=utf-8', location: BROKEN_PATH }, body: '' };
  if (path.startsWith(SITE_PREFIX) && path.endsWith('.svg'))
    return { status: 200, headers: { 'content-type': 'image/svg+xml' }, body: SVG_IMAGE };
  const p = sitePage(path);
  if (p === undefined) return html(404, '<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>');
  return html(200, pageHtml(p, base));
}
