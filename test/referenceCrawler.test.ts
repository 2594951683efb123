/**
 * The reference server as a real crawler, held to the crawl oracle: the kit's test site is served on
 * loopback under the names `crawlspec.example.com` / `sub.crawlspec.example.com` (the server resolves them with
 * `resolveHosts`, no DNS) and 127.0.0.2 (the other site); the server crawls it over HTTP for each crawler
 * option, in v1 and v2, every page is read back following `next`, and `judgeCrawl(expectedCrawl(...))` must
 * find no problem at either level. Beside that: what the pages of a real crawl hold (status codes, the
 * redirect, robots.txt, the page that cannot be read). Everything binds 127.0.0.1/127.0.0.2 on ports the
 * system picks; nothing else is connected to.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeCrawl, type CrawledPage } from '../schemas/crawl/judge.js';
import { expectedCrawl } from '../schemas/crawl/oracle.js';
import { validate } from '../schemas/validate.js';
import { createReferenceApp, type InMemoryReferenceApp } from '../scripts/server/app.js';
import { listen, type Listening } from '../scripts/server/http.js';
import { isSiteAddress, serveSite, type ServedSite } from '../scripts/site/server.js';
import { testSiteModel } from '../scripts/site/testSite.js';
import { untilEnded } from './support/untilEnded.js';

// A name under a public suffix: a crawl's start URL must end in one (crawlspec.test would be refused).
const HOST = 'crawlspec.example.com';
/** A safety net on every request and every wait for a crawl: far past what a loaded machine needs. */
const TIMEOUT_MS = 60_000;
type Version = 'v1' | 'v2';

let site: ServedSite;
let app: InMemoryReferenceApp;
let server: Listening;

beforeAll(async () => {
  site = await serveSite({ host: HOST });
  let base = '';
  app = createReferenceApp({
    auth: 'none',
    publicUrl: () => base,
    pageIntervalMs: 1,
    resolveHosts: { [HOST]: '127.0.0.1', [`sub.${HOST}`]: '127.0.0.1' },
    // The sites' addresses, on any port (127.0.0.2 the other site, 127.0.0.1 the slow one): no other loopback port.
    allowFetchHost: isSiteAddress,
  });
  server = await listen(app);
  base = server.url;
});

afterAll(async () => {
  await server?.close();
  app?.close();
  await site?.close();
});

async function get(url: string): Promise<any> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  expect(response.status, url).toBe(200);
  return response.json();
}

interface Crawled {
  readonly status: any;
  readonly pages: any[];
  readonly errors: any;
}

/** Starts a crawl, waits for its end, and reads every page back through `next`, a few at a time. */
async function crawl(version: Version, request: Record<string, unknown>): Promise<Crawled> {
  const response = await fetch(`${server.url}/${version}/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const started = (await response.json()) as { id: string; url: string };
  expect(response.status, JSON.stringify(started)).toBe(200);
  const status = await untilEnded(() => get(started.url), `crawl ${JSON.stringify(request)}`, { timeoutMs: TIMEOUT_MS });
  const pages: any[] = [];
  for (let page = await get(`${started.url}?limit=3`); ; page = await get(page.next)) {
    const checked = validate(`${version}/JobStatusResponse`, page);
    expect(checked.valid ? [] : checked.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    pages.push(...page.data);
    if (typeof page.next !== 'string') break;
  }
  expect(pages).toHaveLength(status.completed);
  return { status, pages, errors: await get(`${started.url}/errors`) };
}

const identified = (pages: readonly any[]): CrawledPage[] => pages.map((p) => ({ url: p.metadata.url, sourceURL: p.metadata.sourceURL }));

/** Each crawler option alone (and a few together), as a request of `version` from `start` (a path of the main site). */
function cases(version: Version): { name: string; start: string; request: Record<string, unknown> }[] {
  const v1 = version === 'v1';
  const all: { name: string; start: string; request: Record<string, unknown> }[] = [
    { name: 'defaults', start: '/', request: {} },
    { name: 'limit 3', start: '/', request: { limit: 3 } },
    { name: 'limit 0', start: '/', request: { limit: 0 } },
    { name: 'includePaths', start: '/', request: { includePaths: ['^/docs/'] } },
    { name: 'excludePaths', start: '/', request: { excludePaths: ['^/docs/guides', 'post'] } },
    { name: 'includePaths and excludePaths', start: '/docs/', request: { includePaths: ['^/docs/'], excludePaths: ['deep'] } },
    { name: 'maxDiscoveryDepth 0', start: '/', request: { maxDiscoveryDepth: 0 } },
    { name: 'maxDiscoveryDepth 1', start: '/', request: { maxDiscoveryDepth: 1 } },
    { name: 'maxDiscoveryDepth 2', start: '/', request: { maxDiscoveryDepth: 2 } },
    {
      name: 'maxDiscoveryDepth 1, sitemap skipped',
      start: '/',
      request: { maxDiscoveryDepth: 1, ...(v1 ? { ignoreSitemap: true } : { sitemap: 'skip' }) },
    },
    { name: 'ignoreQueryParameters', start: '/', request: { ignoreQueryParameters: true } },
    { name: 'crawlEntireDomain false from /docs/a.html', start: '/docs/a.html', request: { crawlEntireDomain: false } },
    { name: 'crawlEntireDomain true from /docs/a.html', start: '/docs/a.html', request: { crawlEntireDomain: true } },
    { name: 'allowExternalLinks', start: '/', request: { allowExternalLinks: true } },
    { name: 'allowSubdomains', start: '/', request: { allowSubdomains: true } },
    { name: 'ignoreRobotsTxt', start: '/', request: { ignoreRobotsTxt: true } },
    { name: 'from a deeper page, limit and depth together', start: '/docs/guides/', request: { limit: 2, maxDiscoveryDepth: 1 } },
    { name: 'excludePaths keeping a redirect target out', start: '/', request: { excludePaths: ['^/landing'] } },
  ];
  if (v1)
    all.push(
      { name: 'maxDepth 1', start: '/', request: { maxDepth: 1 } },
      { name: 'maxDepth 2', start: '/', request: { maxDepth: 2 } },
      { name: 'ignoreSitemap', start: '/', request: { ignoreSitemap: true } },
      { name: 'allowBackwardLinks from /docs/a.html', start: '/docs/a.html', request: { allowBackwardLinks: true } },
      {
        name: 'allowBackwardLinks true, crawlEntireDomain false',
        start: '/docs/a.html',
        request: { allowBackwardLinks: true, crawlEntireDomain: false },
      },
    );
  else
    all.push(
      { name: 'sitemap skip', start: '/', request: { sitemap: 'skip' } },
      { name: 'sitemap include', start: '/', request: { sitemap: 'include' } },
      { name: 'sitemap only', start: '/', request: { sitemap: 'only' } },
      { name: 'sitemap only from /docs/', start: '/docs/', request: { sitemap: 'only', crawlEntireDomain: true } },
    );
  return all;
}

describe.each(['v1', 'v2'] as const)('%s crawls of the test site agree with the oracle at service level', (version) => {
  it.each(cases(version))('$name', async ({ start, request }) => {
    const url = `${site.origins.main}${start}`;
    const body = { ...request, url, maxConcurrency: 4 };
    const { status, pages } = await crawl(version, body);
    expect(status.status).toBe('completed');
    for (const page of pages) {
      const checked = validate(`${version}/Document`, page);
      expect(checked.valid ? [] : checked.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    }
    const expected = expectedCrawl(testSiteModel(site.origins), version, body, { start: url });
    expect(judgeCrawl(expected, identified(pages))).toEqual([]);
    // Not vacuous: when the crawl must return pages, returning none is a problem the judge reports.
    if (expected.pages.some((p) => p.verdict.service === 'must') && expected.atMost > 0) expect(judgeCrawl(expected, [])).not.toEqual([]);
  });
});

describe('discovery depth, whatever the order pages answer in', () => {
  /** `/` links a slow page and a fast one; x.html is at depth 2 through the slow one, 3 through the fast ones. */
  const LINKS: Readonly<Record<string, readonly string[]>> = {
    '/': ['a.html', 'b.html'],
    '/a.html': ['x.html'],
    '/b.html': ['c.html'],
    '/c.html': ['x.html'],
    '/x.html': ['y.html'],
    '/y.html': [],
  };
  let slow: Server;
  let origin = '';

  beforeAll(async () => {
    slow = createServer((request, response) => {
      const path = (request.url ?? '/').split('?', 1)[0]!;
      const links = LINKS[path];
      const body =
        links === undefined
          ? 'not found'
          : `<!DOCTYPE html><html><head><title>${path}</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}</body></html>`;
      const timer = setTimeout(
        () => response.writeHead(links === undefined ? 404 : 200, { 'content-type': 'text/html' }).end(body),
        path === '/a.html' ? 300 : 0,
      );
      response.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    slow.closeAllConnections();
    await new Promise((resolve) => slow.close(resolve));
  });

  it.each(['v1', 'v2'] as const)('%s: a page first reached through a slow page keeps its smallest depth', async (version) => {
    const body = {
      url: `${origin}/`,
      maxDiscoveryDepth: 3,
      maxConcurrency: 4,
      ...(version === 'v1' ? { ignoreSitemap: true } : { sitemap: 'skip' }),
    };
    const { pages } = await crawl(version, body);
    const model = {
      pages: Object.entries(LINKS).map(([path, links]) => ({ url: `${origin}${path}`, links: links.map((l) => `${origin}/${l}`) })),
    };
    expect(judgeCrawl(expectedCrawl(model, version, body, { start: `${origin}/` }), identified(pages))).toEqual([]);
    expect(pages.map((p) => p.metadata.url)).toContain(`${origin}/y.html`);
  });
});

describe('what a real crawl of the test site holds', () => {
  it('real pages: status codes, the redirect, robots.txt, absolute links, markdown of the main content', async () => {
    const { main, external } = site.origins;
    const { pages, errors } = await crawl('v2', {
      url: `${main}/`,
      maxConcurrency: 4,
      scrapeOptions: { formats: ['markdown', 'html', 'rawHtml', 'links'] },
    });
    const byUrl = new Map(pages.map((p) => [p.metadata.url, p]));
    const home = byUrl.get(`${main}/`);
    expect(home.metadata).toMatchObject({ statusCode: 200, title: 'Home', language: 'en', sourceURL: `${main}/` });
    expect(home.metadata.contentType).toMatch(/^text\/html/);
    expect(home.links).toEqual(
      expect.arrayContaining([`${main}/about.html`, `${main}/docs/a.html?ref=home`, `${external}/elsewhere.html`]),
    );
    expect(home.links.some((l: string) => l.includes('#'))).toBe(false);
    expect(home.markdown).toContain('# Home');
    expect(home.markdown).toContain(`(${main}/about.html)`);
    expect(home.markdown).not.toContain('crawlspec test site</footer>');
    // The body less what is around the main content (its footer): onlyMainContent, true by default.
    expect(home.html.startsWith('<body>')).toBe(true);
    expect(home.html).toContain('<main>');
    expect(home.html).not.toContain('<footer>');
    expect(home.rawHtml.startsWith('<!DOCTYPE html>')).toBe(true);
    // An error page is a page with its status; the redirect's page is its target's, found at the redirect.
    expect(byUrl.get(`${main}/blog/broken.html`)?.metadata.statusCode).toBe(500);
    expect(byUrl.get(`${main}/landing.html`)?.metadata).toMatchObject({ statusCode: 200, sourceURL: `${main}/moved.html` });
    expect(errors.robotsBlocked).toEqual([`${main}/private/`]);
    expect(errors.errors).toEqual([]);
  });

  it('the start page kept out by includePaths is crawled for its links and listed as an error', async () => {
    const { main } = site.origins;
    const { pages, errors } = await crawl('v1', { url: `${main}/`, includePaths: ['^/about'], ignoreSitemap: true });
    expect(pages.map((p) => p.metadata.url)).toEqual([`${main}/about.html`]);
    expect(errors.errors).toEqual([
      expect.objectContaining({ url: `${main}/`, error: expect.stringMatching(/^Source URL is not allowed by crawl configuration: /) }),
    ]);
  });

  it('a page whose connection is cut is an error, not a page', async () => {
    const { main } = site.origins;
    const { status, pages, errors } = await crawl('v2', { url: `${main}/reset` });
    expect(status).toMatchObject({ status: 'completed', completed: 0, total: 0 });
    expect(pages).toEqual([]);
    expect(errors.errors).toEqual([
      expect.objectContaining({ url: `${main}/reset`, code: 'SCRAPE_SITE_ERROR', error: expect.stringContaining('closed') }),
    ]);
  });
});
