/**
 * The commands on documents: `validate` (schema and rules), `defaults` (the body with the interface's defaults
 * filled in), `migrate` (a v1 request as the v2 request asking for the same), `examples` (every example the
 * OpenAPI documents publish).
 */
import { createReadStream } from 'node:fs';
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
import { parseCommand } from './args.js';
import { UsageError } from './errors.js';
import { readText } from './input.js';
import { closest } from './suggest.js';
import { printable, printableJson, quote } from './terminal.js';

/** A line for a person (control characters escaped), on stdout or stderr. */
const say = (line: string) => console.log(printable(line));
const warn = (line: string) => console.error(printable(line));
/** JSON text, on stdout: the characters a terminal acts on escaped, the document unchanged. */
const sayJson = (json: string) => console.log(printableJson(json));

async function readInput(file: string | undefined): Promise<string> {
  const stdin = file === undefined || file === '-';
  return readText(stdin ? process.stdin : createReadStream(file), stdin ? 'stdin' : quote(file));
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

/**
 * The schema names a user who wrote `name` most likely meant: the same name in another letter case
 * (`v2/crawlrequest`), the name in each version when the version is left out (`CrawlRequest`), else the
 * names at the smallest edit distance, up to 3 (`v2/CrawlRequst`), ignoring case.
 */
export function schemaSuggestions(name: string): SchemaName[] {
  const wanted = name.toLowerCase();
  const names = schemaNames();
  const sameCase = names.filter((n) => n.toLowerCase() === wanted);
  if (sameCase.length > 0) return sameCase;
  const anyVersion = names.filter((n) => n.slice(n.indexOf('/') + 1).toLowerCase() === wanted);
  if (anyVersion.length > 0) return anyVersion;
  const byLowerCase = new Map(names.map((n) => [n.toLowerCase(), n]));
  return closest(wanted, [...byLowerCase.keys()]).map((n) => byLowerCase.get(n)!);
}

/** `<schema> [file]` positionals, checked. */
function schemaAndFile(command: string, positionals: string[]): { schema: SchemaName; file: string | undefined } {
  const [schema, file, ...extra] = positionals;
  if (schema === undefined) throw new UsageError(`${command} needs a schema name, e.g. v2/CrawlRequest`);
  if (extra.length > 0)
    throw new UsageError(
      `unexpected ${extra.length === 1 ? 'argument' : 'arguments'} ${extra.map(quote).join(' ')}; ${command} takes a schema name and at most one file`,
    );
  if (!isSchemaName(schema)) {
    const suggestions = schemaSuggestions(schema);
    const meant = suggestions.length === 0 ? '' : `; did you mean ${suggestions.join(' or ')}?`;
    throw new UsageError(`unknown schema ${quote(schema)}${meant}`, command, 'crawlspec validate --list lists every name');
  }
  return { schema, file };
}

function printProblems(schema: string, errors: readonly ValidationIssue[], print: (line: string) => void): void {
  print(`invalid ${schema}: ${errors.length} problem${errors.length === 1 ? '' : 's'}`);
  for (const issue of errors) print(`  ${formatIssue(issue)}`);
}

export async function validateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'validate',
    args,
    { jsonl: { type: 'boolean', default: false }, list: { type: 'boolean', default: false } },
    true,
  );
  if (values.list) {
    if (positionals.length > 0 || values.jsonl) throw new UsageError('--list takes nothing else: it lists every schema name');
    console.log(schemaNames().join('\n'));
    return 0;
  }
  const { schema, file } = schemaAndFile('validate', positionals);
  const text = await readInput(file);
  if (values.jsonl) {
    let allValid = true;
    // Each result names its line (from 1): blank lines are skipped, so the results alone would not say which.
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const result = check(schema, line);
      allValid &&= result.valid;
      sayJson(JSON.stringify({ line: index + 1, ...result }));
    }
    return allValid ? 0 : 1;
  }
  const result = check(schema, text);
  if (result.valid) {
    say(`valid ${schema}`);
    return 0;
  }
  printProblems(schema, result.errors, say);
  return 1;
}

export async function defaultsCommand(args: string[]): Promise<number> {
  const { positionals } = parseCommand('defaults', args, {}, true);
  const { schema, file } = schemaAndFile('defaults', positionals);
  const parsed = parseJson(await readInput(file));
  const result = parsed.ok ? validate(schema, parsed.value) : { valid: false as const, errors: [parsed.issue] };
  if (!parsed.ok || !result.valid) {
    // Defaults complete a valid body; those of an invalid one would hide its problems.
    printProblems(schema, result.valid ? [] : result.errors, warn);
    return 1;
  }
  // Loaded here: defaults and migration read the definitions (TypeBox, some 250 modules, 0.15 s to load), which
  // validate does not need.
  const { withDefaults } = await import('../../schemas/defaults.js');
  sayJson(jsonText(withDefaults(schema, parsed.value)));
  return 0;
}

export async function migrateCommand(args: string[]): Promise<number> {
  const { positionals } = parseCommand('migrate', args, {}, true);
  const [file, ...extra] = positionals;
  if (extra.length > 0)
    throw new UsageError(
      `unexpected ${extra.length === 1 ? 'argument' : 'arguments'} ${extra.map(quote).join(' ')}; migrate takes at most one file`,
    );
  const parsed = parseJson(await readInput(file));
  // What could not be migrated at all is said as validate says a problem: what, then where and why.
  const notMigrated = (why: string) =>
    warn(`not migrated (${file === undefined ? 'the standard input' : quote(file)}): 1 problem\n  ${why}`);
  if (!parsed.ok) {
    notMigrated(formatIssue(parsed.issue));
    return 1;
  }
  const { migrateToV2 } = await import('../../schemas/migrate.js');
  const migrated = migrateToV2(parsed.value);
  if (migrated.kind === 'unknown') {
    notMigrated(migrated.warnings.join('; '));
    return 1;
  }
  for (const warning of migrated.warnings) warn(`warning: ${warning}`);
  sayJson(jsonText(migrated.request));
  const schema = migrated.kind === 'crawl' ? 'v2/CrawlRequest' : 'v2/BatchScrapeRequest';
  const result = validate(schema, migrated.request);
  if (result.valid) return 0;
  printProblems(schema, result.errors, warn);
  return 1;
}

export async function examplesCommand(args: string[]): Promise<number> {
  parseCommand('examples', args, {}, false);
  let failed = 0;
  let total = 0;
  for (const version of ['v1', 'v2'] as const) {
    for (const example of await specExamples(version)) {
      total += 1;
      const result = validate(example.schema, example.value);
      if (result.valid) {
        say(`ok    ${example.label} (${example.schema})`);
      } else {
        failed += 1;
        say(`FAIL  ${example.label} (${example.schema})`);
        for (const issue of result.errors) say(`        ${formatIssue(issue)}`);
      }
    }
  }
  say(`${total - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
