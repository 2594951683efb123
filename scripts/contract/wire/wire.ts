/**
 * One HTTP/1.1 exchange with the target over node:http (or node:https): the request sent whole, the answer's head,
 * and its body read up to a limit, all within one timeout.
 *
 * The kit used fetch before. On loopback, fetch cost 0.5 to 1 ms of CPU a request (client and server together)
 * against 0.13 to 0.2 ms through node:http, and a run sends thousands; a run's CPU was mostly fetch's. What fetch
 * did that node:http does not is done here: connections are kept alive and reused (an `Agent` per run, which also
 * bounds the connections), an idle connection is given up before the server would close it, a compressed answer
 * is decoded, and redirects are not followed (node:http never does).
 *
 * A target that answers before it has read the whole body (a 413) and closes: node:http gives the answer, then a
 * write error (EPIPE, ECONNRESET) for the body it could not finish sending. Once the answer's head is here, such
 * an error of the request is not the exchange's: what counts is whether the answer's body came whole
 * (test/kitTransport.test.ts holds this with bodies up to 50 MB and the server closing by FIN, destroy and RST).
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { decodedBody } from '../../server/contentEncoding.js';
import type { SentRequest } from './curl.js';

/** The answer's head, as the report and the recording show it. */
export interface AnswerHead {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: Headers;
}

/** The run's timeout fired before the whole answer came (named as AbortSignal.timeout names its error). */
export class TimedOut extends Error {
  constructor(timeoutMs: number) {
    super(`no whole answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/** How long a kept-alive connection may stay idle, at most (undici's default when the server announces none). */
const IDLE_MS = 4000;

/** The head of `answer` as fetch's Headers, every value as it came (repeated names joined as fetch joins them). */
function headersOf(answer: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = answer.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A name or value fetch would refuse (e.g. a byte it does not allow): left out, as fetch could not show it.
    }
  }
  return headers;
}

/** What came back: the head, and the body read up to the limit (`undefined` when it is longer). */
export interface Answer {
  readonly head: AnswerHead;
  /** Resolves with the body's text; rejects with TimedOut, or with the error that cut the body off. */
  readonly body: Promise<string | undefined>;
}

/** The connections of a run: kept alive and reused, at most `connections` at once per origin. */
export class Wire {
  private readonly plain: http.Agent;
  private readonly tls: https.Agent;

  constructor(connections: number) {
    // An idle connection is given up after IDLE_MS, or a second before the end the server announces when that is
    // sooner (Node's Agent reads `Keep-Alive: timeout=`, but only under a timeout of its own: without one it keeps
    // idle connections for ever, and reuses one the server has just closed).
    const options = { keepAlive: true, maxSockets: connections, timeout: IDLE_MS };
    this.plain = new http.Agent(options);
    this.tls = new https.Agent(options);
  }

  /**
   * Sends `sent`; resolves with the answer's head once it is here (its body still to come, read up to `maxBytes`),
   * or rejects: TimedOut when `timeoutMs` passes first, or the error the connection met (its `code` tells
   * ECONNREFUSED from ECONNRESET and the like).
   */
  send(sent: SentRequest, timeoutMs: number, maxBytes: number): Promise<Answer> {
    const url = new URL(sent.url);
    const secure = url.protocol === 'https:';
    return new Promise<Answer>((resolve, reject) => {
      let answered = false;
      let timedOut = false;
      let finish: ((error: Error | undefined, text?: string) => void) | undefined;
      const request = (secure ? https : http).request(url, {
        method: sent.method,
        headers: { accept: '*/*', ...sent.headers },
        agent: secure ? this.tls : this.plain,
      });
      const timer = setTimeout(() => {
        timedOut = true;
        const error = new TimedOut(timeoutMs);
        if (finish !== undefined) finish(error);
        else reject(error);
        request.destroy();
      }, timeoutMs);
      request.on('error', (error) => {
        // After the head, a failed write of the rest of the body is not the exchange's (see the top of the file).
        if (answered || timedOut) return;
        clearTimeout(timer);
        reject(error);
      });
      request.on('response', (answer) => {
        answered = true;
        const head: AnswerHead = {
          status: answer.statusCode ?? 0,
          statusText: answer.statusMessage ?? '',
          ok: (answer.statusCode ?? 0) >= 200 && (answer.statusCode ?? 0) < 300,
          headers: headersOf(answer),
        };
        const body = new Promise<string | undefined>((resolveBody, rejectBody) => {
          let settled = false;
          finish = (error, text) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            if (error !== undefined) rejectBody(error);
            else resolveBody(text);
          };
          const declared = Number(answer.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            finish(undefined, undefined);
            request.destroy();
            return;
          }
          // A coding it cannot undo: the body as it came (as fetch gives it).
          const stream = decodedBody(answer) ?? answer;
          const chunks: Buffer[] = [];
          let bytes = 0;
          stream.on('data', (chunk: Buffer) => {
            bytes += chunk.byteLength;
            if (bytes > maxBytes) {
              finish?.(undefined, undefined);
              request.destroy();
              return;
            }
            chunks.push(chunk);
          });
          // TextDecoder, as fetch's text(): a leading byte order mark is dropped, a malformed sequence replaced.
          stream.on('end', () => finish?.(undefined, new TextDecoder().decode(Buffer.concat(chunks))));
          stream.on('error', (error) => finish?.(error));
          // Closed before its end: cut off (a stream error, if any, came first and settled it).
          answer.on('close', () => {
            if (!answer.complete)
              finish?.(Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' }));
          });
        });
        // The caller may stop before reading it (a failure already recorded); nothing is left unhandled.
        body.catch(() => undefined);
        resolve({ head, body });
      });
      request.end(sent.body);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.plain.destroy();
    this.tls.destroy();
  }
}
