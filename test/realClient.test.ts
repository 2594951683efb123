/**
 * Real-client conformance: drive the official JS SDK (@mendable/firecrawl-js)
 * against a local capture server and check that every crawl / batch scrape
 * request body it POSTs (v1 and v2) validates against our schemas.
 *
 * Nothing here fights the SDK: the expected bodies of the cases are exactly what
 * the SDK puts on the wire (including the `origin` it injects and the way v2
 * batch scrape flattens scrape options to the top level). The cases are in
 * test/support/realClientV1Cases.ts, realClientV2Cases.ts and
 * realClientTypedExtras.ts, built by test/support/realClientSdk.ts.
 *
 * SDK entry points used (all "start" calls, so no polling happens, except the
 * one v1 batch case that needs `batchScrapeUrls` to send `maxConcurrency`; its
 * status poll goes to GET /v1/crawl/:id and is answered "completed"):
 *   v1: new Firecrawl(...).v1 (a FirecrawlAppV1) -> asyncCrawlUrl, asyncBatchScrapeUrls, batchScrapeUrls
 *   v2: new Firecrawl(...)                         -> startCrawl, startBatchScrape
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { validate } from '../schemas/validate.js';
import { startCaptureServer, type Captured, type CaptureServer } from './support/captureServer.js';
import { type Case, type Clients } from './support/realClientSdk.js';
import { v1BatchCases, v1CrawlCases } from './support/realClientV1Cases.js';
import { v2BatchCases, v2CrawlCases } from './support/realClientV2Cases.js';
import { typedExtraCases } from './support/realClientTypedExtras.js';

interface Outcome {
  requests: Captured[];
  result?: unknown;
  error?: unknown;
}

const API_KEY = 'fc-test';

const groups: Array<{ title: string; cases: Case[] }> = [
  { title: 'v1 crawl (asyncCrawlUrl -> POST /v1/crawl)', cases: v1CrawlCases },
  { title: 'v1 batch scrape (asyncBatchScrapeUrls -> POST /v1/batch/scrape)', cases: v1BatchCases },
  { title: 'v2 crawl (startCrawl -> POST /v2/crawl)', cases: v2CrawlCases },
  { title: 'v2 batch scrape (startBatchScrape -> POST /v2/batch/scrape)', cases: v2BatchCases },
  { title: 'options typed by the SDK beyond the spec list', cases: typedExtraCases },
];
const allCases = groups.flatMap((g) => g.cases);

// ---------------------------------------------------------------------------
// Drive the SDK once, record what each case sent
// ---------------------------------------------------------------------------

let server: CaptureServer | undefined;
let clients: Clients | undefined;
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  server = await startCaptureServer();
  const v2 = new Firecrawl({ apiKey: API_KEY, apiUrl: server.baseUrl, maxRetries: 1 });
  clients = { v2, v1: v2.v1 };
  for (const c of allCases) {
    const before = server.requests.length;
    const outcome: Outcome = { requests: [] };
    try {
      outcome.result = await c.run(clients);
    } catch (error) {
      outcome.error = error;
    }
    outcome.requests = server.requests.slice(before);
    outcomes.set(c.name, outcome);
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
});

function capturedFor(c: Case): { outcome: Outcome; request: Captured } {
  const outcome = outcomes.get(c.name);
  if (!outcome) throw new Error(`case "${c.name}" did not run`);
  expect(outcome.error).toBeUndefined();
  const posts = outcome.requests.filter((r) => r.method === 'POST');
  expect(posts, 'exactly one POST per SDK call').toHaveLength(1);
  return { outcome, request: posts[0]! };
}

describe('capture harness', () => {
  it('case names are unique', () => {
    expect(new Set(allCases.map((c) => c.name)).size).toBe(allCases.length);
  });

  it('the unified client exposes the v1 client as FirecrawlAppV1', () => {
    expect(clients?.v1).toBeInstanceOf(FirecrawlAppV1);
  });

  it('captured exactly one POST per case, and nothing but status polls besides', () => {
    const requests = server?.requests ?? [];
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(allCases.length);
    const polling = allCases.filter((c) => c.polls).length;
    const others = requests.filter((r) => r.method !== 'POST');
    expect(others).toHaveLength(polling);
    for (const r of others) {
      expect(r.method).toBe('GET');
      expect(r.path).toMatch(/^\/v1\/crawl\/[0-9a-f-]{36}$/);
    }
  });

  it('v2 SDK refuses a bare "json" format client-side and sends nothing', async () => {
    const before = server?.requests.length;
    await expect(clients!.v2.startCrawl('https://example.com/docs', { scrapeOptions: { formats: ['json'] } })).rejects.toThrow(
      /json format must be an object/,
    );
    expect(server?.requests.length).toBe(before);
  });
});

for (const group of groups) {
  describe(group.title, () => {
    for (const c of group.cases) {
      describe(c.name, () => {
        it('SDK call resolves with the started job', () => {
          const { outcome } = capturedFor(c);
          expect(outcome.result).toEqual(c.expectedResult);
        });

        it(`POSTs the options to ${c.path} with the API key`, () => {
          const { request } = capturedFor(c);
          expect(request.path).toBe(c.path);
          expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
          expect(request.headers['content-type']).toMatch(/^application\/json/);
          for (const [name, value] of Object.entries(c.expectedHeaders ?? {})) {
            expect(request.headers[name]).toBe(value);
          }
          expect(request.body).toEqual(c.expectedBody);
          for (const key of c.absentKeys ?? []) {
            expect(request.body).not.toHaveProperty(key);
          }
        });

        if (c.rejectedPaths) {
          const rejected = c.rejectedPaths;
          it(`body is rejected as ${c.schema} exactly at ${rejected.join(', ')}`, () => {
            const { request } = capturedFor(c);
            const result = validate(c.schema, request.body);
            const errors = 'errors' in result ? result.errors : [];
            expect(errors.map((e) => [e.path, e.rule]).sort()).toEqual(rejected.map((p) => [p, 'additionalProperties']).sort());
          });
        } else {
          it(`body validates as ${c.schema}`, () => {
            const { request } = capturedFor(c);
            const result = validate(c.schema, request.body);
            const errors = 'errors' in result ? result.errors : [];
            expect(errors).toEqual([]);
            expect(result.valid).toBe(true);
          });
        }
      });
    }
  });
}
