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
 *
 * Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable input.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { withDefaults } from '../schemas/defaults.js';
import { migrateToV2 } from '../schemas/migrate.js';
import { parseJson } from '../schemas/parseJson.js';
import {
  formatIssue,
  isSchemaName,
  schemaNames,
  validate,
  type SchemaName,
  type ValidationIssue,
  type ValidationResult,
} from '../schemas/validate.js';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { DEFAULT_OPTIONS, exitCode, formatJunit, formatText, runContract } from './contract/run.js';
import { checkTable } from './contract/checkTable.js';
import { specExamples } from './examples.js';
import { createReferenceApp } from './server/app.js';
import { REFERENCE_SITE_PROFILE } from './server/site.js';
import { listen } from './server/http.js';

const USAGE = `usage:
  crawlspec validate [--jsonl] <schema> [file]   validate a JSON document (from file, or stdin): schema and rules
  crawlspec validate --list                      list the schema names (e.g. v2/CrawlRequest)
  crawlspec defaults <schema> [file]             print the body with the interface's defaults filled in
  crawlspec migrate [file]                       turn a v1 crawl or batch request into the v2 request
                                                 asking for the same thing (warnings on stderr)
  crawlspec examples                             validate every example of the OpenAPI documents
  crawlspec serve [--port N] [--host H] [--token T | --no-auth] [--allow-host NAME]...
                                                 run the reference server (127.0.0.1 unless told otherwise);
                                                 its jobs fetch pages from loopback hosts, and from each
                                                 host name or address given with --allow-host (a name only
                                                 where it resolves to loopback or an allowed address)
  crawlspec contract [--base-url URL] [--token T | --no-auth] [--version v1|v2|both] [--level interface|service]
                     [--seed N] [--runs N] [--max-requests N] [--concurrency N] [--site-url URL]
                     [--max-response-bytes N] [--only-no-job] [--report junit.xml] [--json] [--list-checks]
                                                 test an implementation against the interface (token also from
                                                 CRAWLSPEC_TOKEN); without --base-url, the built-in reference
                                                 server is the target

  --jsonl   one JSON document per line; prints one JSON result per line

exit status: 0 valid (contract: conformant), 1 invalid (contract: deviations found),
             2 usage error, unreadable input (contract: target unreachable),
             3 (contract only) incomplete: a check that decides the verdict was skipped or inconclusive`;

class UsageError extends Error {}
/** Input that could not be read: exit status 2. */
class InputError extends Error {}

async function readInput(file: string | undefined): Promise<string> {
  try {
    if (file !== undefined && file !== '-') return await readFile(file, 'utf8');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    throw new InputError(`cannot read ${file ?? 'stdin'}: ${(error as Error).message}`);
  }
}

/** Levels of nesting the printed JSON indents; indenting a body 10^4 levels deep would take 10^8 spaces. */
const INDENTED_LEVELS = 100;

/**
 * `JSON.stringify(value, null, 2)` for JSON data (what `JSON.parse` gives, and what `withDefaults` and
 * `migrateToV2` make of it), except that what is nested deeper than INDENTED_LEVELS is written on one line,
 * as `JSON.stringify(value)` writes it. Without recursion: JSON.stringify exhausts the stack at a few
 * thousand levels, and bodies nested far deeper parse, validate, fill and migrate.
 */
function jsonText(value: unknown): string {
  const parts: string[] = [];
  // `indent` undefined: the value is written on one line.
  const work: ({ readonly text: string } | { readonly value: unknown; readonly indent: string | undefined })[] = [{ value, indent: '' }];
  const newline = (indent: string | undefined) => (indent === undefined ? '' : `\n${indent}`);
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if ('text' in next) {
      parts.push(next.text);
      continue;
    }
    const { value: here, indent } = next;
    if (typeof here !== 'object' || here === null) {
      parts.push(JSON.stringify(here) ?? 'null');
      continue;
    }
    const array = Array.isArray(here);
    const entries: [string, unknown][] = array ? here.map((item: unknown) => ['', item]) : Object.entries(here);
    if (entries.length === 0) {
      parts.push(array ? '[]' : '{}');
      continue;
    }
    const inner = indent === undefined ? undefined : `${indent}  `;
    const nested = inner !== undefined && inner.length < 2 * INDENTED_LEVELS ? inner : undefined;
    const colon = inner === undefined ? ':' : ': ';
    // Pushed in reverse: the work list is a stack.
    work.push({ text: `${newline(indent)}${array ? ']' : '}'}` });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const before = `${i === 0 ? '' : ','}${newline(inner)}`;
      work.push({ value: item, indent: nested });
      work.push({ text: array ? before : `${before}${JSON.stringify(key)}${colon}` });
    }
    parts.push(array ? '[' : '{');
  }
  return parts.join('');
}

function check(schema: SchemaName, text: string): ValidationResult {
  const parsed = parseJson(text);
  return parsed.ok ? validate(schema, parsed.value) : { valid: false, errors: [parsed.issue] };
}

/** `<schema> [file]` positionals, checked. */
function schemaAndFile(command: string, positionals: string[]): { schema: SchemaName; file: string | undefined } {
  const [schema, file, ...extra] = positionals;
  if (schema === undefined) throw new UsageError(`${command} needs a schema name, e.g. v2/CrawlRequest`);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra.join(' ')}`);
  if (!isSchemaName(schema)) throw new UsageError(`unknown schema "${schema}"; \`crawlspec validate --list\` lists them`);
  return { schema, file };
}

function printProblems(schema: string, errors: readonly ValidationIssue[], print: (line: string) => void): void {
  print(`invalid ${schema}: ${errors.length} problem${errors.length === 1 ? '' : 's'}`);
  for (const issue of errors) print(`  ${formatIssue(issue)}`);
}

async function validateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      jsonl: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.list) {
    console.log(schemaNames().join('\n'));
    return 0;
  }
  const { schema, file } = schemaAndFile('validate', positionals);
  const text = await readInput(file);
  if (values.jsonl) {
    let allValid = true;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const result = check(schema, line);
      allValid &&= result.valid;
      console.log(JSON.stringify(result));
    }
    return allValid ? 0 : 1;
  }
  const result = check(schema, text);
  if (result.valid) {
    console.log(`valid ${schema}`);
    return 0;
  }
  printProblems(schema, result.errors, console.log);
  return 1;
}

async function defaultsCommand(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  const { schema, file } = schemaAndFile('defaults', positionals);
  const parsed = parseJson(await readInput(file));
  const result = parsed.ok ? validate(schema, parsed.value) : { valid: false as const, errors: [parsed.issue] };
  if (!parsed.ok || !result.valid) {
    // Defaults complete a valid body; those of an invalid one would hide its problems.
    printProblems(schema, result.valid ? [] : result.errors, console.error);
    return 1;
  }
  console.log(jsonText(withDefaults(schema, parsed.value)));
  return 0;
}

async function migrateCommand(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  const [file, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra.join(' ')}`);
  const parsed = parseJson(await readInput(file));
  if (!parsed.ok) {
    console.error(formatIssue(parsed.issue));
    return 1;
  }
  const migrated = migrateToV2(parsed.value);
  for (const warning of migrated.warnings) console.error(`warning: ${warning}`);
  if (migrated.kind === 'unknown') return 1;
  console.log(jsonText(migrated.request));
  const schema = migrated.kind === 'crawl' ? 'v2/CrawlRequest' : 'v2/BatchScrapeRequest';
  const result = validate(schema, migrated.request);
  if (result.valid) return 0;
  printProblems(schema, result.errors, console.error);
  return 1;
}

async function examplesCommand(args: string[]): Promise<number> {
  if (args.length > 0) throw new UsageError(`examples takes no arguments, got ${args.join(' ')}`);
  let failed = 0;
  let total = 0;
  for (const version of ['v1', 'v2'] as const) {
    for (const example of await specExamples(version)) {
      total += 1;
      const result = validate(example.schema, example.value);
      if (result.valid) {
        console.log(`ok    ${example.label} (${example.schema})`);
      } else {
        failed += 1;
        console.log(`FAIL  ${example.label} (${example.schema})`);
        for (const issue of result.errors) console.log(`        ${formatIssue(issue)}`);
      }
    }
  }
  console.log(`${total - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** `--token T` or `--no-auth` (not both); neither gives a fresh random token. */
function authOption(values: { token?: string | undefined; 'no-auth'?: boolean | undefined }): { token: string } | 'none' {
  if (values['no-auth'] && values.token !== undefined) throw new UsageError('--token and --no-auth exclude each other');
  if (values['no-auth']) return 'none';
  return { token: values.token ?? `fc-${randomBytes(16).toString('hex')}` };
}

const integer = (value: string | undefined, name: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} takes a whole number, not "${value}"`);
  return Number(value);
};

async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'no-auth': { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true, default: [] },
    },
    allowPositionals: false,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
  const auth = authOption(values);
  const allowed = new Set(values['allow-host'].map((host) => host.toLowerCase().replace(/^\[|\]$/g, '')));
  for (const host of allowed)
    if (host === '' || /[\s/?#@]/.test(host)) throw new UsageError(`--allow-host takes a host name or address, not "${host}"`);
  let publicUrl = '';
  const app = createReferenceApp({ auth, publicUrl: () => publicUrl, allowFetchHost: (host) => allowed.has(host.toLowerCase()) });
  const server = await listen(app, { host: values.host, port: integer(values.port, '--port', 0) });
  publicUrl = server.url;
  console.log(`reference server listening on ${server.url} (${auth === 'none' ? 'no auth' : `token ${auth.token}`}); Ctrl-C stops it`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  app.close();
  return 0;
}

async function contractCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string' },
      'no-auth': { type: 'boolean' },
      version: { type: 'string', default: 'both' },
      level: { type: 'string', default: DEFAULT_OPTIONS.level },
      seed: { type: 'string' },
      runs: { type: 'string' },
      'max-requests': { type: 'string' },
      concurrency: { type: 'string' },
      'site-url': { type: 'string' },
      'max-response-bytes': { type: 'string' },
      'only-no-job': { type: 'boolean', default: false },
      'list-checks': { type: 'boolean', default: false },
      report: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
  const versions = ({ v1: ['v1'], v2: ['v2'], both: ['v1', 'v2'] } as const)[values.version as 'v1' | 'v2' | 'both'];
  if (!versions) throw new UsageError(`--version takes v1, v2 or both, not "${values.version}"`);
  if (values['list-checks']) {
    process.stdout.write(checkTable(versions));
    return 0;
  }
  if (values.level !== 'interface' && values.level !== 'service')
    throw new UsageError(`--level takes interface or service, not "${values.level}"`);
  const level = values.level;
  // A token may come from the environment, so it stays out of shell history and CI logs.
  const token = values.token ?? process.env.CRAWLSPEC_TOKEN;
  if (values['base-url'] !== undefined && token === undefined && !values['no-auth']) {
    throw new UsageError('a target needs --token T (or CRAWLSPEC_TOKEN), or --no-auth for one without authentication');
  }
  const auth = authOption({ token, 'no-auth': values['no-auth'] });
  // Without a target, the built-in reference server is started on 127.0.0.1 for the run.
  let embedded: { close(): Promise<void> } | undefined;
  let baseUrl = values['base-url'];
  if (baseUrl === undefined) {
    let publicUrl = '';
    const app = createReferenceApp({ auth, publicUrl: () => publicUrl });
    const server = await listen(app);
    publicUrl = server.url;
    baseUrl = server.url;
    embedded = { close: async () => (await server.close(), app.close()) };
  }
  try {
    const maxRequests = values['max-requests'] === undefined ? undefined : integer(values['max-requests'], '--max-requests', 0);
    // Against the built-in server the kit's jobs crawl its own site, which has pages and a page that fails.
    const site = embedded && values['site-url'] === undefined ? { siteUrl: `${baseUrl}/site`, site: REFERENCE_SITE_PROFILE } : undefined;
    let report;
    try {
      report = await runContract({
        baseUrl,
        token: auth === 'none' ? undefined : auth.token,
        versions: [...versions],
        level,
        seed: integer(values.seed, '--seed', Date.now() % 2 ** 31),
        runs: integer(values.runs, '--runs', DEFAULT_OPTIONS.runs),
        ...(maxRequests === undefined ? {} : { maxRequests }),
        concurrency: integer(values.concurrency, '--concurrency', DEFAULT_OPTIONS.concurrency),
        siteUrl: site?.siteUrl ?? values['site-url'] ?? DEFAULT_OPTIONS.siteUrl,
        ...(site ? { site: site.site } : {}),
        maxResponseBytes: integer(values['max-response-bytes'], '--max-response-bytes', DEFAULT_OPTIONS.maxResponseBytes),
        onlyNoJob: values['only-no-job'],
      });
    } catch (error) {
      // The options are checked before anything is sent: a bad one is a usage error.
      if (error instanceof RangeError) throw new UsageError(error.message.replace(/^(\w+)/, (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`));
      throw error;
    }
    if (values.report !== undefined) await writeFile(values.report, formatJunit(report));
    console.log(values.json ? JSON.stringify(report, null, 2) : formatText(report));
    return exitCode(report);
  } finally {
    await embedded?.close();
  }
}

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  validate: validateCommand,
  defaults: defaultsCommand,
  migrate: migrateCommand,
  serve: serveCommand,
  contract: contractCommand,
  examples: examplesCommand,
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
