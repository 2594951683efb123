/**
 * Start-up costs, each measured in fresh Node processes: the time to import a module (after Node's module
 * loader has loaded a file, which any application has done already: an empty `.mjs` file is imported first),
 * and the time `npm run generate` takes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './measure.js';

const TIME_IMPORT = [
  'await import(process.argv[1]);',
  'const started = performance.now();',
  'await import(process.argv[2]);',
  'process.stdout.write(String(performance.now() - started));',
].join('\n');

/** Median milliseconds to import the module at `path`, over `runs` fresh processes. */
export function importMs(path: string, runs: number): number {
  const scratch = mkdtempSync(join(tmpdir(), 'crawlspec-bench-'));
  const warmUp = join(scratch, 'warm-up.mjs');
  writeFileSync(warmUp, 'export {};\n');
  try {
    const args = ['--input-type=module', '-e', TIME_IMPORT, pathToFileURL(warmUp).href, pathToFileURL(path).href];
    const times = Array.from({ length: runs }, () => Number(execFileSync(process.execPath, args, { encoding: 'utf8' })));
    return median(times);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Milliseconds `npm run generate` takes (into a scratch folder, so the working tree is left alone). */
export function generateMs(root: string): number {
  const out = mkdtempSync(join(tmpdir(), 'crawlspec-bench-'));
  try {
    const started = performance.now();
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'scripts', 'generate.ts'), '--out', out],
      {
        cwd: root,
        stdio: 'ignore',
      },
    );
    return performance.now() - started;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
