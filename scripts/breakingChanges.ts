/**
 * Breaking-change guard: compares the OpenAPI documents as last released with the current ones, and says of
 * every change whether it breaks someone, judged from the side of whoever is affected:
 *
 *   what clients send (request bodies, parameters): a new required field or parameter, a removed field, a
 *     narrowed type, enum or limit, a new rule, a newly closed object, a removed variant are breaking; a new
 *     optional field, a widened type, enum or limit are not;
 *   what consumers read (answers, and webhook events, which the service sends): a removed field, a field made
 *     optional, a widened type, enum or limit (values a consumer must now handle), a new variant, a changed
 *     type are breaking; a new field, a narrowed enum or limit are not;
 *   operations, status codes, media types: removed ones are breaking, new ones are not.
 * A changed default is listed as not breaking (clients that omit the field get the new one).
 *
 *   node --import tsx scripts/breakingChanges.ts                      since the latest tag, else the first
 *                                                                     commit that has generated/openapi
 *   node --import tsx scripts/breakingChanges.ts --base v0.1.0        since a git ref (its generated/openapi)
 *   node --import tsx scripts/breakingChanges.ts --base old/v2.json   since a document (or a folder of them)
 *   --current <file-or-folder>   the documents to judge (default generated/openapi: v1.json and v2.json; the
 *                                combined openapi.json holds the same operations again)
 *   --fail-on-breaking           exit 1 when a change is breaking
 *
 * Prints one line per change (`BREAKING  v2 POST /v2/crawl request: field scrapeOptions.timeout maximum
 * 300000 → 200000 (narrowed)`), then a summary. Exit status: 0 (a report, whatever it says), 1 breaking
 * changes with --fail-on-breaking, 2 a usage error or a document that cannot be read.
 *
 * This file is the command; beside it in breaking/: what a change is and how it is reported (change.ts), reading a
 * schema (schemaReading.ts), comparing two versions of a schema (schemaComparison.ts) and of a document
 * (documentComparison.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compareDocuments } from './breaking/documentComparison.js';
import { formatChange, summary, type Change } from './breaking/change.js';
import { isObject, type Json } from './breaking/schemaReading.js';

export type { Change, Direction } from './breaking/change.js';
export { formatChange, summary } from './breaking/change.js';
export { compareDocuments } from './breaking/documentComparison.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOCUMENTS_DIR = 'generated/openapi';
/** The documents compared by default; the combined `openapi.json` repeats their operations. */
const DOCUMENTS = ['v1', 'v2'] as const;

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

class UsageError extends Error {}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    }).trim();
  } catch {
    return undefined;
  }
}

/** The latest tag; else the first commit that has generated/openapi (the package is not released yet). */
function defaultBase(): { ref: string; label: string } {
  const tag = git(['describe', '--tags', '--abbrev=0']);
  if (tag) return { ref: tag, label: `tag ${tag}` };
  const first = git(['rev-list', '--reverse', 'HEAD', '--', DOCUMENTS_DIR])?.split('\n')[0];
  if (first) return { ref: first, label: `${first.slice(0, 7)} (no tag yet: the first commit with ${DOCUMENTS_DIR})` };
  throw new UsageError(`no tag, and no commit with ${DOCUMENTS_DIR}: name the base with --base <file-or-ref>`);
}

function parseDocument(text: string, from: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${from}: not JSON (${(error as Error).message})`);
  }
  if (!isObject(value) || (typeof value['openapi'] !== 'string' && typeof value['swagger'] !== 'string')) {
    throw new UsageError(`${from}: not an OpenAPI document`);
  }
  return value;
}

const readDocument = (file: string) => parseDocument(readFileSync(file, 'utf8'), file);
const readOptional = (file: string) => (existsSync(file) ? readDocument(file) : undefined);

/** Where documents come from: a file, a folder of `v1.json`/`v2.json`, or a git ref's generated/openapi. */
type Source = { kind: 'file'; file: string } | { kind: 'dir'; dir: string } | { kind: 'ref'; ref: string };

function source(arg: string): Source {
  if (existsSync(arg)) return statSync(arg).isDirectory() ? { kind: 'dir', dir: arg } : { kind: 'file', file: arg };
  if (git(['rev-parse', '--verify', '--quiet', `${arg}^{commit}`]) !== undefined) return { kind: 'ref', ref: arg };
  throw new UsageError(`--base ${arg}: neither a file, a folder, nor a git ref`);
}

function documentAt(from: Source, name: string): Json | undefined {
  switch (from.kind) {
    case 'file':
      return readDocument(from.file);
    case 'dir':
      return readOptional(join(from.dir, `${name}.json`));
    case 'ref': {
      const text = git(['show', `${from.ref}:${DOCUMENTS_DIR}/${name}.json`]);
      return text === undefined ? undefined : parseDocument(text, `${from.ref}:${DOCUMENTS_DIR}/${name}.json`);
    }
  }
}

const EMPTY: Json = { openapi: '3.1.0', paths: {} };

export function main(argv: string[]): number {
  const usage = 'usage: breakingChanges [--base <file-or-folder-or-ref>] [--current <file-or-folder>] [--fail-on-breaking]';
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        base: { type: 'string' },
        current: { type: 'string' },
        'fail-on-breaking': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      console.log(usage);
      return 0;
    }
    const given = values.base === undefined ? undefined : source(values.base);
    const fallback = given === undefined ? defaultBase() : undefined;
    const base: Source = given ?? { kind: 'ref', ref: fallback!.ref };
    const since = fallback?.label ?? values.base!;
    const currentArg = values.current ?? join(ROOT, DOCUMENTS_DIR);
    if (!existsSync(currentArg)) throw new UsageError(`--current ${currentArg}: no such file or folder`);
    const currentIsDir = statSync(currentArg).isDirectory();
    const names = !currentIsDir ? [basename(currentArg, '.json')] : base.kind === 'file' ? [basename(base.file, '.json')] : [...DOCUMENTS];
    const changes: Change[] = [];
    for (const name of names) {
      const current = currentIsDir ? readOptional(join(currentArg, `${name}.json`)) : readDocument(currentArg);
      if (currentIsDir && current === undefined && base.kind === 'file') {
        throw new UsageError(
          `--base ${base.file}: ${relative(process.cwd(), join(currentArg, `${name}.json`))} does not exist to compare with`,
        );
      }
      const before = documentAt(base, name);
      if (before === undefined && current === undefined) continue;
      changes.push(...compareDocuments(before ?? EMPTY, current ?? EMPTY, name));
    }
    for (const change of changes) console.log(formatChange(change));
    console.log(summary(changes, since));
    return values['fail-on-breaking'] && changes.some((c) => c.breaking) ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`breakingChanges: ${(error as Error).message}\n${usage}`);
      return 2;
    }
    throw error;
  }
}

const invoked = process.argv[1] === undefined ? undefined : resolve(process.argv[1]);
if (invoked !== undefined && existsSync(invoked) && realpathSync(invoked) === realpathSync(fileURLToPath(import.meta.url))) {
  process.exitCode = main(process.argv.slice(2));
}
