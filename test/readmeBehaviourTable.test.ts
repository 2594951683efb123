/**
 * The README's tables of behaviour checks are the kit's own lists, so that the front page cannot promise a check
 * the kit does not make, or leave one out:
 *
 *   - crawl behaviour: one row per behaviour check, in order, with its versions and what it proves
 *     (scripts/contract/checks/crawl/behaviour.ts);
 *   - scrape, batch and webhook behaviour: one row per check of the kit (`vN.scrape.behaviour.*`,
 *     `vN.batch.behaviour.*`, `vN.webhook.*`), both versions in one, with its versions, its level and what it
 *     proves: the sentence of the kit, the same for both versions but for the version it names (`vN`), or each
 *     version's own (`v1: … v2: …`). Grouped scrape, batch, webhook; within a group in the kit's order, a check of
 *     one version beside its counterpart of the other (v1 `parsePDF`, v2 `parsers`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEHAVIOURS } from '../scripts/contract/checks/crawl/behaviour.js';
import { contractChecks, type Check } from '../scripts/contract/index.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The rows of the table whose header line begins with `header`, up to the first line that is no row. */
function tableRows(header: string): string[] {
  const at = README.indexOf(header);
  expect(at, `the README has a table beginning ${header}`).toBeGreaterThanOrEqual(0);
  const lines = README.slice(at).split('\n').slice(2);
  const end = lines.findIndex((line) => !line.startsWith('|'));
  return end < 0 ? lines : lines.slice(0, end);
}

const GROUPS = [/^v\d\.scrape\.behaviour\./, /^v\d\.batch\.behaviour\./, /^v\d\.webhook\./];

/** One row per check of a group, both versions in one, as the README shows it. */
function kitRows(): string[] {
  const checks = contractChecks(['v1', 'v2']);
  return GROUPS.flatMap((group) => {
    const mine = checks.filter((c) => group.test(c.name));
    // Where a check stands within its version's checks of the group: v1 parsePDF and v2 parsers side by side.
    const position = (c: Check) => mine.filter((o) => o.name.slice(0, 2) === c.name.slice(0, 2)).indexOf(c);
    const byName = new Map<string, Check[]>();
    for (const c of mine) {
      const name = c.name.replace(/^v\d/, 'vN');
      byName.set(name, [...(byName.get(name) ?? []), c]);
    }
    const rows = [...byName].map(([name, list]) => {
      const general = new Set(list.map((c) => c.proves.replaceAll(`${c.name.slice(0, 2)} `, 'vN ')));
      const proves = general.size === 1 ? [...general][0]! : list.map((c) => `${c.name.slice(0, 2)}: ${c.proves}`).join(' ');
      return {
        at: Math.min(...list.map(position)),
        row: `| \`${name}\` | ${list.map((c) => c.name.slice(0, 2)).join(', ')} | ${list[0]!.level} | ${proves} |`,
      };
    });
    return rows.sort((a, b) => a.at - b.at).map((r) => r.row);
  });
}

describe("the README's tables of behaviour checks", () => {
  it('crawl: one row per behaviour check of the kit, in order, with its versions and what it proves', () => {
    expect(tableRows('| option | versions | what the check enforces')).toEqual(
      BEHAVIOURS.map((b) => `| \`${b.option}\` | ${b.versions.join(', ')} | ${b.proves} |`),
    );
  });

  it('scrape, batch and webhook: one row per check of the kit, with its versions, its level and what it proves', () => {
    const rows = kitRows();
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(tableRows('| check | versions | level | what the check enforces')).toEqual(rows);
  });
});
