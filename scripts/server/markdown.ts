/**
 * The markdown of a page's content, made by node-html-markdown in time linear in the page, a chunk at a time.
 *
 * node-html-markdown: maintained, MIT, TypeScript, no native code, and already the package's dependency;
 * among the JavaScript converters it is the fast one and keeps links and tables. `htmlPage.ts` cuts the
 * content into chunks (at most `MAX_CHUNK_CHARS` characters and `MAX_CHUNK_NODES` nodes each); each chunk is
 * converted alone, with a turn of the event loop between chunks, and their markdown is joined by the seam
 * `htmlPage.ts` gives (a blank line between blocks; inside a text cut in two a space, a line break in preformatted
 * text, or nothing), each converted with the preformatted elements it is inside opened before it and closed after.
 *
 * Three things in node-html-markdown take time quadratic in what one call converts (issue 22, finding 1;
 * each measured on this machine):
 *   - its line-start escape, `/^(\s*?)(…)|(?:(\d+)(\.\s))/gm`: the second branch is not anchored, so `\d+`
 *     is tried again from every digit of a run of digits (a 120 KB page of digits held the server 11–16 s);
 *     and the first one's `\s*?` crosses line breaks, so a run of them is scanned again from each (text
 *     keeps its line breaks in a `<pre>` inside a table cell, where the library still escapes). It is one of
 *     the library's options, given here with `(?<!\d)` before the second branch, which is then tried from
 *     the first digit of a run only, and with the first one's whitespace within its line. The text written
 *     is the same: a match never ends inside a run of digits, so the scan enters one only after a failure at
 *     the digit before, which fails for the same reason at every later digit; and a marker that the library
 *     reaches from an earlier line start across line breaks is reached from the last of them, with the same
 *     whitespace kept before its backslash;
 *   - the list item's post-processing (the `li` translator): `/(\S+?)[^\S\r\n]+$/gm` retries lazily from every
 *     character of a long word, and `/([^\r\n])(?:\r?\n)+(?!\s*[-*+]|\s*\d+\.|\s*\|)/g` scans a run of
 *     whitespace again from every line break in it (32 KB of one word in an `<li>`: 1–6 s). The translator
 *     stays the library's; its post-processing is done here, linearly, with the same result (`itemContent`);
 *   - its HTML parser (node-html-parser) appends each text node to its parent by first filtering it out of
 *     the parent's children: quadratic in the number of siblings (8,000 `<br> ` in one paragraph: 0.6 s).
 *     That one is not an option: `htmlPage.ts` keeps the nodes of a chunk below `MAX_CHUNK_NODES`.
 * The library's other expressions are linear, or run on what the converter itself writes (a few
 * characters a node); test/htmlPage.test.ts converts pages of each kind that was found quadratic.
 */
import { NodeHtmlMarkdown, PostProcessResult, type TranslatorConfigFactory } from 'node-html-markdown';
import { turn } from './boundedParser.js';
import type { ReadPage } from './htmlPage.js';

const converter = new NodeHtmlMarkdown({
  // An image written into the page (a `data:` URL) is an image of the page: the library drops it by default.
  // What is left of it with `removeBase64Images` is the placeholder `pageContent.ts` puts in its place.
  keepDataImages: true,
  // The library's default, made linear (see the module comment).
  lineStartEscape: [/^([^\S\n\r\u2028\u2029]*?)((?:\+\s)|(?:[=>-])|(?:#{1,6}\s))|(?<!\d)(\d+)(\.\s)/gm, '$1$3\\$2$4'],
});

/** Whether what follows a line break in a list item starts a list item, a numbered one or a table row (after whitespace). */
function continuesList(text: string, at: number): boolean {
  const first = text[at];
  if (first === '-' || first === '*' || first === '+' || first === '|') return true;
  let end = at;
  while (end < text.length && text[end]! >= '0' && text[end]! <= '9') end += 1;
  return end > at && text[end] === '.';
}

/**
 * A list item's content as the library's `li` post-processing writes it: each run of line breaks after a
 * character becomes a hard break and the item's indentation, unless what follows (after whitespace) starts
 * a list item, a numbered item or a table row; then trailing spaces of each line become a hard break. The
 * library's regular expressions do this in quadratic time (see the module comment); the same, linearly:
 * where each run of whitespace ends is found once, from the end.
 */
function itemContent(content: string, indent: string): string {
  const nextVisible = new Int32Array(content.length + 1);
  nextVisible[content.length] = content.length;
  for (let i = content.length - 1; i >= 0; i--) nextVisible[i] = /\s/.test(content[i]!) ? nextVisible[i + 1]! : i;
  const broken = content.replace(/([^\r\n])(?:\r?\n)+/g, (run: string, before: string, at: number) =>
    continuesList(content, nextVisible[at + run.length]!) ? run : `${before}  \n${indent}`,
  );
  return broken.replace(/(?<=\S)[^\S\r\n]+$/gm, '  ');
}

const libraryItem = converter.translators.get('li') as TranslatorConfigFactory;
converter.translators.set(
  'li',
  Object.assign(
    (context: Parameters<TranslatorConfigFactory>[0]) => ({
      ...libraryItem(context),
      postprocess: ({ content }: { content: string }) =>
        /\S/.test(content)
          ? itemContent(content.trim(), context.options.indent.repeat(+(context.indentLevel || 0)))
          : PostProcessResult.RemoveNode,
    }),
    libraryItem.base === undefined ? {} : { base: libraryItem.base },
  ),
);

/** How strongly a seam separates: a blank line more than a line break, a line break more than a space, a space more than nothing. */
const strength = (between: string): number => (between === '' ? 0 : between === ' ' ? 1 : between === '\n' ? 2 : 3);

/** The content of a page as markdown, chunk by chunk (see the module comment). Rejects when `signal` aborts. */
export async function markdownOf(page: ReadPage, signal: AbortSignal): Promise<string> {
  let markdown = '';
  // The seam before the next chunk that has markdown: the strongest of the chunks since the last one that had.
  let between = '';
  for (const [index, chunk] of page.content.entries()) {
    if (index > 0) await turn();
    signal.throwIfAborted();
    const seam = page.seams[index];
    const part = converter.translate(`${seam?.reopen ?? ''}${chunk}${seam?.close ?? ''}`).trim();
    if (seam !== undefined && strength(seam.between) > strength(between)) between = seam.between;
    if (part === '') continue;
    markdown += markdown === '' ? part : `${between}${part}`;
    between = '';
  }
  return markdown === '' ? '' : `${markdown}\n`;
}
