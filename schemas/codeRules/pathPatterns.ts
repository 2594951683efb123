/**
 * `includePaths` and `excludePaths` are regular expressions. Each must compile as a JavaScript regular
 * expression (as the service compiles it), and may not use what the service's newer RE2-style engine
 * lacks: look-around assertions and backreferences. Patterns are parsed, never run against anything, so
 * a hostile pattern costs no more than its length.
 */
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { field, NO_PROBLEMS, type CodeRule, type RuleProblem } from './codeRule.js';

const parser = new RegExpParser();

/**
 * Only a pattern containing `(?` can hold a look-around assertion, and only one containing `\` followed by a
 * digit or `k` a backreference. Any other pattern that compiles is accepted without being parsed again.
 */
const MAY_LOOK_AROUND_OR_REFER_BACK = /\(\?|\\[1-9k]/;

/**
 * Verdicts on patterns seen before (`null`: accepted). Clients send the same few patterns with every crawl,
 * and compiling one costs several times what looking it up does (V8's own cache spares the parse, not the
 * RegExp object). Bounded: a pattern longer than CACHED_LENGTH is not kept, and the cache is emptied when
 * it holds CACHED_PATTERNS, so hostile patterns cost memory of a fixed size at most. A plain Map and not an
 * LRU library: which entries survive matters little when the common patterns come straight back.
 */
const verdicts = new Map<string, string | null>();
const CACHED_PATTERNS = 1024;
const CACHED_LENGTH = 512;

/** Why `pattern` is not accepted, or undefined. */
export function patternProblem(pattern: string): string | undefined {
  const known = verdicts.get(pattern);
  if (known !== undefined) return known ?? undefined;
  const verdict = compileProblem(pattern);
  if (pattern.length <= CACHED_LENGTH) {
    if (verdicts.size >= CACHED_PATTERNS) verdicts.clear();
    verdicts.set(pattern, verdict ?? null);
  }
  return verdict;
}

function compileProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (error) {
    return (error as Error).message;
  }
  return MAY_LOOK_AROUND_OR_REFER_BACK.test(pattern) ? unsupportedSyntax(pattern) : undefined;
}

/** The first look-around assertion or backreference in `pattern` (parsed, not run), or undefined. */
export function unsupportedSyntax(pattern: string): string | undefined {
  let unsupported: string | undefined;
  try {
    visitRegExpAST(parser.parsePattern(pattern, 0, pattern.length, { unicode: false }), {
      onAssertionEnter(node) {
        if (node.kind === 'lookahead' || node.kind === 'lookbehind') unsupported ??= `${node.kind} assertions are not supported`;
      },
      onBackreferenceEnter() {
        unsupported ??= 'backreferences are not supported';
      },
    });
  } catch (error) {
    return (error as Error).message;
  }
  return unsupported;
}

const PATTERN_FIELDS = ['includePaths', 'excludePaths'] as const;

export const pathPatternsCompile: CodeRule = {
  id: 'pathPatternsCompile',
  // Interface §2.1 calls them regex patterns; which syntax, and refusing one that does not compile, is the service's.
  source: 'service',
  fields: ['includePaths', 'excludePaths'],
  description:
    'Each pattern must be a valid regular expression without look-around assertions or backreferences (the service matches with an RE2-style engine).',
  check(request) {
    let problems: RuleProblem[] | undefined;
    for (const name of PATTERN_FIELDS) {
      const patterns = field(request, name);
      if (!Array.isArray(patterns)) continue;
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
};
