/**
 * `crawlspec docs`: the page the package ships, written with a publisher's title and server address, run as the
 * command (test/support/runCli.ts) and opened in headless Chromium (skipped with a notice without Chromium
 * outside CI, as test/docs.test.ts is): the page shows the title once with the version and the server address,
 * asks nothing of the network, and a title that looks like markup stays text. Provenance links go to the installed
 * reference, or to `--reference-url`; `--no-provenance` leaves provenance out. Usage errors are one line, exit 2.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserForTests, renderPage } from './support/renderPage.js';
import { ROOT, runCli } from './support/runCli.js';
import { installedReference } from '../scripts/reference/citationLink.js';

/** The OpenAPI document inlined in a page, as its text. */
const definitionOf = (html: string): string =>
  html.slice(html.indexOf('const __redoc_definition = ') + 27, html.indexOf(';\n      const __redoc_options = '));

const BROWSER = browserForTests('the render test of test/docsCommand.test.ts');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crawlspec-docs-command-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('crawlspec docs', () => {
  it('without a title or server, writes the page the package ships, its provenance linked to the installed reference', async () => {
    const out = join(scratch, 'v1.html');
    const run = await runCli(['docs', '--version', 'v1', '-o', out], '', 60_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const reference = installedReference();
    expect(run.stdout).toContain(`wrote ${out}: "Crawl and batch scrape API (v1)", server {baseUrl}`);
    expect(run.stdout).toContain(`provenance linked to ${reference}`);
    const shipped = definitionOf(await readFile(join(ROOT, 'generated', 'docs', 'v1.html'), 'utf8'));
    const written = definitionOf(await readFile(out, 'utf8'));
    // The same document, each link to the shipped reference (relative to generated/docs/) now to the installed one.
    expect(shipped).toContain('](../spec/reference.html#s2-1)');
    expect(written).toBe(shipped.split('](../spec/reference.html#').join(`](${reference}#`));
  });

  it('--no-provenance leaves out every source line, citation and x-crawlspec-* annotation; the same page keeps them without it', async () => {
    const withIt = join(scratch, 'with.html');
    const without = join(scratch, 'without.html');
    const url = 'https://docs.acme.example/crawlspec/reference.html';
    const runs = await Promise.all([
      runCli(['docs', '--reference-url', url, '-o', withIt], '', 60_000),
      runCli(['docs', '--no-provenance', '-o', without], '', 60_000),
    ]);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    expect(runs[1]!.stdout).toMatch(/, no provenance\n$/);
    const kept = definitionOf(await readFile(withIt, 'utf8'));
    const left = definitionOf(await readFile(without, 'utf8'));
    expect(kept).toContain(`_Source: [interface §2.4](${url}#s2-4)_`);
    expect(kept).toContain(`[interface §5](${url}#s5)`);
    expect(kept).toContain('"x-crawlspec-source":"interface §2.4"');
    for (const mark of ['x-crawlspec-', 'interface §', '_Source:', 'reference.html', '"service"']) expect(left).not.toContain(mark);
    // What the page documents is all there: the same operations, schemas and fields, only their provenance gone.
    const shape = (json: string) => JSON.stringify(JSON.parse(json), (key, value: unknown) => (key === 'description' || key.startsWith('x-') ? undefined : value));
    expect(shape(left)).toBe(shape(kept));
    expect(left).toContain('every path: `/v1/...` and `/v2/...`. This document describes');
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
    [['--reference-url', 'reference.html', '-o', 'x.html'], /^crawlspec: --reference-url takes the http, https or file address of the reference/],
    [['--reference-url', 'https://a.example/r.html#s1', '-o', 'x.html'], /^crawlspec: --reference-url takes .* without a fragment/],
    [['--reference-url', 'https://a.example/r.html', '--no-provenance', '-o', 'x.html'], /^crawlspec: --reference-url says where provenance links go; --no-provenance leaves them out/],
    [['-o', '/nonexistent-dir/x.html'], /^crawlspec: -o "\/nonexistent-dir\/x.html": the directory "\/nonexistent-dir" does not exist/],
  ])('%j is a usage error: exit 2, one line, nothing written', async (args, message) => {
    const run = await runCli(['docs', ...args], '', 60_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });
});
