/**
 * The README's table of crawl-behaviour checks is the kit's own list: one row per behaviour check, in order,
 * with its versions and what it proves (scripts/contract/checks/behaviour.ts), so that the front page cannot
 * promise a check the kit does not make, or leave one out.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEHAVIOURS } from '../scripts/contract/checks/behaviour.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe("the README's table of behaviour checks", () => {
  it('has one row per behaviour check of the kit, in order, with its versions and what it proves', () => {
    const table = README.slice(README.indexOf('| option | versions | what the check enforces'));
    const rows = table
      .split('\n')
      .slice(2)
      .filter((line, i, lines) => line.startsWith('|') && lines.slice(0, i).every((l) => l.startsWith('|')));
    expect(rows).toEqual(BEHAVIOURS.map((b) => `| \`${b.option}\` | ${b.versions.join(', ')} | ${b.proves} |`));
  });
});
