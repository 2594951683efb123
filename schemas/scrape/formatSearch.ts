/**
 * The content search: which text of a record holds a format asked for, whatever field it is in. Interface §1
 * says the service returns a page in the formats asked for, and the formats rows of §2.3 and §2.4 name them;
 * the names of the record's fields are the service's (§2.6 shows none). So at interface level a format is
 * recognised by what it holds (`needles`: what the oracle says it must hold at interface level):
 *
 *   - `html`: a text that is HTML (an element with its end tag, `<p>…</p>`) holding every needle as a reader
 *     of HTML sees it (text.ts);
 *   - `rawHtml`: the same, its needles every text of the page as served;
 *   - `markdown`: a text holding every needle as a reader of markdown sees it. HTML is markdown too (a markdown
 *     reader passes HTML through), so an HTML text is not refused; the judge prefers one that is no HTML;
 *   - `links`: a list of texts holding every needle, an address, as an absolute address.
 *
 * It reads what the reader's walk read (reader.ts: bounded in depth, in values and in characters), each text
 * once per way of reading, and looks for each needle with `indexOf`: linear in the size of the record, times
 * the needles.
 */
import { pageKey } from '../crawl/site.js';
import { collapse, bounded } from './text.js';
import { readAs, type Reader } from './reader.js';

export type SearchedFormat = 'markdown' | 'html' | 'rawHtml' | 'links';
/** The formats the search recognises, in the order the oracle says what holds them. */
export const SEARCHED_FORMATS: readonly SearchedFormat[] = ['markdown', 'html', 'rawHtml', 'links'];
export const isSearchedFormat = (name: string): name is SearchedFormat => (SEARCHED_FORMATS as readonly string[]).includes(name);

/** How many holders a search returns at most (the judge ranks them; a record may repeat one text many times). */
export const MAX_HOLDERS = 16;

/** An address as links are compared: as the crawl oracle compares them (parsed, without fragment); the entry itself when it is no absolute address. */
export const addressKey = (entry: string): string => pageKey(entry) ?? entry;

const END_TAG = /<\/([A-Za-z][A-Za-z0-9-]*)\s*>/g;
const START_TAG = /<([A-Za-z][A-Za-z0-9-]*)[\s/>]/g;

/**
 * Whether `text` is HTML: it has an element with its start tag and its end tag. Markdown has neither (the
 * service's `<Base64-Image-Removed>` and an autolink `<https://…>` have no end tag). Two passes, linear.
 */
export function isHtml(text: string): boolean {
  const ends = new Set<string>();
  for (const match of text.matchAll(END_TAG)) ends.add(match[1]!.toLowerCase());
  if (ends.size === 0) return false;
  for (const match of text.matchAll(START_TAG)) if (ends.has(match[1]!.toLowerCase())) return true;
  return false;
}

/** A text (a list, for links) of the record that holds a format's content. */
export interface Holder {
  readonly path: string;
  readonly value: string | readonly string[];
  /** The text is HTML (`isHtml`); false for a list. */
  readonly isHtml: boolean;
}

export interface Search {
  /** What holds the format's content, in record order, at most `MAX_HOLDERS`. */
  readonly holders: readonly Holder[];
  /** When nothing does: the nearest miss, in words. */
  readonly nearest: string;
}

/** The texts (lists, for links) of the record that hold `format` with every one of `needles`. */
export function searchFormat(reader: Reader, format: SearchedFormat, needles: readonly string[]): Search {
  if (format === 'links') return searchLinks(reader, needles);
  const as = readAs(format);
  const wanted = needles.map(collapse);
  const holders: Holder[] = [];
  let nearest = { path: '', held: 0, missing: wanted[0] ?? '', notHtml: false };
  for (const [path, text] of reader.strings()) {
    const readings = reader.collapsed(as, text);
    const missing = wanted.filter((w) => !readings.some((r) => r.includes(w)));
    const held = wanted.length - missing.length;
    const html = missing.length === 0 && isHtml(text);
    if (missing.length === 0 && (format === 'markdown' || html)) {
      holders.push({ path, value: text, isHtml: html });
      if (holders.length >= MAX_HOLDERS) break;
    } else if (held > nearest.held) nearest = { path, held, missing: missing[0] ?? '', notHtml: missing.length === 0 };
  }
  const of = `${wanted.length} text(s) ${format === 'rawHtml' ? 'of the page' : 'the page’s content must show'}`;
  return {
    holders,
    nearest: nearest.notHtml
      ? `${nearest.path} holds every one of the ${of}, but is no HTML (no element with its start and end tags)`
      : nearest.held === 0
        ? `no text of it holds ${JSON.stringify(bounded(nearest.missing, 120))}`
        : `the nearest, ${nearest.path}, holds ${nearest.held} of the ${of}, not ${JSON.stringify(bounded(nearest.missing, 120))}`,
  };
}

function searchLinks(reader: Reader, needles: readonly string[]): Search {
  const wanted = needles.map(addressKey);
  const holders: Holder[] = [];
  let nearest = { path: '', held: 0, missing: wanted[0] ?? '' };
  for (const list of reader.lists()) {
    const keys = new Set(list.entries.map(addressKey));
    const missing = wanted.filter((w) => !keys.has(w));
    if (missing.length === 0) {
      holders.push({ path: list.path, value: list.entries, isHtml: false });
      if (holders.length >= MAX_HOLDERS) break;
    } else if (wanted.length - missing.length > nearest.held)
      nearest = { path: list.path, held: wanted.length - missing.length, missing: missing[0]! };
  }
  return {
    holders,
    nearest:
      nearest.held === 0
        ? `no list of texts in it holds ${bounded(nearest.missing, 200)}`
        : `the nearest, ${nearest.path}, holds ${nearest.held} of the ${wanted.length} addresses, not ${bounded(nearest.missing, 200)}`,
  };
}
