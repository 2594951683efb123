/**
 * `crawlspec contract replay FILE`: sends the failing exchanges of a recorded run (`crawlspec contract --record
 * FILE`) again and says of each whether it is fixed (scripts/contract/replay/replay.ts). Every option, and the file, is
 * checked before anything is sent: a wrong one is a usage error, an unreadable file or one that is no recording
 * an input error (exit 2), one line each. The exchanges go where the user says: `--base-url`, or the target the
 * recording names only with `--to-recorded-target` (a recording from a bug report or a CI artefact must not
 * choose where the token and the `--header` values go); without either, nothing is sent.
 */
import { createReadStream } from 'node:fs';
import { parseCommand } from './args.js';
import { headersOption, LIMITS } from './contract.js';
import { baseAddress, InputError, integer, token as tokenOption, UsageError } from './errors.js';
import { readText } from './input.js';
import { printable, quote } from './terminal.js';

const COMMAND = 'contract replay';

export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    COMMAND,
    args,
    {
      'base-url': { type: 'string' },
      'to-recorded-target': { type: 'boolean', default: false },
      token: { type: 'string' },
      'no-auth': { type: 'boolean', default: false },
      header: { type: 'string', multiple: true },
      timeout: { type: 'string' },
    },
    true,
  );
  const [file, ...more] = positionals;
  if (file === undefined)
    throw new UsageError('replay needs the recording to replay: crawlspec contract replay FILE (written by --record FILE)', COMMAND);
  if (more.length > 0)
    throw new UsageError(`replay takes one recording, not ${positionals.length}: ${positionals.map(quote).join(', ')}`, COMMAND);
  if (values['no-auth'] && values.token !== undefined) throw new UsageError('--token and --no-auth exclude each other', COMMAND);
  if (values['base-url'] !== undefined && values['to-recorded-target'])
    throw new UsageError('--base-url and --to-recorded-target exclude each other: give one, the target to send to', COMMAND);
  // As for a run: the token from the option, else from the environment (out of shell history); --no-auth ignores it.
  const fromEnvironment = values.token === undefined && !values['no-auth'] ? process.env.CRAWLSPEC_TOKEN : undefined;
  const token =
    values.token !== undefined
      ? tokenOption(values.token, '--token')
      : fromEnvironment === undefined
        ? undefined
        : tokenOption(fromEnvironment, 'CRAWLSPEC_TOKEN');
  const baseUrl =
    values['base-url'] === undefined ? undefined : baseAddress(values['base-url'], '--base-url').href.replace(/(?<!\/)\/+$/, '');
  const timeoutSeconds = values.timeout === undefined ? undefined : integer(values.timeout, '--timeout', 0, ...LIMITS.timeoutSeconds);
  const headers = headersOption(values.header ?? []);

  const { formatReplay, NotARecording, readRecording, replay, replayExitCode, replayOptions } = await import('../contract/replay/replay.js');
  const text = await readText(createReadStream(file), `the recording ${quote(file)}`);
  let recording: ReturnType<typeof readRecording>;
  try {
    recording = readRecording(text);
  } catch (error) {
    if (error instanceof NotARecording) throw new InputError(`${quote(file)} cannot be replayed: ${error.message}`);
    throw error;
  }
  const recorded = recording.run.target;
  if (baseUrl === undefined && !values['to-recorded-target'])
    throw new UsageError(
      `${quote(file)} was recorded against ${quote(recorded)}: give --base-url URL, the target to send its exchanges (and your token) to, or --to-recorded-target to send them to ${quote(recorded)}`,
      COMMAND,
    );
  if (token === undefined && !values['no-auth'] && recording.entries.some((entry) => entry._crawlspec.auth === 'token'))
    throw new UsageError('the recorded run sent a token: give --token T (or CRAWLSPEC_TOKEN), or --no-auth to send none', COMMAND);
  let options: ReturnType<typeof replayOptions>;
  try {
    options = replayOptions(recording.run, {
      token,
      headers,
      baseUrl: baseUrl ?? recorded,
      ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    });
  } catch (error) {
    // What the kit refuses of the options (e.g. a base address that is not http or https), said of where it came from.
    if (error instanceof RangeError)
      throw new UsageError(
        baseUrl === undefined
          ? `the run recorded in ${quote(file)} cannot be replayed: ${error.message}`
          : error.message.replace(/^baseUrl/, '--base-url'),
        COMMAND,
      );
    throw error;
  }
  const report = await replay(recording, options);
  console.log(printable(formatReplay(report, file)));
  return replayExitCode(report);
}
