#!/usr/bin/env node
/**
 * The `crawlspec` command.
 *
 *   crawlspec validate [--jsonl] <schema> [file]   validate JSON from a file or stdin (schema and rules)
 *   crawlspec validate --list                      list the schema names
 *   crawlspec defaults <schema> [file]             print a valid body with the interface's defaults filled in
 *   crawlspec migrate [file]                       print the v2 request asking for what a v1 request asks
 *   crawlspec examples                             check every example of the OpenAPI documents
 *   crawlspec serve [--port N] [--host H] [--token T | --no-auth]        run the reference server
 *   crawlspec contract [--base-url URL] [--token T | --no-auth] [...]   test an implementation
 *
 * Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable input.
 */
import { contractCommand } from './cli/contract.js';
import { defaultsCommand, examplesCommand, migrateCommand, validateCommand } from './cli/documents.js';
import { InputError, UsageError } from './cli/errors.js';
import { serveCommand } from './cli/serve.js';
import { siteCommand } from './cli/site.js';
import { USAGE } from './cli/usage.js';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  validate: validateCommand,
  defaults: defaultsCommand,
  migrate: migrateCommand,
  serve: serveCommand,
  contract: contractCommand,
  examples: examplesCommand,
  site: siteCommand,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'help' || command === '--help' || command === '-h') {
      console.log(USAGE);
      return 0;
    }
    if (command === undefined) throw new UsageError('no command given');
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`unknown command "${command}"`);
    return await run(rest);
  } catch (error) {
    if (error instanceof InputError) {
      console.error(`crawlspec: ${error.message}`);
      return 2;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`crawlspec: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
