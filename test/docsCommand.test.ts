/**
 * `crawlspec docs`: the page the package ships, written with a publisher's title and server address, run as the
 * command (test/support/runCli.ts) and opened in headless Chromium (skipped with a notice without Chromium
 * outside CI, as test/docs.test.ts is): the page shows the title once with the version and the server address,
 * asks nothing of the network, and a title that looks like markup stays text. Usage errors are one line, exit 2.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserForTests, renderPage } from './support/renderPage.js';
import { ROOT, runCli } from './support/runCli.js';

const BROWSER = browserForTests('the render test of test/docsCommand.test.ts');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crawlspec-docs-command-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('crawlspec docs', () => {
  it('without a title or server, writes the page the package ships, byte for byte', async () => {
    const out = join(scratch, 'v1.html');
    const run = await runCli(['docs', '--version', 'v1', '-o', out], '', 60_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote ${out}: "Crawl and batch scrape API (v1)", server {baseUrl}`);
    // Buffer.equals: toEqual compares 2.6 MB byte by byte through its generic equality (some 15 s of CPU).
    expect((await readFile(out)).equals(await readFile(join(ROOT, 'generated', 'docs', 'v1.html')))).toBe(true);
  });

  it.skipIf(BROWSER.skip)(
    "with --title and --server-url, the page shows the publisher's title with the version once, and their server",
    async () => {
      const chromium = BROWSER.path();
      const out = join(scratch, 'acme.html');
      const title = 'Acme </script><b>Crawl</b> API';
      const run = await runCli(['docs', '--title', title, '--server-url', 'https://api.acme.example/', '-o', out], '', 60_000);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`wrote ${out}: "${title} (v2)", server https://api.acme.example`);
      const html = await readFile(out, 'utf8');
      expect(html).toContain('<title>Acme &lt;/script&gt;&lt;b&gt;Crawl&lt;/b&gt; API (v2)</title>');
      const page = await renderPage(chromium, out);
      expect(page.text).toContain(`${title} (v2)`);
      expect(page.text).not.toContain('Crawl and batch scrape API');
      expect(page.text).not.toContain('(v2) (v2)');
      expect(page.text).toContain('https://api.acme.example');
      expect(page.text).not.toContain('{baseUrl}');
      expect(page.requests).toEqual([]);
      // Rendered by Redoc from the changed document: a section's operations are there, with the server's address.
      const crawl = await renderPage(chromium, out, '#/crawl');
      expect(crawl.text).toContain('post /v2/crawl');
      expect(crawl.text).toContain('https://api.acme.example/v2/crawl');
      expect(crawl.requests).toEqual([]);
    },
    120_000,
  );

  it.each([
    [['--version', 'v3', '-o', 'x.html'], /^crawlspec: --version takes v1 or v2, not "v3" \(crawlspec docs --help\)\n$/],
    [['--title', '', '-o', 'x.html'], /^crawlspec: --title takes the API's name, 1 to 200 characters on one line/],
    [['--title', 'two\nlines', '-o', 'x.html'], /^crawlspec: --title takes the API's name/],
    [['--server-url', 'api.acme.example', '-o', 'x.html'], /^crawlspec: --server-url takes an http or https address/],
    [
      ['--server-url', 'https://api.acme.example/?key=1', '-o', 'x.html'],
      /^crawlspec: --server-url takes an address without a query or fragment, e\.g\. https:\/\/api\.example\.com, not/,
    ],
    [['-o', '/dev/full'], /^crawlspec: cannot write the page to "\/dev\/full" \(ENOSPC\); expected a file you may write/],
    [[], /^crawlspec: docs needs -o FILE, the file to write the page to/],
    [['-o', '/nonexistent-dir/x.html'], /^crawlspec: -o "\/nonexistent-dir\/x.html": the directory "\/nonexistent-dir" does not exist/],
  ])('%j is a usage error: exit 2, one line, nothing written', async (args, message) => {
    const run = await runCli(['docs', ...args], '', 60_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });
});
