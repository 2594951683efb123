/**
 * The reference server's side of issue 13 ("Hardening, round two"), each finding in the small: what the attack
 * stage of `npm run load` replays against a whole server (scripts/load/attacks/), here fast and deterministic,
 * against `createReferenceApp` (through `handle`, or `listen` where the socket matters).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../schemas/validate.js';
import { createReferenceApp, type AppRequest, type InMemoryReferenceApp, type ReferenceAppOptions } from '../scripts/server/app.js';
import { JsonTooLong, stringifyJson, withRawFields } from '../scripts/server/jsonText.js';
import { hangingReceiver, receiver } from '../scripts/load/attacks/net.js';
import { createReach } from '../scripts/server/reach.js';
import {
  Holdings,
  keptRecord,
  MAX_HELD_RECORDS,
  MAX_JOB_RECORDS,
  MAX_RECORD_BYTES,
  statusPage,
  type Ticket,
} from '../scripts/server/records.js';
import { MAX_QUEUED_EVENTS, WebhookSender, webhookTarget } from '../scripts/server/webhooks.js';
import { untilEnded } from './support/untilEnded.js';

const BASE = 'http://127.0.0.1:9';
const apps: InMemoryReferenceApp[] = [];

afterEach(() => {
  for (const app of apps.splice(0)) app.close();
});

function makeApp(options: Partial<ReferenceAppOptions> = {}): InMemoryReferenceApp {
  const app = createReferenceApp({ auth: 'none', publicUrl: () => BASE, pageIntervalMs: 5, ...options });
  apps.push(app);
  return app;
}

async function ask(app: InMemoryReferenceApp, method: string, url: string, body = '', headers: AppRequest['headers'] = {}) {
  // A body is sent as JSON, as a start must be.
  const answer = await app.handle({
    method,
    url,
    headers: body === '' ? headers : { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: answer.status, text: answer.body, json: () => JSON.parse(answer.body) as any };
}

/** `{"a":{"a":…{}…}}`, `depth` objects deep, as text. */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;

describe('finding 7: what a caller nests is never serialised recursively', () => {
  it('stringifyJson writes what JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 500, seed: 13 },
    );
    const odd = { a: undefined, b: () => 1, c: [undefined, () => 1, Symbol('s'), NaN, -0], d: new Date(0), e: Object(1), [Symbol('k')]: 1 };
    expect(stringifyJson(odd)).toBe(JSON.stringify(odd));
    for (const value of [undefined, () => 1, null, 'x', 1e21, [], {}]) expect(stringifyJson(value)).toBe(JSON.stringify(value));
    const cycle: Record<string, unknown> = {};
    cycle['self'] = { cycle };
    expect(() => stringifyJson(cycle)).toThrow(TypeError);
    expect(() => stringifyJson({ n: 1n })).toThrow(TypeError);
  });

  it('stringifyJson writes values nested 100,000 deep, which JSON.stringify cannot', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(stringifyJson(deep)).toBe(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(stringifyJson(JSON.parse(nested(100_000)))).toBe(nested(100_000));
  });

  it('withRawFields appends fields given as JSON text', () => {
    expect(withRawFields({ a: 1 }, { b: '[1,{"c":2}]' })).toBe('{"a":1,"b":[1,{"c":2}]}');
    expect(withRawFields({}, { b: 'null' })).toBe('{"b":null}');
    expect(withRawFields({ a: 1 }, {})).toBe('{"a":1}');
  });

  it('lists running crawls whose options nest 20,000 levels deep, in both versions', async () => {
    const app = makeApp();
    const schema = nested(20_000);
    const bodies = {
      v2: `{"url":"https://example.com/nested","delay":30,"scrapeOptions":{"formats":[{"type":"json","schema":${schema}}]}}`,
      // v1 compiles a given JSON Schema and refuses one of more than 2000 values unread (issue 14.2): its deep
      // options are an open action object's instead.
      v1: `{"url":"https://example.com/nested","delay":30,"scrapeOptions":{"actions":[{"type":"wait","milliseconds":1,"nested":${schema}}]}}`,
    };
    const ids: string[] = [];
    for (const version of ['v2', 'v1'] as const) {
      const started = await ask(app, 'POST', `/${version}/crawl`, bodies[version]);
      expect(started.status, started.text.slice(0, 200)).toBe(200);
      ids.push(started.json().id);
    }
    for (const version of ['v1', 'v2'] as const) {
      const active = await ask(app, 'GET', `/${version}/crawl/active`);
      expect(active.status, active.text.slice(0, 200)).toBe(200);
      const crawls = active.json().crawls as { id: string; options: { scrapeOptions: Record<string, any> } }[];
      expect(crawls.map((c) => c.id).sort()).toEqual([...ids].sort());
      // The schema is listed whole, as deep as it was sent.
      expect(active.text.split('{"a":').length - 1).toBe(2 * 20_000);
      // The rest of the answer is the service's shape.
      const shallow = JSON.parse(active.text.replaceAll(schema, '{}'));
      expect(validate(`${version}/ActiveCrawlsResponse`, shallow)).toEqual({ valid: true });
    }
  });
});

describe('findings 1, 2 and 4: what jobs hold is bounded, not the number of requests', () => {
  it('stringifyJson gives up as soon as the text passes maxLength', () => {
    const long = 'x'.repeat(1000);
    expect(() =>
      stringifyJson(
        Array.from({ length: 1000 }, () => long),
        10_000,
      ),
    ).toThrow(JsonTooLong);
    expect(() => stringifyJson(long, 999)).toThrow(JsonTooLong);
    expect(stringifyJson([long], 1004)).toBe(JSON.stringify([long]));
  });

  it('keeps a record as its JSON text, and refuses one past MAX_RECORD_BYTES by its bytes', () => {
    expect(keptRecord({ a: 'é' })).toEqual({ text: '{"a":"é"}', bytes: 10 });
    expect(keptRecord({ html: 'x'.repeat(MAX_RECORD_BYTES) })).toMatch(/larger than 10485760 bytes/);
    // Characters within the bound, bytes past it: still refused.
    expect(keptRecord({ html: 'é'.repeat(MAX_RECORD_BYTES / 2) })).toMatch(/larger than/);
  });

  it('fills a status page up to its byte cap: a record that does not fit opens the next page', () => {
    const records = [10, 30, 50, 10, 200].map((n, i) => ({ text: JSON.stringify({ i, pad: 'x'.repeat(n) }), bytes: n + 20 }));
    const first = statusPage(records, 0, 100, 100);
    expect(first.end).toBe(2); // 30 + 50 bytes; the third (70) would pass 100
    expect(JSON.parse(first.data)).toEqual([JSON.parse(records[0]!.text), JSON.parse(records[1]!.text)]);
    expect(statusPage(records, 2, 100, 100).end).toBe(4);
    // A record larger than the cap comes alone on its page, never skipped.
    expect(statusPage(records, 4, 100, 100)).toEqual({ data: `[${records[4]!.text}]`, end: 5 });
    expect(statusPage(records, 5, 100, 100)).toEqual({ data: '[]', end: 5 });
    expect(statusPage(records, 0, 1, 1_000).end).toBe(1);
  });

  it('admits pages up to the bounds per job and in all, and frees what a job did not make', () => {
    const holdings = new Holdings();
    const tooMany = holdings.admit(MAX_JOB_RECORDS + 1, 10, 'this batch asks for');
    expect(tooMany).toEqual({ status: 402, error: expect.stringMatching(/at most 50000 pages per job; this batch asks for 50001/) });
    const tickets: Ticket[] = [];
    for (let i = 0; i < MAX_HELD_RECORDS / MAX_JOB_RECORDS; i++) tickets.push(holdings.admit(MAX_JOB_RECORDS, 10, 'x') as Ticket);
    expect(holdings.held.pages).toBe(MAX_HELD_RECORDS);
    expect(holdings.admit(1, 10, 'this batch asks for')).toEqual({
      status: 429,
      error: expect.stringMatching(/is full: .* holds? 250000 of the 250000/),
    });
    expect(holdings.keep(tickets[0]!, 100)).toBe(true);
    holdings.settle(tickets[0]!); // it made one page of the 50,000 it reserved
    expect(holdings.held.pages).toBe(MAX_HELD_RECORDS - MAX_JOB_RECORDS + 1);
    expect(holdings.keep(tickets[0]!, 100)).toBe(false); // no page past what it reserved
    expect('status' in holdings.admit(1000, 10, 'x')).toBe(false);
    for (const ticket of tickets) holdings.release(ticket);
    expect(holdings.held).toEqual({ pages: 1000, bytes: 30 });
  });

  it('refuses a batch of more pages than a job may hold with 402 and the envelope', async () => {
    const app = makeApp();
    const urls = Array.from({ length: MAX_JOB_RECORDS + 1 }, (_, i) => (i === 7 ? 'not a url' : `https://example.com/${i}`));
    const answer = await ask(app, 'POST', '/v2/batch/scrape', JSON.stringify({ urls }));
    expect(answer.status).toBe(402);
    expect(answer.json()).toEqual({
      success: false,
      error: expect.stringMatching(/^The reference server keeps at most 50000 pages per job/),
    });
    expect(validate('v2/ErrorResponse', answer.json())).toEqual({ valid: true });
    expect(app.stats()).toMatchObject({ jobs: 0, heldPages: 0, heldBytes: 0 });
  });

  it('a crawl whose record would be 50 times its 1 MB address keeps an error instead, and its status stays small', async () => {
    const app = makeApp();
    const url = `https://example.com/${'a'.repeat(1_000_000)}`;
    const body = JSON.stringify({ url, scrapeOptions: { actions: Array.from({ length: 50 }, () => ({ type: 'scrape' })) } });
    const started = await ask(app, 'POST', '/v2/crawl', body);
    expect(started.status).toBe(200);
    const path = `/v2/crawl/${started.json().id}`;
    await untilEnded(async () => (await ask(app, 'GET', path)).json() as { status?: unknown }, 'the crawl', { timeoutMs: 60_000 });
    const status = await ask(app, 'GET', path);
    expect(status.json()).toMatchObject({ status: 'completed', completed: 0, data: [] });
    expect(status.text.length).toBeLessThan(10_000);
    const errors = (await ask(app, 'GET', `/v2/crawl/${started.json().id}/errors`)).json().errors as { error: string }[];
    expect(errors.map((e) => e.error.slice(-120))).toEqual([
      expect.stringMatching(/is not kept: its record would be larger than 10485760 bytes/),
    ]);
    expect(app.stats().heldPages).toBe(0);
  });
});

describe('findings 5 and 8: webhook deliveries', () => {
  const closers: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c.close();
  });
  const sender = (allow?: (host: string) => boolean) => {
    const s = new WebhookSender({ reach: createReach(allow === undefined ? {} : { allow }), timeoutMs: 2_000 });
    closers.push({ close: () => s.close() });
    return s;
  };
  /** Polls `ok` every 20 ms until it holds; a minute is a safety net, and fails naming what did not happen. */
  const until = async (ok: () => boolean) => {
    for (const deadline = Date.now() + 60_000; !ok(); await new Promise((resolve) => setTimeout(resolve, 20)))
      if (Date.now() > deadline) throw new Error(`${ok.toString()}: not within 60 s`);
  };

  it('never follows a redirect: the other listener gets nothing, and the next event is still delivered', async () => {
    const target = await receiver(() => ({ status: 200 }));
    closers.push(target);
    const redirector = await receiver(() => ({ status: 307, headers: { location: `${target.url}/followed` } }));
    closers.push(redirector);
    const webhooks = sender();
    webhooks.open('job', 'batch', webhookTarget({ url: `${redirector.url}/hook`, headers: { 'x-secret': 's' } })!);
    webhooks.send('job', 'started');
    webhooks.send('job', 'completed');
    // Once the job is done with (its last event delivered), any redirect it followed was followed.
    await until(() => redirector.received.length === 2 && webhooks.stats().jobs === 0);
    expect(redirector.received.map((r) => r.headers['x-secret'])).toEqual(['s', 's']);
    expect(target.received).toEqual([]);
    expect(webhooks.stats()).toEqual({ jobs: 0, queued: 0 });
  });

  it('delivers only to loopback unless a host is allowed, and never connects to an address it may not', async () => {
    const webhooks = sender();
    for (const url of [
      'http://10.0.0.1/hook',
      'http://169.254.169.254/',
      'http://[::ffff:a00:1]/',
      'http://example.com/hook',
      'ftp://127.0.0.1/',
    ]) {
      webhooks.open(url, 'crawl', webhookTarget(url)!);
      webhooks.send(url, 'started');
    }
    expect(webhooks.stats()).toEqual({ jobs: 0, queued: 0 });
    // A host the allow rule names is delivered to (the address it resolves to is checked on connecting, by the
    // same Reach lookup as the fetcher's: serverFetch.test.ts).
    const allowing = sender((host) => host === 'example.invalid');
    allowing.open('named', 'crawl', webhookTarget('http://example.invalid/hook')!);
    expect(allowing.stats().jobs).toBe(1);
  });

  it('holds at most MAX_QUEUED_EVENTS events for a receiver that hangs, drops them on cancel, and still ends with completed', async () => {
    const hanging = await hangingReceiver();
    closers.push(hanging);
    const webhooks = sender();
    webhooks.open('job', 'batch', webhookTarget({ url: hanging.url, metadata: { big: 'm'.repeat(100_000) } })!);
    webhooks.send('job', 'started');
    for (let i = 0; i < 1000; i++) webhooks.send('job', 'page', `[{"i":${i}}]`);
    expect(webhooks.stats().queued).toBeLessThanOrEqual(MAX_QUEUED_EVENTS);
    await until(() => hanging.deliveries.length === 1);
    expect(hanging.deliveries.map((d) => d.type)).toEqual(['batch_scrape.started']);
    webhooks.drop('job');
    webhooks.send('job', 'completed');
    expect(webhooks.stats()).toEqual({ jobs: 1, queued: 1 });
    // The delivery in flight gives up after the sender's time limit (2 s here); then only completed comes.
    await until(() => hanging.deliveries.length === 2);
    await until(() => webhooks.stats().jobs === 0);
    expect(hanging.deliveries.map((d) => d.type)).toEqual(['batch_scrape.started', 'batch_scrape.completed']);
    expect(webhooks.stats()).toEqual({ jobs: 0, queued: 0 });
  });

  it('forgets a job on expiry: its queue dropped and its delivery in flight aborted', async () => {
    const hanging = await hangingReceiver();
    closers.push(hanging);
    const webhooks = sender();
    webhooks.open('job', 'crawl', webhookTarget(hanging.url)!);
    webhooks.send('job', 'started');
    webhooks.send('job', 'page', '[]');
    await until(() => hanging.deliveries.length === 1);
    webhooks.forget('job');
    expect(webhooks.stats()).toEqual({ jobs: 0, queued: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hanging.deliveries).toHaveLength(1);
  });
});
