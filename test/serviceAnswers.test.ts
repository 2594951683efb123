/**
 * The reference server answers a job's endpoints as the service as of 2026-08-21 does (facts §13), for v1 and v2:
 * UUID version 7 job ids; 400 for an id that is not a UUID on the status read (both versions) and every v2 job
 * endpoint; v2 status answers with `createdAt`, `completedAt`, `duration`; `next` left out once the results of
 * an ended job are all read (the reference server's choice, see jobEndpoints.ts); `creditsUsed: -1` when the server is told it knows no credits (a self-hosted service); 404 for an `appendToId`
 * naming no job; a webhook with `events: []` gets every event; a job that fails ends its webhook with
 * `.completed`, `success: false` and its error (no `failed` event). Every answer is validated with the package's
 * own validators. Everything runs on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate, type SchemaName } from '../schemas/validate.js';
import { runContract } from '../scripts/contract/index.js';
import { createReferenceApp, type ReferenceApp } from '../scripts/server/app.js';
import { listen, type Listening } from '../scripts/server/http.js';
import { createReach } from '../scripts/server/reach.js';
import { WebhookSender } from '../scripts/server/webhooks.js';
import { kitTarget } from './support/kitTarget.js';

const VERSIONS = ['v1', 'v2'] as const;
type Version = (typeof VERSIONS)[number];
/** A safety net on every request and every wait: far past what a loaded machine needs. */
const TIMEOUT_MS = 60_000;
/** The clock of `app`: each reading one second after the one before, from this time. */
const T0 = Date.UTC(2026, 7, 21, 12, 0, 0);

interface Served {
  readonly url: string;
  readonly app: ReferenceApp;
  readonly server: Listening;
}

async function serve(options: { pageIntervalMs: number; creditsUnknown?: boolean; now?: () => number }): Promise<Served> {
  let url = '';
  const app = createReferenceApp({ auth: 'none', publicUrl: () => url, ...options });
  const server = await listen(app);
  url = server.url;
  return { url, app, server };
}

let clock = T0;
let fast: Served;
let slow: Served;
let selfHosted: Served;

beforeAll(async () => {
  fast = await serve({ pageIntervalMs: 5, now: () => (clock += 1000) });
  // Pages a second apart: a job is still running when a test cancels it.
  slow = await serve({ pageIntervalMs: 1000 });
  selfHosted = await serve({ pageIntervalMs: 5, creditsUnknown: true });
});

afterAll(async () => {
  for (const { app, server } of [fast, slow, selfHosted]) {
    await server.close();
    app.close();
  }
});

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: response.status, body: await response.json() };
}

function expectValid(name: SchemaName, value: unknown): void {
  const result = validate(name, value);
  expect(result.valid ? [] : result.errors.map((e) => `${e.path}: ${e.message}`), name).toEqual([]);
}

/** Reads a job's status until it is no longer scraping (every 10 ms), each answer valid. */
async function untilEnded(version: Version, url: string): Promise<any> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const read = await call('GET', url);
    expect(read.status).toBe(200);
    expectValid(`${version}/JobStatusResponse`, read.body);
    if (read.body.status !== 'scraping') return read.body;
    if (Date.now() > deadline) throw new Error(`${url} still scraping after ${TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function startBatch(on: Served, version: Version, body: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const answer = await call('POST', `${on.url}/${version}/batch/scrape`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** The time a UUID version 7 holds (its first 48 bits), in ms. */
const uuidTime = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe.each(VERSIONS)('reference server %s as the service of 2026-08-21', (version) => {
  it('gives job ids that are UUID version 7 of the creation time; v2 status says when the job was created, ended and how long it ran', async () => {
    const batch = await startBatch(fast, version, { urls: ['https://example.com/a', 'https://example.com/b'] });
    expect(batch.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ended = await untilEnded(version, batch.url);
    expect(ended.status).toBe('completed');
    if (version === 'v1') {
      for (const key of ['createdAt', 'completedAt', 'duration']) expect(ended).not.toHaveProperty(key);
      return;
    }
    expect(Date.parse(ended.createdAt)).toBe(uuidTime(batch.id));
    // The app's clock moves a second a reading: the job ended readings after it was created.
    expect(Date.parse(ended.completedAt)).toBeGreaterThan(Date.parse(ended.createdAt));
    expect(ended.duration).toBe((Date.parse(ended.completedAt) - Date.parse(ended.createdAt)) / 1000);
  });

  it('answers 400 for an id that is not a UUID on the status read and on every v2 job endpoint, 404 on v1 cancel and errors', async () => {
    const invalid = { success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' };
    for (const kind of ['crawl', 'batch/scrape']) {
      const at = `${fast.url}/${version}/${kind}/not-a-uuid`;
      expect(await call('GET', at)).toEqual({ status: 400, body: invalid });
      expect((await call('DELETE', at)).status).toBe(version === 'v2' ? 400 : 404);
      expect((await call('GET', `${at}/errors`)).status).toBe(version === 'v2' ? 400 : 404);
    }
  });

  it('leaves next out of a cancelled job whose results are all read, as of a completed one: a client following next stops', async () => {
    const batch = await startBatch(slow, version, { urls: Array.from({ length: 10 }, (_, i) => `https://example.com/p${i}`) });
    const cancelled = await call('DELETE', batch.url);
    expect(cancelled).toEqual({ status: 200, body: { status: 'cancelled' } });
    const read = await untilEnded(version, batch.url);
    expect(read.status).toBe('cancelled');
    expect(read).not.toHaveProperty('next');
    const done = await startBatch(fast, version, { urls: ['https://example.com/a', 'https://example.com/b'] });
    await untilEnded(version, done.url);
    const first = await call('GET', `${done.url}?limit=1`);
    expect(first.body.next).toBe(`${done.url}?skip=1&limit=1`);
    const last = await call('GET', first.body.next);
    expect(last.body.data).toHaveLength(1);
    expect(last.body).not.toHaveProperty('next');
  });

  it('says creditsUsed -1 when told it knows no credits, as a self-hosted service does, and the answer is valid', async () => {
    const batch = await startBatch(selfHosted, version, { urls: ['https://example.com/a'] });
    const ended = await untilEnded(version, batch.url);
    expect(ended).toMatchObject({ status: 'completed', completed: 1, creditsUsed: -1 });
    const counted = await untilEnded(version, (await startBatch(fast, version, { urls: ['https://example.com/a'] })).url);
    expect(counted.creditsUsed).toBe(1);
  });

  it('refuses an appendToId that names no job of the caller with 404 Job not found', async () => {
    const absent = '0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e';
    const answer = await call('POST', `${fast.url}/${version}/batch/scrape`, { urls: ['https://example.com/a'], appendToId: absent });
    expect(answer).toEqual({ status: 404, body: { success: false, error: 'Job not found' } });
    expectValid(`${version}/ErrorResponse`, answer.body);
    expect((await call('GET', `${fast.url}/${version}/batch/scrape/${absent}`)).status).toBe(404);
    const first = await startBatch(fast, version, { urls: ['https://example.com/a'] });
    const appended = await call('POST', `${fast.url}/${version}/batch/scrape`, { urls: ['https://example.com/b'], appendToId: first.id });
    expect(appended.body).toMatchObject({ success: true, id: first.id });
  });
});

/** A receiver of webhook deliveries on 127.0.0.1: the JSON bodies it got, in order. */
async function startReceiver() {
  const bodies: any[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  /** Waits (every 10 ms) until `n` deliveries came. */
  const until = async (n: number) => {
    const deadline = Date.now() + TIMEOUT_MS;
    while (bodies.length < n) {
      if (Date.now() > deadline) throw new Error(`${bodies.length} of ${n} deliveries within ${TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return bodies;
  };
  return { url, bodies, until, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('webhooks as the service of 2026-08-21', () => {
  it.each(VERSIONS)('%s: a webhook whose events is [] gets every event of the job', async (version) => {
    const receiver = await startReceiver();
    try {
      const batch = await startBatch(fast, version, { urls: ['https://example.com/a'], webhook: { url: receiver.url, events: [] } });
      await untilEnded(version, batch.url);
      const bodies = await receiver.until(3);
      for (const body of bodies) expectValid(`${version}/WebhookEvent`, body);
      expect(bodies.map((b) => b.type)).toEqual(['batch_scrape.started', 'batch_scrape.page', 'batch_scrape.completed']);
    } finally {
      await receiver.close();
    }
  });

  it('ends the webhook of a job that failed with .completed, success false and its error: there is no failed event', async () => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({ reach: createReach({}), timeoutMs: TIMEOUT_MS });
    try {
      sender.open('job-1', 'crawl', { url: receiver.url, headers: {}, metadata: {}, events: new Set(['completed']) });
      sender.send('job-1', 'completed', '[]', 'The start address could not be read.');
      const [body] = await receiver.until(1);
      expectValid('v2/WebhookEvent', { ...body, id: 'job-1' });
      expect(body).toMatchObject({ success: false, type: 'crawl.completed', id: 'job-1', error: 'The start address could not be read.' });
    } finally {
      sender.close();
      await receiver.close();
    }
  });
});

describe('the kit at service level, against a self-hosted service', () => {
  it('holds creditsUsed -1 valid: the status checks of both versions pass', async () => {
    const target = await kitTarget({ creditsUnknown: true });
    try {
      const report = await runContract(target.options({ only: ['v*.status', 'v*.status.pagination'], level: 'service', behaviour: false }));
      const creditsSeen = target.log.some((e) => e.method === 'GET' && e.status === 200 && e.answer.includes('"creditsUsed":-1'));
      expect(creditsSeen).toBe(true);
      const names = ['v1.status', 'v1.status.pagination', 'v2.status', 'v2.status.pagination'];
      const run = report.checks.filter((c) => names.includes(c.name)).sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name));
      expect(run.map((c) => `${c.name}: ${c.status} ${c.failures.map((f) => f.message).join(' | ')}`)).toEqual(
        names.map((name) => `${name}: pass `),
      );
    } finally {
      await target.close();
    }
  }, 120_000);
});
