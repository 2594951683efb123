/**
 * A scrape as the public service does it, written independently of the scrape oracle (schemas/scrape/), to
 * hold the oracle against: the served HTML parsed with htmlparser2, the elements `includeTags` selects copied
 * out, what `excludeTags` selects removed from the copies, with `onlyMainContent` the header, nav, aside and
 * footer removed (the only furniture the test pages have), the rest converted to markdown by
 * node-html-markdown (the package's converter) with base64 images kept and then replaced by the service's
 * placeholder, links read from the cleaned HTML. The record holds the formats asked for, and the metadata.
 *
 * `breaks` turns one thing off, as a broken implementation would: each is an option ignored or a field
 * wrong, for showing that the judge catches it.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import type { AnyNode, Element } from 'domhandler';
import { NodeHtmlMarkdown } from 'node-html-markdown';

export type Break =
  | 'includeTags'
  | 'excludeTags'
  | 'onlyMainContent'
  | 'removeBase64Images'
  | 'onlyMarkdown'
  | 'emptyMarkdown'
  | 'relativeLinks'
  | 'cleanedRawHtml'
  | 'headingsAsText';

export interface ServedPage {
  readonly url: string;
  readonly status: number;
  readonly title?: string;
  /** The HTML as served. */
  readonly html: string;
}

const FURNITURE = new Set(['header', 'nav', 'aside', 'footer']);

/** A simple selector (`tag`, `.class`, `#id`, or a compound of them) as a test of an element; undefined for anything else. */
function selectorTest(selector: string): ((e: Element) => boolean) | undefined {
  const match = /^([a-z][a-z0-9-]*|\*)?((?:[.#][\w-]+)*)$/i.exec(selector.trim());
  if (match === null || selector.trim() === '') return undefined;
  const parts = match[2]!.match(/[.#][\w-]+/g) ?? [];
  const tag = match[1] === undefined || match[1] === '*' ? undefined : match[1].toLowerCase();
  return (e) =>
    (tag === undefined || e.name === tag) &&
    parts.every((p) => (p.startsWith('#') ? e.attribs['id'] === p.slice(1) : (e.attribs['class'] ?? '').split(/\s+/).includes(p.slice(1))));
}

const elements = (nodes: AnyNode[], test: (e: Element) => boolean): Element[] => DomUtils.findAll(test, nodes);

function removeWhere(roots: Element[], test: (e: Element) => boolean): Element[] {
  const kept = roots.filter((r) => !test(r));
  for (const e of elements(kept, test)) DomUtils.removeElement(e);
  return kept;
}

/** What the service returns for `page` scraped with v1 or v2 `options` (assumed valid). */
export function serviceRecord(page: ServedPage, options: Record<string, unknown>, breaks?: Break): Record<string, unknown> {
  const formats = Array.isArray(options['formats'])
    ? options['formats'].map((f: unknown) => (typeof f === 'string' ? f : (f as { type: string }).type))
    : ['markdown'];
  const includeTags = ((options['includeTags'] as string[] | undefined) ?? []).filter((t) => t.trim() !== '');
  const excludeTags = ((options['excludeTags'] as string[] | undefined) ?? []).filter((t) => t.trim() !== '');
  const onlyMainContent = options['onlyMainContent'] !== false;
  const removeBase64 = options['removeBase64Images'] !== false;

  const document = parseDocument(page.html);
  const body = DomUtils.findOne((e) => e.name === 'body', document.children)!;
  let roots: Element[] = [body];
  if (includeTags.length > 0 && breaks !== 'includeTags') {
    const tests = includeTags.map(selectorTest).filter((t) => t !== undefined);
    roots = tests.flatMap((test) => elements([body], test).map((e) => e.cloneNode(true)));
  }
  if (breaks !== 'excludeTags') for (const test of excludeTags.map(selectorTest)) if (test !== undefined) roots = removeWhere(roots, test);
  if (onlyMainContent && breaks !== 'onlyMainContent') roots = removeWhere(roots, (e) => FURNITURE.has(e.name));
  const inner = (e: Element) => (e.name === 'body' ? DomUtils.getInnerHTML(e) : DomUtils.getOuterHTML(e));
  const html = roots.map(inner).join('');

  let markdown = NodeHtmlMarkdown.translate(html, { keepDataImages: true });
  if (removeBase64 && breaks !== 'removeBase64Images')
    markdown = markdown.replace(/(!\[[^\]]*\])\(data:image\/[^)]*\)/g, '$1(<Base64-Image-Removed>)');
  if (breaks === 'emptyMarkdown') markdown = '';
  if (breaks === 'headingsAsText') markdown = markdown.replace(/^#+ /gm, '');

  const cleaned = parseDocument(html);
  const links = [
    ...new Set(
      elements(cleaned.children, (e) => e.name === 'a' && e.attribs['href'] !== undefined).map((a) =>
        breaks === 'relativeLinks' ? a.attribs['href']! : new URL(a.attribs['href']!, page.url).href,
      ),
    ),
  ];
  const all: Record<string, unknown> = { markdown, html, rawHtml: breaks === 'cleanedRawHtml' ? html : page.html, links };
  const asked = breaks === 'onlyMarkdown' ? ['markdown'] : formats;
  const record: Record<string, unknown> = Object.fromEntries(Object.entries(all).filter(([k]) => asked.includes(k)));
  record['metadata'] = {
    sourceURL: page.url,
    url: page.url,
    statusCode: page.status,
    ...(page.title === undefined ? {} : { title: page.title }),
  };
  return record;
}
