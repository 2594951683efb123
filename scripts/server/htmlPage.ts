/**
 * Reading a fetched page: its links, images and metadata, its content as HTML, and that content as
 * markdown.
 *
 * One pass of htmlparser2 (streaming, and linear in the page with its nesting bounded: `boundedParser.ts`)
 * over the whole document gathers:
 *   - `links`: every `<a href>`, resolved against the page address and the first `<base href>`, without
 *     `mailto:`, `javascript:` and other non-HTTP schemes, nor links to a fragment of the page itself;
 *   - `images`: every `<img src>`, resolved the same way;
 *   - metadata: `<title>`, `<meta name="description">`, `language` from `<html lang>`, and every other
 *     `<meta name|property>` (as the service adds them), at most `MAX_META_TAGS`;
 *   - the content: the `<main>` element (or `<body>` without one) with `onlyMainContent`, else `<body>`,
 *     written back as clean HTML: addresses made absolute (as the service's cleaned HTML has them), scripts,
 *     styles, templates and comments dropped.
 * The document is fed to the parser a slice at a time, giving the event loop a turn between slices, so a
 * page at the size limit never holds the server up.
 *
 * Markdown is made by node-html-markdown: maintained, MIT, TypeScript, no native code, and already the
 * package's dependency; among the JavaScript converters it is the fast one and keeps links and tables. Its
 * output grows by string appends that each copy the whole result (measured: 0.1 MiB of HTML in 0.14 s, 1 MiB
 * in 41 s), so it is never given a large piece: the content is cut into chunks of about `CHUNK_CHARS`
 * where cutting changes nothing (after a block element, when every element still open is a plain container
 * such as `div` or `section`), or after any element once a chunk reaches `MAX_CHUNK_CHARS` (a huge table or
 * list is then split in two). Each chunk is converted alone, with a turn of the event loop between chunks,
 * so the time is linear in the page and spread out (a chunk of the worst kind, tens of thousands of `<br>`,
 * takes some tens of milliseconds).
 */
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { BoundedParser, parseInSlices, turn } from './boundedParser.js';
import { escapeHtml } from './site.js';

/** Size at which a chunk of content is cut where cutting changes nothing. */
const CHUNK_CHARS = 8 * 1024;
/** Size at which a chunk is cut at any element. */
const MAX_CHUNK_CHARS = 32 * 1024;
/** Elements nested in the content at most: deeper ones keep their text, not their tags. */
const CONTENT_NESTING = 64;
/** `<meta>` tags kept in a page's metadata (their contents, counted one by one), besides the description. */
export const MAX_META_TAGS = 100;

export interface ReadPage {
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly language: string | undefined;
  /** Other `<meta>` tags, by name: one content, or every content of a repeated name. */
  readonly meta: ReadonlyMap<string, string | string[]>;
  /** Absolute addresses, each once, in order. */
  readonly links: readonly string[];
  readonly images: readonly string[];
  /** The content (see the module comment), in chunks that join into its HTML. */
  readonly content: readonly string[];
  /** The text of the first paragraph of the content ('' when none), whitespace collapsed. */
  readonly firstParagraph: string;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const DROPPED = new Set(['head', 'title', 'script', 'style', 'noscript', 'template']);
/** Containers whose markdown is their children's: a chunk may end inside them. */
const TRANSPARENT = new Set(['html', 'body', 'main', 'div', 'section', 'article', 'header', 'footer', 'aside', 'nav', 'form']);
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'button',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'img',
  'input',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'select',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'textarea',
  'time',
  'u',
  'var',
  'wbr',
]);
/** Attributes holding an address, made absolute in the content. */
const ADDRESS_ATTRIBUTES = new Set(['href', 'src']);

/** An address as written on a page, absolute; undefined when it is no web address or only a fragment. */
function resolve(written: string, base: URL): URL | undefined {
  const trimmed = written.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The content of one element (`main`, `body`), or of the whole document, written back as HTML, in chunks. */
class Region {
  readonly chunks: string[] = [];
  #pieces: string[] = [];
  #length = 0;
  /** Elements open inside the region, the region's own first; undefined for one too deep to be written. */
  readonly #open: (string | undefined)[] = [];
  /** How many of them are written and not plain containers (`TRANSPARENT`): a chunk may end where there is none. */
  #opaque = 0;
  /** Inside a dropped element (script, style...): how deep. */
  #dropped = 0;
  #paragraph: string[] | undefined;
  firstParagraph = '';
  state: 'before' | 'inside' | 'after';

  /** `element` undefined: the whole document (for a page that writes neither `<main>` nor `<body>`). */
  constructor(readonly element?: string) {
    this.state = element === undefined ? 'inside' : 'before';
  }

  #write(piece: string): void {
    this.#pieces.push(piece);
    this.#length += piece.length;
  }

  #cut(): void {
    if (this.#length === 0) return;
    this.chunks.push(this.#pieces.join(''));
    this.#pieces = [];
    this.#length = 0;
  }

  open(name: string, attributes: Readonly<Record<string, string>>, base: URL): void {
    if (this.state === 'before' && name === this.element) this.state = 'inside';
    if (this.state !== 'inside') return;
    if (DROPPED.has(name) || this.#dropped > 0) {
      if (!VOID.has(name)) this.#dropped += 1;
      return;
    }
    if (this.#length >= MAX_CHUNK_CHARS) this.#cut();
    // Deeper than `CONTENT_NESTING`, an element's text is kept and its tags are not.
    const written = this.#open.length < CONTENT_NESTING;
    if (written) {
      let tag = `<${name}`;
      for (const [attribute, value] of Object.entries(attributes)) {
        const address = ADDRESS_ATTRIBUTES.has(attribute) ? resolve(value, base)?.href : undefined;
        tag += ` ${attribute}="${escapeHtml(address ?? value)}"`;
      }
      this.#write(`${tag}>`);
    }
    if (!VOID.has(name)) {
      this.#open.push(written ? name : undefined);
      if (written && !TRANSPARENT.has(name)) this.#opaque += 1;
    }
    if (name === 'p' && this.firstParagraph === '' && this.#paragraph === undefined) this.#paragraph = [];
  }

  text(text: string): void {
    if (this.state !== 'inside' || this.#dropped > 0) return;
    this.#write(escapeHtml(text));
    this.#paragraph?.push(text);
  }

  close(name: string): void {
    if (this.state !== 'inside') return;
    if (VOID.has(name)) {
      if (this.#length >= MAX_CHUNK_CHARS) this.#cut();
      return;
    }
    if (this.#dropped > 0) {
      this.#dropped -= 1;
      return;
    }
    const written = this.#open.pop() !== undefined;
    if (written) {
      this.#write(`</${name}>`);
      if (!TRANSPARENT.has(name)) this.#opaque -= 1;
    }
    if (name === 'p' && this.#paragraph !== undefined) {
      this.firstParagraph = this.#paragraph.join('').replace(/\s+/g, ' ').trim().slice(0, 1000);
      this.#paragraph = undefined;
    }
    if (this.#open.length === 0 && this.element !== undefined) {
      this.state = 'after';
      this.#cut();
      return;
    }
    const safe = written && !INLINE.has(name) && this.#opaque === 0;
    if ((safe && this.#length >= CHUNK_CHARS) || this.#length >= MAX_CHUNK_CHARS) this.#cut();
  }

  end(): void {
    this.#cut();
  }
}

/** Reads the HTML `document` read from `url` (after redirects). Rejects when `signal` aborts. */
export async function readHtml(document: string, url: string, onlyMainContent: boolean, signal: AbortSignal): Promise<ReadPage> {
  let base = new URL(url);
  let baseSet = false;
  const main = new Region('main');
  const body = new Region('body');
  const whole = new Region();
  const regions = onlyMainContent ? [main, body, whole] : [body, whole];
  const links = new Set<string>();
  const images = new Set<string>();
  const meta = new Map<string, string[]>();
  let metaCount = 0;
  let title: string[] | undefined;
  let titleText: string | undefined;
  let description: string | undefined;
  let language: string | undefined;

  const parser = new BoundedParser({
    onopentag(name, attributes) {
      if (name === 'base' && !baseSet && attributes['href'] !== undefined) {
        base = resolve(attributes['href'], base) ?? base;
        baseSet = true;
      } else if (name === 'a' && attributes['href'] !== undefined) {
        const link = resolve(attributes['href'], base);
        if (link !== undefined) links.add(link.href);
      } else if (name === 'img' && attributes['src'] !== undefined) {
        const image = resolve(attributes['src'], base);
        if (image !== undefined) images.add(image.href);
      } else if (name === 'html' && attributes['lang'] !== undefined && language === undefined) {
        language = attributes['lang'];
      } else if (name === 'title' && titleText === undefined) {
        title = [];
      } else if (name === 'meta') {
        const key = attributes['name'] ?? attributes['property'];
        const content = attributes['content'];
        if (key !== undefined && content !== undefined) {
          if (key.toLowerCase() === 'description') description ??= content;
          else if (metaCount < MAX_META_TAGS) {
            metaCount += 1;
            const known = meta.get(key);
            if (known === undefined) meta.set(key, [content]);
            else known.push(content);
          }
        }
      }
      for (const region of regions) region.open(name, attributes, base);
    },
    ontext(text) {
      title?.push(text);
      for (const region of regions) region.text(text);
    },
    onclosetag(name) {
      if (name === 'title' && title !== undefined) {
        titleText = title.join('').replace(/\s+/g, ' ').trim();
        title = undefined;
      }
      for (const region of regions) region.close(name);
    },
  });
  await parseInSlices(parser, document, signal);
  for (const region of regions) region.end();
  const content = main.state !== 'before' ? main : body.state !== 'before' ? body : whole;
  return {
    title: titleText,
    description,
    language,
    meta: new Map([...meta].map(([key, values]) => [key, values.length === 1 ? values[0]! : values])),
    links: [...links],
    images: [...images],
    content: content.chunks,
    firstParagraph: content.firstParagraph,
  };
}

/** A page that is text, not HTML: its content is the text, preformatted. */
export function readText(text: string): ReadPage {
  return {
    title: undefined,
    description: undefined,
    language: undefined,
    meta: new Map(),
    links: [],
    images: [],
    content: [`<pre>${escapeHtml(text)}</pre>`],
    firstParagraph: text.replace(/\s+/g, ' ').trim().slice(0, 1000),
  };
}

const converter = new NodeHtmlMarkdown();

/** The content of a page as markdown, chunk by chunk (see the module comment). Rejects when `signal` aborts. */
export async function markdownOf(page: ReadPage, signal: AbortSignal): Promise<string> {
  const parts: string[] = [];
  for (const [index, chunk] of page.content.entries()) {
    if (index > 0) await turn();
    signal.throwIfAborted();
    const markdown = converter.translate(chunk).trim();
    if (markdown !== '') parts.push(markdown);
  }
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}
