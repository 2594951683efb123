/**
 * `includeTags` and `excludeTags` held against a page model's elements (page.ts).
 *
 * Interface §2.3 calls them tags: a bare tag name (`p`, `footer`) is read at interface level. The service reads
 * each entry as a CSS selector; of those, this reads the simple ones, at service level: a tag, `.class`,
 * `#id`, or a compound of them (`p.lead`, `section#details.note`, `*`). Anything else (combinators,
 * attributes, pseudo-classes, the service's `*name*` wildcards) is not read: what it would keep or remove is
 * left undecided. A page model is data, not a document, so a CSS library (which walks a DOM) has nothing to
 * walk here; simple selectors against a list of elements take a few lines.
 *
 * With `onlyMainContent`, the service also removes the page furniture it recognises by selector: the
 * `header`, `footer`, `nav` and `aside` elements, and elements of the usual class and id names of navigation,
 * sidebars, pop-ups, ads and the like (`NON_MAIN`, as the service lists them; newer services list more).
 */
import type { ScrapeElement } from './page.js';

export interface SimpleSelector {
  /** Lower-case, or undefined for any (`*` or none written). */
  readonly tag: string | undefined;
  readonly id: string | undefined;
  readonly classes: readonly string[];
}

const NAME = '-?[A-Za-z_][\\w-]*';
const SIMPLE = new RegExp(`^(\\*|[A-Za-z][A-Za-z0-9-]*)?((?:[.#]${NAME})*)$`);
const PART = new RegExp(`[.#]${NAME}`, 'g');

/** `selector` read as a simple selector; undefined when it is anything else. */
export function readSelector(selector: string): SimpleSelector | undefined {
  const trimmed = selector.trim();
  const match = SIMPLE.exec(trimmed);
  if (match === null || trimmed === '') return undefined;
  const parts = match[2]!.match(PART) ?? [];
  const ids = parts.filter((p) => p.startsWith('#')).map((p) => p.slice(1));
  if (ids.length > 1 && new Set(ids).size > 1) return undefined;
  const tag = match[1] === undefined || match[1] === '*' ? undefined : match[1].toLowerCase();
  return { tag, id: ids[0], classes: parts.filter((p) => p.startsWith('.')).map((p) => p.slice(1)) };
}

/** Whether `selector` is a bare tag name: what interface §2.3 `includeTags`/`excludeTags`, which it calls tags, gives a meaning. */
export const isTagName = (selector: SimpleSelector): boolean =>
  selector.tag !== undefined && selector.id === undefined && selector.classes.length === 0;

export function matches(selector: SimpleSelector, element: ScrapeElement): boolean {
  if (selector.tag !== undefined && selector.tag !== element.tag) return false;
  if (selector.id !== undefined && selector.id !== element.id) return false;
  return selector.classes.every((c) => element.classes?.includes(c) === true);
}

/**
 * What the service removes as page furniture with `onlyMainContent` (besides what newer services add), as CSS
 * selectors: the reference server removes these (scripts/server/pageContent.ts), the oracle reads them (`NON_MAIN`).
 */
export const NON_MAIN_SELECTORS: readonly string[] = [
  'header',
  'footer',
  'nav',
  'aside',
  '.header',
  '.top',
  '.navbar',
  '#header',
  '.footer',
  '.bottom',
  '#footer',
  '.sidebar',
  '.side',
  '.aside',
  '#sidebar',
  '.modal',
  '.popup',
  '#modal',
  '.overlay',
  '.ad',
  '.ads',
  '.advert',
  '#ad',
  '.lang-selector',
  '.language',
  '#language-selector',
  '.social',
  '.social-media',
  '.social-links',
  '#social',
  '.menu',
  '.navigation',
  '#nav',
  '.breadcrumbs',
  '#breadcrumbs',
  '#search-form',
  '.search',
  '#search',
  '.share',
  '#share',
  '.pagination',
  '#pagination',
  '.widget',
  '#widget',
  '.related',
  '#related',
  '.cookie',
  '#cookie',
];
/** `NON_MAIN_SELECTORS` read as simple selectors (every one is). */
export const NON_MAIN: readonly SimpleSelector[] = NON_MAIN_SELECTORS.map((s) => readSelector(s)!);

/**
 * The service keeps an element it would remove as furniture when it holds the element of id `main`; from a
 * text's path only the part on that path is visible.
 */
export const FORCE_MAIN_ID = 'main';
