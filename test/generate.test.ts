/**
 * Generation is deterministic, what is committed in generated/ is what the definitions produce, and the
 * `--check` mode names every file that differs, is missing or is stale.
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

  it('produces byte-identical output twice, equal to the committed generated/', async () => {
    const [first, second] = [await artefacts(), await artefacts()];
    expect([...second]).toEqual([...first]);
    for (const [path, content] of first) expect(await readFile(join(ROOT, 'generated', path), 'utf8'), path).toBe(content);
  });

  it('--check names a changed, a missing and a stale file, and exits 1', async () => {
    const out = join(await scratch, 'generated');
    await cp(join(ROOT, 'generated'), out, { recursive: true });
    await writeFile(join(out, 'openapi/v2.json'), '{}\n');
    await rm(join(out, 'schemas/v1/Location.json'));
    await writeFile(join(out, 'schemas/v1/Removed.json'), '{}\n');
    const result = await run(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check', '--out', out], {
      cwd: ROOT,
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/differs from its definitions: .*openapi\/v2\.json/);
    expect(result.stderr).toMatch(/missing: .*schemas\/v1\/Location\.json/);
    expect(result.stderr).toMatch(/stale \(no longer generated\): .*schemas\/v1\/Removed\.json/);
  });
});
