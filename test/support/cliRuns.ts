/**
 * Running the `crawlspec` command for real in the test files of the command (test/cliValidate, cliUsageErrors,
 * cliHelp, cliTerminal and cliDefaultsMigrate .test.ts): `node --import tsx scripts/cli.ts ...` as a child process,
 * with stdin passed explicitly and nothing inherited from the terminal. Each spawn costs half a second to a second of
 * CPU (tsx loads the sources), so the tests run concurrently, with at most MAX_PARALLEL children of a worker alive
 * at a time. Also: reading what a run wrote (its outcome, its lines), a folder of temporary inputs, and a body as
 * one line of input.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runCli, type CliRun as Run } from './runCli.js';

/** Per spawn; a lone spawn takes 0.5 to 2 s (more with four at once on two cores), so this only trips on a hang. */
export const SPAWN_TIMEOUT_MS = 120_000;
/** Per test, a safety net: a test's time counts its wait for a slot among MAX_PARALLEL children on a loaded machine. */
export const TEST_TIMEOUT_MS = 300_000;
const MAX_PARALLEL = 4;

// ---------------------------------------------------------------------------
// Running the CLI
// ---------------------------------------------------------------------------

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `task` when fewer than MAX_PARALLEL tasks are running; a finished task hands its slot on directly. */
export async function withSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running < MAX_PARALLEL) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await task();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** `crawlspec ...args` with `stdin` as its whole standard input (empty unless given). */
export function cli(args: readonly string[], stdin = ''): Promise<Run> {
  return withSlot(() => runCli(args, stdin, SPAWN_TIMEOUT_MS));
}

/** What to compare an exit against: a mismatch then shows the streams, which say why. */
export const outcome = (run: Run) => ({ code: run.code, signal: run.signal, stdout: run.stdout, stderr: run.stderr });

export const lines = (text: string) => text.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === ''));

// ---------------------------------------------------------------------------
// Temporary input files
// ---------------------------------------------------------------------------

let dir = '';

/** The folder of a test file's inputs: made before its tests, removed after them (called once, at the file's top). */
export function useTempDir(): void {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crawlspec-cli-'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
}

export const tempDir = (): string => dir;

export const BATCH = { urls: ['https://example.com/a'] };

export const line = (value: unknown) => JSON.stringify(value);
