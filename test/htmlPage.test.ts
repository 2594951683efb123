/**
 * How the reference server reads a page (scripts/server/htmlPage.ts): links resolved as a browser would,
 * metadata, the content (main or body) written back clean, markdown of it; and hostile pages (nesting a
 * million deep, closing tags matching nothing, tens of thousands of `<br>`, nested lists and tables) read in
 * bounded time without holding the event loop: these are what made htmlparser2 and node-html-markdown
 * quadratic (minutes on one page) before the bounds.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NESTING } from '../scripts/server/boundedParser.js';
import { markdownOf, readHtml } from '../scripts/server/htmlPage.js';

const signal = new AbortController().signal;
const URL_ = 'http://127.0.0.1:4000/docs/page.html';

describe('reading a page', () => {
  const page = `<!DOCTYPE html><html lang="fr"><head><title> The  title </title>
    <base href="/base/">
    <meta name="description" content="What it is.">
    <meta name="keywords" content="a, b"><meta property="og:title" content="OG"><meta name="robots" content="x"><meta name="robots" content="y">
    <meta name="statusCode" content="999"><style>p { color: red }</style><script>var x = "<a href='/no'>";</script></head>
    <body><nav><a href="/nav">Nav</a></nav>
    <main><h1>Heading</h1><p>First <b>para</b>graph &amp; more.</p>
      <a href="rel.html">relative</a> <a href="#top">top</a> <a href="mailto:x@y.z">mail</a> <a href="javascript:void(0)">js</a>
      <a href="https://other.test/x?y=1#frag">other</a> <a href="rel.html">again</a> <img src="i.png" alt="">
      <template><a href="/tpl">t</a></template></main>
    <footer>Foot</footer></body></html>`;

  it('gathers links, images and metadata, resolved against <base href>', async () => {
    const read = await readHtml(page, URL_, true, signal);
    expect(read.title).toBe('The title');
    expect(read.description).toBe('What it is.');
    expect(read.language).toBe('fr');
    expect(Object.fromEntries(read.meta)).toEqual({ keywords: 'a, b', 'og:title': 'OG', robots: ['x', 'y'], statusCode: '999' });
    // Every <a href> of the document (nav and template included), once, made absolute; no mailto, javascript, fragment-only.
    expect(read.links).toEqual([
      'http://127.0.0.1:4000/nav',
      'http://127.0.0.1:4000/base/rel.html',
      'https://other.test/x?y=1#frag',
      'http://127.0.0.1:4000/tpl',
    ]);
    expect(read.images).toEqual(['http://127.0.0.1:4000/base/i.png']);
    expect(read.firstParagraph).toBe('First paragraph & more.');
  });

  it('gives the main element (else the body) as clean HTML with absolute addresses, and its markdown', async () => {
    const main = await readHtml(page, URL_, true, signal);
    const html = main.content.join('');
    expect(html.startsWith('<main><h1>Heading</h1><p>First <b>para</b>graph &amp; more.</p>')).toBe(true);
    expect(html).toContain('<a href="http://127.0.0.1:4000/base/rel.html">relative</a>');
    expect(html).not.toContain('<template');
    expect(html).not.toContain('Nav');
    const markdown = await markdownOf(main, signal);
    expect(markdown).toContain('# Heading');
    expect(markdown).toContain('[relative](http://127.0.0.1:4000/base/rel.html)');
    expect(markdown).not.toContain('Foot');

    const body = (await readHtml(page, URL_, false, signal)).content.join('');
    expect(body.startsWith('<body><nav>')).toBe(true);
    expect(body).toContain('<footer>Foot</footer></body>');
    expect(body).not.toMatch(/<script|<style|color: red/);

    const noMain = (await readHtml('<p>only <i>this</i></p>', URL_, true, signal)).content.join('');
    expect(noMain).toBe('<p>only <i>this</i></p>');
  });

  it('keeps long content whole across the chunks it converts one by one', async () => {
    const paragraphs = Array.from({ length: 2000 }, (_, i) => `<p>Paragraph ${i} with a <a href="/p${i}">link</a>.</p>`).join('');
    const read = await readHtml(`<body><main><div>${paragraphs}</div></main></body>`, URL_, true, signal);
    expect(read.content.length).toBeGreaterThan(10);
    const markdown = await markdownOf(read, signal);
    for (const i of [0, 999, 1999]) expect(markdown).toContain(`Paragraph ${i} with a [link](http://127.0.0.1:4000/p${i}).`);
    expect(markdown.match(/^Paragraph \d+ with/gm)).toHaveLength(2000);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(readHtml('<p>x</p>'.repeat(100_000), URL_, true, controller.signal)).rejects.toThrow();
  });
});

describe('hostile pages', () => {
  const MiB = 1024 * 1024;
  const fill = (unit: string, bytes = 2 * MiB) => unit.repeat(Math.floor(bytes / unit.length));
  const cases: [string, string][] = [
    ['opening tags only', fill('<b>')],
    ['closing tags matching nothing', fill('<div>', MiB) + fill('</span>', MiB)],
    ['line breaks', fill('<br>')],
    ['nested lists', fill('<ul><li>a')],
    ['nested tables', fill('<table><tr><td>x')],
    ['nested quotes', fill('<blockquote>q ')],
    ['one huge table', `<table>${fill('<tr><td>a</td><td><a href="/y">b</a></td></tr>')}</table>`],
  ];

  it.each(cases)('%s (2 MiB): read and converted in bounded time, the event loop never held for long', async (_name, html) => {
    let worst = 0;
    let last = performance.now();
    let watching = true;
    const watch = () => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
      if (watching) setImmediate(watch);
    };
    setImmediate(watch);
    const started = performance.now();
    try {
      const read = await readHtml(html, URL_, true, signal);
      await markdownOf(read, signal);
    } finally {
      watching = false;
    }
    // Generous bounds for a loaded machine; without the bounds these pages took from seconds to minutes in one turn.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(worst).toBeLessThan(2_000);
  });

  it(`keeps at most ${MAX_NESTING} elements open while parsing, and at most 64 in the content`, async () => {
    const read = await readHtml(`${'<div>'.repeat(5000)}deep${'</div>'.repeat(5000)}`, URL_, true, signal);
    const html = read.content.join('');
    expect(html.match(/<div>/g)).toHaveLength(64);
    expect(html.match(/<\/div>/g)).toHaveLength(64);
    expect(html).toContain('deep');
  });
});
