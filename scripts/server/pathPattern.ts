/**
 * How the reference server runs a crawl's `includePaths` / `excludePaths`: with a matcher that cannot
 * backtrack, within a budget of steps, never with `RegExp.prototype.test`.
 *
 * Why: the patterns are the caller's, and JavaScript's backtracking engine takes exponential time on some
 * of them: `^(.|.)*X$` tries 2^n ways on a subject of n characters, `(x+x+)+y` as many on a run of x's.
 * Keeping the subjects short is not enough. The demo site's paths are at most 33 characters long
 * (`/site/docs/guides/getting-started`), and yet 2^33 steps already stall the server for minutes (it runs
 * on one thread); the addresses a crawl meets on other sites are whatever their pages link to, and with
 * `regexOnFullURL` the subject is the whole address, queries included, while the crawl's start address is
 * the caller's, bounded only by the body limit. So the matcher itself has to be safe. The service matches with an RE2-style engine, which is linear too, and the
 * package's validator already refuses what such engines lack (look-around, backreferences). So every
 * accepted pattern gives the same answer here as `new RegExp(pattern).test(subject)`.
 *
 * How: each pattern is parsed without flags, as the validator parses it (regexpp), and compiled to a small
 * program of character tests, splits, jumps and assertions (a Thompson NFA). A crawl's patterns of one kind
 * are one program, the alternation of them all. It runs by keeping the set of live states at each position
 * of the subject (a Pike VM without captures), so time is O(subject length × program size). Character
 * classes and escapes (`[^a-z]`, `\d`, `.`) test one UTF-16 code unit with the engine's own RegExp of that
 * single class: one code unit cannot make anything backtrack, and the semantics are exactly JavaScript's.
 *
 * Bound: one `StepBudget` per crawl, shared by all of its patterns and subjects, and refilled for each page
 * the crawl reads (`refill`). Every source character parsed, instruction emitted and state visited costs
 * steps (weighed by what each takes), so the work one crawl start, or one page of it, can cause is bounded
 * whatever its patterns, counted repetitions (`(a{1000}){1000}`) or addresses. Past the budget,
 * or on a construct this matcher does not run (pattern modifiers such as `(?i:...)`, which Node 20's
 * RegExp, and so the validator, refuses anyway), a `PatternError` says why; the crawl then fails with it.
 * Step counts do not depend on the machine, so the same request always has the same outcome.
 *
 * Not RE2 itself (`re2`, `re2-wasm`): a native or WebAssembly dependency for the reference server, and the
 * budget per crawl would still be needed; this is the Pike VM over regexpp's tree, which the package already has.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';

/**
 * Steps one crawl's path patterns may take in all, where a step is one state visited (about 50 ns): about
 * 50 ms of work at worst on a 2-core machine. An ordinary crawl of the synthetic site with a few patterns
 * takes a few thousand.
 */
export const PATTERN_STEP_BUDGET = 1_000_000;

/** What parsing one source character costs, in steps (regexpp: about 0.3 to 0.9 µs, measured). */
const PARSE_COST = 16;
/** What emitting one instruction costs, in steps (about 170 ns, measured). */
const EMIT_COST = 4;

/** Why a crawl's path patterns cannot be run. */
export class PatternError extends Error {}

/** The steps left to one crawl's patterns (or to another piece of its work: `crawler.ts` has one for robots.txt). */
export class StepBudget {
  readonly #total: number;
  #left: number;

  constructor(total: number = PATTERN_STEP_BUDGET) {
    this.#total = total;
    this.#left = total;
  }

  spend(steps: number): void {
    this.#left -= steps;
    if (!(this.#left >= 0)) throw new PatternError(`running them takes more than ${this.#total} steps`);
  }

  /** Spends `steps` if that many are left (true); else spends nothing (false). */
  take(steps: number): boolean {
    if (!(steps <= this.#left)) return false;
    this.#left -= steps;
    return true;
  }

  /** The steps one refill gives. */
  get total(): number {
    return this.#total;
  }

  /**
   * Gives every step back. A crawl that fetches real pages runs over time, one page after another: each
   * page's links get the whole budget, so that what one turn of the event loop costs stays bounded, while a
   * long crawl of harmless patterns never runs out.
   */
  refill(): void {
    this.#left = this.#total;
  }
}

/** A crawl's patterns of one kind. */
export interface PathPatterns {
  /** How many patterns there are. */
  readonly count: number;
  /** Whether any pattern matches somewhere in `subject`, as `RegExp.prototype.test` would say. */
  test(subject: string): boolean;
}

const CHAR = 0;
const SPLIT = 1;
const JMP = 2;
const ASSERT = 3;
const MATCH = 4;

const AT_START = 0;
const AT_END = 1;
const AT_WORD_BOUNDARY = 2;
const NOT_AT_WORD_BOUNDARY = 3;

type UnitTest = (unit: number) => boolean;

const parser = new RegExpParser();
const WORD_UNIT = /\w/;
const isWordAt = (subject: string, index: number): boolean => index >= 0 && index < subject.length && WORD_UNIT.test(subject[index]!);

/** The program's instructions, in parallel arrays. */
interface Program {
  readonly op: number[];
  /** CHAR: the unit test's index; SPLIT, JMP: the target; ASSERT: which assertion. */
  readonly arg: number[];
  /** SPLIT: the second target. */
  readonly alt: number[];
  readonly tests: UnitTest[];
}

/** Instructions `node` compiles to (what `emit` adds), without building them: counted repetitions multiply. */
function sizeOf(node: AST.Element | readonly AST.Alternative[], where: string): number {
  if (Array.isArray(node)) {
    const alternatives = node as readonly AST.Alternative[];
    const body = alternatives.reduce((sum, a) => sum + a.elements.reduce((n, e) => n + sizeOf(e, where), 0), 0);
    return body + 2 * (alternatives.length - 1);
  }
  const element = node as AST.Element;
  switch (element.type) {
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
      return 1;
    case 'Assertion':
      if (element.kind === 'lookahead' || element.kind === 'lookbehind')
        throw new PatternError(`${where}: ${element.kind} assertions are not supported`);
      return 1;
    case 'Group':
      if (element.modifiers !== null) throw new PatternError(`${where}: pattern modifiers are not supported`);
      return sizeOf(element.alternatives, where);
    case 'CapturingGroup':
      return sizeOf(element.alternatives, where);
    case 'Quantifier': {
      const inner = sizeOf(element.element, where);
      const optional = element.max === Infinity ? inner + 2 : (inner + 1) * (element.max - element.min);
      return inner * element.min + optional;
    }
    case 'Backreference':
      throw new PatternError(`${where}: backreferences are not supported`);
    case 'ExpressionCharacterClass':
      throw new PatternError(`${where}: class set expressions are not supported`);
  }
}

function emitter(program: Program) {
  const add = (op: number, arg = 0, alt = 0): number => {
    program.op.push(op);
    program.arg.push(arg);
    program.alt.push(alt);
    return program.op.length - 1;
  };
  /** One unit test per class or character of the pattern, however often a repetition emits it. */
  const testOf = new Map<AST.Node, number>();
  const unitTest = (node: AST.Node, make: () => UnitTest): number => {
    let index = testOf.get(node);
    if (index === undefined) {
      index = program.tests.push(make()) - 1;
      testOf.set(node, index);
    }
    return index;
  };

  const alternatives = (list: readonly AST.Alternative[]): void => {
    const ends: number[] = [];
    list.forEach((alternative, i) => {
      const last = i === list.length - 1;
      const split = last ? -1 : add(SPLIT);
      if (!last) program.arg[split] = split + 1;
      for (const element of alternative.elements) emit(element);
      if (!last) {
        ends.push(add(JMP));
        program.alt[split] = program.op.length;
      }
    });
    for (const jump of ends) program.arg[jump] = program.op.length;
  };

  const emit = (element: AST.Element): void => {
    switch (element.type) {
      case 'Character':
        add(
          CHAR,
          unitTest(element, () => (unit) => unit === element.value),
        );
        return;
      case 'CharacterClass':
      case 'CharacterSet':
        add(
          CHAR,
          unitTest(element, () => {
            const single = new RegExp(element.raw);
            return (unit) => single.test(String.fromCharCode(unit));
          }),
        );
        return;
      case 'Assertion':
        if (element.kind === 'start') add(ASSERT, AT_START);
        else if (element.kind === 'end') add(ASSERT, AT_END);
        else if (element.kind === 'word') add(ASSERT, element.negate ? NOT_AT_WORD_BOUNDARY : AT_WORD_BOUNDARY);
        return; // look-around: refused by sizeOf before anything is emitted
      case 'Group':
      case 'CapturingGroup':
        alternatives(element.alternatives);
        return;
      case 'Quantifier': {
        for (let i = 0; i < element.min; i++) emit(element.element);
        if (element.max === Infinity) {
          const loop = add(SPLIT, 0);
          program.arg[loop] = loop + 1;
          emit(element.element);
          add(JMP, loop);
          program.alt[loop] = program.op.length;
          return;
        }
        const skips: number[] = [];
        for (let i = element.min; i < element.max; i++) {
          const split = add(SPLIT);
          program.arg[split] = split + 1;
          skips.push(split);
          emit(element.element);
        }
        for (const split of skips) program.alt[split] = program.op.length;
        return;
      }
      default:
        return; // backreferences, class set expressions: refused by sizeOf before anything is emitted
    }
  };
  return { alternatives, add };
}

/**
 * `fn`, with any other failure than a `PatternError` (a nesting too deep for the stack: regexpp and the
 * compiler recurse into groups) turned into one about `where`.
 */
function guarded<T>(where: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof PatternError) throw error;
    throw new PatternError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `sources` (the crawl's `field`, e.g. `includePaths`) as one program. Parsing and compiling are paid from
 * `budget`, and so is every later `test`. Throws `PatternError`.
 */
export function compilePathPatterns(field: string, sources: readonly string[], budget: StepBudget): PathPatterns {
  const parsed: AST.Alternative[] = [];
  let size = 0;
  sources.forEach((source, index) => {
    const where = `${field}[${index}]`;
    budget.spend(source.length * PARSE_COST);
    const pattern = guarded(where, () => parser.parsePattern(source, 0, source.length, { unicode: false }));
    size += guarded(where, () => sizeOf(pattern.alternatives, where)) + 2; // and a split and a jump joining it to the others
    parsed.push(...pattern.alternatives);
  });
  budget.spend((size + 1) * EMIT_COST);

  const program: Program = { op: [], arg: [], alt: [], tests: [] };
  const { alternatives, add } = emitter(program);
  if (parsed.length > 0) guarded(field, () => alternatives(parsed));
  add(MATCH);

  const { op, arg, alt, tests } = program;
  /** The generation (one per position of a run) each instruction was last visited in: live once per position. */
  const visitedIn = new Float64Array(op.length).fill(-1);
  let generation = 0;

  return {
    count: sources.length,
    test(subject: string): boolean {
      if (sources.length === 0) return false;
      const stack: number[] = [];
      /** Adds the states reachable from `start` without reading a character to `list`; true on a match. */
      const follow = (start: number, position: number, list: number[]): boolean => {
        stack.push(start);
        while (stack.length > 0) {
          const pc = stack.pop()!;
          if (visitedIn[pc] === generation) continue;
          visitedIn[pc] = generation;
          budget.spend(1);
          switch (op[pc]) {
            case CHAR:
              list.push(pc);
              break;
            case SPLIT:
              stack.push(alt[pc]!, arg[pc]!);
              break;
            case JMP:
              stack.push(arg[pc]!);
              break;
            case ASSERT: {
              const kind = arg[pc];
              const holds =
                kind === AT_START
                  ? position === 0
                  : kind === AT_END
                    ? position === subject.length
                    : (isWordAt(subject, position - 1) !== isWordAt(subject, position)) === (kind === AT_WORD_BOUNDARY);
              if (holds) stack.push(pc + 1);
              break;
            }
            case MATCH:
              stack.length = 0;
              return true;
          }
        }
        return false;
      };

      let current: number[] = [];
      let next: number[] = [];
      generation += 1;
      for (let position = 0; ; position++) {
        // A match may start at any position: a new thread at the program's start joins the live ones.
        if (follow(0, position, current)) return true;
        if (position === subject.length) return false;
        const unit = subject.charCodeAt(position);
        generation += 1;
        next.length = 0;
        for (const pc of current) {
          budget.spend(1);
          if (tests[arg[pc]!]!(unit) && follow(pc + 1, position + 1, next)) return true;
        }
        [current, next] = [next, current];
      }
    },
  };
}
