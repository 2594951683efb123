#!/usr/bin/env node
/**
 * The `crawlspec` command.
 *
 *   crawlspec validate [--jsonl] <schema> [file]   validate JSON from a file or stdin (schema and rules)
 *   crawlspec validate --list                      list the schema names
 *   crawlspec defaults <schema> [file]             print a valid body with the interface's defaults filled in
 *   crawlspec migrate [file]                       print the v2 request asking for what a v1 request asks
 *   crawlspec examples                             check every example of the OpenAPI documents
 *   crawlspec serve [--port N] [--host H] [--token T | --no-auth] [--allow-host NAME]...   run the reference server
 *   crawlspec contract [--base-url URL] [--token T | --no-auth] [...]   test an implementation
 *   crawlspec site serve | export ...              the contract kit's test site
 *   crawlspec webhook-receiver [--port N] [--host H]   receive webhook deliveries for the contract kit
 *   crawlspec --version, crawlspec --help, crawlspec <command> --help
 *
 * Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable input (one line on stderr, never the whole usage),
 * 3 (contract) incomplete, 4 a failure of the command itself (one line; CRAWLSPEC_DEBUG=1 adds the stack).
 */
import { asksForHelp } from './cli/args.js';
import { InputError, UsageError } from './cli/errors.js';
import { printable, quote } from './cli/terminal.js';
import { COMMAND_NAMES, COMMAND_USAGE, USAGE, type CommandName } from './cli/usage.js';
import { packageVersion } from './cli/version.js';

/** Each subcommand, loaded when it runs: `--version`, `--help` and a short command load nothing they do not use. */
const COMMANDS: Record<CommandName, () => Promise<(args: string[]) => Promise<number>>> = {
  validate: async () => (await import('./cli/documents.js')).validateCommand,
  defaults: async () => (await import('./cli/documents.js')).defaultsCommand,
  migrate: async () => (await import('./cli/documents.js')).migrateCommand,
  examples: async () => (await import('./cli/documents.js')).examplesCommand,
  docs: async () => (await import('./cli/docs.js')).docsCommand,
  proxy: async () => (await import('./cli/proxy.js')).proxyCommand,
  'check-traffic': async () => (await import('./cli/checkTraffic.js')).checkTrafficCommand,
  serve: async () => (await import('./cli/serve.js')).serveCommand,
  contract: async () => (await import('./cli/contract.js')).contractCommand,
  site: async () => (await import('./cli/site.js')).siteCommand,
  'webhook-receiver': async () => (await import('./cli/webhookReceiver.js')).webhookReceiverCommand,
};

const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** Exit status of a failure of the command itself (a bug), apart from 1 (invalid, deviations found). */
const INTERNAL_ERROR = 4;

/** One line on stderr for an error no code path expected, with the stack only when asked for. */
function internalError(error: unknown, command: string | undefined): number {
  const message = error instanceof Error ? error.message : String(error);
  const where = command === undefined ? '' : ` in ${command}`;
  console.error(
    printable(
      `crawlspec: internal error${where}: ${message.split('\n')[0]}; a bug of crawlspec (CRAWLSPEC_DEBUG=1 prints the stack trace)`,
    ),
  );
  if (process.env.CRAWLSPEC_DEBUG) console.error(error instanceof Error ? error.stack : error);
  return INTERNAL_ERROR;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'help' || command === '--help' || command === '-h') {
      const [topic] = rest;
      console.log(topic !== undefined && isCommand(topic) ? COMMAND_USAGE[topic] : USAGE);
      return 0;
    }
    if (command === '--version' || command === '-V') {
      console.log(packageVersion());
      return 0;
    }
    if (command === undefined) throw new UsageError(`no command given; expected one of ${COMMAND_NAMES.join(', ')}`, '');
    if (!isCommand(command))
      throw new UsageError(`unknown command ${quote(command)}; expected one of ${COMMAND_NAMES.join(', ')}, or --version`, '');
    if (asksForHelp(rest)) {
      console.log(COMMAND_USAGE[command]);
      return 0;
    }
    return await (
      await COMMANDS[command]()
    )(rest);
  } catch (error) {
    if (error instanceof InputError) {
      console.error(printable(`crawlspec: ${error.message}`));
      return 2;
    }
    if (error instanceof UsageError) {
      const usageOf = error.command ?? command ?? '';
      const pointer = error.pointer ?? (usageOf === '' ? 'crawlspec --help' : `crawlspec ${usageOf} --help`);
      console.error(printable(`crawlspec: ${error.message} (${pointer})`));
      return 2;
    }
    return internalError(error, command);
  }
}

// A reader that stops early (`crawlspec validate --list | head -1`) closes the pipe: not an error of the command.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.exit(internalError(error, process.argv[2]));
  });
// Whatever fails outside the command's own flow (a server's callback, a timer) ends it with one line too.
process.on('uncaughtException', (error) => process.exit(internalError(error, process.argv[2])));
process.on('unhandledRejection', (error) => process.exit(internalError(error, process.argv[2])));

process.exitCode = await main(process.argv.slice(2));
