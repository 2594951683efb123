/**
 * The contract kit's test site, described as data: which pages it has, what each links to, what robots.txt
 * and the sitemap say. From it come both what is served (`siteAnswer`, for `crawlspec site serve` and the
 * kit) or written (`crawlspec site export`), and the model the crawl oracle reads (`testSiteModel`), so the
 * site served and the site judged cannot disagree.
 *
 * What a crawl meets on it, by design:
 *   - pages at discovery depths 0 to 4 (`/` → `/docs/` → `/docs/guides/` → `/docs/guides/setup.html` →
 *     `/docs/guides/deep/` → `/docs/guides/deep/end.html`), and path depths 0 to 4;
 *   - children, siblings and parents: `/docs/a.html` links its sibling `/docs/b.html` and its parent `/docs/`;
 *   - query-string variants of one page: `/docs/a.html?ref=home` (from `/`), `/docs/a.html?tab=1` (from itself);
 *   - a page found only through the sitemap (`/from-sitemap.html`) and one only through links (`/team.html`);
 *   - pages robots.txt disallows (`/private/`, `/private/inner.html`);
 *   - a page that answers HTTP 500 (`/blog/broken.html`) and a redirect (`/moved.html` → `/landing.html`);
 *   - links to another site the kit also serves (`/elsewhere.html` there), and to a subdomain when the site
 *     is served under a host name;
 *   - robots.txt and a sitemap index (`/sitemap.xml` → `/sitemaps/pages.xml`) at the origin root;
 *   - an address whose connection is cut before any answer (`/reset`), never linked: a page that fails.
 * Every path is a directory (`/docs/`) or a file (`about.html`), so a static copy serves it as is.
 *
 * Beside the crawl pages, never linked from them nor in the sitemap: the scrape pages under `/scrape/`
 * (scrapePages.ts), which show what a scrape's options do; those a static copy can hold are answered here too.
 */
import type { SiteModel, SitePageModel } from '../../schemas/crawl/site.js';
import type { SiteProfile } from '../contract/engine/options.js';
import { COPIED_PATHS, copiedScrapeAnswer } from './scrapePages.js';

/** The origins the site is served on, without trailing slash: `http://127.0.0.1:4000`. */
export interface SiteOrigins {
  readonly main: string;
  /** Another site (another host), which the main site links to. */
  readonly external: string;
  /** A subdomain of the main site's host, when it is served under a host name. */
  readonly subdomain?: string;
  /** An HTTPS origin with a self-signed certificate (`https://127.0.0.1:4001`), for the scrape page served over TLS. */
  readonly tls?: string;
}

export type SitePart = 'main' | 'external' | 'subdomain';

interface PageSpec {
  readonly title: string;
  /** Links as written on the page: a path of the same site, or `<part>:<path>` for another part. */
  readonly links: readonly string[];
  readonly status?: number;
  readonly redirectTo?: string;
}

const PAGES: Readonly<Record<SitePart, Readonly<Record<string, PageSpec>>>> = {
  main: {
    '/': {
      title: 'Home',
      links: [
        '#top',
        'about.html',
        'docs/',
        'blog/',
        'private/',
        'docs/a.html?ref=home',
        'moved.html',
        'external:/elsewhere.html',
        'subdomain:/',
      ],
    },
    '/about.html': { title: 'About', links: ['/', 'team.html'] },
    '/team.html': { title: 'Team', links: ['about.html'] },
    '/docs/': { title: 'Documentation', links: ['/', 'a.html', 'b.html', 'guides/'] },
    '/docs/a.html': { title: 'Doc A', links: ['./', 'b.html', 'a.html?tab=1'] },
    '/docs/b.html': { title: 'Doc B', links: ['./', 'a.html'] },
    '/docs/guides/': { title: 'Guides', links: ['../', 'setup.html'] },
    '/docs/guides/setup.html': { title: 'Setup', links: ['./', 'deep/'] },
    '/docs/guides/deep/': { title: 'Deep', links: ['end.html'] },
    '/docs/guides/deep/end.html': { title: 'The end', links: ['/docs/'] },
    '/blog/': { title: 'Blog', links: ['/', 'post-1.html', 'broken.html'] },
    '/blog/post-1.html': { title: 'First post', links: ['./', '/docs/a.html'] },
    '/blog/broken.html': { title: 'Broken', links: [], status: 500 },
    '/private/': { title: 'Private', links: ['inner.html'] },
    '/private/inner.html': { title: 'Private inner', links: ['/'] },
    '/moved.html': { title: 'Moved', links: [], status: 301, redirectTo: '/landing.html' },
    '/landing.html': { title: 'Landing', links: ['/'] },
    '/from-sitemap.html': { title: 'From the sitemap', links: ['docs/b.html'] },
  },
  external: {
    '/elsewhere.html': { title: 'Elsewhere', links: ['elsewhere/more.html', 'main:/'] },
    '/elsewhere/more.html': { title: 'More elsewhere', links: ['../elsewhere.html'] },
  },
  subdomain: {
    '/': { title: 'Subdomain', links: ['page.html', 'main:/'] },
    '/page.html': { title: 'Subdomain page', links: ['./'] },
  },
};

/**
 * The link of every page's navigation: the home page of the page's own site (the other site has no page at
 * its root, and the site has no dead link).
 */
const NAV_LINK: Readonly<Record<SitePart, string>> = { main: '/', external: '/elsewhere.html', subdomain: '/' };

/** The paths of the main site its sitemap lists. */
const SITEMAP_PATHS = ['/', '/about.html', '/docs/', '/docs/a.html', '/blog/', '/from-sitemap.html'];
/** The path whose connection is cut. */
export const RESET_PATH = '/reset';
export const ROBOTS_DISALLOWED = '/private/';

/** What the kit tells its checks of this site (below the main origin). */
export const TEST_SITE_PROFILE: SiteProfile = { pages: ['/', '/about.html', '/docs/', '/blog/'], failing: RESET_PATH };
/**
 * What the kit tells its checks of a deployed copy (`crawlspec site export`): the same pages, and no failing
 * page, since a static host cannot cut a connection (`/reset` there is an ordinary 404 page).
 */
export const COPY_PROFILE: SiteProfile = { pages: TEST_SITE_PROFILE.pages };

const originOf = (origins: SiteOrigins, part: SitePart): string | undefined => origins[part];

/** A link as written, resolved against the page it is on: absolute, or undefined when its site part is not served. */
function resolveLink(origins: SiteOrigins, part: SitePart, path: string, link: string): string | undefined {
  const colon = /^(main|external|subdomain):/.exec(link);
  if (colon) {
    const target = originOf(origins, colon[1] as SitePart);
    return target === undefined ? undefined : `${target}${link.slice(colon[0].length)}`;
  }
  return new URL(link, `${originOf(origins, part)}${path}`).href;
}

/** The parts of the site served with these origins. */
const parts = (origins: SiteOrigins): SitePart[] =>
  origins.subdomain === undefined ? ['main', 'external'] : ['main', 'external', 'subdomain'];

export const robotsTxt = (origins: SiteOrigins) => `User-agent: *\nDisallow: ${ROBOTS_DISALLOWED}\nSitemap: ${origins.main}/sitemap.xml\n`;

/** The site as the crawl oracle reads it. */
export function testSiteModel(origins: SiteOrigins): SiteModel {
  const pages: SitePageModel[] = [];
  for (const part of parts(origins))
    for (const [path, spec] of Object.entries(PAGES[part])) {
      // Every page served has the navigation link (`pageHtml`); a redirect has no page.
      const written = spec.redirectTo === undefined ? [NAV_LINK[part], ...spec.links] : spec.links;
      // A link to a fragment of the page itself leads to no other page.
      const links = written.flatMap((l) => (l.startsWith('#') ? [] : (resolveLink(origins, part, path, l) ?? [])));
      const base = { links, ...(spec.status === undefined ? {} : { status: spec.status }) };
      const redirect = spec.redirectTo === undefined ? {} : { redirectTo: `${originOf(origins, part)}${spec.redirectTo}` };
      pages.push({ url: `${originOf(origins, part)}${path}`, ...base, ...redirect });
    }
  // A linked address with a query is the page of its path (a site serves a path whatever its query).
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  for (const page of [...pages])
    for (const link of page.links) {
      const url = new URL(link);
      url.hash = '';
      const same = byUrl.get(`${url.origin}${url.pathname}`);
      if (url.search === '' || byUrl.has(url.href) || same === undefined) continue;
      const variant = { ...same, url: url.href };
      pages.push(variant);
      byUrl.set(url.href, variant);
    }
  return {
    pages,
    robots: { [origins.main]: robotsTxt(origins) },
    sitemaps: { [origins.main]: SITEMAP_PATHS.map((p) => `${origins.main}${p}`) },
  };
}

export interface SiteAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const html = (status: number, body: string, extra: Record<string, string> = {}): SiteAnswer => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', ...extra },
  body,
});

/** The HTML of a page: a title, a description, a paragraph, its links (as written, so a crawler resolves them). */
function pageHtml(origins: SiteOrigins, part: SitePart, path: string, spec: PageSpec): string {
  const links = spec.links
    .flatMap((l) => {
      const href = /^(main|external|subdomain):/.test(l) ? resolveLink(origins, part, path, l) : l;
      return href === undefined ? [] : [`<li><a href="${escapeHtml(href)}">${escapeHtml(l)}</a></li>`];
    })
    .join('');
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(spec.title)}</title>` +
    `<meta name="description" content="${escapeHtml(`${spec.title}: a page of the crawlspec test site.`)}"></head>` +
    `<body><nav><a href="${NAV_LINK[part]}">Home</a></nav><main><h1 id="top">${escapeHtml(spec.title)}</h1>` +
    `<p>This is the ${escapeHtml(spec.title)} page of the crawlspec test site, at ${escapeHtml(path)}. Its content never changes.</p>` +
    `<ul>${links}</ul></main><footer>crawlspec test site</footer></body></html>`
  );
}

const xml = (body: string): SiteAnswer => ({ status: 200, headers: { 'content-type': 'application/xml; charset=utf-8' }, body });

/**
 * The answer of `part` of the site to a GET of `path` (no query): a page, robots.txt, a sitemap, a 404; or
 * `reset` for the address whose connection is cut.
 */
export function siteAnswer(origins: SiteOrigins, part: SitePart, path: string): SiteAnswer | 'reset' {
  if (part === 'main') {
    if (path === RESET_PATH) return 'reset';
    if (path === '/robots.txt') return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: robotsTxt(origins) };
    if (path === '/sitemap.xml')
      return xml(
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origins.main}/sitemaps/pages.xml</loc></sitemap></sitemapindex>\n`,
      );
    if (path === '/sitemaps/pages.xml')
      return xml(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${SITEMAP_PATHS.map((p) => `<url><loc>${origins.main}${p}</loc></url>`).join('')}</urlset>\n`,
      );
    const scrape = copiedScrapeAnswer(origins, path);
    if (scrape !== undefined) return scrape;
  }
  const spec = PAGES[part][path];
  if (spec === undefined)
    return html(404, '<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>');
  if (spec.redirectTo !== undefined) return html(spec.status ?? 301, '', { location: spec.redirectTo });
  return html(spec.status ?? 200, pageHtml(origins, part, path, spec));
}

/** Every path `part` answers (for a static copy). */
export function sitePaths(part: SitePart): string[] {
  const own = Object.keys(PAGES[part]);
  return part === 'main' ? ['/robots.txt', '/sitemap.xml', '/sitemaps/pages.xml', ...own, ...COPIED_PATHS] : own;
}
