/**
 * The test site's scrape pages (scripts/site/scrapePages.ts) are what their models say, read over loopback
 * from the served site: each page's status and content type, its body byte for byte where the model has one,
 * and, parsed with htmlparser2, every text node of its body with the elements around it, its images and its
 * links; the headers page shows the headers a request carried, the counter counts each address's GETs, the
 * slow page answers no sooner than it says, the TLS origin serves its page with the committed self-signed
 * certificate (refused by a verifying client, accepted by one that trusts that certificate), the PDF is a
 * well-formed file holding its lines. A scrape done the service's way of the pages that answer per request is
 * found right by the oracle, and one that sent the wrong headers or fetched again is found wrong. The crawl
 * site is unchanged by them, and a static copy holds only those a static host can serve, naming the others.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { inflateSync } from 'node:zlib';
import { DomUtils, parseDocument } from 'htmlparser2';
import { extractText, getDocumentProxy } from 'unpdf';
import type { AnyNode, Element } from 'domhandler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchCountOf, judgeScrapeRecord, type ScrapeFinding } from '../schemas/scrape/judge.js';
import { scrapeExpectation } from '../schemas/scrape/oracle.js';
import { echoLine, fetchCountLine, type ScrapeElement, type ScrapePageModel } from '../schemas/scrape/page.js';
import { siteFiles } from '../scripts/site/export.js';
import { COPY_MISSING, scrapePage, scrapePages, SCRAPE_PATHS, SLOW_MS } from '../scripts/site/scrapePages.js';
import { serveSite, type ServedSite } from '../scripts/site/server.js';
import { TEST_CERTIFICATE } from '../scripts/site/testCertificate.js';
import { testSiteModel, type SiteOrigins } from '../scripts/site/testSite.js';
import { serviceRecord } from './support/serviceScrape.js';

interface Got {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface GetOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  /** For https: the certificate to trust; without it, verification is off. */
  readonly ca?: string;
  readonly verify?: boolean;
}

/** A request to `url` on loopback (a host name stands for 127.0.0.1); rejects with the connection's error. */
function get(url: string, options: GetOptions = {}): Promise<Got> {
  const target = new URL(url);
  const address = target.hostname === '127.0.0.2' ? '127.0.0.2' : '127.0.0.1';
  const common = {
    host: address,
    port: target.port,
    path: `${target.pathname}${target.search}`,
    method: options.method ?? 'GET',
    headers: { host: target.host, ...options.headers },
  };
  return new Promise((resolve, reject) => {
    const done = (res: import('node:http').IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    };
    const req =
      target.protocol === 'https:'
        ? httpsRequest(
            { ...common, rejectUnauthorized: options.verify ?? false, ...(options.ca === undefined ? {} : { ca: options.ca }) },
            done,
          )
        : httpRequest(common, done);
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error('no answer in 60 s')));
    req.end();
  });
}

/** The model's view of an element. */
const modelElement = (e: Element): ScrapeElement => ({
  tag: e.name,
  ...(e.attribs['id'] === undefined ? {} : { id: e.attribs['id'] }),
  ...(e.attribs['class'] === undefined ? {} : { classes: e.attribs['class'].split(' ') }),
});

/** Every text node of the body, with the elements from the body's child down to its parent. */
function textNodes(body: Element): { text: string; path: ScrapeElement[] }[] {
  const out: { text: string; path: ScrapeElement[] }[] = [];
  const walk = (node: AnyNode, path: ScrapeElement[]) => {
    if (node.type === 'text') out.push({ text: (node as unknown as { data: string }).data, path });
    else if ('children' in node && node.type === 'tag') for (const child of node.children) walk(child, [...path, modelElement(node)]);
  };
  for (const child of body.children) walk(child, []);
  return out;
}

/** What a served HTML page shows, read with htmlparser2 (entities decoded). */
function read(html: string, url: string) {
  const document = parseDocument(html, { decodeEntities: true });
  const body = DomUtils.findOne((e) => e.name === 'body', document.children)!;
  const all = (name: string) => DomUtils.findAll((e) => e.name === name, document.children);
  return {
    title: DomUtils.textContent(DomUtils.findOne((e) => e.name === 'title', document.children)!),
    texts: textNodes(body),
    regions: body.children.map((c) => (c as Element).name),
    images: all('img').map((img) => ({ alt: img.attribs['alt'], src: img.attribs['src'] })),
    links: [
      ...new Set(
        all('a').map((a) => {
          const link = new URL(a.attribs['href']!, url);
          link.hash = '';
          return link.href;
        }),
      ),
    ],
  };
}

const violations = (findings: readonly ScrapeFinding[]) => findings.filter((f) => f.outcome === 'violated');

let site: ServedSite;
let origins: SiteOrigins;
beforeAll(async () => {
  site = await serveSite();
  origins = site.origins;
});
afterAll(() => site.close());

/** A page's served HTML held against its model: `extra` are the texts the request added (the headers page's). */
function expectModel(model: ScrapePageModel, got: Got, extra: readonly string[] = []) {
  const seen = read(got.body, model.url);
  expect(seen.title).toBe(model.title);
  expect(
    seen.texts.filter((t) => !extra.includes(t.text)),
    model.url,
  ).toEqual(model.texts.map((t) => ({ text: t.text, path: t.path })));
  for (const t of model.texts) expect(t.region).toBe(t.path[0]!.tag);
  expect(seen.regions.every((r) => ['header', 'nav', 'main', 'aside', 'footer'].includes(r))).toBe(true);
  expect(seen.images).toEqual(model.images.map((i) => ({ alt: i.alt, src: i.src })));
  expect(model.images.map((i) => i.path)).toEqual(model.images.map(() => [{ tag: 'main' }, { tag: 'p' }, { tag: 'img' }]));
  expect(seen.links).toEqual(model.links);
}

describe('the served scrape pages are their models', () => {
  it('every page answers with its status and content type, and its body where the model has one', async () => {
    const models = scrapePages(origins);
    expect(models.map((m) => new URL(m.url).pathname)).toEqual(Object.values(SCRAPE_PATHS));
    for (const model of models) {
      const got = await get(model.url);
      expect(got.status, model.url).toBe(model.status);
      expect(got.headers['content-type'], model.url).toBe(model.contentType);
      if (model.body !== undefined) expect(got.body, model.url).toBe(model.body);
      if (model.kind === 'html' && model.dynamic?.echoesHeaders === undefined && model.dynamic?.countsFetches === undefined)
        expectModel(model, got);
    }
  }, 60_000);

  it('the article: each text in its place (a model path is the elements down to the text’s own)', () => {
    const article = scrapePage(origins, 'article');
    const paths = article.texts.map(
      (t) =>
        `${t.region} ${t.path.map((e) => `${e.tag}${e.id === undefined ? '' : `#${e.id}`}${(e.classes ?? []).map((c) => `.${c}`).join('')}`).join('>')}`,
    );
    expect(paths).toEqual([
      'header header>p',
      'nav nav>p',
      'nav nav>p>a',
      'main main>h1',
      'main main>p',
      'main main>section#details.note>h2',
      'main main>section#details.note>p.lead',
      'main main>section#details.note>p',
      'main main>blockquote.quoted>p',
      'main main>div#extra>p',
      'main main>h2',
      'main main>ul>li>a',
      'main main>ul>li>a',
      'main main>ul>li>a',
      'main main>ul>li>a',
      'main main>ul>li>a',
      'aside aside>p',
      'footer footer>p',
    ]);
    // Plain words: nothing a markdown converter escapes, no text inside another.
    for (const t of article.texts) {
      expect(t.text).toMatch(/^[A-Z][A-Za-z0-9 ,]*[a-z0-9.]$/);
      for (const other of article.texts) if (other !== t) expect(other.text.includes(t.text), `${t.text} in ${other.text}`).toBe(false);
    }
  });

  it('the image page: a PNG written as base64 with its alt text', async () => {
    const [image] = scrapePage(origins, 'image').images;
    expect(image!.src).toBe(`data:image/png;base64,${image!.base64}`);
    const png = Buffer.from(image!.base64!, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([4, 4]);
    const idat = png.indexOf('IDAT');
    expect(inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4))).length).toBe(4 * (1 + 4 * 3));
  });

  it('the headers page shows each header a request carried, by lower-cased name, in its section', async () => {
    const model = scrapePage(origins, 'headers');
    const got = await get(model.url, { headers: { 'X-Crawlspec-Probe': 'a value, with <markup> & more', 'Accept-Language': 'de-DE' } });
    const received = read(got.body, model.url).texts.filter((t) => t.path.some((e) => e.id === 'received'));
    expect(received.map((t) => t.path)).toEqual(received.map(() => model.dynamic!.echoesHeaders!.path));
    expect(received.map((t) => t.text)).toEqual(
      expect.arrayContaining([echoLine('x-crawlspec-probe', 'a value, with <markup> & more'), echoLine('accept-language', 'de-DE')]),
    );
    expect(received.map((t) => t.text)).toContain(echoLine('host', new URL(model.url).host));
    expectModel(
      model,
      got,
      received.map((t) => t.text),
    );
  });

  it('the counter counts the GETs of each address, path and query; a HEAD is not counted', async () => {
    const model = scrapePage(origins, 'counter');
    const shown = async (url: string) => {
      const texts = read((await get(url)).body, url).texts;
      const count = texts.filter((t) => t.path.some((e) => e.id === 'count'));
      expect(count.map((t) => t.path)).toEqual([model.dynamic!.countsFetches!.path]);
      return count[0]!.text;
    };
    const first = `${model.url}?run=first`;
    expect(await shown(first)).toBe(fetchCountLine(1));
    expect(await shown(first)).toBe(fetchCountLine(2));
    await get(first, { method: 'HEAD' });
    expect(await shown(`${model.url}?run=second`)).toBe(fetchCountLine(1));
    expect(await shown(first)).toBe(fetchCountLine(3));
  });

  it('the slow page answers no sooner than it says', async () => {
    const model = scrapePage(origins, 'slow');
    expect(model.dynamic?.slowMs).toBe(SLOW_MS);
    const started = performance.now();
    const got = await get(model.url);
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLOW_MS - 5);
    expect(got.body).toBe(model.body);
  });

  it('the TLS origin: a verifying client refuses its self-signed certificate; one trusting it gets the page; each origin serves only its own', async () => {
    const secure = scrapePage(origins, 'secure');
    expect(secure.url).toBe(`${origins.tls}${SCRAPE_PATHS.secure}`);
    await expect(get(secure.url, { verify: true })).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const trusted = await get(secure.url, { verify: true, ca: TEST_CERTIFICATE });
    expect(trusted.body).toBe(secure.body);
    expect((await get(`${origins.main}${SCRAPE_PATHS.secure}`)).status).toBe(404);
    expect((await get(`${origins.tls}${SCRAPE_PATHS.article}`)).status).toBe(404);
    expect(() => scrapePage({ main: origins.main, external: origins.external }, 'secure')).toThrow(RangeError);
    expect(scrapePages({ main: origins.main, external: origins.external }).some((p) => p.url.includes('secure'))).toBe(false);
  });

  it('the PDF is well formed: every cross-reference points at its object, and pdf.js (unpdf) reads its two lines', async () => {
    const pdf = (await get(scrapePage(origins, 'pdf').url)).body;
    expect(pdf).toMatch(/^%PDF-1\.4\n/);
    expect(pdf).toMatch(/^[\x20-\x7e\n]*$/);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 5)).toBe('xref\n');
    const entries = pdf.slice(startxref).split('\n').slice(2, 8);
    expect(entries[0]).toBe('0000000000 65535 f ');
    entries.slice(1).forEach((entry, i) => {
      expect(entry).toMatch(/^\d{10} 00000 n $/);
      expect(pdf.slice(Number(entry.slice(0, 10))).startsWith(`${i + 1} 0 obj\n`)).toBe(true);
    });
    const stream = /<< \/Length (\d+) >>\nstream\n([^]*?)\nendstream/.exec(pdf)!;
    expect(stream[2]!.length).toBe(Number(stream[1]));
    const shown = [...stream[2]!.matchAll(/\(([^)]*)\) Tj/g)].map((m) => m[1]);
    expect(shown).toEqual(scrapePage(origins, 'pdf').texts.map((t) => t.text));
    const read = await extractText(await getDocumentProxy(new Uint8Array(Buffer.from(pdf, 'latin1')), { verbosity: 0 }), {
      mergePages: true,
    });
    expect(read.text.split('\n')).toEqual(scrapePage(origins, 'pdf').texts.map((t) => t.text));
  });
});

describe('what the oracle expects of the served pages holds for a scrape done the service’s way (test/support/serviceScrape.ts)', () => {
  const recordOf = (model: ScrapePageModel, got: Got, options: Record<string, unknown>) =>
    serviceRecord({ url: model.url, status: got.status, title: model.title!, html: got.body }, options);

  it('the headers page, asked for with the headers given and a mobile browser’s user agent', async () => {
    const model = scrapePage(origins, 'headers');
    const options = {
      headers: { 'X-Crawlspec-Probe': 'probe 1' },
      mobile: true,
      location: { languages: ['fr-CH'] },
      formats: ['markdown', 'rawHtml'],
    };
    const agent = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36';
    const sent = await get(model.url, {
      headers: { 'X-Crawlspec-Probe': 'probe 1', 'User-Agent': agent, 'Accept-Language': 'fr-CH, fr;q=0.9' },
    });
    const findings = judgeScrapeRecord(scrapeExpectation(model, { version: 'v2', options }), recordOf(model, sent, options));
    expect(findings.filter((f) => f.outcome !== 'holds').map((f) => `${f.outcome} ${f.constraint.id}: ${f.seen}`)).toEqual([]);
    // The header and the user agent in markdown and raw HTML (4), the language (1), and the page returned with mobile and a location (2).
    expect(findings.filter((f) => ['headers', 'mobile', 'location'].includes(f.constraint.option)).length).toBe(8);
    // Without the header, or with a desktop browser's user agent, the page shows it.
    const plain = await get(model.url, { headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' } });
    const wrong = violations(judgeScrapeRecord(scrapeExpectation(model, { version: 'v2', options }), recordOf(model, plain, options)));
    expect(new Set(wrong.map((f) => `${f.level} ${f.constraint.option}`))).toEqual(
      new Set(['interface headers', 'service mobile', 'service location']),
    );
  });

  it('the counter, scraped twice: fetched again for v1’s maxAge 0; the first answer again for v2’s two days', async () => {
    const model = { ...scrapePage(origins, 'counter'), url: `${scrapePage(origins, 'counter').url}?pair=1` };
    const first = recordOf(model, await get(model.url), {});
    const count = fetchCountOf(first)!;
    const again = recordOf(model, await get(model.url), {});
    const judged = (version: 'v1' | 'v2', record: Record<string, unknown>) =>
      judgeScrapeRecord(scrapeExpectation(model, { version, options: {}, earlier: { options: {}, count, ageMs: 1000 } }), record).find(
        (f) => f.constraint.kind.endsWith('etchedAgain'),
      )!;
    expect(judged('v1', again)).toMatchObject({ outcome: 'holds', level: 'interface' });
    expect(judged('v1', first)).toMatchObject({ outcome: 'violated', level: 'interface' });
    expect(judged('v2', first)).toMatchObject({ outcome: 'holds', level: 'service' });
    expect(judged('v2', again)).toMatchObject({ outcome: 'violated', level: 'service' });
  });
});

describe('beside the crawl site, and in a static copy', () => {
  it('no crawl page links to a scrape page, nor does the sitemap list one: the crawl oracle’s site is unchanged', async () => {
    const model = testSiteModel(origins);
    expect(model.pages.some((p) => p.url.includes('/scrape/'))).toBe(false);
    expect(model.pages.flatMap((p) => p.links).some((l) => l.includes('/scrape/'))).toBe(false);
    const listed = (await get(`${origins.main}/sitemaps/pages.xml`)).body;
    expect(listed).not.toContain('/scrape/');
  });

  it('a copy holds the pages a static host can serve, byte for byte, and SERVING.md names the others with why', async () => {
    const files = siteFiles(origins);
    for (const name of ['article', 'image', 'pdf'] as const) {
      const model = scrapePage(origins, name);
      expect(files.get(`main${SCRAPE_PATHS[name]}`), name).toBe((await get(model.url)).body);
    }
    for (const { path, why } of COPY_MISSING) {
      expect(files.has(`main${path}`), path).toBe(false);
      expect(files.get('SERVING.md')).toContain(`\`${path}\` (${why})`);
    }
    expect(COPY_MISSING.map((m) => m.path).sort()).toEqual(
      scrapePages(origins)
        .filter((p) => p.dynamic !== undefined || p.status !== 200)
        .map((p) => new URL(p.url).pathname)
        .sort(),
    );
  });
});
