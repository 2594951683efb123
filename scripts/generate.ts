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
import { stringify as toYaml } from 'yaml';
import { VERSIONS } from '../schemas/registry.js';
import { jsonSchemaFiles } from './emit/jsonSchemaFiles.js';
import { openApiDocument, type DocumentScope } from './emit/openapi.js';
import { typeDeclarations } from './emit/types.js';
import { validatorModule } from './emit/validators.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'generated');

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every generated file, by path relative to `generated/`. */
export async function artefacts(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const documents: [string, DocumentScope][] = [['v1', 'v1'], ['v2', 'v2'], ['openapi', 'all']];
  for (const [file, scope] of documents) {
    const doc = openApiDocument(scope);
    files.set(`openapi/${file}.json`, json(doc));
    files.set(`openapi/${file}.yaml`, toYaml(doc, { lineWidth: 0, aliasDuplicateObjects: false }));
  }
  for (const version of VERSIONS) {
    for (const [name, schema] of jsonSchemaFiles(version)) files.set(`schemas/${version}/${name}.json`, json(schema));
    files.set(`types/${version}.d.ts`, await typeDeclarations(version));
    const validators = validatorModule(version);
    files.set(`validators/${version}.js`, validators.js);
    files.set(`validators/${version}.d.ts`, validators.dts);
  }
  return files;
}

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
