/**
 * A scrape record as the judge (judge.ts) reads it: its texts and its lists of texts, each with its path
 * (`markdown`, `metadata.title`, `links`), and each text as a reader of markdown or of HTML sees it (text.ts),
 * read once however many constraints look at it.
 *
 * A record is the implementation's: it may be anything, and large. So the walk is bounded, and says where it
 * stopped: values nested deeper than `MAX_DEPTH`, more than `MAX_VALUES` values, texts past `MAX_CHARS`
 * characters in all. What it does not read is neither found nor found missing: a judgment that rests on
 * something being nowhere in the record is not made when the walk stopped short (`cut`).
 */
import { FETCH_COUNT } from './page.js';
import { bounded, collapse, htmlText, linesOf, markdownText } from './text.js';

/** How deep the walk goes: the record's own fields are at depth 1. */
export const MAX_DEPTH = 8;
/** How many values (texts, numbers, lists, objects...) the walk visits at most. */
export const MAX_VALUES = 50_000;
/** How many characters of text the walk reads at most, all texts together. */
export const MAX_CHARS = 32 * 1024 * 1024;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a dotted `field` of the record; undefined when it is not there. */
export function fieldOf(record: unknown, field: string): unknown {
  let value = record;
  for (const key of field.split('.')) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** How a text is read: as markdown, as HTML, or (a field of no known format) both ways. */
export type ReadAs = 'markdown' | 'html' | 'both';

/** How the text of `field` is read: a format's field as that format, anything else both ways. */
export const readAs = (field: string): ReadAs =>
  field === 'markdown' ? 'markdown' : field === 'html' || field === 'rawHtml' ? 'html' : 'both';

function readings(as: ReadAs, text: string): string[] {
  if (as === 'markdown') return [markdownText(text)];
  if (as === 'html') return [htmlText(text)];
  return [markdownText(text), htmlText(text)];
}

/** A list of the record whose every entry is a text, with its path. */
export interface TextList {
  readonly path: string;
  readonly entries: readonly string[];
}

interface Walked {
  readonly strings: [string, string][];
  readonly lists: TextList[];
  /** Where the walk stopped short, in words; undefined when it read the whole record. */
  readonly cut: string | undefined;
}

/** Every text and every list of texts in `record`, depth first, within the bounds. */
function walk(record: unknown): Walked {
  const strings: [string, string][] = [];
  const lists: TextList[] = [];
  let values = 0;
  let chars = 0;
  let cut: string | undefined;
  const stop = (why: string) => (cut ??= why);
  const visit = (value: unknown, path: string, depth: number): boolean => {
    if (depth > MAX_DEPTH) {
      if (typeof value === 'string' || typeof value === 'object') stop(`values nested deeper than ${MAX_DEPTH} levels`);
      return false;
    }
    if (++values > MAX_VALUES) {
      stop(`more than ${MAX_VALUES} values`);
      return false;
    }
    if (typeof value === 'string') {
      if (chars + value.length > MAX_CHARS) {
        stop(`texts past ${MAX_CHARS} characters in all`);
        return false;
      }
      chars += value.length;
      strings.push([path || '(record)', value]);
      return true;
    }
    if (Array.isArray(value)) {
      let whole = true;
      for (const [i, v] of value.entries()) {
        if (!visit(v, `${path}[${i}]`, depth + 1)) whole = false;
        if (values > MAX_VALUES) {
          whole = false;
          break;
        }
      }
      if (whole && value.every((v) => typeof v === 'string')) lists.push({ path: path || '(record)', entries: value as string[] });
      return true;
    }
    if (isRecord(value))
      for (const [k, v] of Object.entries(value)) {
        // A key is shown, not read: a long one is cut short in the path.
        const key = bounded(k, 80);
        visit(v, path === '' ? key : `${path}.${key}`, depth + 1);
        if (values > MAX_VALUES) break;
      }
    return true;
  };
  visit(record, '', 0);
  return { strings, lists, cut };
}

/** A record's texts as a reader sees them, each read once however many constraints look at it. */
export class Reader {
  #walked: Walked | undefined;
  readonly #read = new Map<ReadAs, Map<string, { collapsed: string[]; lines?: string[]; compact?: string }>>();
  constructor(readonly record: unknown) {}

  #walk(): Walked {
    return (this.#walked ??= walk(this.record));
  }

  /** Every text of the record that the walk read, with its path. */
  strings(): readonly [string, string][] {
    return this.#walk().strings;
  }

  /** Every list of the record whose entries the walk read, all of them texts. */
  lists(): readonly TextList[] {
    return this.#walk().lists;
  }

  /** Where the walk stopped short of the whole record; undefined when it read it all. */
  cut(): string | undefined {
    return this.#walk().cut;
  }

  #entry(as: ReadAs, text: string) {
    let byText = this.#read.get(as);
    if (byText === undefined) this.#read.set(as, (byText = new Map()));
    let entry = byText.get(text);
    if (entry === undefined) byText.set(text, (entry = { collapsed: readings(as, text).map(collapse) }));
    return entry;
  }

  /** `text` as a reader sees it read `as` markdown, HTML or both, whitespace collapsed. */
  collapsed(as: ReadAs, text: string): string[] {
    return this.#entry(as, text).collapsed;
  }

  lines(as: ReadAs, text: string): string[] {
    const entry = this.#entry(as, text);
    return (entry.lines ??= readings(as, text).flatMap(linesOf));
  }

  /** `text` without whitespace (base64 data may be wrapped). */
  compact(as: ReadAs, text: string): string {
    const entry = this.#entry(as, text);
    return (entry.compact ??= text.replace(/\s+/g, ''));
  }

  /** The fetch count the record shows, if it shows one. */
  fetchCount(): number | undefined {
    for (const [field, text] of this.strings())
      for (const reading of this.collapsed(readAs(field), text)) {
        const match = FETCH_COUNT.exec(reading);
        if (match !== null) return Number(match[1]);
      }
    return undefined;
  }
}
