/**
 * The HTML documentation in generated/docs/ is self-contained (nothing loaded from elsewhere) and renders:
 * opened in headless Chromium, Redoc's script builds the pages of every tag and of the schemas, and they show
 * each operation and each component schema of the version.
 *
 * Chromium (found as test/support/chromium.ts says: $CHROMIUM, $CHROME_PATH, $PUPPETEER_EXECUTABLE_PATH, then
 * chromium, chromium-browser or google-chrome on PATH) is needed for the render
 * tests. In CI (`CI` set, as .ci/run runs, which installs Chromium) they fail without it. Elsewhere, on a
 * machine without Chromium, they are skipped with a notice on stderr saying so and how to run them, so that
 * `npm test` passes on a fresh machine (test/docsRenderSkip.test.ts runs this file both ways).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../schemas/operations.js';
import { VERSIONS, type Version } from '../schemas/registry.js';
import { CONTENT_SECURITY_POLICY, externalLoads, pageTitle } from '../scripts/emit/docs.js';
import { openApiDocument } from '../scripts/emit/openapi.js';
import { browserForTests, renderPage, visibleText, type Rendered } from './support/renderPage.js';
import { pooled } from './support/pooled.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BROWSER = browserForTests('the docs render tests of test/docs.test.ts');
const KEY_SCHEMAS = ['CrawlRequest', 'BatchScrapeRequest', 'ScrapeOptions', 'JobStatusResponse', 'ErrorResponse'];

const pagePath = (version: Version) => join(ROOT, 'generated', 'docs', `${version}.html`);
/** Redoc's route for a tag or section name ("Batch scrape" → `#/batch-scrape`). */
const route = (name: string) => `#/${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

const count = (html: string, needle: string) => html.split(needle).length - 1;

describe('generated/docs is self-contained', () => {
  it.each(VERSIONS)('%s.html loads no script, style sheet, font or image from elsewhere', async (version) => {
    const html = await readFile(pagePath(version), 'utf8');
    expect(externalLoads(html)).toEqual([]);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`);
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    // The Redoc script is in the page, not fetched from the CDN.
    expect(html).not.toMatch(/<script\b[^>]*\bsrc=/i);
    expect(html).not.toContain('cdn.redocly.com/redoc/');
    expect(html).not.toMatch(/fonts\.(googleapis|gstatic)\.com/);
    expect(html.length).toBeGreaterThan(1_000_000);
  });

  it('the check finds each kind of external load, and leaves links alone', () => {
    const page = [
      '<script src="https://cdn.example.com/redoc.standalone.js"></script>',
      '<link rel="modulepreload" href="https://cdn.redocly.com/redoc/v3/bundles/redoc.standalone.js" />',
      '<link href="//fonts.googleapis.com/css?family=Montserrat" rel="stylesheet">',
      '<style>@import url("https://fonts.googleapis.com/css2?family=Inter"); .logo { background: url(http://example.com/a.png) }</style>',
      '<script type="module">import { hydrate } from "https://cdn.redocly.com/redoc/v3/bundles/redoc.standalone.js";</script>',
      '<img alt="" src="https://cdn.redoc.ly/redoc/logo-mini.svg">',
    ];
    for (const line of page) expect(externalLoads(line), line).not.toEqual([]);
    const text =
      '<a href="https://redocly.com/redoc/">API docs by</a><p>See https://example.com/docs</p><img src="data:image/png;base64,AA">';
    expect(externalLoads(text)).toEqual([]);
  });
});

describe.skipIf(BROWSER.skip)('generated/docs renders in headless Chromium', () => {
  /** For each version: each tag's page and the schemas page, as Chromium rendered them. */
  const pages = new Map<string, Rendered>();
  const key = (version: Version, hash: string) => `${version}${hash}`;
  /** A page that does load an image from elsewhere: the network check must see it. */
  let probe: Rendered | undefined;

  beforeAll(async () => {
    const chromium = BROWSER.path();
    const scratch = await mkdtemp(join(tmpdir(), 'crawlspec-docs-probe-'));
    try {
      const probePage = join(scratch, 'probe.html');
      await writeFile(probePage, '<!DOCTYPE html><div id="redoc"><img alt="probe" src="https://crawlspec.invalid/probe.png"></div>');
      const jobs = VERSIONS.flatMap((version) =>
        [...(openApiDocument(version).tags ?? []).map((t) => route(t.name)), route('Schemas')].map((hash) => ({ version, hash })),
      );
      const [probed, ...rendered] = await pooled(
        [
          () => renderPage(chromium, probePage),
          ...jobs.map(
            ({ version, hash }) =>
              () =>
                renderPage(chromium, pagePath(version), hash),
          ),
        ],
        3,
      );
      probe = probed;
      jobs.forEach(({ version, hash }, i) => pages.set(key(version, hash), rendered[i]!));
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 300_000);

  it('the network check sees a page that loads an image from elsewhere', () => {
    expect(probe?.requests).toEqual(['https://crawlspec.invalid/probe.png']);
  });

  describe.each(VERSIONS)('%s', (version) => {
    const doc = openApiDocument(version);
    const page = (hash: string) => {
      const rendered = pages.get(key(version, hash));
      if (!rendered) throw new Error(`${version}${hash} was not rendered`);
      return rendered;
    };

    it('every page shows the title, and the overview and the window title name the version once', async () => {
      const title = pageTitle(version);
      expect(title).toBe(`${doc.info.title} (${doc.info.version})`);
      for (const [k, p] of pages) if (k.startsWith(`${version}#`)) expect(p.text, k).toContain(doc.info.title);
      for (const [k, p] of pages) expect(p.text, k).not.toContain(`(${version}) (${version})`);
      const raw = await readFile(pagePath(version), 'utf8');
      expect(raw).toContain(`<title>${title}</title>`);
      expect(visibleText(raw)).toContain(title);
      expect(visibleText(raw)).not.toContain(`(${version}) (${version})`);
    });

    it("each tag's page shows the tag and every one of its operations: summary, method and path", async () => {
      const ops = operations(version);
      expect(ops.length).toBeGreaterThan(0);
      for (const tag of doc.tags ?? []) {
        const { text, dom } = page(route(tag.name));
        expect(text, tag.name).toContain((tag.description ?? tag.name).replace(/`/g, '').slice(0, 40));
        const tagged = ops.filter((op) => op.tag === tag.name);
        for (const op of tagged) {
          expect(text, `${op.operationId} summary`).toContain(op.summary);
          expect(text, `${op.operationId} method and path`).toContain(`${op.method} /${version}${op.path}`);
        }
        // The method badges of the operation list and headings: elements only Redoc's script creates.
        expect(count(dom, 'data-component-name="Tags/HttpTag"'), tag.name).toBeGreaterThanOrEqual(tagged.length);
      }
      for (const op of ops)
        expect(
          doc.tags?.map((t) => t.name),
          op.operationId,
        ).toContain(op.tag);
    });

    it('the schemas page names every component schema, the key ones among them', () => {
      const { text } = page(route('Schemas'));
      const names = Object.keys(doc.components?.schemas ?? {});
      for (const name of KEY_SCHEMAS) expect(names).toContain(name);
      for (const name of names) expect(text, name).toMatch(new RegExp(`\\b${name}\\b`));
    });

    it('the operations are not in the page before its script runs: Redoc rendered them', async () => {
      const raw = await readFile(pagePath(version), 'utf8');
      const before = visibleText(raw);
      expect(before).toContain(pageTitle(version)); // the server-rendered overview
      expect(count(raw, 'data-component-name="Tags/HttpTag"')).toBe(0);
      const rendered = [...pages.entries()].filter(([k]) => k.startsWith(`${version}#`)).map(([, p]) => p.text);
      for (const op of operations(version)) {
        expect(before, op.summary).not.toContain(op.summary);
        expect(rendered.some((text) => text.includes(op.summary))).toBe(true);
      }
      const crawl = page(route('Crawl')).text;
      expect(crawl.length).toBeGreaterThan(3 * before.length);
    });

    it('the page asks nothing of the network', () => {
      for (const [k, p] of pages) if (k.startsWith(`${version}#`)) expect(p.requests, k).toEqual([]);
    });
  });
});
