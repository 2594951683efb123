/**
 * The sources compiled once for the test run (test/globalSetup.ts): how a test runs the command, or another
 * script of the repository, as a child process without compiling the sources again in each child.
 */
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILD_VARIABLE = 'CRAWLSPEC_TEST_BUILD';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folder of the build: set by test/globalSetup.ts before any test file starts. */
export function buildRoot(): string {
  const root = process.env[BUILD_VARIABLE];
  if (root === undefined)
    throw new Error(`${BUILD_VARIABLE} is not set: run the tests through vitest (vitest.config.ts runs test/globalSetup.ts)`);
  return root;
}

/** The built module of `source` (a .ts file of scripts/ or schemas/, absolute or from the repository's top). */
export function built(source: string): string {
  const from = relative(ROOT, isAbsolute(source) ? source : join(ROOT, source));
  if (from.startsWith('..') || !from.endsWith('.ts')) throw new Error(`${source} is not a source of the repository`);
  return join(buildRoot(), from.replace(/\.ts$/, '.js'));
}

/** The folder of the build that holds the command bundled (test/globalSetup.ts). */
export const COMMAND_FOLDER = 'command';

/** The built command, scripts/cli.ts, bundled (test/globalSetup.ts). */
export const builtCli = (): string => join(buildRoot(), COMMAND_FOLDER, 'cli.js');
