/**
 * The path pattern rule: look-around and backreferences are found by one pass over the pattern, and verdicts
 * are kept for patterns seen before. Generated patterns (from the characters regular expression syntax is made
 * of) show that neither changes a verdict: each is compared with compiling the pattern and parsing it into a
 * tree (regexpp, the parser the reference server's matcher uses) afresh. Runs: FC_RUNS (default 200) × 20.
 */
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternProblem, unsupportedSyntax } from '../schemas/codeRules/pathPatterns.js';

/** The first look-around assertion or backreference of a pattern, found by parsing it into a tree. */
function parsedUnsupported(pattern: string): string | undefined {
  let unsupported: string | undefined;
  try {
    visitRegExpAST(new RegExpParser().parsePattern(pattern, 0, pattern.length, { unicode: false }), {
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

const numRuns = Number(process.env.FC_RUNS ?? 200) * 20;

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

/** The verdict without either shortcut: compile, then parse. */
const freshProblem = (pattern: string) => {
  try {
    new RegExp(pattern);
  } catch (error) {
    return (error as Error).message;
  }
  return parsedUnsupported(pattern);
};

/** Patterns made of syntax fragments, the look-around and backreference ones among them, and single characters. */
const regexLike = fc
  .array(
    fc.constantFrom(
      ...['(?=', '(?!', '(?<=', '(?<!', '(?:', '(?<n>', '\\1', '\\9', '\\10', '\\k<n>', '\\k', '[\\1]', '\\\\1', '[]', '[^]', '[(?=]'],
      ...['(', ')', '?', '=', '!', '<', '>', ':', '\\', '1', 'k', 'a', '|', '*', '+', '[', ']', '^', '$', '.', '/', '-'],
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''));

describe('path patterns', () => {
  it('a pattern that compiles is refused exactly when its parse finds look-around or a backreference, for the same reason', () => {
    fc.assert(
      fc.property(regexLike.filter(compiles), (pattern) => {
        expect(unsupportedSyntax(pattern)).toBe(parsedUnsupported(pattern));
        expect(patternProblem(pattern)).toBe(parsedUnsupported(pattern));
      }),
      { numRuns },
    );
  });

  it('many named groups and references: found by the one pass (a parser resolving each reference took seconds)', () => {
    const pattern = (n: number) =>
      `${Array.from({ length: n }, (_, i) => `(?<g${i}>a)`).join('')}${Array.from({ length: n }, (_, i) => `\\k<g${i}>`).join('')}`;
    // The cost itself is measured by the attack stage of `npm run load`; here, that the answer is right.
    expect(unsupportedSyntax(pattern(4000))).toBe('backreferences are not supported');
    expect(unsupportedSyntax(pattern(4000).replace(/\\k<g\d+>/g, ''))).toBeUndefined();
  });

  it('asked again, a pattern gets the same verdict as compiled afresh, whether it compiles or not', () => {
    fc.assert(
      fc.property(regexLike, (pattern) => {
        const expected = freshProblem(pattern);
        expect(patternProblem(pattern)).toBe(expected);
        expect(patternProblem(pattern)).toBe(expected);
      }),
      { numRuns },
    );
  });

  it('verdicts stay right past the bounds of the cache: over a thousand other patterns, and patterns too long to keep', () => {
    const patterns = [...Array.from({ length: 3000 }, (_, i) => `^/p${i}(`), ...Array.from({ length: 3000 }, (_, i) => `(?=${i})`)];
    const long = [`${'a'.repeat(2000)}(?=x)`, `${'a'.repeat(2000)}(`, `^/${'b'.repeat(2000)}$`];
    for (let round = 0; round < 2; round++) {
      for (const pattern of [...patterns, ...long]) expect(patternProblem(pattern)).toBe(freshProblem(pattern));
    }
  });

  it('long patterns kept under one key (same length, same characters where the key reads them) keep their own verdicts', () => {
    // The key of a text past 64 characters reads 8 of them, at 0, 14, 28, ... 99 here: position 5 is not one.
    const at5 = (c: string) => `${'a'.repeat(5)}${c}${'a'.repeat(94)}`;
    const [refused, accepted] = [at5('('), at5('b')];
    for (let round = 0; round < 3; round++) {
      expect(patternProblem(refused)).toBe(freshProblem(refused));
      expect(patternProblem(accepted)).toBeUndefined();
    }
    expect(freshProblem(refused)).toBeDefined();
  });

  it('the generated patterns include refused ones, so the property above is not vacuous', () => {
    const refused = fc.sample(regexLike.filter(compiles), { numRuns: 2000, seed: 1 }).filter((p) => parsedUnsupported(p) !== undefined);
    expect(refused.length).toBeGreaterThan(20);
  });

  it.each([
    ['^/docs/.*$', undefined],
    ['(?=x)', 'lookahead assertions are not supported'],
    ['(?<!a)b', 'lookbehind assertions are not supported'],
    ['(a)\\1', 'backreferences are not supported'],
    ['(?<n>a)\\k<n>', 'backreferences are not supported'],
    ['[\\1]', undefined],
    ['\\1', undefined],
    ['(a)\\10', undefined],
    ['(a)(?<n>b)\\2', 'backreferences are not supported'],
    ['\\k<n>', undefined],
    ['[(?=]x', undefined],
  ])('%j → %j', (pattern, expected) => {
    expect(patternProblem(pattern)).toBe(expected);
  });
});
