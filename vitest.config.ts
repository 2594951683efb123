import { availableParallelism } from 'node:os';
import { basename, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest, longest first (the durations of the fresh-clone run in docs/development.md). vitest
 * starts the files it remembers the durations of (node_modules/.vite/vitest) longest first; without them, in a
 * fresh clone and in CI, it starts the largest files first, which put the three files of the broken variants (a few
 * lines each, half a minute to a minute and a half each) last, alone on the machine at the end. On the 2-core
 * machine a whole run took 383 s in that order, 371 s with the first such list, and 359 s in a remembered order. A
 * name here that is no file only orders nothing.
 */
const LONGEST = [
  'brokenServers',
  'contractDeviating',
  'contractReference',
  'contractHostileTarget',
  'scrapeChecks',
  'brokenRequests',
  'cliContract',
  'package',
  'redosSources',
  'redosFormats',
  'generate',
  'serverLoad',
  'brokenBehaviour',
  'webhookChecks',
  'scrapeOptions',
  'docsCommands',
  'hostileArbitrary',
  'prismValidation',
  'exampleCode',
  'docs',
  'mutations',
].map((name) => `${name}.test.ts`);

/** Without remembered durations, LONGEST first, in that order; the others as vitest orders them. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const remembered = files.some((file) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`),
    );
    if (remembered) return sorted;
    const rank = (file: TestSpecification) => {
      const at = LONGEST.indexOf(basename(file.moduleId));
      return at < 0 ? LONGEST.length : at;
    };
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The sources compiled once, for the tests that run the command as a child process (test/globalSetup.ts).
    globalSetup: ['test/globalSetup.ts'],
    // Type-level tests (`*.test-d.ts`) run under the TypeScript compiler with the rest of the suite. The compiler
    // is given them and what they import only (test/tsconfig.typeTests.json): the whole project took it 27 s of CPU
    // in a fresh clone, these 7 s, and `npm run typecheck` checks the whole project (a step of .ci/run of its own).
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './test/tsconfig.typeTests.json' },
    testTimeout: 120_000,
    // A file per core, at least three. vitest's default (one less than the cores) runs one file at a time on the
    // 2-core machines this runs on, and most files wait on child processes, sockets and jobs as much as they
    // compute: on 2 cores, three files at once took 8 min 25 s where two took 9 min 33 s (docs/development.md).
    // The files of a worker share its modules (vitest otherwise loads every module again for each file): the
    // suite's imports took 110 s of its time, 46 s so. No test changes a module's state for the files after it.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    maxWorkers: Math.max(3, availableParallelism()),
  },
});
