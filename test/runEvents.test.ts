/**
 * The run's events (scripts/contract/engine/events.ts) and the reporters that listen to them (issue 42): an output is
 * one listener, written in one file, and the engine knows none of them.
 *
 *   - A test reporter written here, as any user would write one, hears a whole run in order: the run start first and
 *     its end last, every check started before it ends, every exchange of a check between the two, as many
 *     exchanges as the report counts requests, the causes of the report, everything cleaned of the token.
 *   - The Markdown summary (reporters/markdown.ts, `--markdown FILE`) is such a listener: against a target that
 *     answers 500 to every v2 crawl start it says the verdict and exit status, the one fault and the failing checks;
 *     whatever text a target puts in a failure, it stays Markdown of its own lines (no table cell broken, no HTML).
 *   - A listener that throws at the run's end keeps no other from being told, and its error is the one thrown.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunEvents, type RunListener } from '../scripts/contract/engine/events.js';
import { markdownReporter, runContract, type ContractReport } from '../scripts/contract/index.js';
import { formatMarkdown } from '../scripts/contract/reporters/markdown.js';
import { failingCrawlStarts } from './support/appWrap.js';
import { kitTarget, type KitTarget } from './support/kitTarget.js';

const TOKEN = 'events-token/+=';

/** A test reporter: every event, in the order heard, as one line each. */
function eventLog(): { listener: RunListener; lines: string[]; exchanges: (string | null)[] } {
  const lines: string[] = [];
  const exchanges: (string | null)[] = [];
  return {
    lines,
    exchanges,
    listener: {
      runStarted: (options) => void lines.push(`runStarted ${options.versions.join(',')}`),
      checkStarted: (check) => void lines.push(`checkStarted ${check}`),
      exchange: (record, check) => {
        exchanges.push(check);
        lines.push(`exchange ${check ?? '(run)'} ${record.request.method}`);
      },
      judged: (_exchange, _expectation, failures, check) => void lines.push(`judged ${check} ${JSON.stringify(failures)}`),
      checkEnded: (result, progress) => void lines.push(`checkEnded ${result.name} ${progress === undefined ? '-' : `${progress.done}/${progress.total}`} ${JSON.stringify(result)}`),
      causeFound: (cause) => void lines.push(`causeFound ${cause.cause}`),
      runEnded: (report) => void lines.push(`runEnded ${report === undefined ? 'failed' : report.checks.length}`),
    },
  };
}

describe.concurrent('the run tells its listeners', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crawlspec-events-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a test reporter hears the whole run in order, each exchange under its check, cleaned of the token', { timeout: 180_000 }, async () => {
    const target: KitTarget = await kitTarget({ token: TOKEN });
    try {
      const log = eventLog();
      const only = ['json.malformed', 'v2.status', 'v2.crawl.start.invalid.wrongType'];
      const report = await runContract(target.options({ only, runs: 2, versions: ['v2'] }), log.listener);
      const { lines } = log;
      expect(lines[0]).toBe('runStarted v2');
      expect(lines.at(-1)).toBe(`runEnded ${report.checks.length}`);
      // Every check is told twice (started, ended), in that order; the selected ones with their progress.
      for (const check of report.checks) {
        const started = lines.indexOf(`checkStarted ${check.name}`);
        const ended = lines.findIndex((l) => l.startsWith(`checkEnded ${check.name} `));
        expect(started, check.name).toBeGreaterThan(0);
        expect(ended, check.name).toBeGreaterThan(started);
        // Each exchange told for this check comes between its start and its end.
        lines.forEach((line, i) => {
          if (line.startsWith(`exchange ${check.name} `)) expect(i > started && i < ended, `${line} at ${i}`).toBe(true);
        });
      }
      const progress = lines.filter((l) => l.startsWith('checkEnded ')).map((l) => l.split(' ')[2]).filter((p) => p !== '-');
      expect(progress).toEqual(['1/3', '2/3', '3/3']);
      // As many exchanges as the report counts requests, the selected checks' own among them.
      expect(log.exchanges).toHaveLength(report.requests);
      for (const name of only) expect(log.exchanges).toContain(name);
      // The report's causes, each told once, before the end.
      expect(lines.filter((l) => l.startsWith('causeFound '))).toHaveLength(report.causes.length);
      // Everything told but the exchanges (as they went over the wire) is cleaned of the token.
      expect(lines.filter((l) => !l.startsWith('exchange ')).join('\n')).not.toContain(TOKEN);
    } finally {
      await target.close();
    }
  });

  it('the Markdown summary, one listener in one file: the verdict, exit status, the fault and the failing checks', { timeout: 180_000 }, async () => {
    const target = await kitTarget({ token: TOKEN, wrap: failingCrawlStarts(`crawler down | <b>${TOKEN}</b>`) });
    try {
      const file = join(dir, 'summary.md');
      const log = eventLog();
      const report: ContractReport = await runContract(
        target.options({ only: ['v2.crawl.start.valid', 'v2.status', 'v2.cancel'], runs: 1, versions: ['v2'], behaviour: false }),
        [log.listener, markdownReporter(file)],
      );
      const text = await readFile(file, 'utf8');
      expect(text).toBe(formatMarkdown(report));
      expect(text.split('\n')[0]).toBe('## crawlspec contract: deviations found (exit 1)');
      expect(report.causes.length).toBeGreaterThan(0);
      expect(text).toContain(`### Faults behind the verdict (${report.causes.length})`);
      expect(text).toContain('POST /v2/crawl');
      for (const check of report.checks.filter((c) => c.status === 'fail')) expect(text).toContain(`\`${check.name}\``);
      // The causes told are the report's.
      expect(log.lines.filter((l) => l.startsWith('causeFound ')).map((l) => l.slice('causeFound '.length))).toEqual(
        report.causes.map((c) => c.cause),
      );
      // What the target wrote stays text: no raw HTML, no broken table row, and no token.
      expect(text).not.toMatch(/<b>|<\/b>/);
      expect(text).not.toContain(TOKEN);
      for (const row of text.split('\n').filter((l) => l.startsWith('| `'))) expect(row.split(/(?<!\\)\|/)).toHaveLength(5);
    } finally {
      await target.close();
    }
  });

  it('a listener that throws at the end keeps no other from being told; its error is the one thrown', async () => {
    const told: string[] = [];
    const events = new RunEvents(
      [
        { runEnded: () => void told.push('first') },
        {
          runEnded: () => {
            throw new Error('disk full');
          },
        },
        { runEnded: async () => void told.push('third') },
      ],
      { secrets: [] },
    );
    await expect(events.runEnded(undefined)).rejects.toThrow('disk full');
    expect(told).toEqual(['first', 'third']);
  });
});
