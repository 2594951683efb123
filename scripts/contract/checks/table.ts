/**
 * Every check of the kit as a Markdown table: its name, its level, where what it proves comes from, and what
 * it proves. `crawlspec contract --list-checks` prints it; `generated/contract/checks.md` is the same table,
 * generated, so that the documents can never disagree with the kit.
 */
import type { Version } from '../../../schemas/registry.js';
import { contractChecks } from './index.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function checkTable(versions: readonly Version[]): string {
  const lines = [
    '| check | level | where it comes from | what a pass proves |',
    '|---|---|---|---|',
    ...contractChecks(versions).map((check) => {
      const cites = check.cites.map((c) => `${c.source} (${c.names.map((n) => `\`${n}\``).join(', ')})`).join('; ');
      return `| \`${check.name}\` | ${check.level} | ${cell(cites)} | ${cell(check.proves)} |`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
