/**
 * crawlspec.config.json: the options of `contract` and `proxy` kept in a file, so that a CI run is
 * `crawlspec contract` with nothing else. Read from `--config FILE`, else from crawlspec.config.json in the
 * working directory when there is one; validated (Ajv) against the schema generated from the commands' option
 * tables (configSchema.ts); each key of the command's section becomes the option of the same name, placed
 * before the command line's, which overrides it: an option given there drops the file's key (and the key of
 * its `opposite`, e.g. `--behaviour` drops `no-behaviour`). A file that is wrong is a usage error (exit 2),
 * one line naming the file, the key and what it takes.
 */
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { CONFIGURABLE, type CommandOption, type OptionTable } from './commandOptions.js';
import { configSchema, expectedValue } from './configSchema.js';
import { InputError, UsageError } from './errors.js';
import { parseCommand } from './args.js';
import { closest } from './suggest.js';
import { printable, quote } from './terminal.js';

export const CONFIG_FILE = 'crawlspec.config.json';

/** The longest config file read: a config file is a few hundred bytes; past this one is no config file. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export type ConfigurableCommand = keyof typeof CONFIGURABLE;

export interface Configured {
  /** The file's options (those the command line does not give), then the command line's. */
  readonly args: string[];
  /**
   * `error` pointing at the file when it is a usage error about an option the file gave (the command checks
   * the values as it checks flags: `--level takes interface or service` is then followed by where it came from).
   */
  blame(error: unknown): unknown;
}

const validateConfig = new Ajv2020({ allErrors: false, strict: true }).compile(configSchema());

/** A JSON value as a message shows it: JSON, cut to 60 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return printable(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** What a user who wrote `key` in the section of `table` meant: `--base-url` or `baseUrl` for `base-url`, else the nearest names. */
function meant(key: string, table: OptionTable): string[] {
  const spelled = key.replace(/^-+/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  if (spelled !== key && Object.hasOwn(table, spelled)) return [spelled];
  return closest(key, Object.keys(table));
}

/** The one line saying what is wrong with the file, from the first error Ajv found. */
function problem(file: string, data: Record<string, unknown>, error: ErrorObject): string {
  const [command, name, index] = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const sections = Object.keys(CONFIGURABLE);
  if (command === undefined) {
    if (error.keyword !== 'additionalProperties')
      return `${file} is not a JSON object; expected one of sections ${sections.join(' and ')}, e.g. {"contract": {"base-url": "http://127.0.0.1:3002"}}`;
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    const near = closest(key, sections);
    return `${file} has the key ${quote(key)}; ${near.length > 0 ? `did you mean ${quote(near[0]!)}? ` : ''}expected ${sections.join(', ')} or $schema`;
  }
  const table: OptionTable = CONFIGURABLE[command as ConfigurableCommand];
  if (name === undefined) {
    if (error.keyword !== 'additionalProperties')
      return `${file}: ${command} is ${shown(data[command])}; expected an object of options of crawlspec ${command}, e.g. {"level": "interface"}`;
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    const refused = table[key]?.notInFile;
    if (refused !== undefined) return `${file}: ${command}.${key} is ${refused}`;
    const near = meant(key, table);
    return `${file}: ${command} has no option ${quote(key)}; ${near.length > 0 ? `did you mean ${near.map((n) => quote(n)).join(' or ')}? ` : ''}expected an option of crawlspec ${command} --help, without its --`;
  }
  const option = table[name]!;
  const value = (data[command] as Record<string, unknown>)[name];
  if (index !== undefined) return `${file}: ${command}.${name}[${index}] is ${shown((value as unknown[])[Number(index)])}; expected a string`;
  return `${file}: ${command}.${name} is ${shown(value)}; expected ${expectedValue(option)}`;
}

/** The file's options for `table`, as command-line arguments (`--name=value`), but those `given` drops. */
function asArguments(section: Record<string, unknown>, table: OptionTable, given: ReadonlySet<string>): [string[], Set<string>] {
  const args: string[] = [];
  const taken = new Set<string>();
  for (const [name, value] of Object.entries(section)) {
    const option: CommandOption = table[name]!;
    if (given.has(name) || (option.opposite !== undefined && given.has(option.opposite))) continue;
    taken.add(name);
    if (value === true) args.push(`--${name}`);
    else if (Array.isArray(value)) args.push(...value.map((item) => `--${name}=${String(item)}`));
    else if (value !== false) args.push(`--${name}=${String(value)}`);
  }
  return [args, taken];
}

/** The config file named, or the default one when it exists; undefined when there is none. */
async function readConfig(named: string | undefined): Promise<{ file: string; text: string } | undefined> {
  const file = named ?? CONFIG_FILE;
  const found = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (named === undefined && error.code === 'ENOENT') return undefined;
    throw new UsageError(`--config ${quote(file)} cannot be read (${error.code ?? error.message}); expected a JSON file, e.g. ${CONFIG_FILE}`);
  });
  if (found === undefined) return undefined;
  if (!found.isFile()) throw new UsageError(`${quote(file)} is not a file; expected a JSON config file, e.g. ${CONFIG_FILE}`);
  if (found.size > MAX_CONFIG_BYTES)
    throw new UsageError(`${quote(file)} has ${found.size} bytes; expected a config file of at most ${MAX_CONFIG_BYTES} bytes`);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`${quote(file)} cannot be read (${error.code ?? error.message})`);
  });
  return { file, text };
}

/**
 * The arguments `command` runs with: `args` after the options of its section of the config file. The command
 * line is checked first (its own errors come first), then the file.
 */
export async function withConfig(command: ConfigurableCommand, args: string[]): Promise<Configured> {
  const table: OptionTable = CONFIGURABLE[command];
  parseCommand(command, args, table, false);
  // The options the command line gives (parseCommand has accepted them, so this cannot throw).
  const { tokens } = parseArgs({ args, options: table, strict: true, tokens: true, allowPositionals: false });
  const given = new Set(tokens.flatMap((token) => (token.kind === 'option' ? [token.name] : [])));
  const named = tokens.find((token) => token.kind === 'option' && token.name === 'config');
  const read = await readConfig(named?.kind === 'option' ? named.value : undefined);
  if (read === undefined) return { args, blame: (error) => error };
  const { file, text } = read;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${quote(file)} is not JSON (${(error as Error).message}); expected a JSON object, e.g. {"contract": {"level": "interface"}}`);
  }
  if (!validateConfig(data)) throw new UsageError(problem(quote(file), data as Record<string, unknown>, validateConfig.errors![0]!), command);
  const section = ((data as Record<string, unknown>)[command] ?? {}) as Record<string, unknown>;
  const [fromFile, taken] = asArguments(section, table, given);
  return {
    args: [...fromFile, ...args],
    blame: (error) => {
      if (!(error instanceof UsageError) || error.pointer !== undefined) return error;
      const about = [...taken].find((name) => new RegExp(`--${name}(?![\\w-])`).test(error.message));
      if (about === undefined) return error;
      return new UsageError(error.message, error.command, `${command}.${about} of ${quote(file)}; crawlspec ${command} --help`);
    },
  };
}
