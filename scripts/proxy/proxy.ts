/**
 * The validating proxy (`crawlspec proxy`): put between a real client and a real server, it forwards every request to
 * the target as it came and answers with the target's answer, and reports each request body and each answer that
 * breaks the spec (exchangeChecks.ts), as Prism's proxy does for its users. With `errors`, it answers a request whose
 * body breaks the spec at the proxy's level itself, with the service's 400 error body, instead of forwarding it.
 *
 * It forwards only to its target (requestTarget.ts: a request target that would name another host or leave the
 * target's path prefix is answered 400), and answers only to its own names: a `Host` that is not (DNS rebinding) is
 * answered 421 as `crawlspec serve` answers it (../server/http.ts), since the proxy sends the target's own Host on.
 *
 * Bounded like the reference server: a request body of more than `maxBodyBytes` is answered 413 with the error
 * envelope and not forwarded; what it holds for checking (request bodies, answers' copies) is at most `maxHeldBytes`
 * over all exchanges at once (heldBytes.ts; past it a request is answered 503, an answer passed through unchecked); at
 * most `maxConnections` connections at once; a request must arrive within REQUEST_TIMEOUT_MS and the target must
 * answer within `timeoutMs` (else 502, with the error envelope). An answer is streamed to the client as it comes,
 * untouched (an event stream, a large page); it is checked only when it is JSON and whole within `maxCheckedBytes`,
 * as sent and decoded (answerCopy.ts, which stops decoding the moment it gives up): what it did not check is
 * counted (`unchecked`), never guessed at. The request's token is cleaned from everything it reports.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { MALFORMED_JSON_BODY, parseRequestBody, validationErrorBody } from '../../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { decides, type Level } from '../contract/spec/levels.js';
import { redactor } from '../contract/wire/redact.js';
import { parseJson } from '../../schemas/parseJson.js';
import { misdirected, serverNames } from '../server/http.js';
import { deliverableHeaders } from '../server/webhooks.js';
import { answerCopy } from './answerCopy.js';
import {
  answeredAsMissing404,
  answerViolations,
  notImplemented,
  operationOf,
  requestViolations,
  serverError,
  validRequestRefused,
  type Violation,
} from './exchangeChecks.js';
import { Exchanges, type ExchangeRecord, type OpenExchange, type Totals } from './exchanges.js';
import { HeldBytes } from './heldBytes.js';
import { forwardingOf } from './requestTarget.js';

export interface ProxyOptions {
  /** The service's base address (`http://127.0.0.1:3002`, or with a path prefix). */
  readonly target: string;
  readonly host?: string;
  /** 0 (the default): any free port. */
  readonly port?: number;
  /** The expectations that decide (`errors`) and are reported as breaking the spec; those above it as differing from the service. */
  readonly level: Level;
  /** Answer a request that breaks the spec at `level` with the service's 400 body, instead of forwarding it. */
  readonly errors: boolean;
  /** Each problem found, as it is found, with whether the proxy answered the request itself (`errors`). */
  readonly onViolation: (violation: Violation, refused: boolean) => void;
  /** Each exchange once it has ended, with its verdict: its problems, or why it was not checked. */
  readonly onExchange?: (record: ExchangeRecord) => void;
  /** What went wrong with an exchange that is not the spec's (the target unreachable, too slow, ...), one line. */
  readonly onNotice?: (line: string) => void;
  readonly maxBodyBytes?: number;
  readonly maxCheckedBytes?: number;
  /** Bytes of request bodies and answers held for checking at once, over all exchanges (else: 503, or unchecked). */
  readonly maxHeldBytes?: number;
  readonly timeoutMs?: number;
  readonly maxConnections?: number;
}

export interface RunningProxy {
  /** e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  /** The exchanges so far, the problems found by level, the exchanges not checked. */
  totals(): Totals;
  /** Stops it; every exchange still open is named unchecked; the totals. */
  close(): Promise<Totals>;
}

export const DEFAULT_PROXY_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const DEFAULT_PROXY_MAX_CHECKED_BYTES = 32 * 1024 * 1024;
export const DEFAULT_PROXY_TIMEOUT_MS = 120_000;
export const DEFAULT_PROXY_MAX_HELD_BYTES = 256 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * What is forwarded of a message's headers: those of the connection (RFC 9110 §7.6.1), `Host`, `Content-Length`
 * and `Proxy-*` left out, as of a webhook's (deliverableHeaders): node:http writes the framing of each side itself.
 */
const forwarded = (headers: IncomingHttpHeaders): Record<string, string | string[]> =>
  deliverableHeaders(
    Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)),
  );

const envelope = (error: string) => JSON.stringify({ success: false, error });

function answer(res: ServerResponse, status: number, body: string, close = false): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
}

/**
 * The request's body, whole; `tooLarge` once it passed `limit`, `busy` when the proxy holds too much at once (the
 * rest is not read). What it holds is the caller's to give back (`held`).
 */
function readBody(req: IncomingMessage, limit: number, budget: HeldBytes): Promise<{ body: Buffer } | 'tooLarge' | 'busy'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (why: 'tooLarge' | 'busy') => {
      budget.give(size);
      req.removeAllListeners('data');
      req.resume();
      resolve(why);
    };
    req.on('data', (chunk: Buffer) => {
      if (size + chunk.length > limit) return stop('tooLarge');
      if (!budget.take(chunk.length)) return stop('busy');
      size += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks) }));
    req.on('error', (error) => {
      budget.give(size);
      reject(error);
    });
  });
}

/** The secret of a request: the token of its `Authorization` header (the word after the scheme). */
const tokenOf = (headers: IncomingHttpHeaders): string | undefined => headers.authorization?.split(' ').filter(Boolean)[1];

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const prefix = target.pathname.replace(/(?<!\/)\/+$/, ''); // tried only where a run of slashes starts: linear
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_PROXY_MAX_BODY_BYTES;
  const maxCheckedBytes = options.maxCheckedBytes ?? DEFAULT_PROXY_MAX_CHECKED_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
  const maxConnections = options.maxConnections ?? 256;
  const budget = new HeldBytes(options.maxHeldBytes ?? DEFAULT_PROXY_MAX_HELD_BYTES);
  const secure = target.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: maxConnections })
    : new Agent({ keepAlive: true, maxSockets: maxConnections });
  const send = secure ? httpsRequest : httpRequest;
  const notice = options.onNotice ?? (() => {});
  const listenOn = options.host ?? '127.0.0.1';
  const names = serverNames(listenOn);
  /** For a refused Host's message: the proxy's own address, known once it listens. */
  let example = '';
  const exchanges = new Exchanges({ onViolation: options.onViolation, ...(options.onExchange ? { onRecord: options.onExchange } : {}) });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const requestTarget = req.url ?? '/';
    const token = tokenOf(req.headers);
    const exchange = exchanges.begin(method, requestTarget.split('?', 1)[0]!, token);
    /** The proxy answers itself, with the error envelope: the exchange is named unchecked, with why. */
    const answerItself = (status: number, body: string, why: string): void => {
      answer(res, status, body, true);
      exchange.end(status, { why });
    };
    // A Host that is not the proxy's own (DNS rebinding) is refused as `crawlspec serve` refuses it, before anything is read.
    const wrongHost = misdirected(req.headers.host, names, example);
    if (wrongHost !== undefined) return answerItself(wrongHost.status, wrongHost.body, 'refused by the proxy: not its own Host');
    const forwarding = forwardingOf(target.origin, prefix, requestTarget);
    if ('refused' in forwarding)
      return answerItself(400, envelope(forwarding.refused), 'refused by the proxy: a request target off the target');
    const upstream = forwarding.url;
    const read = await readBody(req, maxBodyBytes, budget).catch((error: Error) => error);
    if (read instanceof Error) {
      res.destroy();
      return exchange.end(undefined, { why: `the request broke off (${read.message})` });
    }
    if (read === 'tooLarge') {
      const error = `crawlspec proxy: the request body is larger than ${maxBodyBytes} bytes; not forwarded`;
      return answerItself(413, envelope(error), `refused by the proxy: a request body over ${maxBodyBytes} bytes`);
    }
    if (read === 'busy')
      return answerItself(
        503,
        envelope('crawlspec proxy: too many request bodies held at once; retry'),
        'refused by the proxy: its held-bytes bound spent',
      );
    const { body } = read;
    res.once('close', () => budget.give(body.length));
    const text = body.toString('utf8');
    exchange.request(text);
    const located = operationOf(target.href, method, upstream.href);
    const path = upstream.pathname;
    // An operation that takes a body is checked with whatever came, none included (an empty body is no JSON).
    let bodyValid = false;
    if (located !== undefined && located.operation.requestBody !== undefined) {
      const found = requestViolations(located, method, path, text);
      bodyValid = found.length === 0;
      const refuse = options.errors && found.some((v) => decides(v.level, options.level));
      exchange.report(found, refuse);
      if (refuse) {
        const parsed = parseRequestBody(text);
        const result = parsed.ok ? validate(`${located.version}/${located.operation.requestBody}` as SchemaName, parsed.value) : undefined;
        answer(
          res,
          400,
          JSON.stringify(result === undefined || result.valid ? MALFORMED_JSON_BODY : validationErrorBody(located.version, result.errors)),
        );
        return exchange.end(400);
      }
    }
    const outgoing = send(upstream, {
      method,
      agent,
      // The body as it came, now whole: its length said, unless the request had none to say.
      headers: {
        ...forwarded(req.headers),
        host: upstream.host,
        ...(body.length > 0 || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined
          ? { 'content-length': String(body.length) }
          : {}),
      },
      timeout: timeoutMs,
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', (error) => {
      notice(exchange.clean(`${method} ${path}: the target did not answer (${error.message}); answered 502`));
      if (!res.headersSent) answer(res, 502, envelope(`crawlspec proxy: the target did not answer: ${error.message}`));
      else res.destroy();
      exchange.end(res.headersSent ? 502 : undefined, { why: `the target did not answer (${error.message})` });
    });
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    outgoing.on('response', (incoming) => {
      // The answer's length, where it said one (a HEAD's too); else node:http frames it.
      const length = incoming.headers['content-length'];
      const status = incoming.statusCode ?? 502;
      res.writeHead(status, {
        ...forwarded(incoming.headers),
        ...(length === undefined ? {} : { 'content-length': length }),
      });
      incoming.pipe(res);
      judge(exchange, incoming, { located, method, path, url: upstream.href, requestBody: text, bodyValid, status });
    });
    outgoing.end(body);
  }

  /** The answer judged against its request (exchangeChecks.ts), its body read for it when it is JSON. */
  function judge(
    exchange: OpenExchange,
    incoming: IncomingMessage,
    a: {
      located: ReturnType<typeof operationOf>;
      method: string;
      path: string;
      url: string;
      requestBody: string;
      bodyValid: boolean;
      status: number;
    },
  ): void {
    const { located, method, path, status } = a;
    const contentType = String(incoming.headers['content-type'] ?? '');
    const json = /\bjson\b/i.test(contentType);
    if (status >= 500) {
      exchange.report([serverError(located, method, path, status)]);
      return exchange.end(status);
    }
    if (located === undefined) return exchange.end(status, { why: 'not an operation of the spec' });
    if (answeredAsMissing404(located, method, a.url, a.requestBody, status, { isJson: false }) && (status !== 404 || !json)) {
      exchange.report([notImplemented(located, method, path, status, false)]);
      return exchange.end(status);
    }
    const refused = a.bodyValid ? validRequestRefused(located, method, path, status, options.level) : undefined;
    if (refused !== undefined) exchange.report([refused]);
    if (!json) return exchange.end(status, { why: `its answer is not JSON (Content-Type: ${JSON.stringify(contentType.slice(0, 100))})` });
    void answerCopy(incoming, maxCheckedBytes, budget).then((copy) => {
      if ('why' in copy) return exchange.end(status, { why: copy.why });
      const parsed = status === 404 ? parseJson(copy.text) : undefined;
      if (
        parsed !== undefined &&
        answeredAsMissing404(
          located,
          method,
          a.url,
          a.requestBody,
          status,
          parsed.ok ? { isJson: true, json: parsed.value } : { isJson: false },
        )
      )
        exchange.report([notImplemented(located, method, path, status, true)]);
      else exchange.report(answerViolations(located, method, path, status, copy.text));
      exchange.end(status, { answerBody: copy.text });
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Said without the request target, which may carry a secret in its query.
      notice(redactor({ secrets: [tokenOf(req.headers)] })(`${req.method ?? 'GET'} request: ${(error as Error).message}; answered 500`));
      answer(res, 500, envelope('crawlspec proxy: the exchange failed'));
    });
  });
  server.maxConnections = maxConnections;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenOn, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${listenOn.includes(':') ? `[${listenOn}]` : listenOn}:${port}`;
  example = new URL(url).host;
  return {
    url,
    totals: () => exchanges.totals(),
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      exchanges.endAll();
      return exchanges.totals();
    },
  };
}
