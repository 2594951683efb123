/**
 * Generation is deterministic (two generations, in two processes, give the same bytes), what is committed in
 * generated/ is what the definitions produce, and the `--check` mode names every file that differs, is missing
 * or is stale, and no other.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { artefacts } from '../scripts/emit/artefacts.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

describe('generate', () => {
  const scratch = mkdtemp(join(tmpdir(), 'crawlspec-generate-'));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  // Twice, each time from scratch: once here, once in a process of its own (`--check`, below). The second shows
  // every file byte-identical to the first but the three it is given changed, missing and stale.
  it('produces what is committed in generated/', async () => {
    for (const [path, content] of await artefacts()) expect(await readFile(join(ROOT, 'generated', path), 'utf8'), path).toBe(content);
  });

  it('--check, in a process of its own, names exactly a changed, a missing and a stale file, and exits 1', async () => {
    const out = join(await scratch, 'generated');
    await cp(join(ROOT, 'generated'), out, { recursive: true });
    await writeFile(join(out, 'openapi/v2.json'), '{}\n');
    await rm(join(out, 'schemas/v1/Location.json'));
    await writeFile(join(out, 'schemas/v1/Removed.json'), '{}\n');
    // Through tsx, as `npm run generate` runs it: the validators' bundle names its sources by their path from the
    // script, so the test run's build of it (elsewhere) would not give the same bytes.
    const result = await run(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check', '--out', out], {
      cwd: ROOT,
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    const problems = result.stderr.split('\n').filter((line) => line.startsWith('  '));
    expect(problems.sort()).toEqual(
      [
        /^  differs from its definitions: .*openapi\/v2\.json$/,
        /^  missing: .*schemas\/v1\/Location\.json$/,
        /^  stale \(no longer generated\): .*schemas\/v1\/Removed\.json$/,
      ].map((pattern) => expect.stringMatching(pattern)),
    );
  });
});
