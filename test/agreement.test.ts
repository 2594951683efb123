/**
 * Every form of the spec agrees: for each named definition of each version, values generated from the
 * TypeBox definition are accepted by TypeBox's checker, the generated standalone validators (first-error and
 * all-errors), the generated JSON Schema, the generated OpenAPI document and the generated fast path alike;
 * arbitrary JSON is decided alike by all six; so are both bodies of every rule case and the data of every
 * conformance vector, each as its schema decides it.
 * Runs: FC_RUNS (default 200) per definition and property.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitions, VERSIONS, type Version } from '../schemas/registry.js';
import { arbitraryFor } from '../scripts/contract/generation/arbitrary.js';
import { RULE_CASES } from '../scripts/contract/generation/ruleCases.js';
import type { VectorGroup } from '../scripts/emit/vectorFile.js';
import { checkersFor, decisions, everyForm } from './support/forms.js';
import { expectEqual, expectTrue } from './support/hotExpect.js';

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
            expectEqual(decisions(checkers, body), everyForm(true));
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
            expectTrue(new Set(Object.values(decided)).size === 1, () => JSON.stringify(decided));
          }),
          { numRuns },
        );
      });
    }
  });
}

describe('every rule case and every vector: all forms decide as the schema does', () => {
  it('both bodies of every rule case (a code rule is invisible to the schema: its invalid body is accepted)', () => {
    const wrong = RULE_CASES.flatMap((c) => {
      const checkers = checkersFor(c.version, c.schema);
      const sides = [
        ['valid', c.valid, true],
        ['invalid', c.invalid, c.kind === 'code'],
      ] as const;
      return sides.flatMap(([side, body, expected]) => {
        const decided = decisions(checkers, body);
        return JSON.stringify(decided) === JSON.stringify(everyForm(expected))
          ? []
          : [`${c.version}/${c.schema} ${c.title} (${side}): ${JSON.stringify(decided)}`];
      });
    });
    expect(RULE_CASES.length).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });

  const VECTORS = fileURLToPath(new URL('../generated/vectors/', import.meta.url));
  for (const version of VERSIONS) {
    it(`${version}: the data of every vector (one marked with a code rule is accepted by the schema)`, () => {
      const groups = readdirSync(join(VECTORS, version))
        .filter((f) => f.endsWith('.json'))
        .flatMap((f) => JSON.parse(readFileSync(join(VECTORS, version, f), 'utf8')) as VectorGroup[]);
      let decided = 0;
      const wrong = groups.flatMap((g) => {
        const [groupVersion, name] = g.schema.split('/') as [Version, string];
        const checkers = checkersFor(groupVersion, name);
        return g.tests.flatMap((t) => {
          decided += 1;
          const expected = t.rule === undefined ? t.valid : true;
          const got = decisions(checkers, t.data);
          return JSON.stringify(got) === JSON.stringify(everyForm(expected))
            ? []
            : [`${g.description} / ${t.description}: ${JSON.stringify(got)}`];
        });
      });
      expect(decided).toBeGreaterThan(500);
      expect(wrong).toEqual([]);
    });
  }
});

describe('the uri format: the fast path reads a plain http(s) address itself, and decides as ajv-formats does', () => {
  // Characters the fast path's pass treats specially, or that RFC 3986 does not allow, around and inside addresses.
  const special = fc.constantFrom(
    ...'/?#:@%[]!$&\'()*+,;=-._~ "<>\\^`{|}\u00e9\u0000\t'.split(''),
    'A',
    'z',
    '0',
    'xn--',
    '%41',
    '%zz',
    '%4',
    '%aF',
    '%e9%',
  );
  const piece = fc.array(fc.oneof(special, fc.string({ maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join(''));
  const addresses = fc.oneof(
    fc.webUrl({
      withQueryParameters: true,
      withFragments: true,
      authoritySettings: { withPort: true, withUserInfo: true, withIPv4: true, withIPv6: true },
    }),
    fc
      .tuple(fc.constantFrom('http://', 'HTTPS://', 'https:/', 'http:///', 'ftp://', 'https://'), piece, piece)
      .map(([a, b, c]) => `${a}${b}${c}`),
    fc.tuple(fc.webUrl(), piece).map(([url, tail]) => `${url}${tail}`),
  );

  for (const version of VERSIONS) {
    it(`${version}: a webhook's url, every form alike`, () => {
      const checkers = checkersFor(version, 'WebhookObject');
      let accepted = 0;
      fc.assert(
        fc.property(addresses, (url) => {
          const decided = decisions(checkers, { url });
          expect(new Set(Object.values(decided)).size, `${JSON.stringify(url)}: ${JSON.stringify(decided)}`).toBe(1);
          accepted += decided.fastPath ? 1 : 0;
        }),
        { numRuns: numRuns * 10 },
      );
      expect(accepted).toBeGreaterThan(numRuns);
    });
  }
});
