/**
 * The selectors of a job's `includeTags` / `excludeTags`, compiled once when the job starts, and tested on an
 * element within a bounded number of steps (issue 41, finding 3).
 *
 * css-select (fb55's, maintained, MIT; the engine of cheerio) compiles a selector into a function that walks
 * the document through an adapter. Its own adapter (domutils) is wrapped here so that every step of that walk
 * counts: moving to a parent, to the siblings, to the children, each node looked at in a loop (css-select asks
 * `isTag` of every sibling, child and ancestor it passes over), each attribute or name read, and each node
 * whose text `:contains()` reads. Testing one element against a list's selectors
 * may take at most `MAX_TEST_STEPS` steps: past them the test is cut off where it is, and the page is an
 * error naming the selector that was running (`SelectorError`), never a stall.
 *
 * Why here and not a worker thread (as `pdfText.ts` runs pdf.js): the document is a DOM of up to 100,000
 * elements (`htmlPage.ts`); a worker would have to be sent the page and parse it again, or be sent the DOM (a
 * structured clone of every node), for every page, and be started or kept in a pool, to be killed on a timer.
 * Counting steps costs a counter a call on the server's thread (no more than the noise of the measure:
 * docs/hardening.md), cuts off a test wherever it is, and says the same on every machine: a count, not a
 * clock. What a page's selectors may take in all, with turns of the event loop between elements, is
 * `pageContent.ts`'s.
 */
import { compile, type Options } from 'css-select';
import type { Selector } from 'css-what';
import { hasChildren, isTag, type AnyNode, type Element } from 'domhandler';
import { DomUtils } from 'htmlparser2';

/**
 * Steps one element's test against a list of selectors may take. A selector the reference server runs
 * (`selectorLimits.ts`) scans the page at most once a test: its siblings (100,000 at most), or the elements
 * below it for a `:has()` (four and a half steps each: 450,000 for the body of the largest page kept), so
 * 1,000,000 is twice what such a selector takes at most; 36–67 ms of the server's time on a loaded 2-core
 * machine (20–70 ns a step), where the metering itself cost no more than the noise of the measure.
 */
export const MAX_TEST_STEPS = 1_000_000;

/** A selector of `includeTags` or `excludeTags` that cannot be run, or selectors that took too long. */
export class SelectorError extends Error {}

/** Thrown inside css-select's walk when a test has taken its steps; caught by `matcher`'s test. */
class OutOfSteps extends Error {}

/** Steps taken by every test since the process started, and the last step the running test may take. */
let steps = 0;
let lastStep = Number.POSITIVE_INFINITY;

const step = (): void => {
  if (++steps > lastStep) throw new OutOfSteps();
};

/** A step for each node below `node` (and itself): what domutils' `getText` reads, counted before it reads it. */
function stepBelow(node: AnyNode): void {
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    step();
    if (hasChildren(next)) for (const child of next.children) stack.push(child);
  }
}

/** domutils, as css-select's default adapter uses it, with each call counted. */
const METERED: NonNullable<Options<AnyNode, Element>['adapter']> = {
  isTag: (node): node is Element => {
    step();
    return isTag(node);
  },
  getAttributeValue: (element, name) => {
    step();
    return DomUtils.getAttributeValue(element, name);
  },
  getChildren: (node) => {
    step();
    return DomUtils.getChildren(node);
  },
  getName: (element) => {
    step();
    return element.name;
  },
  getParent: (node) => {
    step();
    return node.parent;
  },
  getSiblings: (node) => {
    step();
    return DomUtils.getSiblings(node);
  },
  prevElementSibling: (node) => {
    step();
    return DomUtils.prevElementSibling(node);
  },
  getText: (node) => {
    stepBelow(node);
    return DomUtils.getText(node);
  },
  hasAttrib: (element, name) => {
    step();
    return DomUtils.hasAttrib(element, name);
  },
  removeSubsets: (nodes) => DomUtils.removeSubsets(nodes),
};

/** A selector as the job gives it (its text, for messages), parsed by css-what; or why css-what cannot parse it. */
export type ParsedSelector = { readonly text: string } & ({ readonly selector: Selector[][] } | { readonly unparsable: string });

/** A list's test: whether an element matches a selector of it. Throws a `SelectorError` past `MAX_TEST_STEPS`. */
export type Matcher = (element: Element) => boolean;

/** The job's selectors, compiled; or why they cannot be run (each page that would run them is an error saying so). */
export type ContentSelectors =
  { readonly include: Matcher | undefined; readonly exclude: Matcher | undefined } | { readonly unrunnable: string };

/** No selectors: the whole content. */
export const NO_SELECTORS: ContentSelectors = { include: undefined, exclude: undefined };

/** Steps every test has taken since the process started (`pageContent.ts` looks at its clock by them). */
export const stepsTaken = (): number => steps;

/** The list's test, each selector compiled on its own so that an error names it; or the message of the first that cannot be. */
function matcher(list: readonly ParsedSelector[], option: string): Matcher | string {
  const tests: ((element: Element) => boolean)[] = [];
  for (const parsed of list) {
    let why: string;
    try {
      if ('selector' in parsed) {
        tests.push(compile<AnyNode, Element>(parsed.selector, { adapter: METERED }));
        continue;
      }
      why = parsed.unparsable;
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
    return `the ${option} selector ${JSON.stringify(parsed.text.slice(0, 200))} is not a CSS selector the reference server can run (${why})`;
  }
  return (element) => {
    lastStep = steps + MAX_TEST_STEPS;
    let index = 0;
    try {
      for (; index < tests.length; index++) if (tests[index]!(element)) return true;
      return false;
    } catch (error) {
      if (!(error instanceof OutOfSteps)) throw error;
      throw new SelectorError(
        `the ${option} selector ${JSON.stringify(list[index]!.text.slice(0, 200))} took more than ${MAX_TEST_STEPS} steps to test one element of this page (the reference server tests an element against the ${option} selectors in at most ${MAX_TEST_STEPS} steps)`,
      );
    } finally {
      lastStep = Number.POSITIVE_INFINITY;
    }
  };
}

/** The job's selectors compiled (`parsed` by `selectorLimits.ts`), once for all its pages. */
export function compileSelectors(parsed: {
  readonly includeTags: readonly ParsedSelector[];
  readonly excludeTags: readonly ParsedSelector[];
}): ContentSelectors {
  const include = parsed.includeTags.length > 0 ? matcher(parsed.includeTags, 'includeTags') : undefined;
  if (typeof include === 'string') return { unrunnable: include };
  const exclude = parsed.excludeTags.length > 0 ? matcher(parsed.excludeTags, 'excludeTags') : undefined;
  if (typeof exclude === 'string') return { unrunnable: exclude };
  return { include, exclude };
}
