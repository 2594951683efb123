/**
 * Generates every artefact in `generated/` from the TypeBox definitions in `schemas/`.
 *
 *   npm run generate              write generated/ (and remove files no longer produced)
 *   npm run generate -- --check   regenerate in memory; exit 1 naming every file that differs, is
 *                                 missing, or is stale (CI)
 *
 * Output is deterministic: the same definitions give byte-identical files.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { artefacts } from './emit/artefacts.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'generated');

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat();
}

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`generate: unknown argument ${unknown.join(' ')}; usage: generate [--check]`);
    return 2;
  }
  const check = argv.includes('--check');
  const files = await artefacts();
  const existing = (await listFiles(OUT)).map((f) => relative(OUT, f));
  const stale = existing.filter((f) => !files.has(f));
  if (check) {
    const problems: string[] = stale.map((f) => `stale (no longer generated): generated/${f}`);
    for (const [path, content] of files) {
      const current = await readFile(join(OUT, path), 'utf8').catch(() => undefined);
      if (current === undefined) problems.push(`missing: generated/${path}`);
      else if (current !== content) problems.push(`differs from its definitions: generated/${path}`);
    }
    if (problems.length > 0) {
      console.error(`generated/ is out of date; run \`npm run generate\` and commit the result:\n  ${problems.join('\n  ')}`);
      return 1;
    }
    console.log(`generated/ is up to date (${files.size} files)`);
    return 0;
  }
  for (const f of stale) await rm(join(OUT, f));
  for (const [path, content] of files) {
    await mkdir(dirname(join(OUT, path)), { recursive: true });
    await writeFile(join(OUT, path), content);
  }
  console.log(`wrote ${files.size} files to generated/${stale.length > 0 ? `, removed ${stale.length} stale` : ''}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
