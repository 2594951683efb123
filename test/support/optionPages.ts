/**
 * Small pages that show what a scrape option does, served on loopback (an HTTP site, and the same routes over
 * HTTPS with the test site's self-signed certificate, scripts/site/testCertificate.ts), and the reference
 * server scraping them (its API answered in process), for test/scrapeOptions.test.ts:
 *
 *   - `/chrome`: header, navigation, aside, footer and a `.sidebar` around a main region with a heading,
 *     elements selectable by tag, class and id, a base64 image and links;
 *   - `/echo`: the request headers it received, one line each (`echoed`);
 *   - `/count`: how many times its address (path and query) was fetched;
 *   - `/slow`: answers `SLOW_MS` after it is asked;
 *   - `/doc.pdf` (a PDF of `TEXT.pdf`), `/broken.pdf` (served as a PDF, and none), `/tls`, `/missing` (404),
 *     `/moved` (302 to `/chrome`).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createReferenceApp, type AppRequest, type ReferenceApp } from '../../scripts/server/app.js';
import { TEST_CERTIFICATE, TEST_CERTIFICATE_KEY } from '../../scripts/site/testCertificate.js';
import { pdfDocument } from '../../scripts/site/pdfDocument.js';
import { untilEnded } from './untilEnded.js';

export type Version = 'v1' | 'v2';
export type Kind = 'batch' | 'crawl';
export type Options = Record<string, unknown>;
export type PageRecord = { markdown?: string; html?: string; rawHtml?: string; links?: string[]; metadata: Record<string, unknown> };
/** What one scrape of a page gave: its record, or the error its job listed for it. */
export type Outcome = { readonly record: PageRecord } | { readonly error: { readonly code?: string; readonly error: string } };

/** The formats every scrape asks for. */
const FORMATS = ['markdown', 'html', 'rawHtml', 'links'];
const TIMEOUT_MS = 60_000;

export const TEXT = {
  header: 'Header sentence of the page furniture.',
  nav: 'Navigation link text',
  aside: 'Aside sentence beside the content.',
  sidebar: 'Sidebar sentence by class.',
  footer: 'Footer sentence at the end.',
  heading: 'Main heading',
  main: 'Main sentence of the content.',
  section: 'Section sentence inside a section.',
  note: 'Note sentence with a class.',
  key: 'Key sentence with an id.',
  pdf: 'Known sentence of the PDF.',
  tls: 'Sentence served over TLS.',
  slow: 'Sentence of the slow page.',
};
export const DOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Header, navigation, aside and footer (and a `.sidebar`, service level) around a main region with a heading, selectable elements, a base64 image and links. */
export const CHROME = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Chrome and main</title></head>
<body>
<header><p>${TEXT.header}</p><nav><a href="/nav-target">${TEXT.nav}</a></nav></header>
<aside><p>${TEXT.aside}</p></aside>
<main>
<h1>${TEXT.heading}</h1>
<p>${TEXT.main}</p>
<section><p>${TEXT.section}</p></section>
<p class="note">${TEXT.note}</p>
<p id="key">${TEXT.key}</p>
<p><img alt="A red dot" src="data:image/png;base64,${DOT}"></p>
<p><a href="relative.html">Relative link</a> <a href="https://other.example/page">Other site link</a> <a href="#top">Fragment</a></p>
</main>
<div class="sidebar"><p>${TEXT.sidebar}</p></div>
<footer><p>${TEXT.footer}</p></footer>
</body></html>`;

export const PDF = Buffer.from(pdfDocument([TEXT.pdf]), 'latin1');
/** How late the slow page answers: well past a `timeout` of `SHORT_TIMEOUT_MS`, well within the server's own bound (10 s). */
export const SLOW_MS = 2_500;
export const SHORT_TIMEOUT_MS = 1_000;

const html = (title: string, main: string): string =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><main>${main}</main></body></html>`;

/** The line the echo page shows for a header it received (read in the record's html: markdown escapes some characters of user agents). */
export const echoed = (name: string, value: string): string => `Header ${name}: ${value}`;

/** Fetches of each address (path and query) of the counting page. */
const counts = new Map<string, number>();

function route(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://site');
  const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': type, ...headers });
    response.end(body);
  };
  const page = (body: string, status = 200) => send(status, 'text/html; charset=utf-8', body);
  switch (url.pathname) {
    case '/chrome':
      return page(CHROME);
    case '/echo': {
      const lines = Object.entries(request.headers).map(([name, value]) => `<p>${echoed(name, String(value))}</p>`);
      return page(html('Echo', lines.join('')));
    }
    case '/count': {
      const key = `${url.pathname}${url.search}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return page(html('Count', `<p>Fetch number ${count}.</p>`));
    }
    case '/slow': {
      const timer = setTimeout(() => page(html('Slow', `<p>${TEXT.slow}</p>`)), SLOW_MS);
      response.on('close', () => clearTimeout(timer));
      return;
    }
    case '/doc.pdf':
      return send(200, 'application/pdf', PDF);
    case '/broken.pdf':
      return send(200, 'application/pdf', '%PDF-1.4 this is no PDF');
    case '/tls':
      return page(html('TLS', `<p>${TEXT.tls}</p>`));
    case '/missing':
      return page(html('Missing', '<p>Not here.</p>'), 404);
    case '/moved':
      return send(302, 'text/plain', 'moved', { location: '/chrome' });
    default:
      return page(html('Not found', '<p>Nothing.</p>'), 404);
  }
}

export interface OptionPages {
  /** `http://127.0.0.1:PORT` */
  readonly site: string;
  /** `https://127.0.0.1:PORT`, with the self-signed certificate. */
  readonly tlsSite: string;
  close(): Promise<void>;
}

/** Serves the pages on loopback, over HTTP and (the same routes) over HTTPS, each on a port of its own. */
export async function serveOptionPages(): Promise<OptionPages> {
  const servers: Server[] = [];
  const serve = async (server: Server): Promise<string> => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  return {
    site: `http://${await serve(createHttpServer(route))}`,
    tlsSite: `https://${await serve(createHttpsServer({ key: TEST_CERTIFICATE_KEY, cert: TEST_CERTIFICATE }, route))}`,
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The server, and the server that ignores an option

/** The reference server (its API answered in process; the pages it fetches over loopback), its starts' scrape options rewritten by `ignore` when given. */
export function referenceServer(ignore?: (options: Options) => Options): ReferenceApp {
  const app = createReferenceApp({
    auth: 'none',
    publicUrl: () => 'http://127.0.0.1:9',
    pageIntervalMs: 1,
    allowFetchHost: (host) => host === '127.0.0.1',
  });
  if (ignore === undefined) return app;
  return {
    close: () => app.close(),
    handle(request: AppRequest) {
      if (request.method !== 'POST') return app.handle(request);
      const body = JSON.parse(request.body) as Options;
      const changed = request.url.endsWith('/crawl')
        ? { ...body, scrapeOptions: ignore((body['scrapeOptions'] as Options | undefined) ?? {}) }
        : { urls: body['urls'], ...ignore(body) };
      return app.handle({ ...request, body: JSON.stringify(changed) });
    },
  };
}

async function call(app: ReferenceApp, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await app.handle({
    method,
    url: path,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? '' : JSON.stringify(body),
  });
  return JSON.parse(answer.body);
}

/** One scrape of `url` with scrape `options`: a batch of that one address, or a crawl of it limited to one page. */
export async function scrape(app: ReferenceApp, version: Version, kind: Kind, url: string, options: Options): Promise<Outcome> {
  const scrapeOptions = { formats: FORMATS, ...options };
  const body =
    kind === 'batch'
      ? { urls: [url], ...scrapeOptions }
      : { url, limit: 1, ...(version === 'v1' ? { ignoreSitemap: true } : { sitemap: 'skip' }), scrapeOptions };
  const path = kind === 'batch' ? `/${version}/batch/scrape` : `/${version}/crawl`;
  const started = await call(app, 'POST', path, body);
  expect(started, JSON.stringify(started)).toMatchObject({ success: true });
  const status = await untilEnded(() => call(app, 'GET', `${path}/${started.id}`), `${path}/${started.id}`, { timeoutMs: TIMEOUT_MS });
  const record = (status.data as PageRecord[])[0];
  if (record !== undefined) return { record };
  const { errors } = await call(app, 'GET', `${path}/${started.id}/errors`);
  return { error: errors[0] ?? { error: `no record and no error (${JSON.stringify(status).slice(0, 300)})` } };
}
