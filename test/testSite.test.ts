/**
 * The kit's test site (scripts/site/): what is served is what the model says (every page, its status, its
 * links, robots.txt and the sitemap index), read over HTTP from the served site by parsing its HTML with
 * htmlparser2; the static copy holds the same pages; the command serves and exports it.
 */
import { request } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSite, type ServedSite } from '../scripts/site/server.js';
import { siteFiles } from '../scripts/site/export.js';
import { testSiteModel, type SiteOrigins } from '../scripts/site/testSite.js';
import { runCli } from './support/runCli.js';

interface Got {
  readonly status: number;
  readonly location?: string;
  readonly body: string;
}

/** A GET of `url`, connecting to the address its host name stands for here (names are served on 127.0.0.1). */
function get(url: string): Promise<Got | 'reset'> {
  const target = new URL(url);
  const address = target.hostname === '127.0.0.2' ? '127.0.0.2' : '127.0.0.1';
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port: target.port, path: `${target.pathname}${target.search}`, headers: { host: target.host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}), body }));
    });
    // A reset is an answer of its own (the /reset page); silence is a failure, not a reset.
    let silent = false;
    req.on('error', () => (silent ? reject(new Error(`${url}: no answer within 60 s`)) : resolve('reset')));
    req.setTimeout(60_000, () => {
      silent = true;
      req.destroy();
    });
    req.end();
  });
}

/** The links of an HTML page, resolved against it, without fragment. */
function linksOf(html: string, base: string): string[] {
  const links: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name !== 'a' || attributes['href'] === undefined || attributes['href'].startsWith('#')) return;
      const url = new URL(attributes['href'], base);
      url.hash = '';
      links.push(url.href);
    },
  });
  parser.write(html);
  parser.end();
  return links;
}

let site: ServedSite;
let origins: SiteOrigins;
beforeAll(async () => {
  site = await serveSite({ host: 'crawlspec.test' });
  origins = site.origins;
});
afterAll(() => site.close());

describe('the served test site is its model', () => {
  it('every page of the model answers with its status, redirect and links', async () => {
    const model = testSiteModel(origins);
    expect(model.pages.length).toBeGreaterThan(20);
    for (const page of model.pages) {
      const got = await get(page.url);
      expect(got, page.url).not.toBe('reset');
      const answer = got as Got;
      expect(answer.status, page.url).toBe(page.status ?? 200);
      if (page.redirectTo !== undefined) {
        expect(new URL(answer.location!, page.url).href).toBe(page.redirectTo);
        continue;
      }
      if ((page.status ?? 200) >= 400) continue;
      expect(new Set(linksOf(answer.body, page.url)), page.url).toEqual(new Set(page.links));
    }
  });

  it('robots.txt disallows /private/ and names the sitemap; the sitemap index leads to the sitemap pages of the model', async () => {
    const robots = (await get(`${origins.main}/robots.txt`)) as Got;
    expect(robots.body).toContain('Disallow: /private/');
    expect(robots.body).toContain(`Sitemap: ${origins.main}/sitemap.xml`);
    const index = (await get(`${origins.main}/sitemap.xml`)) as Got;
    const pagesXml = /<loc>([^<]+)<\/loc>/.exec(index.body)![1]!;
    const listed = [...((await get(pagesXml)) as Got).body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(listed).toEqual(testSiteModel(origins).sitemaps![origins.main]);
  });

  it('the failing address cuts the connection; a host it does not serve gets 421', async () => {
    expect(await get(`${origins.main}/reset`)).toBe('reset');
    expect(((await get(`http://other.test:${new URL(origins.main).port}/`)) as Got).status).toBe(421);
  });
});

describe('the static copy and the command', () => {
  it('holds every page of each part, the redirect rule, and what a host must do', () => {
    const files = siteFiles({ main: 'https://site.example', external: 'https://elsewhere.example' });
    expect(files.get('main/index.html')).toContain('<title>Home</title>');
    expect(files.get('main/docs/guides/deep/index.html')).toContain('<title>Deep</title>');
    expect(files.get('external/elsewhere.html')).toContain('https://site.example/');
    expect(files.get('main/_redirects')).toBe('/moved.html /landing.html 301\n');
    expect(files.get('SERVING.md')).toContain('--behaviour-site https://site.example --behaviour-external https://elsewhere.example');
    expect([...files.keys()].some((f) => f.startsWith('subdomain/'))).toBe(false);
  });

  it('crawlspec site export writes it; a missing --base-url is a usage error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crawlspec-site-'));
    try {
      const run = await runCli(['site', 'export', dir, '--base-url', 'https://site.example/', '--external-url', 'https://elsewhere.example'], '', 30_000);
      expect(run.code, run.stderr).toBe(0);
      expect(await readFile(join(dir, 'main', 'robots.txt'), 'utf8')).toContain('Sitemap: https://site.example/sitemap.xml');
      const missing = await runCli(['site', 'export', dir], '', 30_000);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('site export needs --base-url');
      // Without --external-url, the other site is the base's host under `external.`; an IP address needs it given.
      const named = await runCli(['site', 'export', join(dir, 'named'), '--base-url', 'https://site.example:8443/'], '', 30_000);
      expect(named.code, named.stderr).toBe(0);
      expect(await readFile(join(dir, 'named', 'SERVING.md'), 'utf8')).toContain('--behaviour-external https://external.site.example:8443');
      const ip = ['--base-url', 'http://127.0.0.1:8080', '--external-url', 'http://127.0.0.2:8080'];
      const byAddress = await runCli(['site', 'export', join(dir, 'ip'), ...ip], '', 30_000);
      expect(byAddress.code, byAddress.stderr).toBe(0);
      expect(await readFile(join(dir, 'ip', 'SERVING.md'), 'utf8')).toContain('--behaviour-external http://127.0.0.2:8080');
      // A folder under /proc: Node's recursive mkdir never returned there; each folder is made on its own, and fails.
      const proc = await runCli(['site', 'export', '/proc/crawlspec-site/x', '--base-url', 'https://site.example/'], '', 30_000);
      expect(proc.code).toBe(2);
      expect(proc.stderr).toMatch(/^crawlspec: cannot write the site to "\/proc\/crawlspec-site\/x": (ENOENT|EACCES)\b.*mkdir '\/proc\/crawlspec-site'\n$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
