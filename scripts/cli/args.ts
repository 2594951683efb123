/**
 * Reading a subcommand's arguments with `node:util`'s parseArgs, its errors turned into one-line usage
 * errors that name the option and say what is expected, and `--help` / `-h` answered before anything else.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';
import { closest } from './suggest.js';
import { quote } from './terminal.js';

type Options = NonNullable<ParseArgsConfig['options']>;
/** What parseArgs answers for `options`. */
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>>;

/** Whether `--help` or `-h` is among the options of `args` (before a `--`). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The option names of `options`, as a user writes them. */
const spelled = (options: Options) =>
  Object.entries(options)
    .map(([name, option]) => `--${name}${option.type === 'string' ? ' <value>' : ''}`)
    .join(', ');

/**
 * `parseArgs` for `command` with `options` (and `--help`): a wrong option is a usage error of that command.
 * Usage: `const { values, positionals } = parseCommand('serve', args, { port: { type: 'string' } }, false)`.
 */
export function parseCommand<const O extends Options>(command: string, args: string[], options: O, allowPositionals: boolean): Parsed<O> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true; tokens: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals, strict: true, tokens: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (!code?.startsWith('ERR_PARSE_ARGS')) throw error;
    const named = /'([^']*)'/.exec(message)?.[1] ?? '';
    const option = named.replace(/ <value>$/, '');
    const known = `${command} takes ${Object.keys(options).length === 0 ? 'no options' : spelled(options)}`;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const meant = closest(
        option,
        Object.keys(options).map((name) => `--${name}`),
      );
      throw new UsageError(`unknown option ${quote(option)}; ${meant.length > 0 ? `did you mean ${meant.join(' or ')}?` : known}`, command);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new UsageError(
        `unexpected argument ${quote(option)}; ${command} takes ${Object.keys(options).length === 0 ? 'no arguments' : 'options only'}`,
        command,
      );
    if (message.includes('does not take an argument')) throw new UsageError(`${option} takes no value`, command);
    if (message.includes('ambiguous'))
      throw new UsageError(
        `${option} needs a value, not the option that follows it (write ${option}=<value> for a value starting with -)`,
        command,
      );
    throw new UsageError(`${option} needs a value`, command);
  }
  // What parseArgs lets pass: an option of one value given twice (it keeps the last, silently), and `-o=FILE`
  // (whose value it takes to be `=FILE`).
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const spelling = `--${token.name}`;
    if (token.rawName.length === 2 && token.value?.startsWith('=') === true)
      throw new UsageError(
        `${token.rawName}${token.value}: a short option takes its value after a space (${token.rawName} ${token.value.slice(1)}) or as ${spelling}${token.value}`,
        command,
      );
    if (options[token.name]?.multiple === true) continue;
    if (seen.has(token.name))
      throw new UsageError(
        `${spelling}${token.rawName === spelling ? '' : ` (${token.rawName})`} is given twice; expected it once`,
        command,
      );
    seen.add(token.name);
  }
  return { values: parsed.values, positionals: parsed.positionals } as Parsed<O>;
}
