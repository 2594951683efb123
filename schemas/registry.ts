/**
 * The named definitions of each version, collected from the version's roots. A name is unique within a
 * version (`v2/ScrapeOptions`); the same shared definition (e.g. `Location`) appears in both versions.
 */
import { TypeGuard, type TSchema } from '@sinclair/typebox';
import { definitionMark } from './annotations.js';
import * as v1 from './v1/index.js';
import * as v2 from './v2/index.js';
import { VERSIONS, type Version } from './versions.js';

export { VERSIONS, type Version };

/** A version is built from the definitions its module exports; every named definition they use is part of it. */
const exported = (module: Record<string, unknown>): TSchema[] => Object.values(module).filter((v): v is TSchema => TypeGuard.IsSchema(v));

/** Every named definition reachable from `roots`, by name, in a stable (sorted) order. */
function collect(version: Version, roots: readonly TSchema[]): ReadonlyMap<string, TSchema> {
  const found = new Map<string, TSchema>();
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const mark = definitionMark(node);
    if (mark) {
      const known = found.get(mark.name);
      if (known !== undefined && known !== mark.definition) {
        throw new Error(`${version}: two different definitions are named ${mark.name}`);
      }
      found.set(mark.name, mark.definition);
      visit(mark.definition);
    }
    for (const value of Object.values(node)) visit(value);
  };
  roots.forEach(visit);
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const definitions: Record<Version, ReadonlyMap<string, TSchema>> = {
  v1: collect('v1', exported(v1)),
  v2: collect('v2', exported(v2)),
};

/** `v2/CrawlRequest` → the definition, or undefined. */
export function lookup(qualifiedName: string): TSchema | undefined {
  const [version, name, ...rest] = qualifiedName.split('/');
  if (rest.length > 0 || name === undefined || !(VERSIONS as readonly string[]).includes(version ?? '')) return undefined;
  return definitions[version as Version].get(name);
}
