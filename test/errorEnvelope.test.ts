/** The 400 bodies built from validation issues have the service's shape and wording. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MALFORMED_JSON_BODY, parseRequestBody, validationErrorBody } from '../schemas/errorEnvelope.js';
import { validate, type SchemaName } from '../schemas/validate.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);

function bodyFor(name: SchemaName, request: unknown) {
  const result = validate(name, request);
  if (result.valid) throw new Error('expected an invalid request');
  return validationErrorBody(name.startsWith('v1') ? 'v1' : 'v2', result.errors);
}

describe('validation error body', () => {
  it('a broken rule is the error, with its message and path (v1 URL depth)', () => {
    const body = bodyFor('v1/CrawlRequest', { url: 'https://example.com/a/b/c', maxDepth: 2 });
    expect(body).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      error: 'URL depth exceeds the specified maxDepth',
      details: [{ code: 'custom', message: 'URL depth exceeds the specified maxDepth', path: ['url'] }],
    });
  });

  it('unknown keys of one object come as one detail with their keys; error uses the service wording', () => {
    const v2 = bodyFor('v2/CrawlRequest', { url: 'https://example.com', maxDepth: 3, ignoreSitemap: true });
    expect(v2.error).toBe('Unrecognized key in body -- please review the v2 API documentation for request body changes');
    expect(v2.details).toEqual([
      {
        code: 'unrecognized_keys',
        keys: ['maxDepth', 'ignoreSitemap'],
        path: [],
        message: 'Unrecognized key in body -- please review the v2 API documentation for request body changes',
      },
    ]);
    const v1 = bodyFor('v1/CrawlRequest', { url: 'https://example.com', scrapeOptions: { parsers: [] } });
    expect(v1.details?.[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['parsers'], path: ['scrapeOptions'] });
    expect(v1.details?.[0]?.message).toContain('v1 API documentation');
    // The service words the top-level error for v2 whatever the route.
    expect(v1.error).toContain('v2 API documentation');
  });

  it('a plain schema problem first gives "Bad Request", each problem with a zod-style code', () => {
    const body = bodyFor('v2/CrawlRequest', { limit: 'ten', scrapeOptions: { timeout: 300001, proxy: 'x' } });
    expect(body.error).toBe('Bad Request');
    expect(body.details?.map((d) => [d.code, d.path])).toEqual(
      expect.arrayContaining([
        ['invalid_type', ['url']],
        ['invalid_type', ['limit']],
        ['too_big', ['scrapeOptions', 'timeout']],
        ['invalid_enum_value', ['scrapeOptions', 'proxy']],
      ]),
    );
  });

  it('every body it builds is a valid ErrorResponse of both versions', () => {
    const names: SchemaName[] = ['v1/CrawlRequest', 'v2/CrawlRequest', 'v1/BatchScrapeRequest', 'v2/BatchScrapeRequest'];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 3 }), (name, request) => {
        const result = validate(name, request);
        if (result.valid) return;
        const body = validationErrorBody(name.startsWith('v1') ? 'v1' : 'v2', result.errors);
        expect(validate('v1/ErrorResponse', body)).toEqual({ valid: true });
        expect(validate('v2/ErrorResponse', body)).toEqual({ valid: true });
        expect(body.details?.length).toBeGreaterThan(0);
      }),
      { numRuns },
    );
  });
});

describe('request body parsing', () => {
  it('malformed JSON gives the service body', () => {
    expect(parseRequestBody('{"url": ')).toEqual({ ok: false, body: MALFORMED_JSON_BODY });
    expect(MALFORMED_JSON_BODY).toEqual({ success: false, code: 'BAD_REQUEST_INVALID_JSON', error: 'Bad request, malformed JSON' });
    expect(validate('v2/ErrorResponse', MALFORMED_JSON_BODY)).toEqual({ valid: true });
  });
  it('JSON text gives its value', () => {
    expect(parseRequestBody('{"url":"https://example.com"}')).toEqual({ ok: true, value: { url: 'https://example.com' } });
  });
  it('never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => void parseRequestBody(text)),
      { numRuns },
    );
  });
});
