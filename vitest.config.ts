import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The sources compiled once, for the tests that run the command as a child process (test/globalSetup.ts).
    globalSetup: ['test/globalSetup.ts'],
    // Type-level tests (`*.test-d.ts`) run under the TypeScript compiler with the rest of the suite.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 120_000,
    // A file per core, at least three. vitest's default (one less than the cores) runs one file at a time on the
    // 2-core machines this runs on, and most files wait on child processes, sockets and jobs as much as they
    // compute: on 2 cores, three files at once took 8 min 25 s where two took 9 min 33 s (docs/development.md).
    // The files of a worker share its modules (vitest otherwise loads every module again for each file): the
    // suite's imports took 110 s of its time, 46 s so. No test changes a module's state for the files after it.
    isolate: false,
    maxWorkers: Math.max(3, availableParallelism()),
  },
});
