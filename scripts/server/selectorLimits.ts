/**
 * What `includeTags` / `excludeTags` selectors the reference server runs (issue 41, findings 3, 4 and 12),
 * decided when a job starts, on the selectors as css-what parses them (css-what is css-select's own parser:
 * what is decided here is what css-select runs, whatever the spelling, `:h\61s(` being `:has(`). The
 * interface takes any strings there; these are limits of the reference server, and a start that breaks one
 * is a 400 with the error envelope naming the field (`$.includeTags[0]`), what is wrong and what it runs:
 *
 *   - size: at most `MAX_SELECTOR_CHARS` characters and `MAX_SELECTORS` selectors (`a, b` is two, `:is(a, b)`
 *     three) in each list; the job's selectors are compiled once (`selectorMeter.ts`), linear in their number;
 *   - in each selector, at most one step that scans a part of the page that grows with it (`WIDE_STEPS`: the
 *     sibling combinator `~`, which tries every sibling before, and `<`; `:has()`, which searches below;
 *     `:nth-*()`, `:*-of-type`, `:only-child`, which count the siblings; `:contains()`, which reads the text
 *     below), counted along the selector and into the selectors it nests (`:has(~ p)` has two, `:is(a ~ b,
 *     c ~ d)` one): css-select remembers none of their results, so two of them nested cost the page's width
 *     to a power on each element (the finding: a chain of twelve `~` took 46.7 s of one page of 34 siblings);
 *   - at most `MAX_COMBINATORS` combinators in a selector, of which at most `MAX_DESCENDANTS` descendant ones
 *     (each walks the ancestors of what the one after it matched, up to 512 deep), and selectors nested in
 *     pseudo-classes at most `MAX_NESTING` deep.
 * A selector css-what cannot parse is no refusal here: css-select cannot compile it either, and each page
 * the job reads for its content is an error naming it (`selectorMeter.ts`), as before.
 */
import { isTraversal, parse, SelectorType, type Selector } from 'css-what';
import { jsonPath, type ValidationIssue } from '../../schemas/issues.js';
import { compileSelectors, type ContentSelectors, type ParsedSelector } from './selectorMeter.js';

/** Characters of the selectors of one list (`includeTags` or `excludeTags`) in all. */
export const MAX_SELECTOR_CHARS = 10_000;
/** Selectors of one list, counted as parsed: `a, b` is two, `:is(a, b)` three. */
export const MAX_SELECTORS = 100;
/** Combinators in one selector (of any kind: ` `, `>`, `+`, `~`). */
export const MAX_COMBINATORS = 8;
/** Descendant combinators (` `) in one selector. */
export const MAX_DESCENDANTS = 4;
/** Selectors nested in pseudo-classes (`:is(:not(...))`), levels. */
export const MAX_NESTING = 4;

/** The steps that scan a part of the page that grows with it, by what a message calls them. */
const WIDE_COMBINATORS: ReadonlyMap<string, string> = new Map([
  [SelectorType.Sibling, '~'],
  [SelectorType.Parent, '<'],
]);
const WIDE_PSEUDOS = new Set([
  'has',
  'nth-child',
  'nth-last-child',
  'nth-of-type',
  'nth-last-of-type',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'only-child',
  'contains',
  'icontains',
]);
const WIDE_STEPS = '~, :has(), :nth-child() and the other :nth-*() and :*-of-type, :only-child, :contains()';
/** Where the ` of ` of `:nth-child(An+B of S)` stands, as css-select reads it (a fixed-length pattern: linear). */
const NTH_OF = /\sof\s/i;

/** The `S` of `:nth-child(An+B of S)`, if it has one. */
function nthOf(data: string): string | undefined {
  const at = data.search(NTH_OF);
  const rest = at > 0 ? data.slice(at + 3).trim() : '';
  return rest === '' ? undefined : rest;
}

const LIMIT = 'the interface takes any string here: this is a limit of the reference server';

/** Selectors read so far in a list, nested ones too (`:is(a, b)` is three): what compiling it costs. */
interface Count {
  selectors: number;
}

/** The wide steps along the costliest path through `complex` (one at most), or what is wrong with it. */
function wideSteps(complex: readonly Selector[], depth: number, count: Count): string[] | string {
  count.selectors += 1;
  let combinators = 0;
  let descendants = 0;
  const wide: string[] = [];
  for (const token of complex) {
    if (token.type === SelectorType.Pseudo) {
      const inner = pseudoSteps(token.name, token.data, depth, count);
      if (typeof inner === 'string') return inner;
      wide.push(...inner);
    } else if (isTraversal(token)) {
      combinators += 1;
      if (token.type === SelectorType.Descendant) descendants += 1;
      const name = WIDE_COMBINATORS.get(token.type);
      if (name !== undefined) wide.push(name);
    }
  }
  if (wide.length > 1)
    return `has ${wide.length} steps that each scan a part of the page growing with it (${wide.join(', ')}); the reference server runs a selector with at most one of ${WIDE_STEPS} (nested, their costs on each element multiply)`;
  if (combinators > MAX_COMBINATORS)
    return `has ${combinators} combinators; the reference server runs at most ${MAX_COMBINATORS} in a selector`;
  if (descendants > MAX_DESCENDANTS)
    return `has ${descendants} descendant combinators (a space), each walking the ancestors of the element; the reference server runs at most ${MAX_DESCENDANTS} in a selector`;
  return wide;
}

/** The wide steps of a pseudo-class with its nested selectors (the costliest of them), or what is wrong with them. */
function pseudoSteps(name: string, data: Selector[][] | string | null, depth: number, count: Count): string[] | string {
  const own = WIDE_PSEUDOS.has(name) ? [`:${name}()`] : [];
  const of = typeof data === 'string' && name.startsWith('nth-') ? nthOf(data) : undefined;
  let nested: Selector[][] | undefined = Array.isArray(data) ? data : undefined;
  if (of !== undefined) {
    try {
      nested = parse(of);
    } catch {
      return own; // css-select cannot compile it either: the job's pages say so
    }
  }
  if (nested === undefined) return own;
  if (depth + 1 > MAX_NESTING)
    return `nests selectors in pseudo-classes more than ${MAX_NESTING} deep; the reference server runs at most ${MAX_NESTING} levels`;
  let costliest: string[] = [];
  for (const complex of nested) {
    const steps = wideSteps(complex, depth + 1, count);
    if (typeof steps === 'string') return steps;
    if (steps.length > costliest.length) costliest = steps;
  }
  return [...own, ...costliest];
}

/** What is wrong with one parsed selector string (each of its selectors), or nothing. */
function problemOf(selectors: readonly Selector[][], count: Count): string | undefined {
  for (const complex of selectors) {
    const steps = wideSteps(complex, 0, count);
    if (typeof steps === 'string') return steps;
  }
  return undefined;
}

const issue = (segments: readonly (string | number)[], message: string, expected: string): ValidationIssue => ({
  path: jsonPath(segments),
  segments,
  rule: 'referenceServer',
  message: `${jsonPath(segments)}: ${message} (${LIMIT})`,
  expected,
});

/**
 * One list of selectors (`option` of the scrape options at `at`), parsed: blank ones left out (the service
 * ignores them), or the issues that keep the reference server from running it.
 */
function parsedList(value: unknown, at: readonly (string | number)[], option: string): ParsedSelector[] | ValidationIssue[] {
  if (!Array.isArray(value)) return [];
  const path = [...at, option];
  const texts = value
    .map((text: unknown, index) => ({ text: typeof text === 'string' ? text : '', index }))
    .filter(({ text }) => text.trim() !== '');
  const chars = texts.reduce((sum, { text }) => sum + text.length, 0);
  const expected = `at most ${MAX_SELECTORS} selectors of at most ${MAX_SELECTOR_CHARS} characters in all`;
  // Measured before anything is parsed: parsing is linear in the text, but 6 MB of it is seconds.
  if (chars > MAX_SELECTOR_CHARS || texts.length > MAX_SELECTORS)
    return [
      issue(
        path,
        `the ${option} selectors are ${texts.length} strings of ${chars} characters in all; the reference server runs ${expected}`,
        expected,
      ),
    ];
  const parsed: ParsedSelector[] = [];
  const issues: ValidationIssue[] = [];
  const count: Count = { selectors: 0 };
  for (const { text, index } of texts) {
    let selector: Selector[][];
    try {
      selector = parse(text);
    } catch (error) {
      parsed.push({ text, unparsable: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const problem = problemOf(selector, count);
    if (problem !== undefined)
      issues.push(
        issue(
          [...path, index],
          `the selector ${JSON.stringify(text.slice(0, 200))} ${problem}`,
          `a CSS selector with at most one of ${WIDE_STEPS}`,
        ),
      );
    parsed.push({ text, selector });
  }
  if (count.selectors > MAX_SELECTORS)
    issues.unshift(
      issue(
        path,
        `the ${option} selectors are ${count.selectors} selectors (a comma separates two, and those inside :is(), :not(), :has() count); the reference server runs ${expected}`,
        expected,
      ),
    );
  return issues.length > 0 ? issues : parsed;
}

/**
 * The selectors of `scrapeOptions` (a batch's body, or a crawl's `scrapeOptions`, found at `at` in the body),
 * parsed, bounded and compiled once for the job; or the issues of the 400 that refuses its start.
 */
export function jobSelectors(
  scrapeOptions: unknown,
  at: readonly (string | number)[],
): ContentSelectors | { readonly issues: ValidationIssue[] } {
  const options = typeof scrapeOptions === 'object' && scrapeOptions !== null ? (scrapeOptions as Record<string, unknown>) : {};
  const includeTags = parsedList(options['includeTags'], at, 'includeTags');
  const excludeTags = parsedList(options['excludeTags'], at, 'excludeTags');
  const issues = [includeTags, excludeTags].flatMap((list) => list.filter((entry): entry is ValidationIssue => 'path' in entry));
  if (issues.length > 0) return { issues };
  return compileSelectors({ includeTags: includeTags as ParsedSelector[], excludeTags: excludeTags as ParsedSelector[] });
}
