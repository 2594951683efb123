/**
 * The crawl oracle (schemas/crawl/), sentence by sentence of interface §2.1: on the kit's test site, where
 * each option's effect is known page by page, and on sites generated with fast-check, where what must hold
 * whatever the site is checked (adding a page never removes one from an unlimited result, excluding a path
 * never adds one, a sitemap-only crawl returns nothing but the start and sitemap pages, ...). The judge
 * accepts exactly what the oracle allows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeCrawl } from '../schemas/crawl/judge.js';
import { expectedCrawl, type CrawlExpectation, type PageVerdict } from '../schemas/crawl/oracle.js';
import { serviceDepth, slashesIn } from '../schemas/crawl/rules.js';
import type { SiteModel } from '../schemas/crawl/site.js';
import { testSiteModel } from '../scripts/site/testSite.js';

const ORIGINS = { main: 'http://crawlspec.test:4000', external: 'http://127.0.0.2:4000', subdomain: 'http://sub.crawlspec.test:4000' };
const SITE = testSiteModel(ORIGINS);
const M = ORIGINS.main;

const expectOn = (site: SiteModel, version: 'v1' | 'v2', request: Record<string, unknown>) =>
  expectedCrawl(site, version, request, { start: String(request['url']) });

/** Paths (below the main origin, or full URLs elsewhere) with `verdict` at `level`. */
function pathsWith(e: CrawlExpectation, verdict: PageVerdict, level: 'interface' | 'service' = 'interface'): string[] {
  return e.pages
    .filter((p) => p.verdict[level] === verdict)
    .map((p) => (p.url.startsWith(M) ? p.url.slice(M.length) : p.url))
    .sort();
}

describe('interface §2.1 on the test site, option by option', () => {
  it('without options: every page reachable from the start, by links and the sitemap; not another site, not a subdomain', () => {
    const e = expectOn(SITE, 'v2', { url: `${M}/`, limit: 100 });
    expect(pathsWith(e, 'must')).toEqual([
      '/',
      '/about.html',
      '/blog/',
      '/blog/post-1.html',
      '/docs/',
      '/docs/a.html',
      '/docs/a.html?ref=home',
      '/docs/a.html?tab=1',
      '/docs/b.html',
      '/docs/guides/',
      '/docs/guides/deep/',
      '/docs/guides/deep/end.html',
      '/docs/guides/setup.html',
      '/from-sitemap.html',
      '/team.html',
    ]);
    // robots.txt is the service's: at interface level the disallowed pages may be returned; at service level not.
    expect(pathsWith(e, 'may')).toEqual(['/blog/broken.html', '/landing.html', '/moved.html', '/private/', '/private/inner.html']);
    expect(pathsWith(e, 'mustNot', 'service')).toEqual(
      expect.arrayContaining(['/private/', '/private/inner.html', 'http://127.0.0.2:4000/elsewhere.html', 'http://sub.crawlspec.test:4000/']),
    );
    // The service follows the redirect to its page.
    expect(pathsWith(e, 'must', 'service')).toContain('/landing.html');
  });

  it('includePaths: "only matching paths are included in the results"', () => {
    const e = expectOn(SITE, 'v2', { url: `${M}/`, includePaths: ['^/docs/.*'], limit: 100 });
    expect(pathsWith(e, 'must')).toEqual([
      '/docs/',
      '/docs/a.html',
      '/docs/a.html?ref=home',
      '/docs/a.html?tab=1',
      '/docs/b.html',
      '/docs/guides/',
      '/docs/guides/deep/',
      '/docs/guides/deep/end.html',
      '/docs/guides/setup.html',
    ]);
    expect(pathsWith(e, 'mustNot')).toEqual(expect.arrayContaining(['/', '/about.html', '/blog/']));
  });

  it('excludePaths: "URLs that match are excluded from the crawl", and what only they lead to', () => {
    const e = expectOn(SITE, 'v2', { url: `${M}/`, excludePaths: ['^/docs/guides/.*'], sitemap: 'skip', limit: 100 });
    expect(pathsWith(e, 'mustNot')).toEqual(
      expect.arrayContaining(['/docs/guides/', '/docs/guides/setup.html', '/docs/guides/deep/', '/docs/guides/deep/end.html']),
    );
    expect(pathsWith(e, 'must')).toContain('/docs/a.html');
  });

  it('v1 maxDepth: at most that many slashes in the pathname (and where the service counts path segments instead, either)', () => {
    const e = expectOn(SITE, 'v1', { url: `${M}/`, maxDepth: 2, limit: 100 });
    // `/docs/a.html` has two slashes and two segments; `/docs/guides/` three slashes and two segments.
    expect(pathsWith(e, 'must')).toContain('/docs/a.html');
    expect(pathsWith(e, 'may')).toContain('/docs/guides/');
    expect(pathsWith(e, 'must', 'service')).toContain('/docs/guides/');
    expect(pathsWith(e, 'mustNot')).toContain('/docs/guides/deep/end.html');
    expect([slashesIn('/docs/guides/'), serviceDepth('/docs/guides/')]).toEqual([3, 2]);
  });

  it('maxDiscoveryDepth: "with value 1 and the sitemap skipped, only the entered URL and URLs linked from it"', () => {
    const e = expectOn(SITE, 'v2', { url: `${M}/`, maxDiscoveryDepth: 1, sitemap: 'skip', limit: 100 });
    expect(pathsWith(e, 'must')).toEqual(['/', '/about.html', '/blog/', '/docs/', '/docs/a.html?ref=home']);
    const zero = expectOn(SITE, 'v2', { url: `${M}/`, maxDiscoveryDepth: 0, sitemap: 'skip', limit: 100 });
    expect(pathsWith(zero, 'must')).toEqual(['/']);
    // "The root page and pages found in the sitemap have depth 0."
    const sitemap = expectOn(SITE, 'v2', { url: `${M}/`, maxDiscoveryDepth: 0, limit: 100 });
    expect(pathsWith(sitemap, 'must')).toEqual(['/', '/about.html', '/blog/', '/docs/', '/docs/a.html', '/from-sitemap.html']);
  });

  it('sitemap: skip ignores it, only crawls the sitemap pages and the start with no link discovery; v1 ignoreSitemap is skip', () => {
    expect(pathsWith(expectOn(SITE, 'v2', { url: `${M}/`, sitemap: 'only', limit: 100 }), 'must')).toEqual([
      '/',
      '/about.html',
      '/blog/',
      '/docs/',
      '/docs/a.html',
      '/from-sitemap.html',
    ]);
    const skip = expectOn(SITE, 'v2', { url: `${M}/`, sitemap: 'skip', limit: 100 });
    expect(pathsWith(skip, 'mustNot')).toContain('/from-sitemap.html');
    expect(pathsWith(expectOn(SITE, 'v1', { url: `${M}/`, ignoreSitemap: true, limit: 100 }), 'must')).toEqual(pathsWith(skip, 'must'));
  });

  it('ignoreQueryParameters: the query variants of a path count as one page', () => {
    const e = expectOn(SITE, 'v2', { url: `${M}/`, ignoreQueryParameters: true, limit: 100 });
    const groups = new Set(e.pages.filter((p) => p.url.startsWith(`${M}/docs/a.html`)).map((p) => p.group));
    expect(groups).toEqual(new Set([`${M}/docs/a.html`]));
    expect(judgeCrawl(e, [{ url: `${M}/docs/a.html?ref=home` }, { url: `${M}/docs/a.html` }]).map((p) => p.kind)).toContain('sameGroup');
  });

  it('crawlEntireDomain: false follows only children of the start; true, siblings and parents too; v1 allowBackwardLinks likewise', () => {
    const children = expectOn(SITE, 'v2', { url: `${M}/docs/`, sitemap: 'skip', limit: 100 });
    expect(pathsWith(children, 'must')).toEqual(expect.arrayContaining(['/docs/', '/docs/a.html', '/docs/guides/setup.html']));
    expect(pathsWith(children, 'mustNot')).toEqual(expect.arrayContaining(['/blog/', '/about.html']));
    const entire = expectOn(SITE, 'v2', { url: `${M}/docs/`, sitemap: 'skip', crawlEntireDomain: true, limit: 100 });
    expect(pathsWith(entire, 'must')).toEqual(expect.arrayContaining(['/', '/about.html', '/blog/']));
    const backward = expectOn(SITE, 'v1', { url: `${M}/docs/`, ignoreSitemap: true, allowBackwardLinks: true, limit: 100 });
    expect(pathsWith(backward, 'must')).toEqual(pathsWith(entire, 'must'));
    // crawlEntireDomain wins over allowBackwardLinks when both are sent.
    const both = expectOn(SITE, 'v1', { url: `${M}/docs/`, ignoreSitemap: true, allowBackwardLinks: true, crawlEntireDomain: false, limit: 100 });
    expect(pathsWith(both, 'must')).toEqual(pathsWith(children, 'must'));
  });

  it('allowExternalLinks and allowSubdomains: another site may then be followed; a subdomain must', () => {
    const external = expectOn(SITE, 'v2', { url: `${M}/`, allowExternalLinks: true, limit: 100 });
    expect(pathsWith(external, 'may')).toContain('http://127.0.0.2:4000/elsewhere.html');
    const sub = expectOn(SITE, 'v2', { url: `${M}/`, allowSubdomains: true, limit: 100 });
    expect(pathsWith(sub, 'must')).toEqual(expect.arrayContaining(['http://sub.crawlspec.test:4000/', 'http://sub.crawlspec.test:4000/page.html']));
  });

  it('limit: at most that many, and as many as the pages it must reach allow', () => {
    const e = expectOn(SITE, 'v2', { url: `${M}/`, limit: 3 });
    expect(e.atMost).toBe(3);
    const some = pathsWith(e, 'must').slice(0, 3).map((p) => ({ url: `${M}${p}` }));
    expect(judgeCrawl(e, some)).toEqual([]);
    expect(judgeCrawl(e, some.slice(0, 2)).map((p) => p.kind)).toEqual(['tooFew']);
    expect(judgeCrawl(e, [...some, { url: `${M}/team.html` }]).map((p) => p.kind)).toEqual(['tooMany']);
    expect(expectOn(SITE, 'v2', { url: `${M}/`, limit: 0 }).atMost).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated sites
// ---------------------------------------------------------------------------------------------------------

const PATHS = ['/', '/a', '/a/x', '/a/y', '/a/x/deep', '/b', '/b/z', '/c?q=1', '/c', '/d/'];

const siteArbitrary: fc.Arbitrary<SiteModel> = fc
  .record({
    links: fc.array(fc.array(fc.constantFrom(...PATHS), { maxLength: 4 }), { minLength: PATHS.length, maxLength: PATHS.length }),
    sitemap: fc.subarray(PATHS),
    disallow: fc.option(fc.constantFrom('/b', '/a/x'), { nil: undefined }),
  })
  .map(({ links, sitemap, disallow }) => ({
    pages: PATHS.map((path, i) => ({ url: `${M}${path}`, links: links[i]!.map((l) => `${M}${l}`) })),
    sitemaps: { [M]: sitemap.map((p) => `${M}${p}`) },
    ...(disallow === undefined ? {} : { robots: { [M]: `User-agent: *\nDisallow: ${disallow}\n` } }),
  }));

const requestArbitrary = fc.record(
  {
    startAt: fc.constantFrom('/', '/a', '/b'),
    includePaths: fc.constantFrom(['^/a'], ['^/b', '^/c']),
    excludePaths: fc.constantFrom(['^/a/x'], ['^/d']),
    maxDiscoveryDepth: fc.integer({ min: 0, max: 3 }),
    sitemap: fc.constantFrom('skip', 'include', 'only'),
    ignoreQueryParameters: fc.boolean(),
    crawlEntireDomain: fc.boolean(),
  },
  { requiredKeys: ['startAt'] },
);

const bodyOf = ({ startAt, ...rest }: { startAt: string } & Record<string, unknown>): Record<string, unknown> & { url: string } => ({
  url: `${M}${startAt}`,
  limit: 1000,
  ...rest,
});
const allowed = (e: CrawlExpectation, level: 'interface' | 'service') => new Set(e.pages.filter((p) => p.verdict[level] !== 'mustNot').map((p) => p.url));
const required = (e: CrawlExpectation, level: 'interface' | 'service') => new Set(e.pages.filter((p) => p.verdict[level] === 'must').map((p) => p.url));
const LEVELS = ['interface', 'service'] as const;

describe('whatever the site: the oracle keeps the rules of interface §2.1', () => {
  it('adding a page (linked from the start) never removes one from an unlimited result', () => {
    fc.assert(
      fc.property(siteArbitrary, requestArbitrary, (site, request) => {
        const body = bodyOf(request);
        const before = expectOn(site, 'v2', body);
        const added = `${M}/new-page`;
        const bigger: SiteModel = {
          ...site,
          pages: [...site.pages.map((p) => (p.url === body.url ? { ...p, links: [...p.links, added] } : p)), { url: added, links: [] }],
        };
        const after = expectOn(bigger, 'v2', body);
        for (const level of LEVELS) {
          for (const url of required(before, level)) expect(required(after, level)).toContain(url);
          for (const url of allowed(before, level)) expect(allowed(after, level)).toContain(url);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('excluding a path never adds a page; including fewer paths never adds one either', () => {
    fc.assert(
      fc.property(siteArbitrary, requestArbitrary, fc.constantFrom('^/a', '^/b', '^/c', '^/d'), (site, request, pattern) => {
        const body = bodyOf(request);
        const before = expectOn(site, 'v2', body);
        const excluded = expectOn(site, 'v2', { ...body, excludePaths: [...((body.excludePaths as string[] | undefined) ?? []), pattern] });
        for (const level of LEVELS) for (const url of allowed(excluded, level)) expect(allowed(before, level)).toContain(url);
      }),
      { numRuns: 200 },
    );
  });

  it('what the interface requires the service requires too (the service only fills gaps), and nothing required is also refused', () => {
    fc.assert(
      fc.property(siteArbitrary, requestArbitrary, (site, request) => {
        const e = expectOn(site, 'v2', bodyOf(request));
        for (const page of e.pages) {
          if (page.verdict.interface === 'mustNot') expect(page.verdict.service, page.url).toBe('mustNot');
          if (page.verdict.service === 'must') expect(page.verdict.interface, page.url).not.toBe('mustNot');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('sitemap "only": nothing but the start and the sitemap pages; maxDiscoveryDepth 0: nothing deeper than the roots', () => {
    fc.assert(
      fc.property(siteArbitrary, requestArbitrary, (site, request) => {
        const only = expectOn(site, 'v2', { ...bodyOf(request), sitemap: 'only' });
        const roots = new Set([only.settings.url, ...(site.sitemaps?.[M] ?? [])]);
        for (const url of allowed(only, 'interface')) expect(roots).toContain(url);
        const zero = expectOn(site, 'v2', { ...bodyOf(request), maxDiscoveryDepth: 0 });
        const zeroRoots = new Set([zero.settings.url, ...(zero.settings.sitemap === 'skip' ? [] : (site.sitemaps?.[M] ?? []))]);
        for (const url of allowed(zero, 'interface')) expect(zeroRoots).toContain(url);
      }),
      { numRuns: 200 },
    );
  });

  it('includePaths keeps every other path out; crawlEntireDomain false keeps every non-child out at service level', () => {
    fc.assert(
      fc.property(siteArbitrary, requestArbitrary, (site, request) => {
        const body = bodyOf(request);
        const e = expectOn(site, 'v2', body);
        const patterns = ((body.includePaths as string[] | undefined) ?? []).map((p) => new RegExp(p));
        for (const url of allowed(e, 'interface')) if (patterns.length > 0) expect(patterns.some((r) => r.test(new URL(url).pathname)), url).toBe(true);
        if (body.crawlEntireDomain !== true) {
          const start = new URL(e.settings.url).pathname;
          for (const url of allowed(e, 'service')) if (url !== e.settings.url) expect(new URL(url).pathname.startsWith(start), url).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the judge accepts a crawl returning what the oracle requires (one per group), and refuses one page it must not return', () => {
    fc.assert(
      fc.property(siteArbitrary, requestArbitrary, (site, request) => {
        const e = expectOn(site, 'v2', bodyOf(request));
        for (const level of LEVELS) {
          const firstOfGroup = new Map<string, string>();
          for (const page of e.pages) if (page.verdict[level] === 'must' && !firstOfGroup.has(page.group)) firstOfGroup.set(page.group, page.url);
          const problems = judgeCrawl(e, [...firstOfGroup.values()].map((url) => ({ url }))).filter((p) => p.level === level);
          expect(problems).toEqual([]);
          const refused = e.pages.find((p) => p.verdict[level] === 'mustNot' && p.verdict.interface === 'mustNot');
          if (refused) expect(judgeCrawl(e, [{ url: refused.url }]).some((p) => p.kind === 'extra' && p.url === refused.url)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
