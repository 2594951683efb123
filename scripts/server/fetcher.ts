/**
 * How the reference server gets a page: one bounded GET, redirects followed, from one of three places:
 *
 *   - its own site (the public base URL's origin: `/site/...` and `/robots.txt`, anything else there a 404),
 *     answered in process by `site.ts`, byte for byte what a GET over HTTP answers. In process because the public base URL need not
 *     be reachable from the server itself (`--host 0.0.0.0`, a proxy in front, an app driven through
 *     `handle` with no socket at all), and a server fetching itself would spend its own connections;
 *   - a host `reach.ts` allows (loopback by default), over HTTP with node:http / node:https. node:http
 *     rather than fetch: Node 20 does not expose the Agent of the undici it bundles, and only a custom
 *     `lookup` lets every connection be checked against the allowed addresses (node:http takes one per
 *     request, with no dependency to add);
 *   - any other host: today's synthetic page, made here; the network is never touched.
 *
 * Bounds, per fetch (each a constant below): `FETCH_TIMEOUT_MS` for the whole fetch, redirects included
 * (less when the scrape options' `timeout` says so); `MAX_PAGE_BYTES` of body after decompression (a
 * larger page is cut off and is an error, never a page); `MAX_REDIRECTS` hops, each to a host the server
 * may reach (a redirect elsewhere is an error, never a synthetic page); and at most
 * `MAX_FETCHES_IN_FLIGHT` network fetches at once in the whole server, shared fairly between jobs and
 * origins (`FetchGate`; the others wait their turn, and their time starts when they get it). A fetch
 * aborted by its job (cancel, expiry, close) stops at once: its socket is destroyed. A fetch may ask to be
 * cut at its size limit rather than fail there (`cut`: robots.txt is read up to its bound, as Google's
 * parser reads it).
 *
 * What a page's fetch sends besides the server's own headers (`headers`: a scrape's `headers`, its user agent and
 * languages, `pageRequest.ts`) wins over them, on every hop to the same origin; a hop to another origin drops
 * what was sent for the first one alone (`Authorization`, `Cookie`), as a browser does. TLS certificates are
 * verified unless the fetch says to skip it (`skipTlsVerification`). A PDF's body is kept as bytes (`bytes`),
 * not decoded as text.
 *
 * A failure is a `FetchFailure` with the service's error code (`SCRAPE_TIMEOUT`, `SCRAPE_SITE_ERROR`,
 * `SCRAPE_DNS_RESOLUTION_ERROR`, `SCRAPE_SSL_ERROR`) and a message saying what happened.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { decodedBody } from './contentEncoding.js';
import { escapeHtml, type SiteResponse } from './site.js';
import { RefusedAddressError, type Reach } from './reach.js';
import { isWhatwgUrl } from '../../schemas/shared/whatwgUrl.js';

/** Time for one whole fetch, redirects included, in ms. */
export const FETCH_TIMEOUT_MS = 10_000;
/** Largest page body read, in bytes (after decompression). */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Redirects followed per fetch. */
export const MAX_REDIRECTS = 5;
/** Network fetches in flight at once, in the whole server. */
export const MAX_FETCHES_IN_FLIGHT = 16;
/** Network fetches of one job in flight at once (its pages, robots.txt and sitemaps): half of them. */
export const MAX_FETCHES_PER_JOB = MAX_FETCHES_IN_FLIGHT / 2;
/** Network fetches to one origin (scheme, host and port) in flight at once, whatever the jobs: half of them. */
export const MAX_FETCHES_PER_ORIGIN = MAX_FETCHES_IN_FLIGHT / 2;

/** The user agent of every fetch that names none (`pageRequest.ts` names a mobile one). */
export const USER_AGENT = 'crawlspec-reference-server (+https://crawlspec.dev)';
/** Headers of a fetch's first origin that a hop to another origin does not carry. */
const SAME_ORIGIN_ONLY = new Set(['authorization', 'cookie']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A page as received. */
export interface FetchedPage {
  readonly ok: true;
  /** The address read from, after redirects. */
  readonly url: string;
  readonly status: number;
  /** The `content-type` header ('' when none). */
  readonly contentType: string;
  /** The body as text (a PDF's: as Latin-1, one character a byte). */
  readonly body: string;
  /** A PDF's body (by its content type, or its first bytes `%PDF-`), byte for byte. */
  readonly bytes?: Buffer;
  /** The body was cut at the size limit (only when the fetch asked for it: `cut`). */
  readonly cut?: true;
}

export interface FetchFailure {
  readonly ok: false;
  readonly code: 'SCRAPE_TIMEOUT' | 'SCRAPE_SITE_ERROR' | 'SCRAPE_DNS_RESOLUTION_ERROR' | 'SCRAPE_SSL_ERROR';
  readonly message: string;
}

export type Fetched = FetchedPage | FetchFailure;

export interface FetchOptions {
  /**
   * The job's signal: aborting it stops the fetch (the answer is then a failure nobody reads). It also names
   * the job in the fetch gate: every fetch of one job passes the same signal.
   */
  readonly signal: AbortSignal;
  /** Time limit, in ms; at most `FETCH_TIMEOUT_MS`. */
  readonly timeoutMs?: number;
  /** Body size limit, in bytes; at most `MAX_PAGE_BYTES`. */
  readonly maxBytes?: number;
  /** A body past the limit is cut there (the answer says so), not a failure. */
  readonly cut?: boolean;
  /** Headers sent besides (and over) the server's own, by lower-case name (`pageRequest.ts` says which may be). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Connect over TLS whatever the certificate. Default false: a certificate that does not verify fails the fetch. */
  readonly skipTlsVerification?: boolean;
}

/** Where an address is answered from. */
export type Source = 'own' | 'network' | 'synthetic';

export interface Fetcher {
  sourceOf(url: URL): Source;
  fetch(address: string, options: FetchOptions): Promise<Fetched>;
}

/** A fetch waiting for its place in the gate. */
interface Waiter {
  readonly origin: string;
  readonly grant: () => void;
}

/**
 * The places of network fetches, shared fairly (issue 22, finding 6: one first-come queue let six crawls of a
 * site that never answers hold every place, and another caller's 10-page batch took 48 s instead of 0.23 s):
 * at most `size` fetches at once, at most `perJob` of one job and at most `perOrigin` to one origin. A
 * place that frees goes to the jobs that wait in turn (round robin), to each job's first fetch whose origin
 * is below its bound. So a site that never answers holds at most `perOrigin` places, whoever asks for it,
 * and a job with fetches to make gets its turn among those that wait, whatever the others ask for. Written
 * here (a few dozen lines) because the queue libraries (p-limit, p-queue) have one limit and one order, not
 * per-key bounds with turns between keys.
 */
export class FetchGate {
  readonly #size: number;
  readonly #perJob: number;
  readonly #perOrigin: number;
  #held = 0;
  readonly #byJob = new Map<object, number>();
  readonly #byOrigin = new Map<string, number>();
  /** Jobs with fetches waiting, in turn order (the one served last goes to the end), each with its own, in order. */
  readonly #waiting = new Map<object, Waiter[]>();

  /** Without `perJob` and `perOrigin`, one job or origin may hold every place. */
  constructor(size: number = MAX_FETCHES_IN_FLIGHT, perJob: number = size, perOrigin: number = size) {
    this.#size = size;
    this.#perJob = perJob;
    this.#perOrigin = perOrigin;
  }

  #fits(job: object, origin: string): boolean {
    return this.#held < this.#size && (this.#byJob.get(job) ?? 0) < this.#perJob && (this.#byOrigin.get(origin) ?? 0) < this.#perOrigin;
  }

  #take(job: object, origin: string): () => void {
    this.#held += 1;
    this.#byJob.set(job, (this.#byJob.get(job) ?? 0) + 1);
    this.#byOrigin.set(origin, (this.#byOrigin.get(origin) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= 1;
      const jobCount = this.#byJob.get(job)! - 1;
      if (jobCount === 0) this.#byJob.delete(job);
      else this.#byJob.set(job, jobCount);
      const originCount = this.#byOrigin.get(origin)! - 1;
      if (originCount === 0) this.#byOrigin.delete(origin);
      else this.#byOrigin.set(origin, originCount);
      this.#dispatch();
    };
  }

  /** Gives free places to the jobs that wait, in turn, until none is free or no waiting fetch fits. */
  #dispatch(): void {
    let granted = true;
    while (granted && this.#held < this.#size) {
      granted = false;
      for (const [job, waiters] of this.#waiting) {
        const index = waiters.findIndex((w) => this.#fits(job, w.origin));
        if (index < 0) continue;
        const [waiter] = waiters.splice(index, 1);
        this.#waiting.delete(job);
        if (waiters.length > 0) this.#waiting.set(job, waiters); // its turn has passed: to the end
        waiter!.grant();
        granted = true;
        break;
      }
    }
  }

  /**
   * Waits for a place for a fetch of `job` to `origin` (by default each call is a job of its own, and all go to
   * one origin); the function returned gives it back (once). Rejects when `signal` aborts first.
   */
  acquire(signal: AbortSignal, origin = '', job: object = signal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        origin,
        grant: () => {
          signal.removeEventListener('abort', aborted);
          resolve(this.#take(job, origin));
        },
      };
      const aborted = () => {
        const waiters = this.#waiting.get(job);
        const index = waiters?.indexOf(waiter) ?? -1;
        if (index >= 0) waiters!.splice(index, 1);
        if (waiters?.length === 0) this.#waiting.delete(job);
        reject(signal.reason);
      };
      signal.addEventListener('abort', aborted, { once: true });
      const waiters = this.#waiting.get(job);
      if (waiters === undefined) this.#waiting.set(job, [waiter]);
      else waiters.push(waiter);
      this.#dispatch();
    });
  }
}

/** One answer, before decoding: what a transport gives. */
interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly location: string | undefined;
  readonly body: string | Buffer;
  /** The body was cut at the size limit. */
  readonly cut?: true;
}

class TooLarge extends Error {}

/** The synthetic page of an address the server may not reach: deterministic, without links. */
function syntheticAnswer(url: URL): RawAnswer {
  const title = escapeHtml(`Synthetic page for ${url.host}${url.pathname}`);
  const body =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="${title}."></head>` +
    `<body><main><h1>${title}</h1><p>A synthetic page standing for ${escapeHtml(url.href)}.</p></main></body></html>`;
  return { status: 200, contentType: 'text/html; charset=utf-8', location: undefined, body };
}

const fromSite = (answer: SiteResponse): RawAnswer => ({
  status: answer.status,
  contentType: answer.headers['content-type'] ?? '',
  location: answer.headers['location'],
  body: answer.body,
});

function decompressed(response: IncomingMessage): Readable {
  const body = decodedBody(response);
  if (body === undefined)
    throw new Error(
      `the page uses content-encoding ${String(response.headers['content-encoding']).trim().toLowerCase()}, which is not supported`,
    );
  return body;
}

/** How one GET is made: what it sends besides the server's own headers, and whether it verifies TLS certificates. */
interface GetOptions {
  readonly maxBytes: number;
  readonly cut: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly skipTlsVerification: boolean;
}

/** One GET over the network; the body is read only up to `maxBytes` (past it: cut there with `cut`, else a failure). */
async function networkGet(url: URL, reach: Reach, signal: AbortSignal, options: GetOptions): Promise<RawAnswer> {
  const { maxBytes, cut } = options;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: {
          'user-agent': USER_AGENT,
          accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
          'accept-encoding': 'gzip, deflate, br',
          ...options.headers,
        },
        lookup: reach.lookup,
        signal,
        // One connection per fetch: nothing pooled outlives its job, and every connection is looked up anew.
        agent: false,
        rejectUnauthorized: !options.skipTlsVerification,
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
  try {
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    const contentType = response.headers['content-type'] ?? '';
    if (REDIRECTS.has(status) && location !== undefined) return { status, contentType, location, body: '' };
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of decompressed(response)) {
      const bytes = chunk as Buffer;
      if (size + bytes.length > maxBytes) {
        if (!cut) throw new TooLarge();
        chunks.push(bytes.subarray(0, maxBytes - size));
        return { status, contentType, location, body: Buffer.concat(chunks), cut: true };
      }
      size += bytes.length;
      chunks.push(bytes);
    }
    return { status, contentType, location, body: Buffer.concat(chunks) };
  } finally {
    response.destroy();
  }
}

const PDF_TYPE = /^\s*application\/(?:x-)?pdf\s*(?:;|$)/i;
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/** Whether a body is a PDF: by its content type, or by its first bytes. */
const isPdf = (body: string | Buffer, contentType: string): body is Buffer =>
  typeof body !== 'string' && (PDF_TYPE.test(contentType) || body.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC));

/** The text of a body, in the charset its content type names (UTF-8 by default or when the name is unknown). */
function decode(body: string | Buffer, contentType: string): string {
  if (typeof body === 'string') return body;
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const failure = (code: FetchFailure['code'], message: string): FetchFailure => ({ ok: false, code, message });

/** What went wrong with a network fetch, as the service reports it. */
function classify(error: unknown, url: URL, limits: { timeoutMs: number; maxBytes: number }, timedOut: boolean): FetchFailure {
  if (timedOut) return failure('SCRAPE_TIMEOUT', `${url.href} did not answer within ${limits.timeoutMs} ms`);
  if (error instanceof TooLarge) return failure('SCRAPE_SITE_ERROR', `${url.href} is larger than ${limits.maxBytes} bytes; it was cut off`);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return failure('SCRAPE_DNS_RESOLUTION_ERROR', `${url.hostname} could not be resolved (${code})`);
  if (code === 'ECONNREFUSED') return failure('SCRAPE_SITE_ERROR', `the connection to ${url.host} was refused (ECONNREFUSED)`);
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || message === 'aborted' || message === 'socket hang up')
    return failure('SCRAPE_SITE_ERROR', `the connection to ${url.host} was closed before ${url.href} was read (${code || message})`);
  if (/CERT|TLS|SSL/.test(code)) return failure('SCRAPE_SSL_ERROR', `the TLS connection to ${url.host} failed: ${message}`);
  return failure('SCRAPE_SITE_ERROR', `${url.href} could not be fetched: ${message}`);
}

export interface FetcherOptions {
  readonly reach: Reach;
  /** The server's public base URL (its own site is answered in process). */
  readonly base: () => string;
  /** The answer of the server's own site to a GET of a path (no query). */
  readonly ownSite: (path: string) => SiteResponse;
  readonly gate: FetchGate;
}

export function createFetcher(options: FetcherOptions): Fetcher {
  const { reach, gate } = options;
  const sourceOf = (url: URL): Source => {
    let own: string | undefined;
    try {
      own = new URL(options.base()).origin;
    } catch {
      own = undefined;
    }
    if (url.origin === own) return 'own';
    return reach.reachable(url) ? 'network' : 'synthetic';
  };

  return {
    sourceOf,
    async fetch(address, fetchOptions) {
      const timeoutMs = Math.max(1, Math.min(fetchOptions.timeoutMs ?? FETCH_TIMEOUT_MS, FETCH_TIMEOUT_MS));
      const maxBytes = Math.min(fetchOptions.maxBytes ?? MAX_PAGE_BYTES, MAX_PAGE_BYTES);
      if (!isWhatwgUrl(address)) return failure('SCRAPE_SITE_ERROR', `${address} is no web address`);
      let url = new URL(address);
      url.hash = '';
      /** The place in the gate, held from the first network hop to the end of the fetch. */
      let release: (() => void) | undefined;
      try {
        // The time limit starts once a network fetch has its place: waiting for one is not the site's slowness.
        if (sourceOf(url) === 'network') release = await gate.acquire(fetchOptions.signal, url.origin, fetchOptions.signal);
      } catch {
        return failure('SCRAPE_SITE_ERROR', `the fetch of ${url.href} was stopped before it began`);
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([fetchOptions.signal, timeout]);
      const first = url.origin;
      const given = fetchOptions.headers ?? {};
      const elsewhere = Object.fromEntries(Object.entries(given).filter(([name]) => !SAME_ORIGIN_ONLY.has(name)));
      const fetchOnce = async (at: URL): Promise<RawAnswer> => {
        const source = sourceOf(at);
        if (source === 'own') return fromSite(options.ownSite(at.pathname));
        if (source === 'synthetic') return syntheticAnswer(at);
        const refused = reach.addressRefusal(at);
        if (refused !== undefined) throw new RefusedAddressError(refused);
        release ??= await gate.acquire(signal, at.origin, fetchOptions.signal);
        return networkGet(at, reach, signal, {
          maxBytes,
          cut: fetchOptions.cut === true,
          headers: at.origin === first ? given : elsewhere,
          skipTlsVerification: fetchOptions.skipTlsVerification === true,
        });
      };
      try {
        for (let hops = 0; ; hops++) {
          const answer = await fetchOnce(url);
          if (!REDIRECTS.has(answer.status) || answer.location === undefined) {
            const pdf = isPdf(answer.body, answer.contentType);
            const body = pdf ? answer.body.toString('latin1') : decode(answer.body, answer.contentType);
            const page: FetchedPage = { ok: true, url: url.href, status: answer.status, contentType: answer.contentType, body };
            return { ...page, ...(pdf ? { bytes: answer.body } : {}), ...(answer.cut === true ? { cut: true } : {}) };
          }
          if (hops >= MAX_REDIRECTS) return failure('SCRAPE_SITE_ERROR', `${address} redirects more than ${MAX_REDIRECTS} times`);
          const next = new URL(answer.location, url);
          next.hash = '';
          // Only a real page redirects (a synthetic one never does), and only to where the server may fetch from.
          if (sourceOf(next) === 'synthetic')
            return failure('SCRAPE_SITE_ERROR', `${url.href} redirects to ${next.href}, on a host this server may not fetch from`);
          url = next;
        }
      } catch (error) {
        return classify(error, url, { timeoutMs, maxBytes }, timeout.aborted && !fetchOptions.signal.aborted);
      } finally {
        release?.();
      }
    },
  };
}
