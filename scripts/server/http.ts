/**
 * The node:http adapter of the reference server: reads each request's body, hands method, path, lower-case
 * headers and body to `app.handle`, and writes its answer back.
 *
 * Its names first: a request whose `Host` is not one of the server's names is refused, 421 with the error
 * envelope, before anything else (issue 22, finding 7). A web page cannot read another origin's answers, but
 * through DNS rebinding (its own name made to resolve to 127.0.0.1) it sends requests that are same-origin to
 * it, naming its own host: the server answers only to the address it listens on, to `localhost`, `127.0.0.1`
 * and `[::1]` (for a wildcard address, `0.0.0.0` or `::`, also to every address of the machine's interfaces and
 * to its host name), and to the `hostNames` given (e.g. the public URL's host behind a proxy). On any port: a
 * browser names the port it connects to, the server's, so the port tells nothing about who sends; and a
 * forwarded port (ssh -L, a container's published port, a proxy passing the Host on) names another. Then
 * credentials: before reading a body, the adapter asks the app whether the request's headers alone settle it
 * (`refuseUnread`: an API request without a valid token, a start that is not JSON); then it answers at once
 * and reads nothing, so an unauthenticated client cannot make the server read or parse a body (issue 13,
 * finding 9).
 *
 * Body size: the app checks the size itself, after parsing the JSON (the service's order), so the adapter
 * reads up to `readLimit` = the app's `maxBodyBytes` plus as much again (at least 1 MiB more) and lets the app
 * decide below that. A body past `readLimit` (by its Content-Length, or as it arrives) is not read further:
 * the adapter answers 413 `{success:false,error:"Request body is too large"}` itself and closes the
 * connection.
 *
 * Slow clients: node:http's limits are set explicitly (each a `ListenOptions` field), so a connection that
 * sends its request slowly, never finishes it, or never reads the answer is dropped in bounded time while
 * the server keeps answering everyone else:
 *   - `headersTimeoutMs` (10 s; node's default 60 s): the request line and headers must have arrived this long
 *     after the request began (for a new connection, after it opened). Real clients send them at once; a
 *     slowloris sending them a byte at a time, or a connection that sends nothing, is cut;
 *   - `requestTimeoutMs` (30 s; node's default 300 s): the whole request, body included, must have arrived in
 *     this time: enough for a 10 MB body at about 3 Mbit/s, while a body trickled in is cut;
 *   - `keepAliveTimeoutMs` (5 s, as node's): how long an idle keep-alive connection waits for the next
 *     request. Node 20 closes it 1 s later than it advertises, so that a client never reuses a connection
 *     the server is closing;
 *   - `idleTimeoutMs` (30 s; node's default: none): a connection with no traffic either way for this long is
 *     closed, e.g. one that stops reading a large answer, which would otherwise hold it in memory forever.
 * Node checks the first two on a timer (`connectionsCheckingInterval`, default 30 s, far too coarse for
 * them): here every quarter of the shorter one, kept between 10 ms and 1 s, so a connection over either
 * limit is dropped at most that much later. Such connections get no answer; they are destroyed.
 *
 * `close()` stops listening and closes every connection, idle or not, so it ends in bounded time; it does
 * not close the app (the caller owns it).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { DEFAULT_MAX_BODY_BYTES, type AppRequest, type AppResponse, type ReferenceApp } from './app.js';

export interface ListenOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: the system picks a free port. */
  readonly port?: number;
  /** The body size limit to read up to (see the module comment). Default: the app's, else 10 MB. */
  readonly maxBodyBytes?: number;
  /** Time for a request's line and headers to arrive, in ms. Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Time for a whole request to arrive, body included, in ms; at least `headersTimeoutMs`. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept for a next request, in ms (node adds 1 s). Default 5 s. */
  readonly keepAliveTimeoutMs?: number;
  /** How long a connection may go without any traffic, in ms. Default 30 s. */
  readonly idleTimeoutMs?: number;
  /**
   * More names the server answers to (a `Host` header's name, on any port): host names or addresses, e.g. the
   * public URL's host behind a proxy. Besides these, it answers to its own address, `localhost`, `127.0.0.1` and
   * `[::1]` (see the module comment).
   */
  readonly hostNames?: readonly string[];
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

export interface Listening {
  /** e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string;
  close(): Promise<void>;
}

const TOO_LARGE = JSON.stringify({ success: false, error: 'Request body is too large' });

function send(res: ServerResponse, answer: AppResponse, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, { ...answer.headers, ...extra, 'content-length': String(Buffer.byteLength(answer.body)) });
  res.end(answer.body);
}

/** Answers 413 and stops reading: the connection closes once the answer is out. */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
  send(res, { status: 413, headers: { 'content-type': 'application/json; charset=utf-8' }, body: TOO_LARGE }, { connection: 'close' });
  res.once('finish', () => {
    // Give the client a moment to read the answer before the socket goes; it may still be sending.
    const timer = setTimeout(() => req.socket.destroy(), 50);
    timer.unref();
  });
  req.resume(); // discard what is already on its way instead of buffering it
}

/**
 * Answers before the body is read (`refuseUnread`). The connection stays open, so that a client still
 * sending its body reads the answer instead of a reset: node discards the rest of the body, and the socket
 * is destroyed only if more than `readLimit` bytes of it arrive (`requestTimeoutMs` bounds a slow one).
 */
function answerUnread(req: IncomingMessage, res: ServerResponse, answer: AppResponse, readLimit: number): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > readLimit) req.socket.destroy();
  });
  send(res, answer);
}

/** A `Host` header: a name or an IPv4 address, or an IPv6 address in brackets; then a port, optionally (the name, lower case). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The host names and addresses (lower case, IPv6 in brackets) the server answers to, listening on `host`, besides
 * `more` (see the module comment).
 */
export function serverNames(host: string, more: readonly string[] = []): ReadonlySet<string> {
  const bracketed = (address: string) => (address.includes(':') && !address.startsWith('[') ? `[${address}]` : address);
  const names = new Set(['localhost', '127.0.0.1', '[::1]', bracketed(host.toLowerCase())]);
  if (WILDCARDS.has(host)) {
    names.add(hostname().toLowerCase());
    // Addresses with a zone (fe80::1%eth0) cannot be named in a Host header without it: left out.
    for (const address of Object.values(networkInterfaces()).flat())
      if (address !== undefined && address.scopeid === undefined) names.add(bracketed(address.address.toLowerCase()));
  }
  for (const name of more) names.add(bracketed(name.toLowerCase()));
  return names;
}

/** The answer to a request whose `Host` names none of `names`, or undefined when it names one (the validating proxy asks it too). */
export function misdirected(value: string | undefined, names: ReadonlySet<string>, example: string): AppResponse | undefined {
  const name = HOST_HEADER.exec(value?.trim().toLowerCase() ?? '')?.[1];
  if (name !== undefined && names.has(name)) return undefined;
  const said = value === undefined ? 'a request without a Host header' : `Host ${JSON.stringify(value.slice(0, 200))}`;
  return {
    status: 421,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      success: false,
      error: `Misdirected request: this server does not answer to ${said}; expected one of its own names, e.g. ${example}`,
    }),
  };
}

function headersOf(req: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function listen(app: ReferenceApp, options: ListenOptions = {}): Promise<Listening> {
  const limit = options.maxBodyBytes ?? app.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const readLimit = limit + Math.max(limit, 1024 * 1024);
  const host = options.host ?? '127.0.0.1';
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const timeouts = {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
  };

  const names = serverNames(host, options.hostNames);
  /** For the refusal's message: the server's own address, known once it listens. */
  let example = '';
  const server = createServer(timeouts, (req, res) => {
    const wrongHost = misdirected(req.headers.host, names, example);
    if (wrongHost !== undefined) return answerUnread(req, res, wrongHost, readLimit);
    const unread = app.refuseUnread?.({ method: req.method ?? 'GET', url: req.url ?? '/', headers: headersOf(req) });
    if (unread !== undefined) return answerUnread(req, res, unread, readLimit);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > readLimit) return refuseTooLarge(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > readLimit) {
        refused = true;
        chunks.length = 0;
        refuseTooLarge(req, res);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => req.socket.destroy());
    req.on('end', () => {
      if (refused) return;
      const request: AppRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: headersOf(req),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      app.handle(request).then(
        (answer) => send(res, answer),
        () =>
          send(res, {
            status: 500,
            headers: { 'content-type': 'application/json; charset=utf-8' },
            body: JSON.stringify({
              success: false,
              code: 'UNKNOWN_ERROR',
              error: `An unexpected error occurred. Your exception ID is ${randomUUID()}`,
            }),
          }),
      );
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  server.timeout = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      example = new URL(url).host;
      resolve({
        url,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
