/**
 * Targeted mutations of valid values (wrong type, out of range, unknown key, missing required field,
 * value outside an enum, and a field of the other version) are rejected by every form of the spec, and
 * the reported errors name the mutated path. Runs: FC_RUNS (default 200) per definition.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { objectOf } from '../schemas/rule.js';
import { definitions, VERSIONS, type Version } from '../schemas/registry.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { arbitraryFor } from '../scripts/contract/generation/arbitrary.js';
import { checkersFor, decisions, everyForm } from './support/forms.js';
import { expectEqual } from './support/hotExpect.js';
import { MUTATION_KINDS, mutationsOf, type Mutation, type MutationKind, type Path } from '../scripts/contract/generation/mutations.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);
const seen = new Map<MutationKind | 'otherVersionField', number>();
const ALL_REJECT = everyForm(false);

function expectRejectedAt(
  version: Version,
  name: string,
  checkers: ReturnType<typeof checkersFor>,
  mutated: unknown,
  errorPath: Path,
  what: string,
) {
  expectEqual(decisions(checkers, mutated), ALL_REJECT, what);
  const result = validate(`${version}/${name}` as SchemaName, mutated);
  const paths = result.valid ? [] : result.errors.map((e) => JSON.stringify(e.segments));
  if (!paths.includes(JSON.stringify(errorPath)))
    expect(paths, `${what}: an error must name ${JSON.stringify(errorPath)}`).toContain(JSON.stringify(errorPath));
}

for (const version of VERSIONS) {
  describe(`${version}: mutations are rejected by every form, at the mutated path`, () => {
    for (const [name, definition] of definitions[version]) {
      const checkers = checkersFor(version, name);
      const withMutation = arbitraryFor(definition)
        .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
        .chain((value) => {
          const candidates = mutationsOf(definition, value);
          return candidates.length === 0
            ? fc.constant(undefined)
            : fc.constantFrom(...candidates).map((mutation): [unknown, Mutation] => [value, mutation]);
        });

      it(`${name}`, () => {
        fc.assert(
          fc.property(withMutation, (pair) => {
            if (pair === undefined) return; // nothing to mutate (e.g. a definition that accepts any value)
            const [value, mutation] = pair;
            seen.set(mutation.kind, (seen.get(mutation.kind) ?? 0) + 1);
            expectRejectedAt(
              version,
              name,
              checkers,
              mutation.apply(value),
              mutation.errorPath,
              `${mutation.kind}: ${mutation.description}`,
            );
          }),
          { numRuns },
        );
      });
    }
  });
}

/** Bodies of one version carrying a field only the other version has. */
describe('a field of the other version is rejected', () => {
  const other = (v: Version): Version => (v === 'v1' ? 'v2' : 'v1');
  for (const version of VERSIONS) {
    for (const name of ['CrawlRequest', 'BatchScrapeRequest', 'ScrapeOptions']) {
      const ownDefinition = definitions[version].get(name)!;
      const own = objectOf(ownDefinition)!;
      const foreign = objectOf(definitions[other(version)].get(name)!)!;
      const onlyForeign = Object.keys(foreign.properties).filter((k) => !(k in own.properties));

      it(`${version} ${name} rejects ${other(version)}-only fields: ${onlyForeign.join(', ')}`, () => {
        expect(onlyForeign.length).toBeGreaterThan(0);
        const checkers = checkersFor(version, name);
        const field = fc
          .constantFrom(...onlyForeign)
          .chain((key) => arbitraryFor(foreign.properties[key] as TSchema).map((v) => [key, v] as const));
        fc.assert(
          fc.property(arbitraryFor(ownDefinition), field, (value, [key, fieldValue]) => {
            seen.set('otherVersionField', (seen.get('otherVersionField') ?? 0) + 1);
            const mutated = JSON.parse(JSON.stringify({ ...(value as object), [key]: fieldValue })) as unknown;
            expectRejectedAt(version, name, checkers, mutated, [key], `${other(version)}-only field ${key}`);
          }),
          { numRuns },
        );
      });
    }
  }
});

// Runs last (tests of a file run in order): the suite cannot pass by generating nothing.
it('exercised every kind of mutation', () => {
  for (const kind of [...MUTATION_KINDS, 'otherVersionField' as const]) expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
});
