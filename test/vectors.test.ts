/**
 * The conformance vectors in `generated/vectors/` (see `scripts/emit/vectors.ts`), read as another language's
 * runner would read them: each file matches the meta-schema, descriptions are unique, every named schema
 * exists, our `validate` gives every expected answer, a plain JSON Schema validator on the referenced
 * `generated/schemas/` file gives the same answer wherever no code rule is involved (and accepts the data
 * where one is: the `rule` marking is accurate), and every field, default, limit and enum of the request
 * definitions is covered.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CODE_RULES } from '../schemas/codeRules/index.js';
import { VERSIONS } from '../schemas/registry.js';
import { isSchemaName, validate, type SchemaName } from '../schemas/validate.js';
import { createAjv } from '../scripts/emit/ajv.js';
import { REQUEST_DEFINITIONS, VECTOR_DEFINITIONS, type VectorGroup } from '../scripts/emit/vectorFile.js';
import { VECTOR_SCHEMA_ID } from '../scripts/emit/vectorMetaSchema.js';

type Schema = Record<string, unknown>;

const GENERATED = fileURLToPath(new URL('../generated/', import.meta.url));
const VECTORS = join(GENERATED, 'vectors');
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every vector file on disk, by path relative to generated/vectors/ (`v2/CrawlRequest.json`). */
const vectorPaths = VERSIONS.flatMap((version) =>
  readdirSync(join(VECTORS, version))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => `${version}/${f}`),
);
const files = new Map(vectorPaths.map((path) => [path, readJson(join(VECTORS, path)) as VectorGroup[]]));
const allGroups = [...files.values()].flat();
const allTests = allGroups.flatMap((g) => g.tests.map((test) => ({ group: g, test })));

interface RulesFile {
  description: string;
  rules: { id: string; appliesTo: { schema: string; at: string; fields: string[]; description: string }[] }[];
}
const rulesFile = readJson(join(VECTORS, 'rules.json')) as RulesFile;

/** A plain JSON Schema validator, as a runner in another language has: Ajv on the generated schema file alone. */
const plainAjv = createAjv();
const plainValidators = new Map<string, (data: unknown) => boolean>();
function plainValidator(vectorPath: string, schemaFile: string): (data: unknown) => boolean {
  const path = resolve(dirname(join(VECTORS, vectorPath)), schemaFile);
  let check = plainValidators.get(path);
  if (check === undefined) {
    const compiled = plainAjv.compile(readJson(path) as Schema);
    check = (data) => compiled(data);
    plainValidators.set(path, check);
  }
  return check;
}

describe('conformance vectors', () => {
  it('there is one vector file per listed definition and version, and they are reasonably small', () => {
    expect(vectorPaths).toEqual(VERSIONS.flatMap((v) => [...VECTOR_DEFINITIONS].sort().map((n) => `${v}/${n}.json`)));
    const bytes = readdirSync(VECTORS, { recursive: true, encoding: 'utf8' })
      .map((f) => join(VECTORS, f))
      .filter((f) => statSync(f).isFile())
      .reduce((sum, f) => sum + statSync(f).size, 0);
    expect(bytes).toBeLessThan(2 * 1024 * 1024);
    expect(allTests.length).toBeGreaterThan(1000);
  });

  it('every vector file matches vector.schema.json (draft 2020-12), and rules.json its part of it', () => {
    const meta = readJson(join(VECTORS, 'vector.schema.json')) as Schema;
    expect(meta.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(meta.$id).toBe(VECTOR_SCHEMA_ID);
    const ajv = createAjv();
    const checkFile = ajv.compile(meta);
    for (const [path, groups] of files) {
      expect(checkFile(groups), `${path}: ${ajv.errorsText(checkFile.errors)}`).toBe(true);
    }
    const checkRules = ajv.getSchema(`${VECTOR_SCHEMA_ID}#/$defs/rulesFile`)!;
    expect(checkRules(rulesFile), ajv.errorsText(checkRules.errors)).toBe(true);
  });

  it('descriptions are unique across all files (groups and tests)', () => {
    const descriptions = [...allGroups.map((g) => g.description), ...allTests.map(({ test }) => test.description)];
    const repeated = descriptions.filter((d, i) => descriptions.indexOf(d) !== i);
    expect(repeated).toEqual([]);
  });

  it('every group names an existing schema, its own file, and the JSON Schema file of that schema', () => {
    for (const [path, groups] of files) {
      const expected = path.replace(/\.json$/, '');
      for (const group of groups) {
        expect(isSchemaName(group.schema), group.description).toBe(true);
        expect(group.schema, group.description).toBe(expected);
        const schemaPath = resolve(dirname(join(VECTORS, path)), group.schemaFile);
        expect(relative(GENERATED, schemaPath), group.description).toBe(join('schemas', `${group.schema}.json`));
        expect(existsSync(schemaPath), group.schemaFile).toBe(true);
      }
    }
  });

  for (const [path, groups] of files) {
    describe(path, () => {
      it('validate() gives the expected answer for every test', () => {
        const wrong = groups.flatMap((g) =>
          g.tests
            .filter((t) => validate(g.schema as SchemaName, t.data).valid !== t.valid)
            .map((t) => `${t.description}: expected ${t.valid ? 'valid' : 'invalid'}`),
        );
        expect(wrong).toEqual([]);
      });

      it('a plain JSON Schema validator on the schema file agrees where no code rule is involved, and accepts the data where one is', () => {
        const wrong = groups.flatMap((g) => {
          const check = plainValidator(path, g.schemaFile);
          return g.tests.flatMap((t) => {
            const accepted = check(t.data);
            if (t.rule === undefined) return accepted === t.valid ? [] : [`${t.description}: JSON Schema says ${String(accepted)}`];
            return accepted ? [] : [`${t.description}: marked with code rule ${t.rule}, but the JSON Schema refuses it`];
          });
        });
        expect(wrong).toEqual([]);
      });
    });
  }

  describe('rules.json', () => {
    const placed = Object.entries(CODE_RULES).flatMap(([schema, rules]) => (rules ?? []).map(({ at, rule }) => ({ schema, at, rule })));

    it('lists every code rule, each where CODE_RULES places it', () => {
      const listed = rulesFile.rules.flatMap((r) =>
        r.appliesTo.map((use) => `${r.id} ${use.schema} ${use.at} ${use.fields.join(',')} ${use.description}`),
      );
      const expected = placed.map(
        ({ schema, at, rule }) =>
          `${rule.id} ${schema} ${at.map((s) => `/${String(s)}`).join('')} ${rule.fields.join(',')} ${rule.description}`,
      );
      expect([...listed].sort()).toEqual([...expected].sort());
      for (const r of rulesFile.rules) for (const use of r.appliesTo) expect(isSchemaName(use.schema), use.schema).toBe(true);
    });

    it('each code rule has at least one invalid test marked with it', () => {
      for (const { id } of rulesFile.rules) {
        expect(
          allTests.some(({ test }) => test.rule === id && !test.valid),
          id,
        ).toBe(true);
      }
    });

    it('a test is marked only with a rule that applies to its schema', () => {
      const appliesTo = new Map(rulesFile.rules.map((r) => [r.id, new Set(r.appliesTo.map((u) => u.schema))]));
      const wrong = allTests
        .filter(({ group, test }) => test.rule !== undefined && !appliesTo.get(test.rule)?.has(group.schema))
        .map(({ test }) => test.description);
      expect(wrong).toEqual([]);
    });
  });

  describe('coverage of the request definitions', () => {
    for (const version of VERSIONS) {
      for (const name of REQUEST_DEFINITIONS) {
        const schema = `${version}/${name}`;
        it(`${schema}: every property, default, limit and enum value has tests`, () => {
          const file = readJson(join(GENERATED, 'schemas', version, `${name}.json`)) as Schema;
          const defs = (file.$defs ?? {}) as Record<string, Schema>;
          const deref = (s: Schema): Schema => {
            const ref = typeof s.$ref === 'string' ? defs[s.$ref.replace('#/$defs/', '')] : undefined;
            if (ref === undefined) return s;
            const { $ref: _ref, ...beside } = s;
            return { ...deref(ref), ...beside };
          };
          const tests = files.get(`${schema}.json`)!.flatMap((g) => g.tests);
          const about = (property: string) =>
            tests.filter((t) => t.description.startsWith(`${schema} ${property}:`) || t.description.startsWith(`${schema} ${property}[`));
          const missing: string[] = [];
          const need = (ok: boolean, what: string) => {
            if (!ok) missing.push(what);
          };
          expect(isObject(file.properties)).toBe(true);
          for (const [property, raw] of Object.entries(file.properties as Record<string, Schema>)) {
            const s = deref(raw);
            const mine = about(property);
            need(mine.some((t) => t.valid) && mine.some((t) => !t.valid), `${property}: a valid and an invalid test`);
            if ('default' in s) {
              need(
                mine.some(
                  (t) => t.valid && t.description.includes(': the default ') && JSON.stringify(t.data).includes(JSON.stringify(s.default)),
                ),
                `${property}: its default`,
              );
            }
            for (const keyword of [
              'minimum',
              'maximum',
              'exclusiveMinimum',
              'exclusiveMaximum',
              'minLength',
              'maxLength',
              'minItems',
              'maxItems',
            ]) {
              if (!(keyword in s)) continue;
              const limit = mine.filter((t) => t.description.includes(`: ${keyword} `));
              // The bound side may be marked with a code rule, with a variant that meets it.
              need(
                limit.some((t) => t.valid) && limit.some((t) => !t.valid && t.rule === undefined),
                `${property}: ${keyword} from both sides`,
              );
            }
            if (Array.isArray(s.enum)) {
              for (const member of s.enum) {
                need(
                  mine.some((t) => t.valid && isObject(t.data) && JSON.stringify(t.data[property]) === JSON.stringify(member)),
                  `${property}: enum value ${JSON.stringify(member)}`,
                );
              }
              need(
                mine.some((t) => !t.valid && t.description.includes('not one of the allowed values')),
                `${property}: a value outside the enum`,
              );
            }
          }
          if (file.additionalProperties === false) {
            need(
              tests.some((t) => !t.valid && t.description.startsWith(`${schema} (body): unknown key`)),
              'an unknown key',
            );
            const other = VERSIONS.find((v) => v !== version)!;
            const theirs = readJson(join(GENERATED, 'schemas', other, `${name}.json`)) as Schema;
            for (const property of Object.keys(theirs.properties as Schema)) {
              if (property in (file.properties as Schema)) continue;
              need(
                tests.some(
                  (t) => !t.valid && t.description === `${schema} ${property}: the ${other} field "${property}" is unknown in ${version}`,
                ),
                `the ${other} field ${property}`,
              );
            }
          }
          expect(missing).toEqual([]);
        });
      }
    }

    it('every rule case of scripts/contract/generation/ruleCases.ts is there, both sides', async () => {
      const { RULE_CASES } = await import('../scripts/contract/generation/ruleCases.js');
      const bodies = new Set(allTests.map(({ group, test }) => `${group.schema} ${String(test.valid)} ${JSON.stringify(test.data)}`));
      for (const c of RULE_CASES) {
        const schema = `${c.version}/${c.schema}`;
        expect(bodies.has(`${schema} true ${JSON.stringify(c.valid)}`), `${schema} ${c.title}: valid side`).toBe(true);
        expect(bodies.has(`${schema} false ${JSON.stringify(c.invalid)}`), `${schema} ${c.title}: invalid side`).toBe(true);
      }
    });
  });
});
