/**
 * `includePaths` and `excludePaths` are regular expressions. Each must compile as a JavaScript regular
 * expression (as the service compiles it), and may not use what the service's newer RE2-style engine
 * lacks: look-around assertions and backreferences. Patterns are parsed, never run against anything, so
 * a hostile pattern costs no more than its length.
 */
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { field, type CodeRule, type RuleProblem } from './codeRule.js';

const parser = new RegExpParser();

/**
 * Only a pattern containing `(?` can hold a look-around assertion, and only one containing `\` followed by a
 * digit or `k` a backreference. Any other pattern that compiles is accepted without being parsed again.
 */
const MAY_LOOK_AROUND_OR_REFER_BACK = /\(\?|\\[1-9k]/;

/** Why `pattern` is not accepted, or undefined. */
export function patternProblem(pattern: string): string | undefined {
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

export const pathPatternsCompile: CodeRule = {
  id: 'pathPatternsCompile',
  fields: ['includePaths', 'excludePaths'],
  description:
    'Each pattern must be a valid regular expression without look-around assertions or backreferences (the service matches with an RE2-style engine).',
  check(request) {
    const problems: RuleProblem[] = [];
    for (const name of ['includePaths', 'excludePaths']) {
      const patterns = field(request, name);
      if (!Array.isArray(patterns)) continue;
      patterns.forEach((pattern, index) => {
        if (typeof pattern !== 'string') return;
        const problem = patternProblem(pattern);
        if (problem !== undefined) {
          problems.push({
            at: [name, index],
            message: `Invalid ${name} pattern ${JSON.stringify(pattern)}: ${problem}. ${name} patterns use Rust regex (RE2-style) syntax.`,
          });
        }
      });
    }
    return problems;
  },
};
