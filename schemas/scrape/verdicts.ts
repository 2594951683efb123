/**
 * What `onlyMainContent`, `includeTags` and `excludeTags` make of something on a page (a text, an image),
 * from where it stands: its region and the elements it is inside (page.ts). Per level:
 *
 *   - `interface` (§2.3): `includeTags` keeps only what is inside a tag to include; `excludeTags` removes what
 *     is inside a tag to exclude; `onlyMainContent` removes the header, the navigation and the footer (false:
 *     keeps them). Only bare tag names are read (the interface calls them tags); where the words leave a choice the answer is `may`:
 *     an entry that is no tag name and may select it (`.lead` may, under any reading, select no more than the
 *     elements of class `lead`), a tag to exclude around an element an entry of includeTags selects or may
 *     select (`section` around `p.lead`), a tag to include inside the header, navigation or footer with
 *     `onlyMainContent`, an `aside` (not named).
 *   - `service`: the service copies the elements `includeTags` selects (CSS selectors; each copy without what
 *     encloses it), then removes from them what `excludeTags` selects and, with `onlyMainContent`, the page
 *     furniture it recognises (selectors.ts). A selector the oracle does not read leaves `may`.
 *
 * `placeVerdict` gives the verdict of the first level that decides (the interface's when it is not `may`), so
 * a service-level expectation never contradicts the interface.
 */
import type { ScrapeElement, ScrapeRegion } from './page.js';
import { FORCE_MAIN_ID, isTagName, matches, NON_MAIN, readSelector, type SimpleSelector } from './selectors.js';
import type { ScrapeSettings } from './settings.js';

export type Verdict = 'must' | 'mustNot' | 'may';

export interface Decided {
  readonly verdict: Verdict;
  /** The option that decides, or `formats` for main content no option touches. */
  readonly option: string;
  readonly why: string;
}

export interface PlaceVerdict {
  readonly level: 'interface' | 'service';
  readonly decided: Decided;
}

/** The regions interface §2.3 `onlyMainContent` leaves out of the main content. */
const FURNITURE: readonly ScrapeRegion[] = ['header', 'nav', 'footer'];

const indices = (path: readonly ScrapeElement[], selectors: readonly SimpleSelector[]): number[] =>
  path.flatMap((element, i) => (selectors.some((s) => matches(s, element)) ? [i] : []));
const tagNames = (list: readonly (SimpleSelector | undefined)[]) =>
  list.filter((x): x is SimpleSelector => x !== undefined && isTagName(x));
/**
 * Whether an entry that is no tag name may select something at `path`: one the oracle does not read may; a
 * simple selector selects, under any reading of it, at most what it selects as CSS.
 */
const maySelect = (list: readonly (SimpleSelector | undefined)[], path: readonly ScrapeElement[]) =>
  list.some((x) => x === undefined || (!isTagName(x) && path.some((e) => matches(x, e))));
/**
 * The places on `path` that an entry that is no tag name may select: those a simple selector matches, and the
 * text's own element for an entry the oracle does not read (it may select anything).
 */
const maySelectAt = (list: readonly (SimpleSelector | undefined)[], path: readonly ScrapeElement[]): number[] =>
  list.flatMap((x) => (x === undefined ? [path.length - 1] : isTagName(x) ? [] : indices(path, [x])));

/** The selectors of a scrape's `includeTags` and `excludeTags`, read once (undefined: not read). */
export class Selectors {
  readonly include: readonly (SimpleSelector | undefined)[];
  readonly exclude: readonly (SimpleSelector | undefined)[];
  constructor(readonly settings: ScrapeSettings) {
    this.include = settings.includeTags.map(readSelector);
    this.exclude = settings.excludeTags.map(readSelector);
  }
}

function interfaceVerdict(region: ScrapeRegion, path: readonly ScrapeElement[], sel: Selectors): Decided {
  const s = sel.settings;
  const including = s.includeTags.length > 0;
  const included = indices(path, tagNames(sel.include));
  const excluded = indices(path, tagNames(sel.exclude));
  if (including && included.length === 0)
    return maySelect(sel.include, path)
      ? {
          verdict: 'may',
          option: 'includeTags',
          why: 'includeTags has an entry that is no tag name: whether it selects this is the service’s reading',
        }
      : { verdict: 'mustNot', option: 'includeTags', why: `it is inside none of the tags to include (${s.includeTags.join(', ')})` };
  if (excluded.length > 0) {
    // A tag to exclude at or inside every element that includes the text removes it, whatever is done first.
    // One that encloses an element an entry of includeTags selects, or may select (`p.lead` inside an excluded
    // `section`), is the interface's open question: the service copies that element out on its own and keeps it.
    const innermost = including ? Math.max(...included, ...maySelectAt(sel.include, path)) : -1;
    const inside = excluded.filter((i) => i >= innermost);
    return inside.length > 0
      ? { verdict: 'mustNot', option: 'excludeTags', why: `it is inside a <${path[inside[0]!]!.tag}>, a tag to exclude` }
      : {
          verdict: 'may',
          option: 'excludeTags',
          why: 'a tag to exclude encloses an element includeTags selects or may select: the interface does not say which wins',
        };
  }
  if (s.onlyMainContent && FURNITURE.includes(region))
    return including
      ? {
          verdict: 'may',
          option: 'includeTags',
          why: `it is in the page’s ${region}, inside a tag to include: the interface does not say whether includeTags or onlyMainContent wins`,
        }
      : {
          verdict: 'mustNot',
          option: 'onlyMainContent',
          why: `it is in the page’s ${region}: onlyMainContent leaves the page’s header, navigation and footer out`,
        };
  if (maySelect(sel.exclude, path))
    return {
      verdict: 'may',
      option: 'excludeTags',
      why: 'excludeTags has an entry that is no tag name: whether it removes this is the service’s reading',
    };
  if (s.onlyMainContent && region === 'aside')
    return {
      verdict: 'may',
      option: 'onlyMainContent',
      why: 'it is in an aside, which the interface does not name among what onlyMainContent leaves out',
    };
  if (including) return { verdict: 'must', option: 'includeTags', why: 'it is inside a tag to include, and nothing removes it' };
  if (region !== 'main')
    return {
      verdict: 'must',
      option: 'onlyMainContent',
      why: `it is in the page’s ${region}, and onlyMainContent false returns more than the main content`,
    };
  return { verdict: 'must', option: 'formats', why: 'it is main content of the page, and no option removes it' };
}

function serviceVerdict(path: readonly ScrapeElement[], sel: Selectors): Decided {
  const s = sel.settings;
  if (sel.include.some((x) => x === undefined))
    return { verdict: 'may', option: 'includeTags', why: 'includeTags has a selector the oracle does not read' };
  const including = s.includeTags.length > 0;
  const starts = including ? indices(path, sel.include as SimpleSelector[]) : [0];
  if (starts.length === 0)
    return {
      verdict: 'mustNot',
      option: 'includeTags',
      why: `it is inside no element the selectors to include (${s.includeTags.join(', ')}) select`,
    };
  const exclude = sel.exclude.filter((x): x is SimpleSelector => x !== undefined);
  /** What removes it from the copy of the element at `from` (the whole body when nothing is included), if anything. */
  const removed = (from: number): Decided | undefined => {
    for (let j = from; j < path.length; j++) {
      const element = path[j]!;
      if (exclude.some((x) => matches(x, element)))
        return { verdict: 'mustNot', option: 'excludeTags', why: `it is inside a <${element.tag}> an entry of excludeTags selects` };
      // The service keeps furniture that holds the element of id `main`; only what is on the path shows here.
      const holdsMain = path.slice(j + 1).some((e) => e.id === FORCE_MAIN_ID);
      if (s.onlyMainContent && !holdsMain && NON_MAIN.some((x) => matches(x, element)))
        return {
          verdict: 'mustNot',
          option: 'onlyMainContent',
          why: `it is inside a <${element.tag}> the service removes as page furniture with onlyMainContent`,
        };
    }
    return undefined;
  };
  const outcomes = starts.map(removed);
  if (outcomes.every((o) => o !== undefined)) return outcomes[0]!;
  if (sel.exclude.some((x) => x === undefined))
    return { verdict: 'may', option: 'excludeTags', why: 'excludeTags has a selector the oracle does not read' };
  return { verdict: 'must', option: including ? 'includeTags' : 'formats', why: 'the service keeps it' };
}

/** The verdict on what stands at `path` in `region`, from the first level that decides; undefined when neither does. */
export function placeVerdict(region: ScrapeRegion, path: readonly ScrapeElement[], sel: Selectors): PlaceVerdict | undefined {
  const atInterface = interfaceVerdict(region, path, sel);
  if (atInterface.verdict !== 'may') return { level: 'interface', decided: atInterface };
  const atService = serviceVerdict(path, sel);
  return atService.verdict === 'may' ? undefined : { level: 'service', decided: atService };
}
