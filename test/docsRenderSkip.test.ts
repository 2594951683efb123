/**
 * `npm test` passes on a machine without Chromium, and CI does not let that slip: test/docs.test.ts, run by
 * vitest in a child process with CHROMIUM naming a binary that does not exist,
 *   - without CI: passes, its render tests skipped, with a notice saying so on stderr;
 *   - with CI=true (as .ci/run runs): fails, saying Chromium was not found.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

interface Run {
  readonly code: number | null;
  readonly output: string;
}

/** `vitest run test/docs.test.ts` with `env` over an environment cleared of CI and of this vitest's own variables. */
function runDocsTest(env: NodeJS.ProcessEnv): Promise<Run> {
  const outside = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'CI' && !name.startsWith('VITEST')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', 'test/docs.test.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...outside, NO_COLOR: '1', FORCE_COLOR: '0', CHROMIUM: join(ROOT, 'no-such-dir', 'chromium'), ...env },
      timeout: 120_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.concurrent('the docs render test without Chromium', () => {
  it('outside CI: skipped with a visible notice, and the run passes', async () => {
    const run = await runDocsTest({});
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(
      /NOTICE: the docs render tests of test\/docs\.test\.ts are SKIPPED: \$CHROMIUM names \S+no-such-dir\/chromium, which is not an executable file\. To run them, install Chromium \(Debian: apt-get install chromium\)/,
    );
    expect(run.output).toMatch(/Tests\s+\d+ passed \| \d+ skipped/);
  });

  it('in CI (CI=true): the run fails, saying Chromium was not found', async () => {
    const run = await runDocsTest({ CI: 'true' });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(
      /Chromium not found \(\$CHROMIUM names \S+no-such-dir\/chromium, which is not an executable file\): the docs render tests of test\/docs\.test\.ts need it/,
    );
    expect(run.output).not.toContain('NOTICE');
  });
});
