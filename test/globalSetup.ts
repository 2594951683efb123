/**
 * Before any test file: the sources (scripts/, schemas/) compiled once to JavaScript, for the tests that run the
 * command or a script as a child process. Each such child run through tsx compiled and loaded the sources again:
 * some 1.5 s of CPU a spawn, minutes over the suite (docs/development.md). The build is what tsx makes of each file
 * (esbuild, file by file, the same tsconfig), laid out as the repository is, in a folder of its own at its top
 * (so `#generated/*` and the package.json the command reads resolve as from the sources); each run makes its own
 * and removes it at the end, so two runs in one checkout never share one. test/support/build.ts says where it is.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUILD_VARIABLE } from './support/build.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(ROOT, dir, file));

export default async function setup(): Promise<() => Promise<void>> {
  const out = await mkdtemp(join(ROOT, '.test-build-'));
  await build({
    entryPoints: [...sources('scripts'), ...sources('schemas')],
    outdir: out,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  // Read by test/support/build.ts in the test files' processes, which start after this and inherit it.
  process.env[BUILD_VARIABLE] = out;
  return () => rm(out, { recursive: true, force: true });
}
