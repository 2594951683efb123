/**
 * `crawlspec proxy`: the validating proxy (scripts/proxy/) between a client and a target, until Ctrl-C. One line per
 * problem found on stdout (where, what, what is expected, level and section), JSON lines with `--json FILE`.
 */
import { createWriteStream } from 'node:fs';
import { LEVELS, decides, type Level } from '../contract/levels.js';
import type { Violation } from '../proxy/exchangeChecks.js';
import { parseCommand } from './args.js';
import { baseAddress, listenError, listenHost, outputFile, port as portOption, UsageError } from './errors.js';
import { printable, quote } from './terminal.js';

function levelOption(value: string): Level {
  if ((LEVELS as readonly string[]).includes(value)) return value as Level;
  throw new UsageError(`--level takes interface or service, not ${quote(value)}`);
}

/** One line for a problem: where, what, what is expected, level and section; and whether it decides at `level`. */
function violationLine(v: Violation, level: Level, refused: boolean): string {
  const where = `${v.side === 'request' ? 'request' : `answer ${v.status ?? ''}`} ${v.method} ${v.path}`;
  const mark = decides(v.level, level) ? '✗' : `~ differs from the service (${v.level} level, informs at ${level} level):`;
  const answered = refused ? ' (not forwarded: answered 400)' : '';
  return `${mark} ${where}${answered}: ${v.at}: ${v.message}. Expected: ${v.expected} [${v.section}]`;
}

export async function proxyCommand(args: string[]): Promise<number> {
  const { values } = parseCommand(
    'proxy',
    args,
    {
      target: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      level: { type: 'string', default: 'interface' },
      errors: { type: 'boolean', default: false },
      json: { type: 'string' },
    },
    false,
  );
  if (values.target === undefined)
    throw new UsageError('proxy needs --target URL, the service to forward to, e.g. --target http://127.0.0.1:3002');
  const target = baseAddress(values.target, '--target');
  const level = levelOption(values.level);
  const port = portOption(values.port);
  const host = await listenHost(values.host);
  const json =
    values.json === undefined ? undefined : await outputFile(values.json, '--json', 'the problems as JSON lines', 'problems.jsonl');
  const { startProxy } = await import('../proxy/proxy.js');
  let lines = json === undefined ? undefined : createWriteStream(json, { flags: 'w' });
  // A file that fails while the proxy runs (a full disk) ends the file, not the proxy: said once, the lines go on here.
  lines?.once('error', (error: NodeJS.ErrnoException) => {
    lines = undefined;
    console.error(
      printable(
        `crawlspec proxy: cannot write --json ${quote(json ?? '')} (${error.code ?? error.message}); the problems are printed here only from now on`,
      ),
    );
  });
  let found = 0;
  let deciding = 0;
  const proxy = await startProxy({
    target: target.href,
    host,
    port,
    level,
    errors: values.errors,
    onViolation: (v, refused) => {
      found += 1;
      if (decides(v.level, level)) deciding += 1;
      console.log(printable(violationLine(v, level, refused)));
      lines?.write(`${JSON.stringify({ ...v, decides: decides(v.level, level), refused })}\n`);
    },
    onNotice: (line) => console.error(printable(`crawlspec proxy: ${line}`)),
  }).catch((error: unknown) => listenError(error, host, port));
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
  await proxy.close();
  await new Promise<void>((resolve) => (lines === undefined ? resolve() : lines.end(resolve)));
  console.log(
    printable(
      `crawlspec proxy: ${found} problem(s), ${deciding} of ${level} level or below; ${proxy.unchecked()} answer(s) passed through unchecked`,
    ),
  );
  return 0;
}
