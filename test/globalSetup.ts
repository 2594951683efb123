/**
 * Before any test file: the sources (scripts/, schemas/) compiled once to JavaScript, for the tests that run the
 * command or a script as a child process. Each such child run through tsx compiled and loaded the sources again:
 * some 1.5 s of CPU a spawn, minutes over the suite (docs/development.md). The build is what tsx makes of each file
 * (esbuild, file by file, the same tsconfig), laid out as the repository is, in a folder of its own at its top
 * (so `#generated/*` and the package.json the command reads resolve as from the sources); each run makes its own
 * and removes it at the end, so two runs in one checkout never share one. test/support/build.ts says where it is.
 *
 * The command itself (scripts/cli.ts) is also bundled, into `command/` of the same folder: its code and the
 * packages it uses in a few files (split where it loads a subcommand), `#generated/*` left to resolve through
 * package.json as the package's own modules do. Loading the file-by-file build took a kit run of the command some
 * 500 modules (250 of them TypeBox's) and 1.0-1.1 s of CPU before it sent anything, the bundle 0.8 s; the suite
 * starts the command some 230 times. What users install (dist/, by tsc) is run by test/package.test.ts.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUILD_VARIABLE, COMMAND_FOLDER } from './support/build.js';

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
  await build({
    entryPoints: [join(ROOT, 'scripts', 'cli.ts')],
    outdir: join(out, COMMAND_FOLDER),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(ROOT, 'tsconfig.json'),
    external: ['#generated/*'],
    // The CommonJS packages bundled in call `require` for Node's modules: an ES module has none of its own.
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
    logLevel: 'error',
  });
  // Read by test/support/build.ts in the test files' processes, which start after this and inherit it.
  process.env[BUILD_VARIABLE] = out;
  return () => rm(out, { recursive: true, force: true });
}
