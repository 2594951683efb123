/**
 * Reading a fetched page: its links, images and metadata, and its content as HTML, in chunks that
 * `markdown.ts` converts to markdown one at a time.
 *
 * One pass of htmlparser2 (streaming, and linear in the page with its nesting bounded: `boundedParser.ts`)
 * over the whole document gathers:
 *   - `links`: every `<a href>`, resolved against the page address and the first `<base href>`, without
 *     `mailto:`, `javascript:` and other non-HTTP schemes, nor links to a fragment of the page itself;
 *   - `images`: every `<img src>`, resolved the same way;
 *   - metadata: `<title>`, `<meta name="description">`, `language` from `<html lang>`, and every other
 *     `<meta name|property>` (as the service adds them), at most `MAX_META_TAGS`;
 *   - when the record needs the content (`readHtml`'s `content`), the document itself, as htmlparser2's DOM
 *     (domhandler), of which `pageContent.ts` keeps what the scrape options say is the content (the body,
 *     less what is around the main content with `onlyMainContent`, `includeTags`, `excludeTags`, base64
 *     images); that is written back as clean HTML: addresses made absolute (as the service's cleaned HTML
 *     has them), scripts, styles, templates and comments dropped. The document keeps at most
 *     `MAX_CONTENT_ELEMENTS` elements: past them, tags are dropped and their text kept (as nesting past
 *     `MAX_NESTING` is), so a page of nothing but tags holds tens of MiB, not hundreds.
 * The document is fed to the parser a slice at a time, and the content written a few thousand nodes at a
 * time, giving the event loop a turn in between, so a page at the size limit never holds the server up.
 *
 * The markdown converter takes time that grows faster than what one call converts (`markdown.ts` says
 * where), so it is never given a large piece: the content is cut into chunks of about `CHUNK_CHARS`
 * characters or `CHUNK_NODES` nodes (elements and texts) where cutting changes nothing (after a block
 * element, when every element still open is a plain container such as `div` or `section`), or after any
 * element once a chunk reaches `MAX_CHUNK_CHARS` or `MAX_CHUNK_NODES` (a huge table or list is then split
 * in two), and a text that would take a chunk past `MAX_CHUNK_CHARS` is cut inside (issue 22, finding 1: a
 * text node was never cut, and 120 KB of digits in one took 11–16 s): where a space begins a word
 * (preformatted text: where a line begins), else anywhere. Each chunk carries its seam: how its markdown
 * joins the markdown before it (a blank line after a block, a space or a line break where a text was cut
 * at one, nothing where it was cut anywhere), and, for a preformatted text cut in two, the elements to
 * open again before converting it alone (the `<pre>` and what it holds), so that both halves stay
 * preformatted. A text page is one preformatted text, cut the same way.
 */
import { DomHandler, hasChildren, isTag, isText, type AnyNode } from 'domhandler';
import type { Handler } from 'htmlparser2';
import { BoundedParser, parseInSlices, SLICE_CHARS, turn } from './boundedParser.js';
import { BASE64_IMAGE_PLACEHOLDER, pageContent, type ContentOptions } from './pageContent.js';
import { escapeHtml } from './site.js';

/** Size at which a chunk of content is cut where cutting changes nothing. */
const CHUNK_CHARS = 8 * 1024;
/** Size at which a chunk is cut at any element, and past which a text is cut inside. */
export const MAX_CHUNK_CHARS = 32 * 1024;
/** Nodes (elements and texts) at which a chunk is cut where cutting changes nothing. */
const CHUNK_NODES = 500;
/**
 * Nodes at which a chunk is cut at any element: the converter's HTML parser takes time quadratic in the
 * siblings of a node (`markdown.ts`); 2000 of them take a few milliseconds.
 */
export const MAX_CHUNK_NODES = 2000;
/** Elements nested in the content at most: deeper ones keep their text, not their tags. */
const CONTENT_NESTING = 64;
/** `<meta>` tags kept in a page's metadata (their contents, counted one by one), besides the description. */
export const MAX_META_TAGS = 100;
/** Elements of a document kept to find its content in: past them, tags are dropped and their text kept. */
export const MAX_CONTENT_ELEMENTS = 100_000;
/** Nodes of the content written between two turns of the event loop. */
const WRITE_STEPS = 5_000;

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
  /** For each chunk, how its markdown joins the one before and what it is converted in (see the module comment). */
  readonly seams: readonly Seam[];
  /** The text of the first paragraph of the content ('' when none), whitespace collapsed. */
  readonly firstParagraph: string;
}

/** How a chunk's markdown joins the markdown before it, and what it is converted in. */
export interface Seam {
  /** What joins its markdown to the markdown before it. */
  readonly between: string;
  /** Written before it when it is converted alone: the preformatted elements a text cut in two is in, opened again. */
  readonly reopen: string;
  /** Written after it when it is converted alone: the same elements, closed (an element left open is dropped by the converter's parser). */
  readonly close: string;
}

/** Where the next chunk begins: how it joins, and what it opens again. */
type Start = Omit<Seam, 'close'>;

/** The start after a block: a blank line, nothing to open again. */
const AFTER_BLOCK: Start = { between: '\n\n', reopen: '' };

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

const WHITESPACE = /\s/;
/** Everything up to the last whitespace followed by something else (a greedy run from the start: it backtracks once, from the end). */
const LAST_WORD_START = /^[^]*\s(?=\S)/;
/** Everything up to the last line break followed by something other than whitespace. */
const LAST_LINE_START = /^[^]*\n(?=\S)/;
/** The longest entity `escapeHtml` writes (`&quot;`). */
const ENTITY_CHARS = 6;

/**
 * Where to cut `html` (text as HTML: entities for `&`, `<`, `>` and quotes) so that its first part has at
 * most `room` characters, and the seam of the second part: where a word begins after whitespace
 * (preformatted: where a line begins), looked for in the second half of the room; else at `room` itself,
 * moved out of an entity and from between the halves of a surrogate pair.
 */
function cutIn(html: string, room: number, preformatted: boolean): { readonly at: number; readonly between: string } {
  const gap = preformatted ? '\n' : ' ';
  // The last gap followed by a character that is none, in the second half of the room: one pass over it.
  const from = Math.floor(room / 2);
  const found = (preformatted ? LAST_LINE_START : LAST_WORD_START).exec(html.slice(from, room + 1));
  if (found !== null) return { at: from + found[0].length, between: gap };
  let at = room;
  const entity = html.lastIndexOf('&', at - 1);
  if (entity >= 0 && entity > at - ENTITY_CHARS && html.indexOf(';', entity) >= at) at = entity > 0 ? entity : html.indexOf(';') + 1;
  const code = html.charCodeAt(at - 1);
  if (at > 1 && code >= 0xd800 && code <= 0xdbff) at -= 1;
  const isGap = (i: number): boolean => (preformatted ? html[i] === '\n' : WHITESPACE.test(html[i] ?? ''));
  return { at, between: isGap(at - 1) || isGap(at) ? gap : '' };
}

/** A page's content, written back as HTML, in chunks. */
class Region {
  readonly chunks: string[] = [];
  readonly seams: Seam[] = [];
  #pieces: string[] = [];
  #length = 0;
  /** Text not written yet (see `text`), as HTML, and its length. */
  #pending: string[] = [];
  #pendingLength = 0;
  /** Nodes written in the chunk: elements, and texts (one per run of text between tags). */
  #nodes = 0;
  #inText = false;
  /** How the chunk being written begins. */
  #start = AFTER_BLOCK;
  /** Elements open inside the region, the region's own first; undefined for one too deep to be written. */
  readonly #open: (string | undefined)[] = [];
  /** The opening tag written for each of them ('' when not written). */
  readonly #tags: string[] = [];
  /** How many of them are written and not plain containers (`TRANSPARENT`): a chunk may end where there is none. */
  #opaque = 0;
  /** Inside a dropped element (script, style...): how deep. */
  #dropped = 0;
  #paragraph: string[] | undefined;
  firstParagraph = '';

  #write(piece: string): void {
    this.#pieces.push(piece);
    this.#length += piece.length;
  }

  /** Ends the chunk (converted with `close` after it); the next one begins with `next`. */
  #cut(next: Start = AFTER_BLOCK, close = ''): void {
    if (this.#length === 0) return;
    this.chunks.push(this.#pieces.join(''));
    this.seams.push({ ...this.#start, close });
    this.#pieces = [];
    this.#length = 0;
    this.#nodes = 0;
    this.#start = next;
  }

  get #full(): boolean {
    return this.#length >= MAX_CHUNK_CHARS || this.#nodes >= MAX_CHUNK_NODES;
  }

  open(name: string, attributes: Readonly<Record<string, string>>, base: URL): void {
    this.#writeText();
    if (DROPPED.has(name) || this.#dropped > 0) {
      if (!VOID.has(name)) this.#dropped += 1;
      return;
    }
    if (this.#full) this.#cut();
    // Deeper than `CONTENT_NESTING`, an element's text is kept and its tags are not.
    const written = this.#open.length < CONTENT_NESTING;
    let tag = '';
    if (written) {
      tag = `<${name}`;
      for (const [attribute, value] of Object.entries(attributes)) {
        // Made absolute, but for the placeholder of a base64 image (`pageContent.ts`), which is no address.
        const address = ADDRESS_ATTRIBUTES.has(attribute) && value !== BASE64_IMAGE_PLACEHOLDER ? resolve(value, base)?.href : undefined;
        tag += ` ${attribute}="${escapeHtml(address ?? value)}"`;
      }
      tag += '>';
      this.#write(tag);
      this.#nodes += 1;
      this.#inText = false;
    }
    if (!VOID.has(name)) {
      this.#open.push(written ? name : undefined);
      this.#tags.push(tag);
      if (written && !TRANSPARENT.has(name)) this.#opaque += 1;
    }
    if (name === 'p' && this.firstParagraph === '' && this.#paragraph === undefined) this.#paragraph = [];
  }

  /** The elements from the outermost open `<pre>` in, opened and closed; undefined outside preformatted text. */
  get #preformatted(): { readonly reopen: string; readonly close: string } | undefined {
    const at = this.#open.indexOf('pre');
    if (at < 0) return undefined;
    const closers = this.#open.slice(at).flatMap((name) => (name === undefined ? [] : [`</${name}>`]));
    return { reopen: this.#tags.slice(at).join(''), close: closers.reverse().join('') };
  }

  /** Text comes in pieces (htmlparser2 cuts it at entities and at slices); it is written at the next tag. */
  text(text: string): void {
    if (this.#dropped > 0) return;
    this.#paragraph?.push(text);
    const html = escapeHtml(text);
    this.#pending.push(html);
    this.#pendingLength += html.length;
    // A long text is written as it comes, a chunk's worth at least at a time, so that a cut can find where a word begins.
    if (this.#pendingLength >= 2 * MAX_CHUNK_CHARS) this.#writeText(false);
  }

  /**
   * Writes the text gathered since the last tag, cut wherever it would take the chunk past MAX_CHUNK_CHARS (see
   * the module comment); with `all` false, what would not take the chunk past it is kept back for more text.
   */
  #writeText(all = true): void {
    if (this.#pendingLength === 0) return;
    let rest = this.#pending.join('');
    this.#pending = [];
    this.#pendingLength = 0;
    if (!this.#inText) {
      this.#nodes += 1;
      this.#inText = true;
    }
    while (this.#length + rest.length > MAX_CHUNK_CHARS) {
      const preformatted = this.#preformatted;
      const { at, between } = cutIn(rest, Math.max(1, MAX_CHUNK_CHARS - this.#length), preformatted !== undefined);
      this.#write(rest.slice(0, at));
      this.#cut({ between, reopen: preformatted?.reopen ?? '' }, preformatted?.close);
      this.#nodes = 1;
      rest = rest.slice(at);
    }
    if (!all) {
      this.#pending = [rest];
      this.#pendingLength = rest.length;
    } else if (rest !== '') this.#write(rest);
  }

  close(name: string): void {
    this.#writeText();
    if (VOID.has(name)) {
      if (this.#full) this.#cut();
      return;
    }
    if (this.#dropped > 0) {
      this.#dropped -= 1;
      return;
    }
    this.#tags.pop();
    const written = this.#open.pop() !== undefined;
    if (written) {
      this.#write(`</${name}>`);
      this.#inText = false;
      if (!TRANSPARENT.has(name)) this.#opaque -= 1;
    }
    if (name === 'p' && this.#paragraph !== undefined) {
      this.firstParagraph = this.#paragraph.join('').replace(/\s+/g, ' ').trim().slice(0, 1000);
      this.#paragraph = undefined;
    }
    const safe = written && !INLINE.has(name) && this.#opaque === 0;
    if ((safe && (this.#length >= CHUNK_CHARS || this.#nodes >= CHUNK_NODES)) || this.#full) this.#cut();
  }

  end(): void {
    this.#writeText();
    this.#cut();
  }
}

/** What one pass over a document gathers besides its content: links, images, metadata (see the module comment). */
class Gathered {
  base: URL;
  #baseSet = false;
  readonly links = new Set<string>();
  readonly images = new Set<string>();
  readonly meta = new Map<string, string[]>();
  #metaCount = 0;
  #title: string[] | undefined;
  title: string | undefined;
  description: string | undefined;
  language: string | undefined;

  constructor(url: string) {
    this.base = new URL(url);
  }

  onopentag(name: string, attributes: Record<string, string>): void {
    if (name === 'base' && !this.#baseSet && attributes['href'] !== undefined) {
      this.base = resolve(attributes['href'], this.base) ?? this.base;
      this.#baseSet = true;
    } else if (name === 'a' && attributes['href'] !== undefined) {
      const link = resolve(attributes['href'], this.base);
      if (link !== undefined) this.links.add(link.href);
    } else if (name === 'img' && attributes['src'] !== undefined) {
      const image = resolve(attributes['src'], this.base);
      if (image !== undefined) this.images.add(image.href);
    } else if (name === 'html' && attributes['lang'] !== undefined && this.language === undefined) {
      this.language = attributes['lang'];
    } else if (name === 'title' && this.title === undefined) {
      this.#title = [];
    } else if (name === 'meta') {
      const key = attributes['name'] ?? attributes['property'];
      const content = attributes['content'];
      if (key !== undefined && content !== undefined) {
        if (key.toLowerCase() === 'description') this.description ??= content;
        else if (this.#metaCount < MAX_META_TAGS) {
          this.#metaCount += 1;
          const known = this.meta.get(key);
          if (known === undefined) this.meta.set(key, [content]);
          else known.push(content);
        }
      }
    }
  }

  ontext(text: string): void {
    this.#title?.push(text);
  }

  onclosetag(name: string): void {
    if (name === 'title' && this.#title !== undefined) {
      this.title = this.#title.join('').replace(/\s+/g, ' ').trim();
      this.#title = undefined;
    }
  }
}

/**
 * The parser's handler when the content is needed: what `Gathered` gathers, and the document as a DOM of at
 * most `MAX_CONTENT_ELEMENTS` elements (past them, an element's tags are not kept, its text is).
 */
function documentHandler(gathered: Gathered, dom: DomHandler): Partial<Handler> {
  let elements = 0;
  /** For each element open, whether the DOM has it. */
  const kept: boolean[] = [];
  return {
    onopentag(name, attributes) {
      gathered.onopentag(name, attributes);
      const keep = elements < MAX_CONTENT_ELEMENTS;
      kept.push(keep);
      if (keep) {
        elements += 1;
        dom.onopentag(name, attributes);
      }
    },
    ontext(text) {
      gathered.ontext(text);
      dom.ontext(text);
    },
    onclosetag(name) {
      gathered.onclosetag(name);
      if (kept.pop() === true) dom.onclosetag();
    },
    onend() {
      dom.onend();
    },
  };
}

/** Writes `roots` (and what is inside them) to `region`, in page order, a turn of the event loop every `WRITE_STEPS` nodes. */
async function write(roots: readonly AnyNode[], region: Region, base: URL, signal: AbortSignal): Promise<void> {
  /** Nodes to write, the next last; an element a second time (`close`) once what is inside it is written. */
  const stack: { readonly node: AnyNode; readonly close: boolean }[] = [...roots].reverse().map((node) => ({ node, close: false }));
  let steps = 0;
  while (stack.length > 0) {
    const { node, close } = stack.pop()!;
    if (++steps % WRITE_STEPS === 0) {
      await turn();
      signal.throwIfAborted();
    }
    if (isText(node)) region.text(node.data);
    else if (isTag(node)) {
      if (close) {
        region.close(node.name);
        continue;
      }
      region.open(node.name, node.attribs, base);
      stack.push({ node, close: true });
    }
    if (hasChildren(node) && !close)
      for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, close: false });
  }
}

/**
 * Reads the HTML `document` read from `url` (after redirects): its links, images and metadata, and, when
 * `content` says what of it to keep (`pageContent.ts`), its content (else none). Rejects when `signal` aborts,
 * and with a `SelectorError` when a selector of `content` cannot be run.
 */
export async function readHtml(document: string, url: string, content: ContentOptions | undefined, signal: AbortSignal): Promise<ReadPage> {
  const gathered = new Gathered(url);
  const dom = content === undefined ? undefined : new DomHandler();
  const parser = new BoundedParser(dom === undefined ? gathered : documentHandler(gathered, dom));
  await parseInSlices(parser, document, signal);
  const region = new Region();
  if (content !== undefined && dom !== undefined) {
    const roots = await pageContent(dom.root, content, signal);
    await write(roots, region, gathered.base, signal);
  }
  region.end();
  return {
    title: gathered.title,
    description: gathered.description,
    language: gathered.language,
    meta: new Map([...gathered.meta].map(([key, values]) => [key, values.length === 1 ? values[0]! : values])),
    links: [...gathered.links],
    images: [...gathered.images],
    content: region.chunks,
    seams: region.seams,
    firstParagraph: region.firstParagraph,
  };
}

/**
 * A page that is text, not HTML: its content is the text, preformatted, cut as a long `<pre>` text is; read a
 * slice at a time with a turn of the event loop between slices, as an HTML page is parsed. Rejects when
 * `signal` aborts.
 */
export async function readText(text: string, signal: AbortSignal): Promise<ReadPage> {
  const region = new Region();
  region.open('pre', {}, new URL('about:blank'));
  for (let at = 0; at < text.length; at += SLICE_CHARS) {
    if (at > 0) await turn();
    signal.throwIfAborted();
    region.text(text.slice(at, at + SLICE_CHARS));
  }
  region.close('pre');
  region.end();
  return {
    title: undefined,
    description: undefined,
    language: undefined,
    meta: new Map(),
    links: [],
    images: [],
    content: region.chunks,
    seams: region.seams,
    firstParagraph: text.replace(/\s+/g, ' ').trim().slice(0, 1000),
  };
}
