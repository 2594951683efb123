/**
 * What the scrape oracle (oracle.ts) says of a record: constraints, each on one field of the record, with its
 * level of truth, the sentence it rests on (its citations) and why; and how they are collected.
 */
import type { Version } from '../versions.js';
import type { ScrapeSettings } from './settings.js';

export type ScrapeLevel = 'interface' | 'service';

/**
 * Where a constraint comes from: `interface §2.3` with the fields or values of that section it rests on, or
 * `service` with what of the service it relies on (the shape of the contract kit's citations).
 */
export interface ScrapeCitation {
  readonly source: string;
  readonly names: readonly string[];
}

/**
 * What a constraint asks of its field:
 *   - `present` / `absent`: the field is there / is not;
 *   - `contains` / `lacks`: its text (as a reader sees it: text.ts) contains `text` / does not;
 *   - `hasLine`: one of its lines is `text`; `hasLineMatching` / `noLineMatching`: one line matches
 *     `pattern` (a RegExp source, read case-insensitively) / none does;
 *   - `holdsBase64` / `lacksBase64`: it holds the base64 data `text` (whitespace ignored) / does not;
 *   - `equals`: it is `value`;
 *   - `includes`: the list holds the address `text`; `only`: every entry is one of `values`;
 *   - `fetchedAgain` / `notFetchedAgain`: the fetch count the record shows (page.ts `fetchCountLine`) is
 *     above `earlierCount` (the page was fetched again) / is `earlierCount` (the earlier answer, from a cache);
 *   - `holdsFormat` (on `record`): some text of the record, whatever its field, is the format `value`
 *     (`markdown`, `html`, `rawHtml`; for `links` a list of texts) holding every one of `values`: the texts it
 *     must show, or for links the addresses (formatSearch.ts).
 */
export type ScrapeConstraintKind =
  | 'present'
  | 'absent'
  | 'contains'
  | 'lacks'
  | 'hasLine'
  | 'hasLineMatching'
  | 'noLineMatching'
  | 'holdsBase64'
  | 'lacksBase64'
  | 'equals'
  | 'includes'
  | 'only'
  | 'fetchedAgain'
  | 'notFetchedAgain'
  | 'holdsFormat';

export interface ScrapeConstraint {
  /** Unique in its expectation, and the same for the same page and options: `<option>/<field>/<kind>/<subject>`. */
  readonly id: string;
  /** The option whose meaning it shows (`onlyMainContent`, `headers`...), or `formats`, or `page` (the record's own fields). */
  readonly option: string;
  /**
   * The field of the record it looks at: a format's (`markdown`, `html`, `rawHtml`, `links`...), a metadata
   * field (`metadata.statusCode`), or `record`: every text in the record (and whether there is one). The
   * names are the service's: when the record lacks the field of `markdown`, `html`, `rawHtml` or `links`, the
   * judge looks at the text that holds that format instead (judge.ts).
   */
  readonly field: string;
  /** `interface` when a citation is of the interface, else `service`. */
  readonly level: ScrapeLevel;
  readonly cites: readonly ScrapeCitation[];
  readonly kind: ScrapeConstraintKind;
  readonly text?: string;
  readonly value?: string | number;
  readonly pattern?: string;
  readonly values?: readonly string[];
  readonly earlierCount?: number;
  /** Why, in words: the rule and what it means for this page. */
  readonly why: string;
}

export interface NotJudged {
  readonly option: string;
  readonly why: string;
}

export interface ScrapeExpectation {
  /** The page's address. */
  readonly url: string;
  readonly settings: ScrapeSettings;
  readonly constraints: readonly ScrapeConstraint[];
  /** Options given whose meaning this page cannot show, or that the oracle cannot read here, with why. */
  readonly notJudged: readonly NotJudged[];
}

export const serviceCite = (...names: string[]): ScrapeCitation[] => [{ source: 'service', names }];

/** Collects the constraints of one expectation, with the citations of its version. */
export class Constraints {
  readonly list: ScrapeConstraint[] = [];
  readonly notJudged: NotJudged[] = [];
  readonly #ids = new Map<string, number>();
  constructor(readonly version: Version) {}

  add(c: Omit<ScrapeConstraint, 'id' | 'level'> & { readonly subject: string }): void {
    const { subject, ...rest } = c;
    const base = `${c.option}/${c.field}/${c.kind}/${subject}`;
    const n = this.#ids.get(base) ?? 0;
    this.#ids.set(base, n + 1);
    const level: ScrapeLevel = c.cites.some((x) => x.source.startsWith('interface')) ? 'interface' : 'service';
    this.list.push({ id: n === 0 ? base : `${base}#${n + 1}`, level, ...rest });
  }

  skip(option: string, why: string): void {
    if (!this.notJudged.some((n) => n.option === option && n.why === why)) this.notJudged.push({ option, why });
  }

  /** The citation of an option's row: §2.3 in v1; in v2 §2.4, and §2.3 too where the v2 row refers back to v1. */
  option(name: string, asInV1 = true): ScrapeCitation[] {
    if (this.version === 'v1') return [{ source: 'interface §2.3', names: [name] }];
    const own = { source: 'interface §2.4', names: [name] };
    return asInV1 ? [own, { source: 'interface §2.3', names: [name] }] : [own];
  }

  /** The citation of a format's meaning (the formats row of the version). */
  format(name: string): ScrapeCitation[] {
    return [{ source: this.version === 'v1' ? 'interface §2.3' : 'interface §2.4', names: ['formats', name] }];
  }

  expectation(url: string, settings: ScrapeSettings): ScrapeExpectation {
    return { url, settings, constraints: this.list, notJudged: this.notJudged };
  }
}
