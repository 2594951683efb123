/**
 * How often V8 deoptimises the validation path over the mixed stream: a child process validates the stream's
 * bodies, pass after pass, under `node --trace-deopt`, and each deoptimisation it reports is counted by the
 * function it threw out, the generated fast path's (generated/fast/) told apart. A fast path that reads each known
 * field by name deoptimises again and again as new object shapes come ("wrong map"); the count shows it.
 *
 * Run as a script, this file is the child: `node --trace-deopt --import tsx deopts.ts STREAM.json PASSES`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { validate } from '../../schemas/validate.js';
import type { BenchBody } from './corpus.js';

const HERE = fileURLToPath(import.meta.url);
const ROOT = join(dirname(HERE), '..', '..');
const FAST_PATH_FILES = ['v1.js', 'v2.js', 'keepers.js'].map((f) => join(ROOT, 'generated', 'fast', f));

export interface DeoptFigures {
  readonly passes: number;
  /** Deoptimisations in all, and of functions of the generated fast path. */
  readonly total: number;
  readonly fastPath: number;
  /** The functions deoptimised most, with how often and whether they are the fast path's. */
  readonly top: readonly { readonly name: string; readonly count: number; readonly fastPath: boolean }[];
}

/** The names of the functions the generated fast path defines. */
async function fastPathNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of FAST_PATH_FILES)
    for (const match of (await readFile(file, 'utf8')).matchAll(/\bfunction\s+([\w$]+)\s*\(/g)) names.add(match[1]!);
  return names;
}

/** Counts the deoptimisations of `passes` passes of validate over `stream`, in a child process of its own. */
export async function deoptCounts(stream: readonly BenchBody[], passes: number): Promise<DeoptFigures> {
  const folder = await mkdtemp(join(tmpdir(), 'crawlspec-deopts-'));
  try {
    const file = join(folder, 'stream.json');
    await writeFile(file, JSON.stringify(stream.map(({ schema, text }) => ({ schema, text }))));
    const { stdout } = await promisify(execFile)(process.execPath, ['--trace-deopt', '--import', 'tsx', HERE, file, String(passes)], {
      cwd: ROOT,
      maxBuffer: 256 * 1024 * 1024,
      timeout: 300_000,
    });
    const fast = await fastPathNames();
    const counts = new Map<string, number>();
    for (const line of stdout.split('\n')) {
      const match = /^\[bailout \(kind: [^)]*\): begin\. deoptimizing \S+ <JSFunction ([^ >]*) ?\(sfi/.exec(line);
      if (match === null) continue;
      const name = match[1] || '(anonymous)';
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const all = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return {
      passes,
      total: all.reduce((sum, [, n]) => sum + n, 0),
      fastPath: all.filter(([name]) => fast.has(name)).reduce((sum, [, n]) => sum + n, 0),
      top: all.slice(0, 10).map(([name, count]) => ({ name, count, fastPath: fast.has(name) })),
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The child: parses and validates the stream in STREAM.json, PASSES times. */
async function child(file: string, passes: number): Promise<void> {
  const stream = JSON.parse(await readFile(file, 'utf8')) as Pick<BenchBody, 'schema' | 'text'>[];
  let valid = 0;
  // As mixedStream.ts measures it: each body parsed, then validated at once.
  for (let pass = 0; pass < passes; pass++) for (const body of stream) if (validate(body.schema, JSON.parse(body.text)).valid) valid += 1;
  if (valid !== passes * stream.length) throw new Error(`bench deopts: ${passes * stream.length - valid} bodies of the stream refused`);
}

if (process.argv[1] === HERE) await child(process.argv[2]!, Number(process.argv[3]));
