/**
 * How the reference server fetches pages, and what it never does: which hosts it reaches (loopback, what
 * `allowFetchHost` and `resolveHosts` add) and at which addresses (the resolved one is checked), and the
 * bounds of every fetch (size, time, redirects, fetches in flight per job and in all), through its HTTP
 * interface against a site on 127.0.0.1 that misbehaves on purpose. Also: a status of 400 and more is a page
 * with that status, a page that cannot be read is an error, a cancelled job or a closed app stops fetching at
 * once. Nothing here connects anywhere but 127.0.0.1; the one address that is not loopback is 192.0.2.1
 * (TEST-NET-1, never routed), and the server must refuse it before connecting.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../schemas/validate.js';
import { createReferenceApp, type InMemoryReferenceApp } from '../scripts/server/app.js';
import { FetchGate, MAX_FETCHES_IN_FLIGHT, MAX_FETCHES_PER_ORIGIN, MAX_PAGE_BYTES, MAX_REDIRECTS } from '../scripts/server/fetcher.js';
import { listen, type Listening } from '../scripts/server/http.js';
import { MAX_JOB_FETCHES_IN_FLIGHT } from '../scripts/server/jobPages.js';
import { BatchSource, MAX_PAGES_PER_JOB } from '../scripts/server/pageSource.js';
import { createReach, RefusedAddressError } from '../scripts/server/reach.js';
import { untilEnded } from './support/untilEnded.js';

/** A safety net on every request and every wait: far past what a loaded machine needs. */
const TIMEOUT_MS = 60_000;
/** The Content-Type a start must carry. */
const JSON_TYPE = { 'content-type': 'application/json' };
/** The hostile site's host (on any port): a server fetches from no other loopback port unless allowed. */
const onSite = (host: string) => host === '127.0.0.1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A site on 127.0.0.1 whose pages misbehave, counting what it is asked and what it holds open. */
class HostileSite {
  server!: Server;
  origin = '';
  /** Requests by path. */
  readonly asked = new Map<string, number>();
  /** Requests to `/hang` not yet closed by the client, the most at once, and those closed. */
  hanging = 0;
  mostHanging = 0;
  hangsClosed = 0;
  readonly hostHeaders: string[] = [];

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.#answer(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  #answer(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '/').split('?', 1)[0]!;
    this.asked.set(path, (this.asked.get(path) ?? 0) + 1);
    this.hostHeaders.push(request.headers.host ?? '');
    const html = (status: number, body: string): void =>
      void response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const xml = (body: string): void =>
      void response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?>${body}`);
    const index = (...files: string[]) =>
      xml(`<sitemapindex>${files.map((f) => `<sitemap><loc>${this.origin}/sm/${f}</loc></sitemap>`).join('')}</sitemapindex>`);
    const urlset = (...locs: string[]) => xml(`<urlset>${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`);
    switch (path) {
      case '/robots.txt':
        return void response
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`Sitemap: ${this.origin}/sm/index0.xml\nSitemap: ${this.origin}/sm/weird.xml\n`);
      case '/sitemap.xml':
        return html(404, 'none');
      case '/sm/index0.xml': // itself, a scheme-less address, then the next level
        return xml(
          `<sitemapindex><sitemap><loc>${this.origin}/sm/index0.xml</loc></sitemap><sitemap><loc>${this.origin.slice('http://'.length)}/sm/pages2.xml</loc></sitemap>` +
            `<sitemap><loc>${this.origin}/sm/index1.xml</loc></sitemap></sitemapindex>`,
        );
      case '/sm/index1.xml':
        return index('index2.xml', 'pages1.xml');
      case '/sm/index2.xml':
        return index('index3.xml', 'pages2.xml');
      case '/sm/index3.xml':
        return index('pages3.xml');
      case '/sm/pages1.xml':
        return urlset(`${this.origin}/p1.html`);
      case '/sm/pages2.xml':
        return urlset(`${this.origin}/p2.html`);
      case '/sm/weird.xml':
        return xml(
          `<urlset><url><loc>not a url</loc></url><url><loc>example.com/x</loc></url><url><loc>ftp://127.0.0.1/f</loc></url>` +
            `<url><loc> ${this.origin}/w.html </loc><image:image><image:loc>${this.origin}/img.png</image:loc></image:image></url></urlset>`,
        );
      case '/fan':
        return html(200, Array.from({ length: 1500 }, (_, i) => `<a href="/fan/${i}">${i}</a>`).join(''));
      case '/big':
        return html(200, `<p>${'x'.repeat(MAX_PAGE_BYTES)}</p>`);
      case '/bomb': // 64 MiB of spaces, gzipped to a few dozen KiB
        response
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.alloc(64 * 1024 * 1024, 32)));
        return;
      case '/gzipped':
        response
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          .end(gzipSync('<title>Zipped</title><p>small</p>'));
        return;
      case '/loop':
        return void response.writeHead(302, { location: '/loop' }).end();
      case '/away':
        return void response.writeHead(301, { location: 'http://example.com/elsewhere' }).end();
      case '/text':
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end('Plain <text>, line one.\nLine two.');
      case '/image':
        return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case '/missing':
        return html(404, '<title>Not here</title><p>Nothing at this address.</p>');
      case '/hang':
        this.hanging += 1;
        this.mostHanging = Math.max(this.mostHanging, this.hanging);
        request.socket.once('close', () => {
          this.hanging -= 1;
          this.hangsClosed += 1;
        });
        return; // never answered
      default:
        return html(200, `<title>Page ${path}</title><p>A page.</p>`);
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const site = new HostileSite();
/** Another origin (another port): the fetch gate bounds each origin apart. */
const other = new HostileSite();
let app: InMemoryReferenceApp;
let server: Listening;

beforeAll(async () => {
  await site.start();
  await other.start();
  let base = '';
  app = createReferenceApp({
    auth: 'none',
    publicUrl: () => base,
    pageIntervalMs: 1,
    // The hostile site's 127.0.0.1 (on its port: any), besides the names; no other loopback port is fetched.
    allowFetchHost: (host) => host === 'allowed.example.com' || host === 'rebound.example.com' || host === '127.0.0.1',
    resolveHosts: { 'allowed.example.com': '127.0.0.1', 'rebound.example.com': '192.0.2.1' },
  });
  server = await listen(app);
  base = server.url;
});

afterAll(async () => {
  await server?.close();
  app?.close();
  await site.close();
  await other.close();
});

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(path.startsWith('http') ? path : `${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return response.json();
}

/** A v2 batch of `urls`, to its end: its pages and errors. */
async function batch(urls: string[], options: Record<string, unknown> = {}): Promise<{ status: any; errors: any[] }> {
  const started = await call('POST', '/v2/batch/scrape', { urls, ...options });
  const status = await untilEnded(() => call('GET', started.url), `batch ${urls.join(' ')}`, { timeoutMs: TIMEOUT_MS });
  for (const page of status.data) expect(validate('v2/Document', page).valid).toBe(true);
  return { status, errors: (await call('GET', `${started.url}/errors`)).errors };
}

describe('which hosts and addresses', () => {
  it('reaches loopback hosts, allowed hosts and mapped names only, and connects to allowed addresses only', async () => {
    const reach = createReach({
      allow: (host) => host === 'intranet.test',
      resolveHosts: { 'mapped.test': '127.0.0.1', 'rebound.test': '192.0.2.1' },
    });
    for (const url of [
      'http://127.0.0.1/',
      'http://127.9.9.9:8/',
      'http://[::1]/',
      'http://localhost/',
      'http://mapped.test/',
      'http://intranet.test/',
    ])
      expect(reach.reachable(new URL(url)), url).toBe(true);
    for (const url of ['http://example.com/', 'http://10.0.0.1/', 'http://[::2]/', 'ftp://127.0.0.1/', 'http://127.0.0.1.example.com/'])
      expect(reach.reachable(new URL(url)), url).toBe(false);
    expect(reach.addressRefusal(new URL('http://127.0.0.1/'))).toBeUndefined();
    expect(reach.addressRefusal(new URL('http://192.0.2.1/'))).toMatch(/may not connect/);

    const lookup = (name: string) =>
      new Promise<unknown>((resolve) => reach.lookup(name, { all: true }, (error, addresses) => resolve(error ?? addresses)));
    expect(await lookup('mapped.test')).toEqual([{ address: '127.0.0.1', family: 4 }]);
    // A name that may be fetched, resolving to an address that may not be connected to: refused before any connection.
    const refused = await lookup('rebound.test');
    expect(refused).toBeInstanceOf(RefusedAddressError);
    expect(String(refused)).toContain('rebound.test resolves to 192.0.2.1');
  });

  it('gives a crawl of any other host one synthetic page, and never fetches it', async () => {
    const started = await call('POST', '/v1/crawl', { url: 'https://example.com/some/where', limit: 5 });
    const status = await untilEnded(() => call('GET', started.url), started.url, { timeoutMs: TIMEOUT_MS });
    expect(status).toMatchObject({ status: 'completed', completed: 1 });
    expect(status.data[0].metadata).toMatchObject({
      title: 'Synthetic page for example.com/some/where',
      url: 'https://example.com/some/where',
      statusCode: 200,
    });
  });

  it('fetches an allowed name at its mapped loopback address, with the name in Host', async () => {
    const port = new URL(site.origin).port;
    const { status } = await batch([`http://allowed.example.com:${port}/named`]);
    expect(status.data[0].metadata).toMatchObject({
      title: 'Page /named',
      statusCode: 200,
      url: `http://allowed.example.com:${port}/named`,
    });
    expect(site.hostHeaders).toContain(`allowed.example.com:${port}`);
  });

  it('never connects to an allowed name that resolves outside the allowed addresses (DNS rebinding)', async () => {
    const { status, errors } = await batch(['http://rebound.example.com/x'], { timeout: 1000 });
    expect(status.data).toEqual([]);
    expect(errors).toEqual([
      expect.objectContaining({ code: 'SCRAPE_SITE_ERROR', error: expect.stringContaining('rebound.example.com resolves to 192.0.2.1') }),
    ]);
  });
});

describe('bounds and failures of a fetch', () => {
  it(`cuts a page larger than ${MAX_PAGE_BYTES} bytes, compressed or not: an error, never a page`, async () => {
    const { status, errors } = await batch([`${site.origin}/big`, `${site.origin}/bomb`, `${site.origin}/gzipped`]);
    expect(status.data.map((d: any) => d.metadata.title)).toEqual(['Zipped']);
    expect(errors.map((e: any) => [e.url, e.code])).toEqual([
      [`${site.origin}/big`, 'SCRAPE_SITE_ERROR'],
      [`${site.origin}/bomb`, 'SCRAPE_SITE_ERROR'],
    ]);
    for (const error of errors) expect(error.error).toMatch(/is larger than \d+ bytes; it was cut off$/);
  });

  it('gives up on a page that does not answer within the time limit: SCRAPE_TIMEOUT', async () => {
    const { errors } = await batch([`${site.origin}/hang`], { timeout: 1000 });
    expect(errors).toEqual([
      expect.objectContaining({ code: 'SCRAPE_TIMEOUT', error: `${site.origin}/hang did not answer within 1000 ms` }),
    ]);
  });

  it(`follows at most ${MAX_REDIRECTS} redirects, and none to a host it may not fetch from`, async () => {
    const before = site.asked.get('/loop') ?? 0;
    const { status, errors } = await batch([`${site.origin}/loop`, `${site.origin}/away`]);
    expect(status.data).toEqual([]);
    expect((site.asked.get('/loop') ?? 0) - before).toBe(MAX_REDIRECTS + 1);
    expect(errors.map((e: any) => e.error)).toEqual([
      `${site.origin}/loop redirects more than ${MAX_REDIRECTS} times`,
      `${site.origin}/away redirects to http://example.com/elsewhere, on a host this server may not fetch from`,
    ]);
  });

  it('makes a page of any status, and of text; refuses what is neither HTML nor text', async () => {
    const { status, errors } = await batch([`${site.origin}/missing`, `${site.origin}/text`, `${site.origin}/image`], {
      formats: ['markdown', 'html'],
    });
    const [missing, text] = status.data;
    expect(missing.metadata).toMatchObject({ statusCode: 404, title: 'Not here' });
    expect(missing.markdown).toContain('Nothing at this address.');
    expect(text.metadata).toMatchObject({ statusCode: 200, contentType: 'text/plain' });
    expect(text.markdown).toContain('Plain <text>, line one.');
    expect(text.html).toBe('<pre>Plain &lt;text&gt;, line one.\nLine two.</pre>');
    expect(errors).toEqual([expect.objectContaining({ url: `${site.origin}/image`, code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' })]);
  });

  it('refuses a connection it cannot make: SCRAPE_SITE_ERROR with what happened', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { errors } = await batch([`http://127.0.0.1:${port}/`]);
    expect(errors).toEqual([
      expect.objectContaining({ code: 'SCRAPE_SITE_ERROR', error: `the connection to 127.0.0.1:${port} was refused (ECONNREFUSED)` }),
    ]);
  });
});

describe('sitemaps', () => {
  it('reads indexes two levels down, each file once, only absolute web addresses, and pages only from <url><loc>', async () => {
    const before = new Map(site.asked);
    const started = await call('POST', '/v2/crawl', { url: `${site.origin}/`, sitemap: 'only', crawlEntireDomain: true });
    const status = await untilEnded(() => call('GET', started.url), started.url, { timeoutMs: TIMEOUT_MS });
    expect(status.status).toBe('completed');
    expect(status.data.map((d: any) => d.metadata.url).sort()).toEqual([
      `${site.origin}/`,
      `${site.origin}/p1.html`,
      `${site.origin}/w.html`,
    ]);
    const asked = (path: string) => (site.asked.get(path) ?? 0) - (before.get(path) ?? 0);
    for (const file of ['index0', 'index1', 'index2', 'pages1', 'weird']) expect(asked(`/sm/${file}.xml`), file).toBe(1);
    for (const file of ['index3', 'pages2', 'pages3']) expect(asked(`/sm/${file}.xml`), file).toBe(0);
    expect(asked('/img.png')).toBe(0);
  });
});

describe('fetches in flight', () => {
  const hangs = (n: number, at = site) => Array.from({ length: n }, (_, i) => `${at.origin}/hang?${i}`);
  const until = async (condition: () => boolean) => {
    for (const deadline = Date.now() + TIMEOUT_MS; !condition();) {
      if (Date.now() > deadline) throw new Error(`${condition.toString()}: not within ${TIMEOUT_MS / 1000} s`);
      await sleep(10);
    }
  };
  /**
   * Lets every job of the server tick many times: a batch of 20 synthetic pages (made one a tick, never fetched)
   * started now has ended, and the jobs' ticks, on the same interval, came as often meanwhile.
   */
  const manyTicks = async () => {
    const probe = await call('POST', '/v2/batch/scrape', { urls: Array.from({ length: 20 }, (_, i) => `https://example.com/tick/${i}`) });
    await untilEnded(() => call('GET', probe.url), 'the probe batch', { timeoutMs: TIMEOUT_MS });
  };

  it(`at most ${MAX_FETCHES_PER_ORIGIN} to one origin, ${MAX_JOB_FETCHES_IN_FLIGHT} per job and ${MAX_FETCHES_IN_FLIGHT} in all; a cancel aborts a job's fetches at once`, async () => {
    site.mostHanging = 0;
    other.mostHanging = 0;
    const jobs = [];
    for (let i = 0; i < 3; i++) jobs.push(await call('POST', '/v2/batch/scrape', { urls: hangs(20), maxConcurrency: 100 }));
    await until(() => site.hanging >= MAX_FETCHES_PER_ORIGIN);
    for (let i = 0; i < 3; i++) jobs.push(await call('POST', '/v2/batch/scrape', { urls: hangs(20, other), maxConcurrency: 100 }));
    await until(() => site.hanging + other.hanging >= MAX_FETCHES_IN_FLIGHT);
    await manyTicks();
    expect([site.mostHanging, other.mostHanging]).toEqual([MAX_FETCHES_PER_ORIGIN, MAX_FETCHES_PER_ORIGIN]);
    const first = await call('GET', jobs[0].url);
    expect(first).toMatchObject({ status: 'scraping', completed: 0, total: 20 });

    for (const job of jobs) expect(await call('DELETE', job.url)).toEqual({ status: 'cancelled' });
    await until(() => site.hanging === 0 && other.hanging === 0);
    site.mostHanging = 0;
    other.mostHanging = 0;
    // One job, two origins: its own bound.
    const alone = await call('POST', '/v2/batch/scrape', { urls: [...hangs(10), ...hangs(10, other)].sort(), maxConcurrency: 100 });
    await until(() => site.hanging + other.hanging >= MAX_JOB_FETCHES_IN_FLIGHT);
    await manyTicks();
    expect(site.hanging + other.hanging).toBe(MAX_JOB_FETCHES_IN_FLIGHT);
    await call('DELETE', alone.url);
    await until(() => site.hanging === 0 && other.hanging === 0);
  });

  it('a site that never answers cannot hold the places another job needs (issue 22, finding 6)', async () => {
    // Six jobs of a site that never answers, each with as many pages in flight as a job may have.
    const stuck = [];
    for (let i = 0; i < 6; i++) stuck.push(await call('POST', '/v2/batch/scrape', { urls: hangs(20), maxConcurrency: 8 }));
    await until(() => site.hanging >= MAX_FETCHES_PER_ORIGIN);
    const closedBefore = site.hangsClosed;
    const quick = await call('POST', '/v2/batch/scrape', {
      urls: Array.from({ length: 10 }, (_, i) => `${other.origin}/page/${i}`),
      maxConcurrency: 10,
    });
    const status = await untilEnded(() => call('GET', quick.url), quick.url, { timeoutMs: TIMEOUT_MS });
    expect(status).toMatchObject({ status: 'completed', completed: 10 });
    // Its pages did not wait for a fetch of the stuck site to give its place up (each waits out the 10 s limit).
    expect(site.hangsClosed).toBe(closedBefore);
    expect(site.hanging).toBe(MAX_FETCHES_PER_ORIGIN);
    for (const job of stuck) await call('DELETE', job.url);
    await until(() => site.hanging === 0);
  });

  it('an expired job stops fetching', async () => {
    let base = '';
    // Its clock stands still until the fetches are in flight, then moves past the job's time to live.
    let clock = Date.now();
    const expiring = createReferenceApp({
      auth: 'none',
      publicUrl: () => base,
      pageIntervalMs: 1,
      jobTtlMs: 500,
      allowFetchHost: onSite,
      now: () => clock,
    });
    const listening = await listen(expiring);
    base = listening.url;
    try {
      await fetch(`${base}/v2/batch/scrape`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ urls: hangs(2), maxConcurrency: 2 }),
      });
      await until(() => site.hanging === 2);
      clock += 500;
      await until(() => site.hanging === 0); // the sweep (every second at the least) drops the job and aborts its fetches
      expect(expiring.stats().jobs).toBe(0);
    } finally {
      await listening.close();
      expiring.close();
    }
  });

  it(`a job fetches at most ${MAX_PAGES_PER_JOB} pages: a crawl ends there, a batch does not fetch the rest`, async () => {
    const started = await call('POST', '/v2/crawl', { url: `${site.origin}/fan`, limit: 5000, maxConcurrency: 8, sitemap: 'skip' });
    const status = await untilEnded(() => call('GET', started.url), started.url, { timeoutMs: 60_000, everyMs: 50 });
    expect(status).toMatchObject({ status: 'completed', completed: MAX_PAGES_PER_JOB, total: MAX_PAGES_PER_JOB });

    const source = new BatchSource(
      ['https://example.com/synthetic', ...Array.from({ length: MAX_PAGES_PER_JOB + 1 }, (_, i) => `${site.origin}/${i}`)],
      (url) => url.hostname === '127.0.0.1',
    );
    const tasks = Array.from({ length: MAX_PAGES_PER_JOB + 2 }, () => source.next()!);
    expect(tasks.filter((t) => t.overCap).map((t) => t.url)).toEqual([`${site.origin}/${MAX_PAGES_PER_JOB}`]);
    expect(source.next()).toBeUndefined();
  });

  it('close() aborts every fetch of every job', async () => {
    let base = '';
    const other = createReferenceApp({ auth: 'none', publicUrl: () => base, pageIntervalMs: 1, allowFetchHost: onSite });
    const listening = await listen(other);
    base = listening.url;
    try {
      await fetch(`${base}/v2/batch/scrape`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ urls: hangs(3), maxConcurrency: 3 }),
      });
      await until(() => site.hanging === 3);
      other.close();
      await until(() => site.hanging === 0);
    } finally {
      await listening.close();
      other.close();
    }
  });

  it('the gate hands places out in order, and a waiter whose signal aborts leaves the queue', async () => {
    const gate = new FetchGate(1);
    const first = await gate.acquire(new AbortController().signal);
    const aborted = new AbortController();
    const leaving = gate.acquire(aborted.signal);
    const waiting = gate.acquire(new AbortController().signal);
    aborted.abort();
    await expect(leaving).rejects.toBeDefined();
    let granted = false;
    void waiting.then(() => (granted = true));
    await sleep(10);
    expect(granted).toBe(false);
    first();
    first(); // a second release gives nothing back
    (await waiting)();
    const again = await gate.acquire(new AbortController().signal);
    const third = gate.acquire(new AbortController().signal);
    let thirdGranted = false;
    void third.then(() => (thirdGranted = true));
    await sleep(10);
    expect(thirdGranted).toBe(false);
    again();
    (await third)();
  });
});
