/**
 * validate()'s valid result carries the body as `value` (issue 44; its type: test/types.test-d.ts), and still
 * prints, compares and serialises as `{ valid: true }`, as callers and the command's JSON output saw it before.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../schemas/validate.js';

describe('a valid result', () => {
  const bodies = [
    ['v2/CrawlRequest', { url: 'https://example.com/docs' }],
    // Rules written as code are checked (waits against the timeout), and kept.
    ['v2/CrawlRequest', { url: 'https://example.com/docs', scrapeOptions: { waitFor: 1000, timeout: 30000 } }],
    ['v1/BatchScrapeRequest', { urls: ['https://example.com/a'], ignoreInvalidURLs: true }],
  ] as const;

  it.each(bodies)('%s: carries the very body checked as value', (name, body) => {
    const result = validate(name, body);
    expect(result.valid).toBe(true);
    if (result.valid) expect(result.value).toBe(body);
  });

  it('prints, compares and serialises as { valid: true }', () => {
    const result = validate('v2/CrawlRequest', { url: 'https://example.com/docs' });
    expect(result).toEqual({ valid: true });
    expect(Object.keys(result)).toEqual(['valid']);
    expect(JSON.stringify(result)).toBe('{"valid":true}');
  });

  it('two results do not share a value', () => {
    const [a, b] = [{ url: 'https://a.example.com' }, { url: 'https://b.example.com' }].map((body) => validate('v2/CrawlRequest', body));
    expect(a!.valid && b!.valid && [a!.value, b!.value]).toEqual([{ url: 'https://a.example.com' }, { url: 'https://b.example.com' }]);
  });

  it('an invalid result has no value', () => {
    expect(validate('v2/CrawlRequest', { url: 5 })).not.toHaveProperty('value');
  });
});
