/**
 * `includePaths` and `excludePaths` are regular expressions. Each must compile as a JavaScript regular
 * expression (as the service compiles it), and may not use what the service's newer RE2-style engine
 * lacks: look-around assertions and backreferences. Patterns are compiled, never run against anything.
 *
 * Look-around and backreferences are found by one pass over the pattern (`unsupportedSyntax`), not by parsing
 * it into a tree: a parser resolves each backreference against the groups, which a pattern of many named
 * groups and references makes quadratic (a 1.6 MB body of them took 24 s). The pass follows the grammar of
 * JavaScript patterns without the `u` flag (with its Annex B legacy), and agrees with a parser on every
 * pattern that compiles (test/pathPatterns.test.ts compares them).
 */
import { PATH_PATTERN_MAX_LENGTH, PATH_PATTERNS_PER_FIELD } from '../shared/pathPatternBounds.js';
import { field, NO_PROBLEMS, type CodeRule, type RuleProblem } from './codeRule.js';
import { VerdictCache } from './verdictCache.js';

/**
 * Verdicts on patterns seen before (`null`: accepted). Clients send the same few patterns with every crawl,
 * and compiling one costs several times what looking it up does (V8's own cache spares the parse, not the
 * RegExp object). Every pattern the schema allows is kept (up to PATH_PATTERN_MAX_LENGTH characters: a long
 * pattern costs the most to compile, and a client that sends one sends it again), and the cache is emptied
 * when it holds CACHED_PATTERNS, so hostile patterns cost memory of a fixed size at most (some 4 MB of text).
 * Emptied rather than an LRU: which entries survive matters little when the common patterns come straight back.
 */
const CACHED_PATTERNS = 1024;
const verdicts = new VerdictCache<string | null>(CACHED_PATTERNS);
const CACHED_LENGTH = PATH_PATTERN_MAX_LENGTH;

/** Why `pattern` is not accepted, or undefined. */
export function patternProblem(pattern: string): string | undefined {
  const known = verdicts.get(pattern);
  if (known !== undefined) return known ?? undefined;
  const verdict = compileProblem(pattern);
  if (pattern.length <= CACHED_LENGTH) verdicts.set(pattern, verdict ?? null);
  return verdict;
}

function compileProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (error) {
    return (error as Error).message;
  }
  return unsupportedSyntax(pattern);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * At the `[` at `i`: the index the scan goes on from, and whether a class is open there. `[]` and `[^]` are
 * classes of their own: a `]` right after the opening does not close a longer one.
 */
function openClass(pattern: string, i: number): [number, boolean] {
  const at = pattern[i + 1] === '^' ? i + 1 : i;
  return pattern[at + 1] === ']' ? [at + 1, false] : [at, true];
}

/** The capturing groups of a pattern that compiles, and whether any has a name: one pass, classes and escapes skipped. */
function groupsOf(pattern: string): { count: number; named: boolean } {
  let count = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') [i, inClass] = openClass(pattern, i);
    else if (c === '(') {
      if (pattern[i + 1] !== '?') count += 1;
      else if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
        count += 1;
        named = true;
      }
    }
  }
  return { count, named };
}

/** The first look-around assertion or backreference in `pattern` (a pattern that compiles), in the order they are written, or undefined. */
export function unsupportedSyntax(pattern: string): string | undefined {
  if (!pattern.includes('(?') && !pattern.includes('\\')) return undefined;
  const groups = groupsOf(pattern);
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (!inClass && next !== undefined && next >= '1' && next <= '9') {
        // A decimal escape is a backreference when its whole number names a group; else a legacy octal or identity escape.
        let end = i + 1;
        let value = 0;
        while (isDigit(pattern[end]) && value <= groups.count) value = value * 10 + Number(pattern[end++]);
        if (value <= groups.count) return 'backreferences are not supported';
      }
      // `\k<name>` refers back only in a pattern with named groups; elsewhere it is the letter k.
      if (!inClass && next === 'k' && groups.named) return 'backreferences are not supported';
      i += 1;
    } else if (inClass) inClass = c !== ']';
    else if (c === '[') [i, inClass] = openClass(pattern, i);
    else if (c === '(' && pattern[i + 1] === '?') {
      const kind = pattern[i + 2] === '<' ? pattern[i + 3] : pattern[i + 2];
      const behind = pattern[i + 2] === '<';
      if (kind === '=' || kind === '!') return `${behind ? 'lookbehind' : 'lookahead'} assertions are not supported`;
    }
  }
  return undefined;
}

const PATTERN_FIELDS = ['includePaths', 'excludePaths'] as const;

/** The service's bounds on the patterns of both fields together. */
export const PATH_PATTERNS_COMBINED = 1000;
export const PATH_PATTERN_CHARACTERS_COMBINED = 100_000;

/** The patterns of a field, when it is within the schema's bounds (beyond them the schema reports it, and nothing is compiled). */
function boundedPatterns(value: unknown): readonly unknown[] | undefined {
  if (!Array.isArray(value) || value.length > PATH_PATTERNS_PER_FIELD) return undefined;
  for (let i = 0; i < value.length; i++) {
    const pattern: unknown = value[i];
    if (typeof pattern === 'string' && pattern.length > PATH_PATTERN_MAX_LENGTH) return undefined;
  }
  return value;
}

/**
 * For `keeps`: the characters of a field's patterns when each is a pattern accepted before (a cache hit, so none is
 * longer than the schema allows); -Infinity, which no sum brings back to zero, when one is not; 0 for no array. Not a string: the
 * schema's to report, and `check` skips it.
 */
function knownCharacters(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  if (value.length > PATH_PATTERNS_PER_FIELD) return -Infinity;
  let characters = 0;
  for (let i = 0; i < value.length; i++) {
    const pattern: unknown = value[i];
    if (typeof pattern !== 'string') continue;
    if (verdicts.get(pattern) !== null) return -Infinity;
    characters += pattern.length;
  }
  return characters;
}

export const pathPatternsCompile: CodeRule = {
  id: 'pathPatternsCompile',
  // Interface §2.1 calls them regex patterns; which syntax, and refusing one that does not compile, is the service's.
  source: 'service',
  fields: ['includePaths', 'excludePaths'],
  triggers: PATTERN_FIELDS,
  description: `Each pattern must be a valid regular expression without look-around assertions or backreferences (the service matches with an RE2-style engine); together the two fields hold at most ${PATH_PATTERNS_COMBINED} patterns and ${PATH_PATTERN_CHARACTERS_COMBINED} characters.`,
  check(request) {
    // The bounds first, before anything is compiled: the work stays bounded by them, whatever the body holds.
    const fields = PATTERN_FIELDS.map((name) => [name, boundedPatterns(field(request, name))] as const);
    let count = 0;
    let characters = 0;
    for (const [, patterns] of fields)
      for (const pattern of patterns ?? []) {
        count += 1;
        if (typeof pattern === 'string') characters += pattern.length;
      }
    if (count > PATH_PATTERNS_COMBINED || characters > PATH_PATTERN_CHARACTERS_COMBINED)
      return [
        {
          at: [],
          message: `includePaths and excludePaths together hold ${count} patterns of ${characters} characters; at most ${PATH_PATTERNS_COMBINED} patterns and ${PATH_PATTERN_CHARACTERS_COMBINED} characters are allowed.`,
        },
      ];
    let problems: RuleProblem[] | undefined;
    for (const [name, patterns] of fields) {
      if (patterns === undefined) continue;
      for (let index = 0; index < patterns.length; index++) {
        const pattern: unknown = patterns[index];
        if (typeof pattern !== 'string') continue;
        const problem = patternProblem(pattern);
        if (problem !== undefined) {
          (problems ??= []).push({
            at: [name, index],
            message: `Invalid ${name} pattern ${JSON.stringify(pattern)}: ${problem}. ${name} patterns use Rust regex (RE2-style) syntax.`,
          });
        }
      }
    }
    return problems ?? NO_PROBLEMS;
  },
  keeps(request) {
    return patternsKept(request.includePaths, request.excludePaths);
  },
  reads: PATTERN_FIELDS,
  keepsWith: (_request, include, exclude) => patternsKept(include, exclude),
};

/** As `check`, over the same fields and bounds, but every pattern must be one accepted before (a cache hit). */
function patternsKept(include: unknown, exclude: unknown): boolean {
  const characters = knownCharacters(include) + knownCharacters(exclude);
  const count = (Array.isArray(include) ? include.length : 0) + (Array.isArray(exclude) ? exclude.length : 0);
  return characters >= 0 && count <= PATH_PATTERNS_COMBINED && characters <= PATH_PATTERN_CHARACTERS_COMBINED;
}
