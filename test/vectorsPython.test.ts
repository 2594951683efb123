/**
 * The conformance vectors decided by a second JSON Schema implementation, Python's `jsonschema` as Debian
 * packages it (scripts/vectors.py; .ci/run installs python3-jsonschema and runs it too):
 *   - every case of generated/vectors is decided as the vectors say, but those whose format Debian's build
 *     does not check (date-time), which are skipped and counted;
 *   - a case decided otherwise fails the run, naming it (a copy of the vectors with one answer flipped);
 *   - string lengths count UTF-16 code units: a string of emoji is judged by its UTF-16 length, and the report
 *     counts the cases a code-point count would decide otherwise.
 * Python with jsonschema is needed: in CI (`CI` set) these tests fail without it; elsewhere they are skipped
 * with a notice (Debian: apt-get install python3-jsonschema).
 */
import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'vectors.py');
/** Debian's Python (where Debian's python3-jsonschema is), or the one $CRAWLSPEC_PYTHON names. */
const PYTHON = process.env.CRAWLSPEC_PYTHON ?? '/usr/bin/python3';
const IN_CI = process.env.CI !== undefined && !['', '0', 'false'].includes(process.env.CI.toLowerCase());

function hasJsonschema(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import jsonschema'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const SKIP = !IN_CI && !hasJsonschema();
if (SKIP)
  console.warn(
    `NOTICE: the vectors' second-implementation tests (test/vectorsPython.test.ts) are SKIPPED: ${PYTHON} cannot import jsonschema. Install it (Debian: apt-get install python3-jsonschema python3-rfc3987) or set CRAWLSPEC_PYTHON; in CI (CI set) they fail instead.`,
  );

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function vectorsPy(dir?: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(PYTHON, [SCRIPT, ...(dir === undefined ? [] : [dir])], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crawlspec-vectors-py-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A folder with `vectors/` (a copy of generated/vectors, or given files) and `schemas/` beside it, as the vectors' schemaFile expects. */
async function vectorsFolder(name: string, files?: Record<string, unknown>): Promise<string> {
  const base = join(scratch, name);
  const vectors = join(base, 'vectors');
  if (files === undefined) {
    await cp(join(ROOT, 'generated', 'vectors'), vectors, { recursive: true });
    await symlink(join(ROOT, 'generated', 'schemas'), join(base, 'schemas'));
  } else {
    await mkdir(vectors, { recursive: true });
    await cp(join(ROOT, 'generated', 'vectors', 'vector.schema.json'), join(vectors, 'vector.schema.json'));
    for (const [file, value] of Object.entries(files)) {
      await mkdir(join(base, file, '..'), { recursive: true });
      await writeFile(join(base, file), JSON.stringify(value));
    }
  }
  return vectors;
}

describe.skipIf(SKIP)('the vectors, decided by Python jsonschema (scripts/vectors.py)', () => {
  it('every case of generated/vectors agrees; only the date-time cases are skipped, and said to be', async () => {
    const run = await vectorsPy();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const [, agree, decided] = /agree: (\d+) of (\d+) decided/.exec(run.stdout) ?? [];
    expect(Number(decided)).toBeGreaterThan(1000);
    expect(agree).toBe(decided);
    const [, total] = /(\d+) cases, decided by Python jsonschema/.exec(run.stdout) ?? [];
    const skipped = [...run.stdout.matchAll(/skipped: (\d+) cases whose answer depends on the format "([^"]+)"/g)];
    for (const [, , format] of skipped) expect(['date-time']).toContain(format);
    expect(Number(decided) + skipped.reduce((sum, [, count]) => sum + Number(count), 0)).toBe(Number(total));
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('vectors: every case decided agrees');
    // docs/vectors.md shows this output: the block there is what the script prints, Python's versions aside.
    const page = await readFile(join(ROOT, 'docs', 'vectors.md'), 'utf8');
    const shown = /\n```\n(vectors: \d+ files[\s\S]*?)```\n/.exec(page)?.[1];
    const versionless = (text: string) => text.replace(/jsonschema \S+ \(Python \S+\)/, 'jsonschema (Python)').trimEnd();
    expect(shown, 'docs/vectors.md has no block of the output').toBeDefined();
    expect(versionless(shown!)).toBe(versionless(run.stdout));
  });

  it('a case decided otherwise fails the run, naming it', async () => {
    const vectors = await vectorsFolder('flipped');
    const file = join(vectors, 'v2', 'CrawlRequest.json');
    const groups = JSON.parse(await readFile(file, 'utf8')) as { tests: { description: string; valid: boolean; rule?: string; format?: string }[] }[];
    const flipped = groups.flatMap((g) => g.tests).find((t) => t.rule === undefined && t.format === undefined && !t.valid)!;
    flipped.valid = true;
    await writeFile(file, JSON.stringify(groups));
    const run = await vectorsPy(vectors);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain(`DISAGREE: v2/CrawlRequest.json: ${flipped.description}: expected valid, got: `);
    expect(run.stdout).toMatch(/^vectors: 1 cases decided otherwise, 0 files not vector files$/m);
  });

  it('string lengths are counted in UTF-16 code units, and the cases that depend on it are counted', async () => {
    const emoji = '\u{1F600}'; // one code point, two UTF-16 code units
    const vectors = await vectorsFolder('lengths', {
      'schemas/v2/Prompt.json': { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string', maxLength: 3 },
      'vectors/v2/Prompt.json': [
        {
          description: 'v2/Prompt lengths',
          schema: 'v2/Prompt',
          schemaFile: '../../schemas/v2/Prompt.json',
          tests: [
            { description: 'one emoji: 2 units', data: emoji, valid: true },
            { description: 'two emoji: 4 units, 2 code points', data: emoji.repeat(2), valid: false },
            { description: 'three letters', data: 'abc', valid: true },
          ],
        },
      ],
    });
    const run = await vectorsPy(vectors);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('agree: 3 of 3 decided');
    expect(run.stdout).toContain('strings longer in UTF-16 code units than in code points: 2 cases, 1 of which counting code points would decide otherwise');
  });

  it('a file that is not a vector file fails the run', async () => {
    const vectors = await vectorsFolder('malformed', { 'vectors/v2/Bad.json': [{ description: 'no tests', schema: 'v2/Bad', schemaFile: '../../schemas/v2/Bad.json' }] });
    const run = await vectorsPy(vectors);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/NOT A VECTOR FILE: v2\/Bad\.json: 'tests' is a required property/);
  });
});
