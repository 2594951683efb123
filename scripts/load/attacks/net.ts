/**
 * What the attacks talk with, all on 127.0.0.1: requests with a time limit, clients that never read their
 * answer or send a body the server may refuse halfway, and webhook receivers that record, redirect, or hang.
 * Everything here can be closed, and closing it ends in bounded time (sockets destroyed, not drained).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { TOKEN } from '../shared.js';

export const HOST = '127.0.0.1';

export interface Answer {
  /** The HTTP status, or undefined if none came (`error` says why). */
  readonly status: number | undefined;
  readonly text: string;
  readonly ms: number;
  readonly error?: string;
}

/** One request with fetch, given up after `timeoutMs`; never throws. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { readonly body?: string; readonly auth?: boolean; readonly timeoutMs: number },
): Promise<Answer> {
  const started = performance.now();
  const headers: Record<string, string> = options.auth === false ? {} : { authorization: `Bearer ${TOKEN}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, text, ms: performance.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name =
      (error as Error).name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (cause ?? (error as Error).message);
    return { status: undefined, text: '', ms: performance.now() - started, error: name };
  }
}

/** What an answer counts as in the figures: its status, or why there was none. */
export const outcome = (answer: Answer): string => (answer.status === undefined ? (answer.error ?? 'no answer') : String(answer.status));

/** A port on 127.0.0.1 nothing listens on (one the system gave out and took back). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Listens on 127.0.0.1, a port the system picks; resolves with the port. */
function listenOn(server: Server | HttpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve((server.address() as AddressInfo).port));
  });
}

export interface Closable {
  close(): Promise<void>;
}

/** A request a receiver got: when (performance.now()), its method and path, its headers. */
export interface Received {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * An HTTP receiver that records every request and answers each with `answer(request)` (status and headers,
 * empty body) once the request's body is in.
 */
export async function receiver(
  answer: (request: IncomingMessage) => { status: number; headers?: Record<string, string> },
): Promise<Closable & { readonly url: string; readonly received: Received[] }> {
  const received: Received[] = [];
  const server = createHttpServer((request, response) => {
    received.push({ at: performance.now(), method: request.method ?? '', path: request.url ?? '', headers: { ...request.headers } });
    request.resume();
    request.once('end', () => {
      const { status, headers = {} } = answer(request);
      response.writeHead(status, { ...headers, 'content-length': '0' });
      response.end();
    });
  });
  const port = await listenOn(server);
  return {
    url: `http://${HOST}:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A delivery a hanging receiver read whole: when it began to arrive, and the event `type` its body gave. */
export interface Delivery {
  readonly at: number;
  readonly type: string;
}

/**
 * A webhook receiver that accepts every connection and reads every request, whole, and never answers any:
 * each delivery hangs until the sender gives up on it.
 */
export async function hangingReceiver(): Promise<Closable & { readonly url: string; readonly deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let began: number | undefined;
    socket.on('data', (chunk: Buffer) => {
      began ??= performance.now();
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
        let type = '?';
        try {
          type = String((JSON.parse(body) as { type?: unknown }).type ?? '?');
        } catch {
          // not JSON: recorded as '?'
        }
        deliveries.push({ at: began ?? performance.now(), type });
        buffer = buffer.subarray(end + 4 + length);
        began = buffer.length > 0 ? performance.now() : undefined;
      }
    });
  });
  const port = await listenOn(server);
  return {
    url: `http://${HOST}:${port}/hook`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A connection that sends one request and then never reads a byte of the answer. */
export function silentReader(port: number, path: string): Closable {
  const socket = connect(port, HOST, () => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
    socket.pause();
  });
  socket.on('error', () => {});
  return {
    close: async () => {
      socket.destroy();
    },
  };
}

/** What a raw request got: the status line's code (if one came), when it came, and what ended the exchange. */
export interface RawAnswer {
  readonly status: number | undefined;
  /** ms from the first byte sent to the status line, or to the end of the exchange without one. */
  readonly ms: number;
  /** Bytes of the body written before the server answered or closed. */
  readonly sent: number;
  readonly error?: string;
}

/**
 * A POST of `body` written in 1 MiB pieces as fast as the server reads them: the server may answer (and
 * close) before it is all sent; writing stops then. Gives up after `timeoutMs`.
 */
export function rawPost(port: number, path: string, headers: Record<string, string>, body: Buffer, timeoutMs: number): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    let sent = 0;
    let answered = false;
    let head = '';
    let done = false;
    const socket = connect(port, HOST);
    const finish = (status: number | undefined, error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status, ms: performance.now() - started, sent, ...(error === undefined ? {} : { error }) });
    };
    const timer = setTimeout(() => finish(undefined, `no answer within ${timeoutMs} ms`), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      answered = true;
      head += chunk.toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      if (status !== undefined) finish(Number(status));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(undefined, error.code ?? error.message));
    socket.on('close', () => finish(undefined, 'closed without an answer'));
    socket.on('connect', () => {
      const lines = Object.entries({ host: `${HOST}:${port}`, 'content-length': String(body.length), ...headers }).map(
        ([name, value]) => `${name}: ${value}\r\n`,
      );
      socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
      const writeMore = () => {
        while (!answered && !done && sent < body.length) {
          const piece = body.subarray(sent, sent + 1024 * 1024);
          sent += piece.length;
          if (!socket.write(piece)) return void socket.once('drain', writeMore);
        }
      };
      writeMore();
    });
  });
}
