/**
 * The breaking-change guard (scripts/breakingChanges.ts): each kind of change on small crafted document
 * pairs, judged both where clients send it (a request body) and where consumers read it (an answer, a
 * webhook event); the current documents against themselves; the command's output and exit status.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compareDocuments, formatChange, summary, type Change } from '../scripts/breakingChanges.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
type Json = Record<string, unknown>;

const json = (schema: unknown) => ({ 'application/json': { schema } });

/** A document with one operation, POST /v2/crawl, sending `request` and answering 200 with `response`. */
function document(request: unknown, response: unknown, schemas: Json = {}): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'test', version: 'v2' },
    paths: {
      '/v2/crawl': {
        post: {
          requestBody: { required: true, content: json(request) },
          responses: { '200': { description: 'started', content: json(response) } },
        },
      },
    },
    components: { schemas },
  };
}

const EMPTY = { type: 'object' };
const lines = (changes: Change[]) => changes.map(formatChange);

/** The changes from `before` to `after`, where clients send the schema and where consumers read it. */
function bothWays(before: unknown, after: unknown): { request: string[]; response: string[] } {
  return {
    request: lines(compareDocuments(document(before, EMPTY), document(after, EMPTY), 'v2')),
    response: lines(compareDocuments(document(EMPTY, before), document(EMPTY, after), 'v2')),
  };
}

const object = (properties: Json, required: string[] = [], extra: Json = {}) => ({ type: 'object', properties, required, ...extra });
const REQUEST = 'v2 POST /v2/crawl request';
const RESPONSE = 'v2 POST /v2/crawl response 200';

describe('changes to a schema, judged by who is affected', () => {
  const cases: { change: string; before: unknown; after: unknown; request: string[]; response: string[] }[] = [
    {
      change: 'a new required field',
      before: object({ url: { type: 'string' } }, ['url']),
      after: object({ url: { type: 'string' }, limit: { type: 'integer' } }, ['url', 'limit']),
      request: [`BREAKING  ${REQUEST}: new required field limit`],
      response: [`ok        ${RESPONSE}: new field limit (always present)`],
    },
    {
      change: 'a new optional field',
      before: object({ url: { type: 'string' } }),
      after: object({ url: { type: 'string' }, limit: { type: 'integer' } }),
      request: [`ok        ${REQUEST}: new optional field limit`],
      response: [`ok        ${RESPONSE}: new field limit`],
    },
    {
      change: 'a removed field',
      before: object({ url: { type: 'string' }, limit: { type: 'integer' } }),
      after: object({ url: { type: 'string' } }),
      request: [`BREAKING  ${REQUEST}: field limit removed`],
      response: [`BREAKING  ${RESPONSE}: field limit removed`],
    },
    {
      change: 'a field made optional',
      before: object({ id: { type: 'string' } }, ['id']),
      after: object({ id: { type: 'string' } }),
      request: [`ok        ${REQUEST}: field id made optional`],
      response: [`BREAKING  ${RESPONSE}: field id made optional`],
    },
    {
      change: 'a field made required',
      before: object({ id: { type: 'string' } }),
      after: object({ id: { type: 'string' } }, ['id']),
      request: [`BREAKING  ${REQUEST}: field id made required`],
      response: [`ok        ${RESPONSE}: field id made required`],
    },
    {
      change: 'a lower maximum',
      before: object({ scrapeOptions: object({ timeout: { type: 'integer', maximum: 300000 } }) }),
      after: object({ scrapeOptions: object({ timeout: { type: 'integer', maximum: 200000 } }) }),
      request: [`BREAKING  ${REQUEST}: field scrapeOptions.timeout maximum 300000 → 200000 (narrowed)`],
      response: [`ok        ${RESPONSE}: field scrapeOptions.timeout maximum 300000 → 200000 (narrowed)`],
    },
    {
      change: 'a higher maximum',
      before: object({ timeout: { type: 'integer', maximum: 200000 } }),
      after: object({ timeout: { type: 'integer', maximum: 300000 } }),
      request: [`ok        ${REQUEST}: field timeout maximum 200000 → 300000 (widened)`],
      response: [`BREAKING  ${RESPONSE}: field timeout maximum 200000 → 300000 (widened)`],
    },
    {
      change: 'a new minimum length',
      before: object({ prompt: { type: 'string' } }),
      after: object({ prompt: { type: 'string', minLength: 1 } }),
      request: [`BREAKING  ${REQUEST}: field prompt minLength none → 1 (narrowed)`],
      response: [`ok        ${RESPONSE}: field prompt minLength none → 1 (narrowed)`],
    },
    {
      change: 'a limit taken away',
      before: object({ urls: { type: 'array', items: { type: 'string' }, maxItems: 1000 } }),
      after: object({ urls: { type: 'array', items: { type: 'string' } } }),
      request: [`ok        ${REQUEST}: field urls maxItems 1000 → none (widened)`],
      response: [`BREAKING  ${RESPONSE}: field urls maxItems 1000 → none (widened)`],
    },
    {
      change: 'a widened enum',
      before: object({ status: { type: 'string', enum: ['scraping', 'completed'] } }),
      after: object({ status: { type: 'string', enum: ['scraping', 'completed', 'cancelled'] } }),
      request: [`ok        ${REQUEST}: field status enum: new "cancelled" (widened)`],
      response: [`BREAKING  ${RESPONSE}: field status enum: new "cancelled" (widened)`],
    },
    {
      change: 'a narrowed enum',
      before: object({ proxy: { type: 'string', enum: ['basic', 'stealth', 'auto'] } }),
      after: object({ proxy: { type: 'string', enum: ['basic', 'auto'] } }),
      request: [`BREAKING  ${REQUEST}: field proxy enum: removed "stealth" (narrowed)`],
      response: [`ok        ${RESPONSE}: field proxy enum: removed "stealth" (narrowed)`],
    },
    {
      change: 'a changed type',
      before: object({ id: { type: 'string' } }),
      after: object({ id: { type: 'integer' } }),
      request: [`BREAKING  ${REQUEST}: field id type string → integer (changed)`],
      response: [`BREAKING  ${RESPONSE}: field id type string → integer (changed)`],
    },
    {
      change: 'a widened type (integer to number)',
      before: object({ credits: { type: 'integer' } }),
      after: object({ credits: { type: 'number' } }),
      request: [`ok        ${REQUEST}: field credits type integer → number (widened)`],
      response: [`BREAKING  ${RESPONSE}: field credits type integer → number (widened)`],
    },
    {
      change: 'a newly closed object',
      before: object({ url: { type: 'string' } }),
      after: object({ url: { type: 'string' } }, [], { additionalProperties: false }),
      request: [`BREAKING  ${REQUEST}: body newly closed: keys it does not list are refused`],
      response: [`ok        ${RESPONSE}: body newly closed: keys it does not list are refused`],
    },
    {
      change: 'an opened object',
      before: object({ location: object({ country: { type: 'string' } }, [], { additionalProperties: false }) }),
      after: object({ location: object({ country: { type: 'string' } }) }),
      request: [`ok        ${REQUEST}: object location opened: keys it does not list are allowed`],
      response: [`ok        ${RESPONSE}: object location opened: keys it does not list are allowed`],
    },
    {
      change: 'a new union variant',
      before: object({ parser: { anyOf: [{ const: 'pdf' }, object({ type: { const: 'pdf' } }, ['type'])] } }),
      after: object({ parser: { anyOf: [{ const: 'pdf' }, object({ type: { const: 'pdf' } }, ['type']), { type: 'null' }] } }),
      request: [`ok        ${REQUEST}: field parser also accepts null (variant added)`],
      response: [`BREAKING  ${RESPONSE}: field parser may now hold null (new variant consumers must handle)`],
    },
    {
      change: 'a removed union variant',
      before: object({ next: { anyOf: [{ type: 'string' }, { type: 'null' }] } }),
      after: object({ next: { type: 'string' } }),
      request: [`BREAKING  ${REQUEST}: field next no longer accepts null (variant removed)`],
      response: [`ok        ${RESPONSE}: field next no longer holds null (variant removed)`],
    },
    {
      change: 'a change inside a union variant',
      before: object({
        format: { oneOf: [object({ type: { const: 'json' }, prompt: { type: 'string' } }), object({ type: { const: 'screenshot' } })] },
      }),
      after: object({
        format: {
          oneOf: [
            object({ type: { const: 'json' }, prompt: { type: 'string', maxLength: 10 } }),
            object({ type: { const: 'screenshot' } }),
          ],
        },
      }),
      request: [`BREAKING  ${REQUEST}: field format(type "json").prompt maxLength none → 10 (narrowed)`],
      response: [`ok        ${RESPONSE}: field format(type "json").prompt maxLength none → 10 (narrowed)`],
    },
    {
      change: 'a new rule',
      before: object({ formats: { type: 'array' } }),
      after: object({ formats: { type: 'array' } }, [], {
        allOf: [{ properties: { formats: { not: { minContains: 2 }, 'x-crawlspec-rules': [{ id: 'oneScreenshotFormat' }] } } }],
      }),
      request: [`BREAKING  ${REQUEST}: body: new rule oneScreenshotFormat (narrowed)`],
      response: [`ok        ${RESPONSE}: body: new rule oneScreenshotFormat (narrowed)`],
    },
    {
      change: 'a new pattern',
      before: object({ country: { type: 'string' } }),
      after: object({ country: { type: 'string', pattern: '^[A-Z]{2}$' } }),
      request: [`BREAKING  ${REQUEST}: field country pattern added: "^[A-Z]{2}$" (narrowed)`],
      response: [`ok        ${RESPONSE}: field country pattern added: "^[A-Z]{2}$" (narrowed)`],
    },
    {
      change: 'a changed default',
      before: object({ limit: { type: 'integer', default: 10000 } }),
      after: object({ limit: { type: 'integer', default: 100 } }),
      request: [`ok        ${REQUEST}: field limit default 10000 → 100 (clients that omit it get the new one)`],
      response: [],
    },
  ];

  for (const { change, before, after, request, response } of cases) {
    it(`${change}: where clients send it, and where consumers read it`, () => {
      expect(bothWays(before, after)).toEqual({ request, response });
    });
  }

  it('finds nothing where only descriptions, examples, provenance or the order of keys changed', () => {
    const before = object({ url: { type: 'string', description: 'Start.', examples: ['https://a.example'] } }, ['url']);
    const after = {
      required: ['url'],
      properties: { url: { description: 'Where to start.', 'x-crawlspec-source': 'service', type: 'string' } },
      type: 'object',
    };
    expect(bothWays(before, after)).toEqual({ request: [], response: [] });
  });

  it('reads a union of constants as the enum it is', () => {
    const before = object({ sitemap: { anyOf: [{ const: 'skip' }, { const: 'include' }] } });
    expect(bothWays(before, object({ sitemap: { type: 'string', enum: ['skip', 'include'] } }))).toEqual({ request: [], response: [] });
    expect(bothWays(before, object({ sitemap: { enum: ['skip', 'include', 'only'] } })).request).toEqual([
      `ok        ${REQUEST}: field sitemap enum: new "only" (widened)`,
    ]);
    // Made a union of a value and an object: the string branch lost a value, the object branch is new.
    expect(bothWays(before, object({ sitemap: { anyOf: [{ const: 'skip' }, object({ mode: { const: 'include' } })] } })).request).toEqual([
      `ok        ${REQUEST}: field sitemap also accepts object (variant added)`,
      `BREAKING  ${REQUEST}: field sitemap("skip") enum: removed "include" (narrowed)`,
    ]);
  });

  it('follows $ref into components and names the field where the component is used', () => {
    const options = (maximum: number) => ({ ScrapeOptions: object({ timeout: { type: 'integer', maximum } }) });
    const request = object({ scrapeOptions: { $ref: '#/components/schemas/ScrapeOptions', description: 'How.' } });
    const changes = compareDocuments(document(request, EMPTY, options(300000)), document(request, EMPTY, options(200000)), 'v2');
    expect(lines(changes)).toEqual([`BREAKING  ${REQUEST}: field scrapeOptions.timeout maximum 300000 → 200000 (narrowed)`]);
  });

  it('compares recursive schemas without looping', () => {
    const tree = (type: string) => ({
      Node: object({ name: { type }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } }),
    });
    const ref = { $ref: '#/components/schemas/Node' };
    expect(lines(compareDocuments(document(ref, EMPTY, tree('string')), document(ref, EMPTY, tree('integer')), 'v2'))).toEqual([
      `BREAKING  ${REQUEST}: field name type string → integer (changed)`,
    ]);
  });
});

describe('changes to operations', () => {
  const responses = (...statuses: string[]) => Object.fromEntries(statuses.map((s) => [s, { description: s, content: json(EMPTY) }]));
  const api = (paths: Json, webhooks: Json = {}): Json => ({ openapi: '3.1.0', info: { title: 't', version: 'v2' }, paths, webhooks });
  const get = (parameters: Json[], ...statuses: string[]) => ({ get: { parameters, responses: responses(...statuses) } });
  const skip = { name: 'skip', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } };
  const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

  it('a removed operation is breaking; a new one is not', () => {
    const before = api({ '/v2/crawl/{id}': get([id('id')], '200'), '/v2/crawl/active': get([], '200') });
    const after = api({ '/v2/crawl/{id}': get([id('id')], '200'), '/v2/crawl/ongoing': get([], '200') });
    expect(lines(compareDocuments(before, after, 'v2'))).toEqual([
      'BREAKING  v2 GET /v2/crawl/active: operation removed',
      'ok        v2 GET /v2/crawl/ongoing: operation added',
    ]);
  });

  it('a removed status code is breaking; a new one is not', () => {
    const before = api({ '/v2/crawl/{id}': get([id('id')], '200', '404') });
    const after = api({ '/v2/crawl/{id}': get([id('id')], '200', '429') });
    expect(lines(compareDocuments(before, after, 'v2'))).toEqual([
      'BREAKING  v2 GET /v2/crawl/{id}: status 404 removed',
      'ok        v2 GET /v2/crawl/{id}: status 429 added',
    ]);
  });

  it('parameters: a new required one, a removed one and a narrowed one are breaking; a new optional one is not', () => {
    const before = api({ '/v2/crawl/{id}': get([id('id'), skip, { name: 'expand', in: 'query', schema: { type: 'string' } }], '200') });
    const after = api({
      '/v2/crawl/{jobId}': get(
        [id('jobId'), { ...skip, schema: { type: 'integer', minimum: 1 } }, { name: 'limit', in: 'query', schema: { type: 'integer' } }],
        '200',
      ),
    });
    const afterRequired = api({
      '/v2/crawl/{id}': get(
        [id('id'), skip, { name: 'expand', in: 'query', schema: { type: 'string' } }, { name: 'token', in: 'query', required: true }],
        '200',
      ),
    });
    // A renamed path parameter is the same parameter.
    expect(lines(compareDocuments(before, after, 'v2'))).toEqual([
      'BREAKING  v2 GET /v2/crawl/{jobId} request: parameter expand (query) removed',
      'BREAKING  v2 GET /v2/crawl/{jobId} request: parameter skip (query) minimum 0 → 1 (narrowed)',
      'ok        v2 GET /v2/crawl/{jobId} request: new optional parameter limit (query)',
    ]);
    expect(lines(compareDocuments(before, afterRequired, 'v2'))).toEqual([
      'BREAKING  v2 GET /v2/crawl/{id} request: new required parameter token (query)',
    ]);
  });

  it('a body made required, a removed media type and authentication required where none was are breaking', () => {
    const post = (required: boolean, security?: unknown[]) => ({
      post: {
        ...(security === undefined ? {} : { security }),
        requestBody: {
          required,
          content: { ...json(EMPTY), ...(required ? {} : { 'application/x-www-form-urlencoded': { schema: EMPTY } }) },
        },
        responses: responses('200'),
      },
    });
    const changes = compareDocuments(api({ '/v2/crawl': post(false, []) }), api({ '/v2/crawl': post(true, [{ bearerAuth: [] }]) }), 'v2');
    expect(lines(changes)).toEqual([
      'BREAKING  v2 POST /v2/crawl: authentication none → bearerAuth',
      'BREAKING  v2 POST /v2/crawl request: body made required',
      'BREAKING  v2 POST /v2/crawl request: media type application/x-www-form-urlencoded removed',
    ]);
  });

  it("a webhook's event is read by the receiver: a new value in it is breaking, a new optional field is not", () => {
    const event = (kinds: string[], extra: Json = {}) =>
      api(
        {},
        {
          crawlEvent: {
            post: {
              requestBody: { required: true, content: json(object({ type: { enum: kinds }, ...extra }, ['type'])) },
              responses: { '200': { description: 'ack' } },
            },
          },
        },
      );
    const changes = compareDocuments(
      event(['crawl.started']),
      event(['crawl.started', 'crawl.failed'], { note: { type: 'string' } }),
      'v2',
    );
    expect(lines(changes)).toEqual([
      'ok        v2 webhook crawlEvent event: new field note',
      'BREAKING  v2 webhook crawlEvent event: field type enum: new "crawl.failed" (widened)',
    ]);
    expect(lines(compareDocuments(event(['a']), api({}), 'v2'))).toEqual(['BREAKING  v2 webhook crawlEvent: webhook removed']);
  });
});

describe('the current documents', () => {
  for (const name of ['v1', 'v2', 'openapi']) {
    it(`${name}.json compared with itself has no changes`, () => {
      const doc = JSON.parse(readFileSync(join(ROOT, 'generated', 'openapi', `${name}.json`), 'utf8')) as Json;
      expect(compareDocuments(doc, structuredClone(doc), name)).toEqual([]);
    });
  }

  it('a narrowed scrape option shows up at every place it is sent', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'generated', 'openapi', 'v2.json'), 'utf8')) as Json;
    const changed = structuredClone(doc);
    const schemas = (changed['components'] as { schemas: Record<string, { properties: Record<string, Json> }> }).schemas;
    schemas['ScrapeOptions']!.properties['timeout']!['maximum'] = 200000;
    schemas['BatchScrapeRequest']!.properties['timeout']!['maximum'] = 200000;
    const changes = compareDocuments(doc, changed, 'v2');
    expect(lines(changes)).toEqual([
      'BREAKING  v2 POST /v2/crawl request: field scrapeOptions.timeout maximum 300000 → 200000 (narrowed)',
      'BREAKING  v2 POST /v2/batch/scrape request: field timeout maximum 300000 → 200000 (narrowed)',
    ]);
    expect(summary(changes, 'v0.1.0')).toBe('2 changes since v0.1.0: 2 breaking, 0 not breaking');
  });
});

describe('the command', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'crawlspec-breaking-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const run = (...args: string[]) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'breakingChanges.ts'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  const write = (name: string, doc: Json) => {
    const file = join(tmp, name);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it('reports, exits 0, and exits 1 with --fail-on-breaking', () => {
    const before = write('before.json', document(object({ url: { type: 'string' } }), EMPTY));
    const after = write('v2.json', document(object({ url: { type: 'string' }, limit: { type: 'integer' } }, ['limit']), EMPTY));
    const report = run('--base', before, '--current', after);
    expect(report).toEqual({
      code: 0,
      stdout: `BREAKING  v2 POST /v2/crawl request: new required field limit\n1 change since ${before}: 1 breaking, 0 not breaking\n`,
      stderr: '',
    });
    expect(run('--base', before, '--current', after, '--fail-on-breaking').code).toBe(1);
    expect(run('--base', after, '--current', after, '--fail-on-breaking')).toEqual({
      code: 0,
      stdout: `no changes since ${after}\n`,
      stderr: '',
    });
  });

  it('compares generated/openapi with a git ref', () => {
    const report = run('--base', 'HEAD');
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/(no changes|\d+ changes?) since HEAD/);
  });

  it('refuses a base that is neither a file nor a git ref', () => {
    const report = run('--base', 'no-such-file-or-ref');
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('neither a file, a folder, nor a git ref');
  });
});
