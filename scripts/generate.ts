/**
 * Generates every artefact in `generated/` from the TypeBox definitions in `schemas/`.
 *
 *   npm run generate              write generated/ (and remove files no longer produced)
 *   npm run generate -- --check   regenerate in memory; exit 1 naming every file that differs, is
 *                                 missing, or is stale (CI)
 *   --out <dir>                   use <dir> instead of generated/
 *
 * Output is deterministic: the same definitions give byte-identical files.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { artefacts } from './emit/artefacts.js';

const GENERATED = join(dirname(fileURLToPath(import.meta.url)), '..', 'generated');

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat();
}

async function main(argv: string[]): Promise<number> {
  let check: boolean;
  let out: string;
  try {
    const { values } = parseArgs({ args: argv, options: { check: { type: 'boolean', default: false }, out: { type: 'string' } } });
    check = values.check;
    out = values.out === undefined ? GENERATED : resolve(values.out);
  } catch (error) {
    console.error(`generate: ${(error as Error).message}\nusage: generate [--check] [--out <dir>]`);
    return 2;
  }
  const files = await artefacts();
  const shown = relative(process.cwd(), out) || '.';
  const existing = (await listFiles(out)).map((f) => relative(out, f));
  const stale = existing.filter((f) => !files.has(f));
  if (check) {
    const problems: string[] = stale.map((f) => `stale (no longer generated): ${join(shown, f)}`);
    for (const [path, content] of files) {
      const current = await readFile(join(out, path), 'utf8').catch(() => undefined);
      if (current === undefined) problems.push(`missing: ${join(shown, path)}`);
      else if (current !== content) problems.push(`differs from its definitions: ${join(shown, path)}`);
    }
    if (problems.length > 0) {
      console.error(`${shown} is out of date; run \`npm run generate\` and commit the result:\n  ${problems.join('\n  ')}`);
      return 1;
    }
    console.log(`${shown} is up to date (${files.size} files)`);
    return 0;
  }
  for (const f of stale) await rm(join(out, f));
  for (const [path, content] of files) {
    await mkdir(dirname(join(out, path)), { recursive: true });
    await writeFile(join(out, path), content);
  }
  console.log(`wrote ${files.size} files to ${shown}${stale.length > 0 ? `, removed ${stale.length} stale` : ''}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
