/**
 * `crawlspec proxy`: the validating proxy (scripts/proxy/) between a client and a target, until Ctrl-C or SIGTERM.
 * On stdout one line per problem found (where, what, what is expected, level and section) and per exchange it could
 * not check (status, method, path, why), then the totals on exit; the problems as JSON lines with `--json FILE`,
 * every exchange with its verdict with `--log FILE` (exchangeLog.ts), every exchange as HAR 1.2 with `--record FILE`
 * (trafficRecording.ts, for `crawlspec check-traffic`).
 */
import { createWriteStream } from 'node:fs';
import { LEVELS, decides, type Level } from '../contract/spec/levels.js';
import type { Violation } from '../proxy/exchangeChecks.js';
import type { ExchangeRecord, Totals } from '../proxy/exchanges.js';
import { parseCommand } from './args.js';
import { PROXY_OPTIONS } from './commandOptions.js';
import { withConfig } from './config.js';
import { baseAddress, InputError, listenError, listenHost, outputFile, port as portOption, UsageError } from './errors.js';
import { printable, quote } from './terminal.js';

export function levelOption(value: string): Level {
  if ((LEVELS as readonly string[]).includes(value)) return value as Level;
  throw new UsageError(`--level takes interface or service, not ${quote(value)}`);
}

/** One line for a problem: where, what, what is expected, level and section; and whether it decides at `level`. */
export function violationLine(v: Violation, level: Level, refused: boolean): string {
  const where = `${v.side === 'request' ? 'request' : `answer ${v.status ?? ''}`} ${v.method} ${v.path}`;
  const mark = decides(v.level, level) ? '✗' : `~ differs from the service (${v.level} level, informs at ${level} level):`;
  const answered = refused ? ' (not forwarded: answered 400)' : '';
  return `${mark} ${where}${answered}: ${v.at}: ${v.message}. Expected: ${v.expected} [${v.section}]`;
}

/**
 * A file of JSON lines written while the proxy runs. A file that fails (a full disk) ends the file, not the proxy:
 * said once on stderr, the lines printed go on.
 */
function jsonLines(file: string | undefined, option: string, what: string): { write(line: string): void; end(): Promise<void> } {
  let stream = file === undefined ? undefined : createWriteStream(file, { flags: 'w' });
  stream?.once('error', (error: NodeJS.ErrnoException) => {
    stream = undefined;
    console.error(
      printable(
        `crawlspec proxy: cannot write ${option} ${quote(file ?? '')} (${error.code ?? error.message}); ${what} printed here only from now on`,
      ),
    );
  });
  return {
    write: (line) => void stream?.write(line),
    end: () => new Promise<void>((resolve) => (stream === undefined ? resolve() : stream.end(resolve))),
  };
}

/** One line for an exchange not checked: its status, method, path and why. */
export const uncheckedLine = (r: Pick<ExchangeRecord, 'status' | 'method' | 'path' | 'why'>) => `? unchecked: ${r.status ?? 'no answer'} ${r.method} ${r.path}: ${r.why ?? ''}`;

/** The totals, said on exit. */
function totalsLine(t: Totals, level: Level): string {
  const deciding = level === 'interface' ? t.problems.interface : t.problems.interface + t.problems.service;
  const problems = t.problems.interface + t.problems.service;
  return `crawlspec proxy: ${t.exchanges} exchange(s); ${problems} problem(s), ${t.problems.interface} of interface level and ${t.problems.service} of service level (${deciding} decide at ${level} level); ${t.unchecked} exchange(s) unchecked`;
}

export async function proxyCommand(args: string[]): Promise<number> {
  // The options of crawlspec.config.json (or --config FILE) first: the command line overrides them.
  const configured = await withConfig('proxy', args);
  return proxyRun(configured.args).catch((error: unknown) => {
    throw configured.blame(error);
  });
}

async function proxyRun(args: string[]): Promise<number> {
  const { values } = parseCommand('proxy', args, PROXY_OPTIONS, false);
  if (values.target === undefined)
    throw new UsageError('proxy needs --target URL, the service to forward to, e.g. --target http://127.0.0.1:3002');
  const target = baseAddress(values.target, '--target');
  const level = levelOption(values.level);
  const port = portOption(values.port);
  const host = await listenHost(values.host);
  const jsonFile =
    values.json === undefined ? undefined : await outputFile(values.json, '--json', 'the problems as JSON lines', 'problems.jsonl');
  const logFile =
    values.log === undefined ? undefined : await outputFile(values.log, '--log', 'every exchange as JSON lines', 'exchanges.jsonl');
  const recordFile =
    values.record === undefined ? undefined : await outputFile(values.record, '--record', 'every exchange as HAR 1.2', 'traffic.har');
  const { startProxy } = await import('../proxy/proxy.js');
  const { TrafficRecording, TrafficRecordingFailed } = await import('../proxy/trafficRecording.js');
  const recording =
    recordFile === undefined
      ? undefined
      : await TrafficRecording.open(recordFile).catch((error: unknown) => {
          throw error instanceof TrafficRecordingFailed ? new InputError(error.message) : error;
        });
  /** The proxy's own address, for the recorded entries (known once it listens; no exchange ends before). */
  let proxyUrl = '';
  const { logLine, sectionUrl } = await import('../proxy/exchangeLog.js');
  const problems = jsonLines(jsonFile, '--json', 'the problems are');
  const log = jsonLines(logFile, '--log', "the exchanges' problems and the unchecked ones are");
  const proxy = await startProxy({
    target: target.href,
    host,
    port,
    level,
    errors: values.errors,
    onViolation: (v, refused) => {
      console.log(printable(violationLine(v, level, refused)));
      problems.write(`${JSON.stringify({ ...v, ...sectionUrl(v.section), decides: decides(v.level, level), refused })}\n`);
    },
    onExchange: (record) => {
      if (record.verdict === 'unchecked') console.log(printable(uncheckedLine(record)));
      log.write(logLine(record, level));
      recording?.add(record, proxyUrl);
    },
    onNotice: (line) => console.error(printable(`crawlspec proxy: ${line}`)),
  }).catch((error: unknown) => listenError(error, host, port));
  proxyUrl = proxy.url;
  // Listened for before the address is printed: whoever reads it may stop the proxy at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log(
    printable(
      `crawlspec proxy listening on ${proxy.url} and forwarding to ${target.href.replace(/\/$/, '')} (level ${level}; a request that breaks the spec is ${values.errors ? 'answered 400 by the proxy' : 'forwarded'}); Ctrl-C stops it`,
    ),
  );
  await stopped;
  const totals = await proxy.close();
  await Promise.all([problems.end(), log.end()]);
  console.log(printable(totalsLine(totals, level)));
  // A recording that could not be written is said, once, on stderr: the proxy's results above stand.
  await recording?.close(target.href).catch((error: Error) => console.error(printable(`crawlspec proxy: ${error.message}`)));
  return 0;
}
