/**
 * Every form of the spec agrees: for each named definition of each version, values generated from the
 * TypeBox definition are accepted by TypeBox's checker, the generated standalone validators (first-error and
 * all-errors), the generated JSON Schema and the generated OpenAPI document alike; arbitrary JSON is decided
 * alike by all five.
 * Runs: FC_RUNS (default 200) per definition and property.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitions, VERSIONS } from '../schemas/registry.js';
import { arbitraryFor } from '../scripts/contract/arbitrary.js';
import { checkersFor, decisions, everyForm } from './support/forms.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);

for (const version of VERSIONS) {
  describe(`${version}: all forms agree`, () => {
    for (const [name, definition] of definitions[version]) {
      const checkers = checkersFor(version, name);
      const arbitrary = arbitraryFor(definition);

      it(`${name}: generated values are valid in every form`, () => {
        fc.assert(
          fc.property(arbitrary, (value) => {
            // A server sees the body after JSON: check what survives the round trip.
            const body = JSON.parse(JSON.stringify(value)) as unknown;
            expect(decisions(checkers, body)).toEqual(everyForm(true));
          }),
          { numRuns },
        );
      });

      it(`${name}: every form decides arbitrary JSON alike`, () => {
        // Random JSON, valid values, and values of the right shape that may break a rule.
        const candidates = fc
          .oneof(fc.jsonValue({ maxDepth: 3 }), arbitrary, arbitraryFor(definition, { rules: false }))
          .map((v) => JSON.parse(JSON.stringify(v)) as unknown);
        fc.assert(
          fc.property(candidates, (value) => {
            const decided = decisions(checkers, value);
            expect(new Set(Object.values(decided)).size, JSON.stringify(decided)).toBe(1);
          }),
          { numRuns },
        );
      });
    }
  });
}
