/**
 * The path pattern rule's shortcut: a pattern that compiles is parsed for look-around and backreferences only
 * when its text could hold one. Generated patterns (from the characters regular expression syntax is made of)
 * show that the shortcut never accepts a pattern the parse would refuse. Runs: FC_RUNS (default 200) × 20.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternProblem, unsupportedSyntax } from '../schemas/codeRules/pathPatterns.js';

const numRuns = Number(process.env.FC_RUNS ?? 200) * 20;

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

/** Patterns made of syntax fragments, the look-around and backreference ones among them, and single characters. */
const regexLike = fc
  .array(
    fc.constantFrom(
      ...['(?=', '(?!', '(?<=', '(?<!', '(?:', '(?<n>', '\\1', '\\9', '\\k<n>', '\\k', '[\\1]', '\\\\1'],
      ...['(', ')', '?', '=', '!', '<', '>', ':', '\\', '1', 'k', 'a', '|', '*', '+', '[', ']', '^', '$', '.', '/', '-'],
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''));

describe('path patterns', () => {
  it('a pattern that compiles is refused exactly when its parse finds look-around or a backreference', () => {
    fc.assert(
      fc.property(regexLike.filter(compiles), (pattern) => {
        expect(patternProblem(pattern)).toBe(unsupportedSyntax(pattern));
      }),
      { numRuns },
    );
  });

  it('the generated patterns include refused ones, so the property above is not vacuous', () => {
    const refused = fc.sample(regexLike.filter(compiles), { numRuns: 2000, seed: 1 }).filter((p) => unsupportedSyntax(p) !== undefined);
    expect(refused.length).toBeGreaterThan(20);
  });

  it.each([
    ['^/docs/.*$', undefined],
    ['(?=x)', 'lookahead assertions are not supported'],
    ['(?<!a)b', 'lookbehind assertions are not supported'],
    ['(a)\\1', 'backreferences are not supported'],
    ['(?<n>a)\\k<n>', 'backreferences are not supported'],
    ['[\\1]', undefined],
  ])('%j → %j', (pattern, expected) => {
    expect(patternProblem(pattern)).toBe(expected);
  });
});
