/**
 * What of a page's document is its content, per the scrape options (interface §2.3, and §2.4 "As in v1"):
 *
 *   - `includeTags` ("Tags to include in the output"): only the elements a selector of it matches (the
 *     outermost of them, in page order: one inside another is not written twice), wherever they stand;
 *   - `excludeTags` ("Tags to exclude from the output"): the elements a selector of it matches are left out,
 *     with everything inside them;
 *   - `onlyMainContent` ("Return only the main content, without headers, navigation, footers"): the elements
 *     around the main content are left out as the service leaves them out (service level: which elements):
 *     `header`, `nav`, `footer`, `aside`, and the class and id selectors sites use for them (`NON_MAIN_SELECTORS`),
 *     unless one holds the element of id `main`; without it, the whole body;
 *   - `removeBase64Images` ("alt text stays, the URL is replaced by a placeholder"): an image whose `src` is a
 *     base64 `data:` URL gets `BASE64_IMAGE_PLACEHOLDER` as its `src`, the placeholder the service writes
 *     (service level), its `alt` untouched; the markdown then shows `![alt](<Base64-Image-Removed>)`.
 * A selector is any CSS selector (the service takes them so: a tag name, `.class`, `#id`, and the rest), run
 * by css-select, the selector engine of cheerio and of htmlparser2's DOM (fb55's, maintained, MIT), on the
 * document htmlparser2 read (`htmlPage.ts`). The job's selectors come parsed, bounded and compiled once
 * (`selectorLimits.ts`, `selectorMeter.ts`); selectors that cannot be compiled are an error of each page
 * (`SelectorError`) that names them.
 *
 * Bounds: the document walked has at most the elements `htmlPage.ts` keeps (`MAX_CONTENT_ELEMENTS`), nested
 * at most 512 deep. Testing one element takes at most `MAX_TEST_STEPS` steps of css-select's walk
 * (`selectorMeter.ts`: past them the page is an error naming the selector); the clock is looked at every
 * `CLOCK_STEPS` steps (an element walked is one), and the event loop given a turn every `TURN_MS`; a page
 * whose selectors take more than `MAX_SELECTION_MS` of the server's time in all (the turns given to others not
 * counted: `:nth-last-child` counts the siblings after each element it is tested on, `:has()` searches below
 * it) is an error of the page, never a stall.
 */
import { compile } from 'css-select';
import { hasChildren, isTag, type AnyNode, type Document, type Element } from 'domhandler';
import { DomUtils } from 'htmlparser2';
import { FORCE_MAIN_ID, NON_MAIN_SELECTORS } from '../../schemas/scrape/selectors.js';
import { turn } from './boundedParser.js';
import { SelectorError, stepsTaken, type ContentSelectors } from './selectorMeter.js';

/** What the scrape options ask of the content (`ScrapeSettings`). */
export interface ContentOptions {
  readonly onlyMainContent: boolean;
  /** The job's `includeTags` and `excludeTags`, compiled. */
  readonly selectors: ContentSelectors;
  readonly removeBase64Images: boolean;
}

/** The `src` a base64 image gets with `removeBase64Images` (the service's placeholder). */
export const BASE64_IMAGE_PLACEHOLDER = '<Base64-Image-Removed>';

/** Time the selectors of one page may take in all, in ms. */
export const MAX_SELECTION_MS = 5_000;
/** Time selectors are tested for between two turns of the event loop, in ms (looked at every `CLOCK_STEPS` steps). */
const TURN_MS = 20;
/** Steps (elements walked, and css-select's steps testing them) between two looks at the clock: well under a ms. */
const CLOCK_STEPS = 4096;

const BASE64_IMAGE = /^\s*data:image\/[^,]*;base64,/i;

type Test = (element: Element) => boolean;

const nonMain: Test = compile<AnyNode, Element>(NON_MAIN_SELECTORS.join(', '));

/** The time one page's selectors have taken, between the turns of the event loop they give. */
class Spent {
  #ms = 0;
  #since = performance.now();

  /** Whether the selectors have had their `TURN_MS`, and should give the event loop a turn. */
  get due(): boolean {
    return performance.now() - this.#since > TURN_MS;
  }

  /** Gives the event loop a turn; rejects when `signal` aborts, or with a `SelectorError` past `MAX_SELECTION_MS`. */
  async turn(signal: AbortSignal): Promise<void> {
    this.#ms += performance.now() - this.#since;
    if (this.#ms > MAX_SELECTION_MS)
      throw new SelectorError(`the includeTags and excludeTags selectors took more than ${MAX_SELECTION_MS} ms on this page`);
    await turn();
    signal.throwIfAborted();
    this.#since = performance.now();
  }
}

/** Walks the elements under `roots` in page order (roots included), a turn of the event loop every `TURN_MS` or so; `visit` false skips an element's inside. */
async function walk(roots: readonly AnyNode[], visit: (element: Element) => boolean, signal: AbortSignal, spent: Spent): Promise<void> {
  const stack = [...roots].reverse();
  let walked = 0;
  let looked = stepsTaken();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!hasChildren(node)) continue;
    if (isTag(node)) {
      if (++walked + stepsTaken() - looked >= CLOCK_STEPS) {
        walked = 0;
        looked = stepsTaken();
        if (spent.due) await spent.turn(signal);
      }
      if (!visit(node)) continue;
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/**
 * The nodes whose content is the page's content under `options`, the document changed in place (what is left
 * out removed, base64 images replaced): the `<body>` (else the whole document), or the elements `includeTags`
 * matches. Rejects with a `SelectorError`, or when `signal` aborts.
 */
export async function pageContent(document: Document, options: ContentOptions, signal: AbortSignal): Promise<AnyNode[]> {
  if ('unrunnable' in options.selectors) throw new SelectorError(options.selectors.unrunnable);
  const { include, exclude } = options.selectors;
  const spent = new Spent();
  let roots: AnyNode[];
  if (include !== undefined) {
    const matched: Element[] = [];
    await walk(
      document.children,
      (element) => {
        if (!include(element)) return true;
        matched.push(element);
        return false; // the outermost match: what is inside it is written with it
      },
      signal,
      spent,
    );
    roots = matched;
  } else {
    roots = [DomUtils.findOne((element) => element.name === 'body', document.children, true) ?? document];
  }
  // With onlyMainContent, the ancestors of the element of id `main` stay whatever they match.
  const holdsMain = new Set<Element>();
  if (options.onlyMainContent)
    for (const main of DomUtils.findAll((element) => element.attribs['id'] === FORCE_MAIN_ID, roots))
      for (let parent = main.parent; parent !== null && isTag(parent) && !holdsMain.has(parent); parent = parent.parent)
        holdsMain.add(parent);
  const removed: Element[] = [];
  await walk(
    roots,
    (element) => {
      if (exclude?.(element) === true || (options.onlyMainContent && !holdsMain.has(element) && nonMain(element))) {
        removed.push(element);
        return false;
      }
      if (options.removeBase64Images && element.name === 'img' && BASE64_IMAGE.test(element.attribs['src'] ?? ''))
        element.attribs['src'] = BASE64_IMAGE_PLACEHOLDER;
      return true;
    },
    signal,
    spent,
  );
  const gone = new Set(removed);
  for (const element of removed) DomUtils.removeElement(element);
  return roots.filter((root) => !isTag(root) || !gone.has(root));
}
