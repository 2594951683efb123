/**
 * The commands on documents: `validate` (schema and rules), `defaults` (the body with the interface's defaults
 * filled in), `migrate` (a v1 request as the v2 request asking for the same), `examples` (every example the
 * OpenAPI documents publish).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { withDefaults } from '../../schemas/defaults.js';
import { migrateToV2 } from '../../schemas/migrate.js';
import { parseJson } from '../../schemas/parseJson.js';
import {
  formatIssue,
  isSchemaName,
  schemaNames,
  validate,
  type SchemaName,
  type ValidationIssue,
  type ValidationResult,
} from '../../schemas/validate.js';
import { specExamples } from '../examples.js';
import { InputError, UsageError } from './errors.js';
import { USAGE } from './usage.js';

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

export async function validateCommand(args: string[]): Promise<number> {
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

export async function defaultsCommand(args: string[]): Promise<number> {
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

export async function migrateCommand(args: string[]): Promise<number> {
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

export async function examplesCommand(args: string[]): Promise<number> {
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
