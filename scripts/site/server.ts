/**
 * Serving the test site (testSite.ts) over HTTP: one port, on 127.0.0.1 (the main site, and its subdomain when
 * it has a host name) and 127.0.0.2 (the other site), told apart by the `Host` a request names. Each answer is
 * the site's; `/reset` has its connection cut. GET and HEAD only; every connection is closed within bounded
 * time (`requestTimeout`), and `close()` stops everything.
 *
 * The scrape pages (scrapePages.ts) are answered per request: the headers page shows the request's headers,
 * the counter counts (for this server's life), the slow page answers late (a pending answer is dropped on
 * `close()`). The page served over TLS has an origin of its own, `https://127.0.0.1:<another port>`, with the
 * committed self-signed test certificate (testCertificate.ts).
 *
 * Loopback is a whole network on Linux (127.0.0.0/8): 127.0.0.2 needs no setup. With `host`, the main site
 * answers under that host name and its subdomain under `sub.<host>`; the name must resolve to 127.0.0.1 for
 * whoever crawls it (a hosts file, a DNS entry, or the reference server's `resolveHosts`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { FetchCounter, scrapeAnswer } from './scrapePages.js';
import { TEST_CERTIFICATE, TEST_CERTIFICATE_KEY } from './testCertificate.js';
import { siteAnswer, type SiteAnswer, type SiteOrigins, type SitePart } from './testSite.js';

export interface ServedSite {
  readonly origins: SiteOrigins;
  close(): Promise<void>;
}

export interface ServeSiteOptions {
  /** A host name for the main site (its subdomain is `sub.<host>`); without it, the main site is 127.0.0.1. */
  readonly host?: string;
  /** The port (0, the default, picks one); one that cannot be listened on is a SiteNotServed error. */
  readonly port?: number;
}

const MAIN_ADDRESS = '127.0.0.1';

/**
 * The host name the kit serves its test site under when its target is the built-in reference server, which it
 * tells to resolve the name (and `sub.` of it) to loopback, so that the subdomain checks run with no DNS
 * set up. Under the reserved `example.com` (RFC 2606), whose `com` the validators take as a public suffix:
 * nothing resolves it to this machine but that mapping.
 */
export const BUILT_IN_SITE_HOST = 'crawlspec.example.com';

/** `host` and its subdomain `sub.<host>`, both on the loopback address the site is served on (a `resolveHosts` table). */
export const siteNamesOnLoopback = (host: string): Readonly<Record<string, string>> => ({
  [host]: MAIN_ADDRESS,
  [`sub.${host}`]: MAIN_ADDRESS,
});
const EXTERNAL_ADDRESS = '127.0.0.2';

/**
 * Whether a reference server may fetch from `host` for the test site, on every port (the site's is known only
 * once it is served): the loopback addresses it is served on. With `siteNamesOnLoopback`, what a reference
 * server crawling the site is given (`allowFetchHost`): it fetches from no other loopback port unless allowed.
 */
export const isSiteAddress = (host: string): boolean => host === MAIN_ADDRESS || host === EXTERNAL_ADDRESS;
const TIMEOUT_MS = 10_000;

/** The site could not be served where it was asked to be: the port is in use, or needs privileges. */
export class SiteNotServed extends Error {
  constructor(
    readonly port: number,
    readonly code: string | undefined,
  ) {
    const why =
      code === 'EADDRINUSE'
        ? 'the port is in use'
        : code === 'EACCES' || code === 'EPERM'
          ? 'not permitted (ports below 1024 need privileges)'
          : 'it could not be listened on';
    super(
      `cannot serve the test site on ${MAIN_ADDRESS}:${port} and ${EXTERNAL_ADDRESS}:${port}: ${why}${code === undefined ? '' : ` (${code})`}`,
    );
    this.name = 'SiteNotServed';
  }
}

function listen(server: Server, address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Which part of the site a request is for, by the host it names. */
function partOf(request: IncomingMessage, origins: SiteOrigins): SitePart | undefined {
  const named = `http://${request.headers.host ?? ''}`;
  if (named === origins.main) return 'main';
  if (named === origins.external) return 'external';
  if (origins.subdomain !== undefined && named === origins.subdomain) return 'subdomain';
  return undefined;
}

export async function serveSite(options: ServeSiteOptions = {}): Promise<ServedSite> {
  let origins: SiteOrigins | undefined;
  const counter = new FetchCounter();
  const pending = new Set<NodeJS.Timeout>();
  const send = (request: IncomingMessage, response: ServerResponse, answer: SiteAnswer, delayMs = 0) => {
    const write = () => void response.writeHead(answer.status, answer.headers).end(request.method === 'HEAD' ? '' : answer.body);
    if (delayMs === 0) {
      write();
      return;
    }
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!response.destroyed) write();
    }, delayMs);
    pending.add(timer);
  };
  /** A scrape page, if `request` asks for one (`tls`: on the TLS origin); false when it does not. */
  const scrape = (request: IncomingMessage, response: ServerResponse, tls: boolean): boolean => {
    const [path = '/', query] = (request.url ?? '/').split('#', 1)[0]!.split(/\?(.*)/s, 2);
    const fetch = {
      method: request.method ?? 'GET',
      path,
      search: query === undefined ? '' : `?${query}`,
      rawHeaders: request.rawHeaders,
      tls,
    };
    const served = origins === undefined ? undefined : scrapeAnswer(origins, fetch, counter);
    if (served === undefined) return false;
    send(request, response, served.answer, served.delayMs);
    return true;
  };
  const handleTls = (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    if ((request.method === 'GET' || request.method === 'HEAD') && scrape(request, response, true)) return;
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not served here\n');
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const part = origins === undefined ? undefined : partOf(request, origins);
    if (origins === undefined || part === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(part === undefined ? 421 : 405, { 'content-type': 'text/plain; charset=utf-8' }).end('not served here\n');
      return;
    }
    if (part === 'main' && scrape(request, response, false)) return;
    const path = (request.url ?? '/').split(/[?#]/, 1)[0]!;
    const answer = siteAnswer(origins, part, path);
    if (answer === 'reset') {
      request.socket.destroy();
      return;
    }
    send(request, response, answer);
  };
  const configured = (tls = false) => {
    const server = tls ? createTlsServer({ cert: TEST_CERTIFICATE, key: TEST_CERTIFICATE_KEY }, handleTls) : createServer(handle);
    server.requestTimeout = TIMEOUT_MS;
    server.headersTimeout = TIMEOUT_MS;
    server.keepAliveTimeout = 1000;
    return server;
  };
  const servers = [configured(), configured(), configured(true)];
  const close = async () => {
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            if (!server.listening) resolve();
            else server.close(() => resolve());
          }),
      ),
    );
  };
  // The same port on both addresses: the first picks it (unless given), the second takes it; tried again if taken.
  for (let attempt = 0; ; attempt += 1) {
    try {
      const port = await listen(servers[0]!, MAIN_ADDRESS, options.port ?? 0);
      await listen(servers[1]!, EXTERNAL_ADDRESS, port);
      const tlsPort = await listen(servers[2]!, MAIN_ADDRESS, 0);
      const host = options.host ?? MAIN_ADDRESS;
      origins = {
        main: `http://${host}:${port}`,
        external: `http://${EXTERNAL_ADDRESS}:${port}`,
        ...(options.host === undefined ? {} : { subdomain: `http://sub.${options.host}:${port}` }),
        tls: `https://${MAIN_ADDRESS}:${tlsPort}`,
      };
      return { origins, close };
    } catch (error) {
      await close();
      // A port asked for is the caller's to change; a port picked here is tried again (the second address may hold it).
      if (options.port !== undefined && options.port !== 0) throw new SiteNotServed(options.port, (error as { code?: string }).code);
      if (attempt >= 5) throw error;
      servers.splice(0, 3, configured(), configured(), configured(true));
    }
  }
}
