/**
 * The bodies the kit holds valid at interface level (`vN.<kind>.start.valid`) are made of what the interface
 * states only: every value in them stands where the definitions cite the interface, never in a form the service
 * fills in where the interface is silent (e.g. a parser object beside the interface's `pdf`), so that their refusal
 * can be called an interface deviation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Version } from '../schemas/registry.js';
import { safeRequests, requestName } from '../scripts/contract/safeRequests.js';
import { sourceAt, type JobKind } from '../scripts/contract/spec.js';

type Leaf = { readonly path: (string | number)[]; readonly value: unknown };

/** Every leaf value of `value` with its path (an empty array or object is a leaf). */
function leaves(value: unknown, path: (string | number)[] = []): Leaf[] {
  if (Array.isArray(value)) return value.length === 0 ? [{ path, value }] : value.flatMap((v, i) => leaves(v, [...path, i]));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? [{ path, value }] : entries.flatMap(([k, v]) => leaves(v, [...path, k]));
  }
  return [{ path, value }];
}

describe('interface-only bodies', () => {
  for (const version of ['v1', 'v2'] as Version[])
    for (const kind of ['crawl', 'batch'] as JobKind[])
      it(`${version} ${kind}: every value stands where the interface is cited`, () => {
        const bodies = fc.sample(safeRequests(version, kind, 'https://example.com', 'interface'), { seed: 7, numRuns: 150 });
        const serviceOnly = new Set<string>();
        for (const body of bodies)
          for (const { path, value } of leaves(body)) {
            // A header's value is the header itself (the interface's `headers` object, whose values are text).
            const header = path.length >= 2 && path[path.length - 2] === 'headers';
            const source = header
              ? sourceAt(version, requestName(kind), path.slice(0, -1))
              : sourceAt(version, requestName(kind), path, value);
            if (!source.startsWith('interface'))
              serviceOnly.add(`${path.map((s) => (typeof s === 'number' ? '[]' : s)).join('.')} (${source})`);
          }
        expect([...serviceOnly]).toEqual([]);
      });
});
