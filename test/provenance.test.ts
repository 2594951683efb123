/**
 * Every field of every definition says what it means and where it comes from: a description, and an
 * `x-crawlspec-source` (on the field, or on the definition it refers to). Extension fields are marked.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { definitions, VERSIONS } from '../schemas/registry.js';

type Schema = Record<string, unknown>;
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every property schema of `schema` and of the schemas nested in it, with its path. */
function properties(schema: Schema, path: string): [string, Schema][] {
  const out: [string, Schema][] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value)) {
      for (const [name, property] of Object.entries(value)) {
        if (!isSchema(property)) continue;
        out.push([`${path}.${name}`, property], ...properties(property, `${path}.${name}`));
      }
    } else if (['items', 'additionalProperties'].includes(key) && isSchema(value)) {
      out.push(...properties(value, `${path}[]`));
    } else if (['anyOf', 'oneOf'].includes(key) && Array.isArray(value)) {
      value.filter(isSchema).forEach((branch, i) => out.push(...properties(branch, `${path}|${i}`)));
    }
  }
  return out;
}

for (const version of VERSIONS) {
  describe(`${version}: every field has a description and a source`, () => {
    for (const name of definitions[version].keys()) {
      const file = JSON.parse(readFileSync(new URL(`../generated/schemas/${version}/${name}.json`, import.meta.url), 'utf8')) as Schema;
      const defs = (file.$defs ?? {}) as Record<string, Schema>;
      const resolve = (s: Schema): Schema => (typeof s.$ref === 'string' ? { ...defs[s.$ref.replace('#/$defs/', '')], ...s } : s);

      it(name, () => {
        expect(file.description, `${name} itself`).toEqual(expect.any(String));
        expect(file['x-crawlspec-source'], `${name} itself`).toMatch(/^(interface §\d+(\.\d+)?|service)$/);
        const missing = properties(file, name)
          .map(([path, property]) => [path, resolve(property)] as const)
          .filter(([, p]) => typeof p.description !== 'string' || typeof p['x-crawlspec-source'] !== 'string')
          .map(([path]) => path);
        expect(missing).toEqual([]);
      });
    }
  });
}
