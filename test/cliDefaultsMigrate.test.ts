/**
 * `crawlspec defaults` and `crawlspec migrate`, run for real (test/support/cliRuns.ts): what each prints and exits
 * with for a valid body, and for one it cannot complete or migrate.
 */
import { describe, it } from 'vitest';
import { TEST_TIMEOUT_MS, cli, line } from './support/cliRuns.js';

describe.concurrent('crawlspec defaults and migrate', { timeout: TEST_TIMEOUT_MS }, () => {
  it('defaults prints a valid body with the version defaults filled in (exit 0)', async ({ expect }) => {
    const [v1, v2] = await Promise.all([
      cli(['defaults', 'v1/BatchScrapeRequest'], line({ urls: ['https://example.com/a'] })),
      cli(['defaults', 'v2/BatchScrapeRequest'], line({ urls: ['https://example.com/a'] })),
    ]);
    expect(v1.code).toBe(0);
    expect(JSON.parse(v1.stdout)).toMatchObject({ urls: ['https://example.com/a'], ignoreInvalidURLs: false, maxAge: 0, proxy: 'basic' });
    expect(v2.code).toBe(0);
    expect(JSON.parse(v2.stdout)).toMatchObject({ ignoreInvalidURLs: true, maxAge: 172800000, proxy: 'auto', parsers: ['pdf'] });
  });

  it('defaults refuses an invalid body with its problems on stderr (exit 1)', async ({ expect }) => {
    const run = await cli(['defaults', 'v2/CrawlRequest'], line({ url: 'ftp://example.com' }));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('$.url: URL uses unsupported protocol');
  });

  it('migrate prints the v2 request, warnings on stderr (exit 0)', async ({ expect }) => {
    const run = await cli(
      ['migrate'],
      line({ url: 'https://example.com/docs', maxDepth: 3, ignoreSitemap: true, scrapeOptions: { parsePDF: false } }),
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      url: 'https://example.com/docs',
      sitemap: 'skip',
      scrapeOptions: { parsers: [], maxAge: 0, skipTlsVerification: false, proxy: 'basic' },
    });
    expect(run.stderr).toMatch(/^warning: maxDepth: dropped/m);
  });

  it('migrate refuses what is not a v1 crawl or batch request (exit 1), and malformed JSON (exit 1)', async ({ expect }) => {
    const [neither, malformed] = await Promise.all([cli(['migrate'], line({ limit: 3 })), cli(['migrate'], '{')]);
    expect(neither.code).toBe(1);
    expect(neither.stdout).toBe('');
    expect(neither.stderr).toBe('not migrated (the standard input): 1 problem\n  input has neither url (crawl request) nor urls (batch scrape request)\n');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^not migrated \(the standard input\): 1 problem\n {2}\$: is not valid JSON/);
  });
});
