/**
 * How the ReDoS test files (test/redos*.test.ts) check a regular expression: recheck's verdict (native backend,
 * fixed seed, no wall-clock limits on its fuzzing phases), asked once per pattern and flags, and an assertion that
 * fails with the complexity, the attack string and every place the pattern was found.
 */
import { check, type Diagnostics } from 'recheck';
import { expect } from 'vitest';
import { type Found } from './redosFinding.js';

/**
 * recheck's parameters. Its fuzzing phases stop at wall-clock limits by default, so on a busy machine one
 * pattern can get different verdicts from run to run (seen here: a linear pattern reported polynomial); without
 * those limits they stop at their step limits only, and with a fixed random seed every run gives the same
 * verdict. The overall timeout (default 10 s) stays, raised, against a check that never ends: the slowest
 * pattern here takes about 6 s alone on a busy two-core machine.
 */
const RECHECK_PARAMS = { timeout: 30_000, attackTimeout: null, incubationTimeout: null, seedingTimeout: null, randomSeed: 0 } as const;

/** Patterns with the same source and flags, checked once, with every place they occur. */
export interface Pattern {
  readonly source: string;
  readonly flags: string;
  readonly at: readonly string[];
}

export function grouped(found: readonly Found[]): Pattern[] {
  const groups = new Map<string, { source: string; flags: string; at: string[] }>();
  for (const { source, flags, at } of found) {
    const key = JSON.stringify([source, flags]);
    const group = groups.get(key) ?? { source, flags, at: [] };
    group.at.push(at);
    groups.set(key, group);
  }
  return [...groups.values()];
}

// ---------------------------------------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------------------------------------

const diagnoses = new Map<string, Promise<Diagnostics>>();

/** recheck's verdict on a pattern, asked once per source and flags. */
export function diagnose(source: string, flags: string): Promise<Diagnostics> {
  const key = JSON.stringify([source, flags]);
  let diagnosis = diagnoses.get(key);
  if (diagnosis === undefined) {
    diagnosis = check(source, flags, RECHECK_PARAMS);
    diagnoses.set(key, diagnosis);
  }
  return diagnosis;
}

const shorten = (text: string, length: number) => (text.length <= length ? text : `${text.slice(0, length - 1)}…`);
export const nameOf = ({ source, flags, at }: Pattern) =>
  `${at[0] ?? '?'}${at.length > 1 ? ` (+${at.length - 1} more)` : ''} /${shorten(source, 70)}/${flags}`;

/** What a developer needs to fix a pattern recheck does not call safe. */
function verdict(pattern: Pattern, diagnosis: Diagnostics): string {
  const where = `${pattern.at.join(', ')}: /${pattern.source}/${pattern.flags} is ${diagnosis.status}`;
  switch (diagnosis.status) {
    case 'safe':
      return `${where} (${diagnosis.complexity.summary})`;
    case 'vulnerable': {
      const hot = diagnosis.hotspot.filter((h) => h.temperature === 'heat').map((h) => pattern.source.slice(h.start, h.end));
      return (
        `${where}: ${diagnosis.complexity.summary} backtracking (${diagnosis.checker} checker). ` +
        `Attack string: ${diagnosis.attack.pattern} (${diagnosis.attack.string.length} characters). ` +
        `Hot spots: ${hot.length > 0 ? hot.map((h) => JSON.stringify(h)).join(', ') : 'none reported'}. ` +
        'Rewrite it so that a string can be matched in one way only: bound the quantifiers, make adjacent repetitions ' +
        'disjoint, keep an unanchored search from retrying at every position of a run (e.g. with a look-behind), or scan by hand.'
      );
    }
    case 'unknown':
      return `${where}: ${diagnosis.error.kind}${'message' in diagnosis.error ? ` (${diagnosis.error.message})` : ''}; raise RECHECK_PARAMS.timeout if it timed out`;
  }
}

export async function expectSafe(pattern: Pattern): Promise<void> {
  const diagnosis = await diagnose(pattern.source, pattern.flags);
  expect(diagnosis.status, verdict(pattern, diagnosis)).toBe('safe');
}
