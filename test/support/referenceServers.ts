/**
 * The reference servers the tests of test/referenceServer*.test.ts talk to (one at full speed, one whose pages take
 * a second each), started by each file's `useReferenceServers()`, and the helpers those tests share: a request with a
 * time limit, waiting for a job, a webhook receiver. Split from test/referenceServer.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { createReferenceApp, type ReferenceApp } from '../../scripts/server/app.js';
import { listen, type Listening } from '../../scripts/server/http.js';

export const TOKEN = 'test-token';
/** A safety net on every request and every wait for a job: far past what a loaded machine needs. */
export const TIMEOUT_MS = 60_000;
export const VERSIONS = ['v1', 'v2'] as const;
/** The Content-Type a start must carry. */
export const JSON_TYPE = { 'content-type': 'application/json' };
export type Version = (typeof VERSIONS)[number];

export let publicUrl = '';
export let app: ReferenceApp;
export let server: Listening;
/**
 * A server whose pages take a second each, so that a job is still running when a test looks at it right after
 * starting it: a crawl of three pages runs three seconds, of the whole site (30 pages) thirty.
 */
export let slowUrl = '';
export let slowApp: ReferenceApp;
export let slowServer: Listening;

/** Starts both servers before the tests of the file that calls it, and closes them after. */
export function useReferenceServers(): void {
  beforeAll(async () => {
    app = createReferenceApp({ auth: { token: TOKEN }, publicUrl: () => publicUrl, pageIntervalMs: 5 });
    server = await listen(app);
    publicUrl = server.url;
    slowApp = createReferenceApp({ auth: { token: TOKEN }, publicUrl: () => slowUrl, pageIntervalMs: 1000 });
    slowServer = await listen(slowApp);
    slowUrl = slowServer.url;
  });

  afterAll(async () => {
    await Promise.all([server.close(), slowServer.close()]);
    app.close();
    slowApp.close();
  });
}

export interface Answer {
  status: number;
  contentType: string | null;
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  rawBody?: string;
  /** `Authorization` header; default `Bearer <TOKEN>`; null for none. */
  authorization?: string | null;
  headers?: Record<string, string>;
}

/** One request to the server (a path, or an absolute address), with a time limit. */
export async function call(method: string, target: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const authorization = options.authorization === undefined ? `Bearer ${TOKEN}` : options.authorization;
  if (authorization !== null) headers['authorization'] = authorization;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(target.startsWith('http') ? target : `${publicUrl}${target}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  return { status: response.status, contentType, body: contentType?.startsWith('application/json') ? JSON.parse(text) : text };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function expectValid(name: SchemaName, value: unknown): void {
  const result = validate(name, value);
  expect(result.valid ? [] : result.errors.map((e) => `${e.path}: ${e.message}`), name).toEqual([]);
}

export const site = (path: string) => `${publicUrl}/site${path}`;

/** Polls `read` until `holds` says yes of its answer (every 10 ms; past `TIMEOUT_MS`, fails saying what did not happen). */
export async function until<T>(what: string, read: () => Promise<T>, holds: (answer: T) => boolean): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const answer = await read();
    if (holds(answer)) return answer;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${TIMEOUT_MS / 1000} s`);
    await sleep(10);
  }
}

/** Polls a job's status until it is no longer scraping, validating every answer on the way. */
export async function untilDone(version: Version, jobUrl: string): Promise<Answer> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const answer = await call('GET', jobUrl);
    expect(answer.status).toBe(200);
    expectValid(`${version}/JobStatusResponse`, answer.body);
    if (answer.body.status !== 'scraping') return answer;
    if (Date.now() > deadline) throw new Error(`job ${jobUrl} still scraping after ${TIMEOUT_MS / 1000} s`);
    await sleep(10);
  }
}

export async function startCrawl(version: Version, body: Record<string, unknown>, on = publicUrl): Promise<{ id: string; url: string }> {
  const answer = await call('POST', `${on}/${version}/crawl`, { body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expectValid(`${version}/CrawlStartResponse`, answer.body);
  return answer.body;
}

/** Starts a receiver of webhook events on 127.0.0.1. */
export async function startReceiver(): Promise<{
  url: string;
  events: { headers: Record<string, unknown>; body: any }[];
  close(): Promise<void>;
}> {
  const events: { headers: Record<string, unknown>; body: any }[] = [];
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      events.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        receiver.close(() => resolve());
        receiver.closeAllConnections();
      }),
  };
}
