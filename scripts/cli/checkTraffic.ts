/**
 * `crawlspec check-traffic FILE.har`: a recording of a client's traffic checked offline as the proxy checks it live
 * (../proxy/checkTraffic.ts): one line per problem and per exchange not checked, the totals, then the spec coverage
 * of the traffic (../coverage/). With `--json`, stdout carries the coverage as JSON and the lines go to stderr.
 * Exit 1 when a problem decides at the level, 2 for a usage error or a file that cannot be read as HAR.
 */
import { stat } from 'node:fs/promises';
import { decides } from '../contract/spec/levels.js';
import { parseCommand } from './args.js';
import { InputError, UsageError } from './errors.js';
import { levelOption, uncheckedLine, violationLine } from './proxy.js';
import { printable, printableJson, quote } from './terminal.js';

export async function checkTrafficCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'check-traffic',
    args,
    { level: { type: 'string', default: 'interface' }, json: { type: 'boolean', default: false } },
    true,
  );
  const [file, extra] = positionals;
  if (file === undefined) throw new UsageError('check-traffic needs a HAR file, e.g. crawlspec check-traffic traffic.har');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${quote(extra)}; check-traffic takes one HAR file`);
  const level = levelOption(values.level);
  const found = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`cannot read ${quote(file)} (${error.code ?? error.message}); expected a HAR file`);
  });
  if (!found.isFile()) throw new InputError(`${quote(file)} is not a file; expected a HAR file`);
  const [{ readHar, checkEntry, HarUnreadable }, { CoverageModel }, { coverageLines }] = await Promise.all([
    import('../proxy/checkTraffic.js'),
    import('../coverage/model.js'),
    import('../coverage/lines.js'),
  ]);
  const say = (line: string) => (values.json ? process.stderr : process.stdout).write(`${printable(line)}\n`);
  const coverage = new CoverageModel();
  const totals = { problems: 0, deciding: 0, unchecked: 0 };
  const entries = await readHar(file, (entry) => {
    const checked = checkEntry(entry, level);
    for (const problem of checked.problems) {
      say(`entry ${entry.index}: ${violationLine(problem, level, false)}`);
      totals.problems += 1;
      if (decides(problem.level, level)) totals.deciding += 1;
    }
    if (checked.why !== undefined && checked.problems.length === 0) {
      totals.unchecked += 1;
      let path = entry.url;
      try {
        path = new URL(entry.url).pathname;
      } catch {
        // Said as recorded.
      }
      say(
        `entry ${entry.index}: ${uncheckedLine({ ...(entry.status === undefined ? {} : { status: entry.status }), method: entry.method, path, why: checked.why })}`,
      );
    }
    coverage.add({
      method: entry.method,
      url: entry.url,
      ...(entry.requestBody === undefined ? {} : { requestBody: entry.requestBody }),
      ...(entry.status === undefined ? {} : { status: entry.status }),
      ...(entry.answerText === undefined || entry.answerCut ? {} : { answerBody: entry.answerText }),
      answerChecked: checked.answerChecked,
    });
  }).catch((error: unknown) => {
    throw error instanceof HarUnreadable ? new InputError(`cannot check ${quote(file)}: ${error.message}`) : error;
  });
  const result = coverage.result();
  say(
    `crawlspec check-traffic: ${entries} exchange(s); ${totals.problems} problem(s) (${totals.deciding} decide at ${level} level); ${totals.unchecked} exchange(s) unchecked`,
  );
  for (const line of coverageLines(result)) say(line);
  if (values.json) process.stdout.write(`${printableJson(JSON.stringify(result, null, 2))}\n`);
  return totals.deciding > 0 ? 1 : 0;
}
