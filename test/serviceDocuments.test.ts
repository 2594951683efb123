/**
 * What the OpenAPI documents say of the service's answers and headers where issue 14 found them wrong or silent:
 * the cancel endpoint's 500 without `success`, `POST /v2/crawl/params-preview`, the `x-idempotency-key` request
 * header, the webhook signature header and retries, the batch 404 for an unknown `appendToId`, and `next`,
 * which is a string or absent. Read from generated/openapi/, as a client generator reads them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validate } from '../schemas/validate.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const doc = (version: 'v1' | 'v2'): Json =>
  JSON.parse(readFileSync(new URL(`../generated/openapi/${version}.json`, import.meta.url), 'utf8')) as Json;
const DOCS = { v1: doc('v1'), v2: doc('v2') };
const ref = (name: string) => `#/components/schemas/${name}`;
const schemaOf = (response: Json | undefined) => response?.content?.['application/json']?.schema?.$ref as string | undefined;

describe.each(['v1', 'v2'] as const)('%s', (version) => {
  const { paths, components, webhooks } = DOCS[version];

  it('cancel: every error answer, the 500 too, is { error } without success', () => {
    for (const path of ['/crawl/{id}', '/batch/scrape/{id}']) {
      const responses = paths[`/${version}${path}`].delete.responses as Json;
      for (const status of ['404', '409', '500']) expect(schemaOf(responses[status]), `${path} ${status}`).toBe(ref('CancelErrorResponse'));
      expect(components.schemas.CancelErrorResponse.required).toEqual(['error']);
    }
  });

  it('batch start: 404 when appendToId names no batch job of the caller', () => {
    const responses = paths[`/${version}/batch/scrape`].post.responses as Json;
    expect(schemaOf(responses['404'])).toBe(ref('ErrorResponse'));
    expect(responses['404'].description).toContain('appendToId');
    expect(Object.values(responses['404'].content['application/json'].examples as Json).map((e) => (e as Json).value)).toEqual([
      { success: false, error: 'Job not found' },
    ]);
  });

  it('x-idempotency-key: a request header of the starts that honour it (v1 crawl and batch, v2 crawl), with their 409', () => {
    const starts = { crawl: paths[`/${version}/crawl`].post, batch: paths[`/${version}/batch/scrape`].post };
    for (const [kind, op] of Object.entries(starts)) {
      const header = ((op.parameters ?? []) as Json[]).find((p) => p.in === 'header' && p.name === 'x-idempotency-key');
      const honoured = version === 'v1' || kind === 'crawl';
      expect(header !== undefined, `${kind} header`).toBe(honoured);
      expect(op.responses['409'] !== undefined, `${kind} 409`).toBe(honoured);
      if (header !== undefined)
        expect(header).toMatchObject({ required: false, schema: { type: 'string' }, 'x-crawlspec-source': 'service' });
    }
  });

  it('webhook events: the signature header, and deliveries that fail are retried with the same webhookId', () => {
    for (const event of Object.values(webhooks as Json)) {
      const post = (event as Json).post as Json;
      const signature = (post.parameters as Json[]).find((p) => p.in === 'header' && p.name === 'X-Firecrawl-Signature');
      expect(signature).toMatchObject({ required: false, schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } });
      const told = [post.description, ...Object.values(post.responses as Json).map((r) => (r as Json).description)].join(' ');
      expect(told).not.toMatch(/does not retry|never retr/i);
      expect(told).toContain('webhookId');
      expect(told).toMatch(/again/);
    }
  });

  it('next is a URI string when present, never null', () => {
    const next = components.schemas.JobStatusResponse.properties.next as Json;
    expect(next.type).toBe('string');
    expect(next.anyOf ?? next.oneOf).toBeUndefined();
  });
});

describe('next: null is refused (the service leaves the key out)', () => {
  const status = {
    success: true,
    status: 'completed',
    completed: 1,
    total: 1,
    creditsUsed: 1,
    expiresAt: '2026-11-23T10:00:00.000Z',
    data: [],
  };
  it.each(['v1', 'v2'] as const)('%s', (version) => {
    expect(validate(`${version}/JobStatusResponse`, status)).toEqual({ valid: true });
    const result = validate(`${version}/JobStatusResponse`, { ...status, next: null });
    expect(result.valid ? [] : result.errors.map((e) => `${e.path} ${e.rule} ${e.message}`)).toEqual([
      '$.next type must be string, not null (null)',
    ]);
  });
});

describe('POST /v2/crawl/params-preview', () => {
  const op = DOCS.v2.paths['/v2/crawl/params-preview']?.post as Json | undefined;

  it('is documented, v2 only: a url and a prompt in, the generated options out', () => {
    expect(DOCS.v1.paths['/v1/crawl/params-preview']).toBeUndefined();
    expect(op?.requestBody.content['application/json'].schema.$ref).toBe(ref('CrawlParamsPreviewRequest'));
    expect(schemaOf(op?.responses['200'])).toBe(ref('CrawlParamsPreviewResponse'));
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '400', '401', '402', '429', '500']);
    expect(op?.['x-crawlspec-source']).toBe('service');
  });

  it('the request: url and prompt required, prompt at most 10000 characters, other keys taken (the service drops them)', () => {
    const body = { url: 'https://example.com/docs', prompt: 'Only the blog' };
    expect(validate('v2/CrawlParamsPreviewRequest', body)).toEqual({ valid: true });
    expect(validate('v2/CrawlParamsPreviewRequest', { ...body, limit: 5 })).toEqual({ valid: true });
    const problems = (value: unknown) => {
      const result = validate('v2/CrawlParamsPreviewRequest', value);
      return result.valid ? [] : result.errors.map((e) => `${e.path} ${e.rule}`);
    };
    expect(problems({ url: body.url })).toEqual(['$.prompt required']);
    expect(problems({ prompt: body.prompt })).toEqual(['$.url required']);
    expect(problems({ ...body, prompt: 'a'.repeat(10001) })).toEqual(['$.prompt maxLength']);
  });

  it('the answer: success and data, which holds the url and the generated options', () => {
    const answer = { success: true, data: { url: 'https://example.com/docs', includePaths: ['^/blog/'], limit: 50 } };
    expect(validate('v2/CrawlParamsPreviewResponse', answer)).toEqual({ valid: true });
    expect(validate('v2/CrawlParamsPreviewResponse', { success: true, data: { limit: 50 } }).valid).toBe(false);
  });

  it('a refused request answers without details: "Invalid request parameters: ..."', () => {
    const examples = op?.responses['400'].content['application/json'].examples as Json;
    const values = Object.values(examples).map((e) => (e as Json).value as Json);
    expect(
      values.some((v) => v.code === 'BAD_REQUEST' && String(v.error).startsWith('Invalid request parameters: ') && !('details' in v)),
    ).toBe(true);
  });
});
