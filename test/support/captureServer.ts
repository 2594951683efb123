/**
 * A tiny HTTP server that stands in for the crawl / batch scrape service so a
 * real client (e.g. the official JS SDK) can be pointed at it and the exact
 * requests it sends can be inspected.
 *
 * - Binds 127.0.0.1 on an OS-picked port.
 * - Records every request (method, path, query, headers, raw and parsed body).
 * - Answers like the service would:
 *     POST /v{1,2}/crawl           -> 200 { success, id, url }
 *     POST /v{1,2}/batch/scrape    -> 200 { success, id, url, invalidURLs: [] }
 *     GET  /v{1,2}/crawl/:id       -> 200 completed job status (no documents)
 *     GET  /v{1,2}/batch/scrape/:id-> 200 completed job status (no documents)
 *     anything else                -> 404 { success: false, error }
 *   The GET answers exist only so that SDK methods that poll finish at once.
 * - close() stops listening and tears down every socket, so it resolves in
 *   bounded time even when the client keeps connections alive.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Captured {
  /** Upper-case HTTP method, e.g. "POST". */
  method: string;
  /** Path without the query string, e.g. "/v2/crawl". */
  path: string;
  /** Query string without the leading "?" ("" when there is none). */
  query: string;
  /** Request headers as node parsed them (names are lower-case). */
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  rawBody: string;
  /** The body parsed as JSON; undefined when empty or not valid JSON. */
  body: unknown;
}

export interface CaptureServer {
  /** e.g. "http://127.0.0.1:54321" (no trailing slash). */
  baseUrl: string;
  /** Every request received, in arrival order. */
  requests: Captured[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

const START_ROUTE = /^\/(v1|v2)\/(crawl|batch\/scrape)$/;
const STATUS_ROUTE = /^\/(v1|v2)\/(crawl|batch\/scrape)\/([0-9a-fA-F-]{36})$/;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function startCaptureServer(): Promise<CaptureServer> {
  const requests: Captured[] = [];
  let baseUrl = '';

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  // Do not let idle keep-alive sockets linger between tests.
  server.keepAliveTimeout = 1000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);

    let rawBody: string;
    try {
      rawBody = await readBody(req);
    } catch (err) {
      requests.push({ method, path, query, headers: req.headers, rawBody: '', body: undefined });
      if (!res.headersSent) sendJson(res, 413, { success: false, error: String(err) });
      return;
    }

    let body: unknown;
    let bodyIsInvalidJson = false;
    if (rawBody.length > 0) {
      try {
        body = JSON.parse(rawBody) as unknown;
      } catch {
        bodyIsInvalidJson = true;
      }
    }
    requests.push({ method, path, query, headers: req.headers, rawBody, body });

    const start = START_ROUTE.exec(path);
    if (method === 'POST' && start) {
      if (bodyIsInvalidJson || body === null || typeof body !== 'object') {
        sendJson(res, 400, { success: false, error: 'Bad Request: body must be a JSON object' });
        return;
      }
      const [, version, kind] = start;
      const id = randomUUID();
      const url = `${baseUrl}/${version}/${kind}/${id}`;
      if (kind === 'crawl') sendJson(res, 200, { success: true, id, url });
      else sendJson(res, 200, { success: true, id, url, invalidURLs: [] });
      return;
    }

    if (method === 'GET' && STATUS_ROUTE.test(path)) {
      sendJson(res, 200, {
        success: true,
        status: 'completed',
        completed: 0,
        total: 0,
        creditsUsed: 0,
        expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
        data: [],
      });
      return;
    }

    sendJson(res, 404, { success: false, error: `No route for ${method} ${path}` });
  }

  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', onError);
      const { port } = server.address() as AddressInfo;
      baseUrl = `http://127.0.0.1:${port}`;

      let closing: Promise<void> | undefined;
      const close = (): Promise<void> => {
        closing ??= new Promise<void>((done) => {
          server.close(() => done());
          // server.close() only stops accepting; end every existing socket too.
          server.closeIdleConnections();
          server.closeAllConnections();
        });
        return closing;
      };

      resolve({ baseUrl, requests, close });
    });
  });
}
