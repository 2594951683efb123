/**
 * The JSON Schema of crawlspec.config.json, generated from the option tables the commands parse
 * (commandOptions.ts), not from a list kept by hand: each command a section, each option of its table a key
 * (spelled as the option, without its `--`), but those a file may not hold (`notInFile`: a secret, an action).
 * `npm run generate` writes it to generated/config.schema.json (exported as `crawlspec/config.schema.json`);
 * config.ts validates a file against the same schema.
 */
import { CONFIGURABLE, type CommandOption, type OptionTable } from './commandOptions.js';

/** What a key of `option` takes, in words (for the schema's descriptions and the config file's messages). */
export function expectedValue(option: CommandOption): string {
  if (option.type === 'boolean') return 'true or false';
  if (option.integer !== undefined) return `a whole number from ${option.integer[0]} to ${option.integer[1]}`;
  if (option.multiple === true) return 'a list of strings, e.g. ["a", "b"]';
  return 'a string';
}

function optionSchema(command: string, name: string, option: CommandOption): object {
  const description = `crawlspec ${command} --${name}: ${expectedValue(option)} (crawlspec ${command} --help says what it means)`;
  if (option.type === 'boolean') return { type: 'boolean', description };
  if (option.integer !== undefined) return { type: 'integer', minimum: option.integer[0], maximum: option.integer[1], description };
  if (option.multiple === true) return { type: 'array', items: { type: 'string' }, description };
  return { type: 'string', description };
}

function sectionSchema(command: string, table: OptionTable): object {
  return {
    type: 'object',
    description: `The options of crawlspec ${command}: a flag given on the command line overrides the key of the same name.`,
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.entries(table)
        .filter(([, option]) => option.notInFile === undefined)
        .map(([name, option]) => [name, optionSchema(command, name, option)]),
    ),
  };
}

/** The schema of a config file whose sections are the commands of `tables`. */
export function configSchema(tables: Readonly<Record<string, OptionTable>> = CONFIGURABLE): object {
  return {
    title: 'crawlspec.config.json',
    description:
      'Options of crawlspec commands, read from crawlspec.config.json in the working directory (or --config FILE); a flag given on the command line overrides its key. Secrets (the token, the webhook secret) are never read from it.',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: {
        type: 'string',
        description: 'This schema (its $id, or node_modules/crawlspec/generated/config.schema.json), for editors; crawlspec does not read it',
      },
      ...Object.fromEntries(Object.entries(tables).map(([command, table]) => [command, sectionSchema(command, table)])),
    },
  };
}
