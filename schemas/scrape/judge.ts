/**
 * Holds the record a scrape returned for a page against what the oracle says of it (oracle.ts): for every
 * constraint, a finding that says whether it holds, is violated, or could not be judged, with what was seen.
 *
 *   - No record for the page (`undefined`): a `record` constraint is judged (`absent` and `lacks` hold,
 *     `contains` is violated); every other constraint is not judged (whether every page of a job has a
 *     record is the job's question, not the record's).
 *   - A format asked for (`holdsFormat`): some text of the record, whatever its field, holds it, recognised by
 *     its content (formatSearch.ts): interface §1 and the formats rows say what is returned, §2.6 shows no
 *     field names.
 *   - A constraint on a format's field (`markdown`, `html`, `rawHtml`, `links`): judged on that field when the
 *     record has it (the service's name); when it has not, on the text the content search found to hold that
 *     format (the one that fits the format's constraints best, a text that is no HTML first for markdown),
 *     saying so; when nothing holds it, not judged. `present` and `absent` look at the field's name alone:
 *     a record that returns markdown under another name differs from the service at service level.
 *   - A constraint on another field: judged on that field; not judged when the record lacks it.
 *   - A field of the wrong type (markdown that is no string): violated.
 *
 * Texts are read as a reader sees them (text.ts), so that any converter's markdown or HTML is judged on its
 * words. What the judge reads of a record is bounded (reader.ts), and so is what was seen (a few hundred
 * characters): a record can be large.
 */
import type { ScrapeConstraint, ScrapeExpectation, ScrapeLevel } from './constraint.js';
import { addressKey, isSearchedFormat, searchFormat, type Holder, type Search, type SearchedFormat } from './formatSearch.js';
import { fieldOf, readAs, Reader, type ReadAs } from './reader.js';
import { bounded, collapse } from './text.js';

export type ScrapeOutcome = 'holds' | 'violated' | 'notJudged';

export interface ScrapeFinding {
  readonly constraint: ScrapeConstraint;
  readonly outcome: ScrapeOutcome;
  /** The constraint's level and citations, repeated for a reader of the finding alone. */
  readonly level: ScrapeLevel;
  readonly cite: string;
  /** What was seen: where the text was found, what the field holds instead, why it could not be judged. */
  readonly seen: string;
}

/** The text around `at` in `text`, for a reader: where a match was found. */
const around = (text: string, at: number, length: number): string => {
  const from = Math.max(0, at - 40);
  return `${from > 0 ? '…' : ''}${text.slice(from, at + length + 40)}${at + length + 40 < text.length ? '…' : ''}`;
};

const q = (text: string) => JSON.stringify(bounded(text, 120));
const describe = (value: unknown): string =>
  typeof value === 'string'
    ? `${value.length} characters: ${q(collapse(value.slice(0, 400)))}`
    : bounded(JSON.stringify(value) ?? String(value), 160);

/** Where two texts first differ (the length of the shorter when one begins the other). */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The fetch count a record shows (page.ts `fetchCountLine`), read from any of its texts; undefined when it shows none. */
export const fetchCountOf = (record: unknown): number | undefined => new Reader(record).fetchCount();

type Judged = { readonly outcome: ScrapeOutcome; readonly seen: string };
const holds = (seen: string): Judged => ({ outcome: 'holds', seen });
const violated = (seen: string): Judged => ({ outcome: 'violated', seen });
const notJudged = (seen: string): Judged => ({ outcome: 'notJudged', seen });

/** A text of the record to look in: its path, how it is read, the text. */
type Place = readonly [path: string, as: ReadAs, text: string];

/** Where `needle` is in `places`, as a reader sees them. */
function findText(reader: Reader, places: readonly Place[], needle: string): string | undefined {
  const wanted = collapse(needle);
  for (const [path, as, text] of places)
    for (const seen of reader.collapsed(as, text)) {
      const at = seen.indexOf(wanted);
      if (at >= 0) return `${path}: ${q(around(seen, at, wanted.length))}`;
    }
  return undefined;
}

/** A text constraint on the text `value`, found at `path` and read `as` a format. */
function judgeText(reader: Reader, c: ScrapeConstraint, path: string, as: ReadAs, value: string): Judged {
  const places: Place[] = [[path, as, value]];
  switch (c.kind) {
    case 'contains': {
      const found = findText(reader, places, c.text!);
      return found !== undefined
        ? holds(`found in ${found}`)
        : violated(`${path} does not contain ${q(c.text!)}; it holds ${describe(value)}`);
    }
    case 'lacks': {
      const found = findText(reader, places, c.text!);
      return found === undefined ? holds(`${path} does not contain it`) : violated(`found in ${found}`);
    }
    case 'hasLine':
    case 'hasLineMatching':
    case 'noLineMatching': {
      const lines = reader.lines(as, value);
      const pattern = c.kind === 'hasLine' ? undefined : new RegExp(c.pattern!, 'i');
      const line = lines.find((l) => (pattern === undefined ? l === collapse(c.text!) : pattern.test(l)));
      const what = c.kind === 'hasLine' ? q(c.text!) : `matching /${c.pattern}/i`;
      if (c.kind === 'noLineMatching')
        return line === undefined ? holds(`no line of ${path} is ${what}`) : violated(`${path} has the line ${q(line)}`);
      return line !== undefined
        ? holds(`${path} has the line ${q(line)}`)
        : violated(`no line of ${path} is ${what}; it holds ${describe(value)}`);
    }
    case 'holdsBase64':
    case 'lacksBase64': {
      const at = reader.compact(as, value).indexOf(c.text!);
      const data = `the base64 data ${q(c.text!)}`;
      if (c.kind === 'lacksBase64') return at < 0 ? holds(`${path} does not hold ${data}`) : violated(`${path} holds ${data}`);
      return at >= 0 ? holds(`${path} holds ${data}`) : violated(`${path} does not hold ${data}; it holds ${describe(value)}`);
    }
    default:
      return notJudged(`a ${c.kind} constraint does not apply to a text`);
  }
}

/** What the walk could not read, when a judgment rests on something being nowhere in the record. */
const beyond = (reader: Reader) => `the judge reads no further into a record than ${reader.cut()}, and this one goes beyond`;

function judgeRecordTexts(reader: Reader, c: ScrapeConstraint): Judged {
  const { record } = reader;
  if (record === undefined) {
    if (c.kind === 'absent') return holds('no record for the page');
    if (c.kind === 'lacks' || c.kind === 'lacksBase64') return holds('no record for the page');
    if (c.kind === 'contains' || c.kind === 'holdsBase64' || c.kind === 'present') return violated('no record for the page');
    return notJudged('no record for the page');
  }
  if (c.kind === 'absent') return violated(`a record for the page: ${describe(record)}`);
  if (c.kind === 'present') return holds('a record for the page');
  const places = reader.strings().map(([path, text]): Place => [path, readAs(path), text]);
  const cut = reader.cut();
  if (c.kind === 'fetchedAgain' || c.kind === 'notFetchedAgain') {
    const count = reader.fetchCount();
    if (count === undefined) return notJudged(`the record shows no fetch count${cut === undefined ? '' : `; ${beyond(reader)}`}`);
    const earlier = c.earlierCount!;
    const seen = `the record shows fetch number ${count}, the earlier scrape showed ${earlier}`;
    return (c.kind === 'fetchedAgain' ? count > earlier : count === earlier) ? holds(seen) : violated(seen);
  }
  if (c.kind === 'contains' || c.kind === 'lacks') {
    const found = findText(reader, places, c.text!);
    if (found !== undefined) return c.kind === 'contains' ? holds(`found in ${found}`) : violated(`found in ${found}`);
    if (cut !== undefined) return notJudged(`no text the judge read contains ${q(c.text!)}; ${beyond(reader)}`);
    return c.kind === 'contains' ? violated(`no text of the record contains ${q(c.text!)}`) : holds('no text of the record contains it');
  }
  if (c.kind === 'holdsBase64' || c.kind === 'lacksBase64') {
    const where = places.find(([path, as, t]) => reader.compact(as, t).includes(c.text!))?.[0];
    const data = `the base64 data ${q(c.text!)}`;
    if (where !== undefined) return c.kind === 'holdsBase64' ? holds(`${where} holds ${data}`) : violated(`${where} holds ${data}`);
    if (cut !== undefined) return notJudged(`no text the judge read holds ${data}; ${beyond(reader)}`);
    return c.kind === 'holdsBase64' ? violated(`no text of the record holds ${data}`) : holds(`no text of the record holds ${data}`);
  }
  return notJudged(`a ${c.kind} constraint does not apply to a whole record`);
}

/** A constraint on the value of its field, found at `path` (the field itself, or the text that holds its format). */
function judgeValue(reader: Reader, c: ScrapeConstraint, path: string, value: unknown): Judged {
  switch (c.kind) {
    case 'present':
      return holds(`${path}: ${describe(value)}`);
    case 'absent':
      return violated(`the record has ${path}: ${describe(value)}`);
    case 'equals':
      if (value === c.value) return holds(`${path} is ${describe(value)}`);
      if (typeof value === 'string' && typeof c.value === 'string') {
        const at = firstDifference(value, c.value);
        return violated(`${path} differs from character ${at} on: it has ${q(value.slice(at))} where ${q(c.value.slice(at))} is expected`);
      }
      return violated(`${path} is ${describe(value)}, not ${describe(c.value)}`);
    case 'includes':
    case 'only':
      return judgeList(c, path, value);
    default:
      // Read as the constraint's field is, wherever the text was found.
      return typeof value === 'string'
        ? judgeText(reader, c, path, readAs(c.field), value)
        : violated(`${path} is no text: ${describe(value)}`);
  }
}

function judgeList(c: ScrapeConstraint, path: string, value: unknown): Judged {
  if (!Array.isArray(value)) return violated(`${path} is no list: ${describe(value)}`);
  const entries = value.filter((v): v is string => typeof v === 'string');
  if (entries.length !== value.length)
    return violated(`${path} has an entry that is no text: ${describe(value.find((v) => typeof v !== 'string'))}`);
  const keys = entries.map(addressKey);
  if (c.kind === 'includes') {
    const wanted = addressKey(c.text!);
    return keys.includes(wanted)
      ? holds(`${path} includes ${wanted}`)
      : violated(`${path} does not include ${wanted} (${entries.length} entries: ${bounded(entries.slice(0, 8).join(', '), 300)})`);
  }
  const allowed = new Set((c.values ?? []).map(addressKey));
  const extra = entries.filter((e, i) => !allowed.has(keys[i]!));
  return extra.length === 0
    ? holds(`every one of the ${entries.length} entries of ${path} is a link of the page`)
    : violated(
        `${path} holds ${extra.length} address(es) that are no link of the page, as absolute addresses: ${bounded(extra.slice(0, 5).join(', '), 300)}`,
      );
}

/** What the content search found for a format asked for, and the holder the judge takes as that format. */
interface Found {
  readonly search: Search;
  readonly holder: Holder | undefined;
}

/**
 * The formats asked for, as the record holds them (formatSearch.ts): for each, the texts (lists, for links)
 * that hold its content, and the one the judge takes for it: the field the service names, when it holds it;
 * else the one that fits the format's own constraints best (for markdown, a text that is no HTML first). A
 * format is looked for when the oracle says what it holds (a `holdsFormat` constraint).
 */
class Formats {
  readonly #needles = new Map<SearchedFormat, readonly string[]>();
  readonly #on = new Map<string, ScrapeConstraint[]>();
  readonly #found = new Map<SearchedFormat, Found>();
  constructor(
    readonly reader: Reader,
    constraints: readonly ScrapeConstraint[],
  ) {
    for (const c of constraints) {
      if (c.kind === 'holdsFormat' && typeof c.value === 'string' && isSearchedFormat(c.value)) this.#needles.set(c.value, c.values ?? []);
      else if (c.kind !== 'present' && c.kind !== 'absent' && isSearchedFormat(c.field)) {
        const list = this.#on.get(c.field);
        if (list === undefined) this.#on.set(c.field, [c]);
        else list.push(c);
      }
    }
  }

  /** What holds `format`; undefined when the oracle says nothing it must hold. */
  found(format: SearchedFormat): Found | undefined {
    const needles = this.#needles.get(format);
    if (needles === undefined) return undefined;
    let found = this.#found.get(format);
    if (found === undefined) {
      const search = searchFormat(this.reader, format, needles);
      const named = search.holders.find((h) => h.path === format);
      // HTML is markdown too (formatSearch.ts), but a text the record gives as another format asked for (its html,
      // its raw HTML) is not also its markdown: a record with no markdown would pass every markdown check on its HTML.
      const taken =
        format === 'markdown' && named === undefined ? (['html', 'rawHtml'] as const).map((f) => this.found(f)?.holder?.path) : [];
      const free = search.holders.filter((h) => !taken.includes(h.path));
      this.#found.set(format, (found = { search, holder: named ?? this.#best(format, free) }));
    }
    return found;
  }

  /** The holder that breaks the fewest of the format's constraints (interface level first), in record order. */
  #best(format: SearchedFormat, holders: readonly Holder[]): Holder | undefined {
    const on = this.#on.get(format) ?? [];
    const broken = (h: Holder, level: ScrapeLevel) =>
      on.filter((c) => c.level === level && judgeValue(this.reader, c, h.path, h.value).outcome === 'violated').length;
    const rank = (h: Holder) => [format === 'markdown' && h.isHtml ? 1 : 0, broken(h, 'interface'), broken(h, 'service')];
    const ranked = holders.map((h, i) => ({ h, key: [...rank(h), i] }));
    ranked.sort((a, b) => lexicographic(a.key, b.key));
    return ranked[0]?.h;
  }
}

const lexicographic = (a: readonly number[], b: readonly number[]): number => {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! - b[k]!;
  return 0;
};

/** What a format's holder is, in words. */
const WHAT: Readonly<Record<SearchedFormat, string>> = {
  markdown: 'holds every text the page’s content must show',
  html: 'is HTML holding every text the page’s content must show',
  rawHtml: 'is HTML holding every text of the page',
  links: 'lists every address the page’s content links to, as an absolute address',
};

/** A format asked for: some text (a list, for links) of the record holds it, whatever its field. */
function judgeFormat(formats: Formats, c: ScrapeConstraint): Judged {
  const { reader } = formats;
  const format = String(c.value);
  if (reader.record === undefined) return notJudged('no record for the page');
  if (!isSearchedFormat(format)) return notJudged(`the judge does not recognise the ${format} format by its content`);
  const found = formats.found(format)!;
  const { holder } = found;
  if (holder !== undefined)
    return holds(`${holder.path} ${WHAT[format]}${holder.path === format ? '' : ` (the service names the field ${format})`}`);
  const what = `no ${format === 'links' ? 'list' : 'text'} of the record ${WHAT[format]}: ${found.search.nearest}`;
  return reader.cut() === undefined ? violated(what) : notJudged(`${what}; ${beyond(reader)}`);
}

/** What the content search says of a format's field the record lacks, for a constraint on it. */
function standIn(formats: Formats, c: ScrapeConstraint & { field: SearchedFormat }): Judged {
  const missing = `the record has no ${c.field} (the record's field names are the service's: interface §2.6 shows none)`;
  const found = formats.found(c.field);
  if (found === undefined) return notJudged(`${missing}, and the page shows nothing that ${c.field} must hold to find it by`);
  if (found.holder === undefined) return notJudged(`${missing}, and ${found.search.nearest}`);
  const { outcome, seen } = judgeValue(formats.reader, c, found.holder.path, found.holder.value);
  return { outcome, seen: `the record has no ${c.field}; judged on ${found.holder.path}, which ${WHAT[c.field]}: ${seen}` };
}

function judgeOne(formats: Formats, c: ScrapeConstraint): Judged {
  const { record } = formats.reader;
  if (c.kind === 'holdsFormat') return judgeFormat(formats, c);
  if (c.field === 'record') return judgeRecordTexts(formats.reader, c);
  if (record === undefined) return notJudged('no record for the page');
  const value = fieldOf(record, c.field);
  if (value !== undefined) return judgeValue(formats.reader, c, c.field, value);
  if (c.kind === 'absent') return holds(`the record has no ${c.field}`);
  if (c.kind === 'present') return violated(`the record has no ${c.field}`);
  if (isSearchedFormat(c.field)) return standIn(formats, c as ScrapeConstraint & { field: SearchedFormat });
  return notJudged(`the record has no ${c.field} (the record's field names are the service's: interface §2.6 shows none)`);
}

/** The finding of every constraint of `expectation` on `record` (undefined: the scrape returned no record for the page). */
export function judgeScrapeRecord(expectation: ScrapeExpectation, record: unknown): ScrapeFinding[] {
  const formats = new Formats(new Reader(record), expectation.constraints);
  return expectation.constraints.map((constraint) => {
    const { outcome, seen } = judgeOne(formats, constraint);
    return {
      constraint,
      outcome,
      level: constraint.level,
      cite: constraint.cites.map((x) => `${x.source} (${x.names.join(', ')})`).join('; '),
      seen: bounded(seen, 400),
    };
  });
}
