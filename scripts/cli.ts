#!/usr/bin/env node
/**
 * The `crawlspec` command.
 *
 *   crawlspec validate [--jsonl] <schema> [file]   validate JSON from a file or stdin
 *   crawlspec validate --list                      list the schema names
 *   crawlspec examples                             check every example of the OpenAPI documents
 *
 * Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable input.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatIssue, isSchemaName, schemaNames, validate, type SchemaName, type ValidationResult } from '../schemas/validate.js';
import { specExamples } from './examples.js';
import { parseJson } from './parseJson.js';

const USAGE = `usage:
  crawlspec validate [--jsonl] <schema> [file]   validate a JSON document (from file, or stdin)
  crawlspec validate --list                      list the schema names (e.g. v2/CrawlRequest)
  crawlspec examples                             validate every example of the OpenAPI documents

  --jsonl   one JSON document per line; prints one JSON result per line

exit status: 0 valid, 1 invalid, 2 usage error or unreadable input`;

class UsageError extends Error {}

async function readInput(file: string | undefined): Promise<string> {
  if (file !== undefined && file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function check(schema: SchemaName, text: string): ValidationResult {
  const parsed = parseJson(text);
  return parsed.ok ? validate(schema, parsed.value) : { valid: false, errors: [parsed.issue] };
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
  const [schema, file, ...extra] = positionals;
  if (schema === undefined) throw new UsageError('validate needs a schema name, e.g. v2/CrawlRequest');
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra.join(' ')}`);
  if (!isSchemaName(schema)) throw new UsageError(`unknown schema "${schema}"; \`crawlspec validate --list\` lists them`);
  let text: string;
  try {
    text = await readInput(file);
  } catch (error) {
    console.error(`crawlspec: cannot read ${file ?? 'stdin'}: ${(error as Error).message}`);
    return 2;
  }
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
  console.log(`invalid ${schema}: ${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}`);
  for (const issue of result.errors) console.log(`  ${formatIssue(issue)}`);
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

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validateCommand(rest);
      case 'examples':
        return await examplesCommand(rest);
      case undefined:
        throw new UsageError('no command given');
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`crawlspec: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
