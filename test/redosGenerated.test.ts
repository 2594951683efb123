/**
 * No regular expression of the generated JSON Schemas and validators can backtrack catastrophically (ReDoS): in
 * generated/schemas, the OpenAPI documents and the vector file schema, each `pattern` keyword and
 * `patternProperties` key, with the `u` flag (Ajv's `unicodeRegExp`, on by default, as the generated validators
 * show) and without flags (as TypeBox's checker compiles the same patterns of the exported definitions); and every
 * regex in the generated validator modules, which is what they run. recheck must call each one safe.
 */
import { sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COUNTRY_PATTERN } from '../schemas/shared/countries.js';
import { type Found, OTHER_IMPORTS, SCHEMA_FILES, VALIDATOR_FILES, regexesOf, rel, schemaScan } from './support/redosFinding.js';
import { expectSafe, grouped, nameOf } from './support/redosCheck.js';

const SCHEMA_PATTERNS = schemaScan.flatMap((scan) => scan.patterns);

const validatorScan = [...VALIDATOR_FILES, ...OTHER_IMPORTS].map(regexesOf);
const VALIDATOR_FOUND = validatorScan.flatMap((scan) => scan.found);
const GENERATED_FOUND: Found[] = [
  // Ajv (unicodeRegExp, on by default) compiles `pattern` with `u`; TypeBox's checker without flags.
  ...SCHEMA_PATTERNS.flatMap(({ pattern, at }) => [
    { source: pattern, flags: 'u', at },
    { source: pattern, flags: '', at },
  ]),
  ...VALIDATOR_FOUND,
];

const GENERATED_PATTERNS = grouped(GENERATED_FOUND);

describe('the generated JSON Schemas and validators', () => {
  const patterns = GENERATED_PATTERNS;

  it('finds the patterns, e.g. the country code, as the schemas have it and as the validators compile it', () => {
    expect(SCHEMA_FILES.filter((f) => f.includes(`${sep}schemas${sep}`)).length).toBeGreaterThan(20);
    const modules = ['v1.all-errors.js', 'v1.js', 'v2.all-errors.js', 'v2.js'].map((file) => `generated/validators/${file}`);
    expect(VALIDATOR_FILES.map((file) => rel(file.fileName)).sort()).toEqual(modules);
    expect(SCHEMA_PATTERNS.length).toBeGreaterThan(0);
    const country = SCHEMA_PATTERNS.filter((p) => p.pattern === COUNTRY_PATTERN);
    expect(country.map((p) => p.at)).toContainEqual(expect.stringMatching(/^generated\/schemas\/v1\/Location\.json#/));
    expect(country.map((p) => p.at)).toContainEqual(expect.stringMatching(/^generated\/schemas\/v2\/Location\.json#/));
    const compiled = VALIDATOR_FOUND.filter((f) => f.source === COUNTRY_PATTERN).map((f) => [f.at.replace(/:\d+$/, ''), f.flags]);
    expect(compiled.sort()).toEqual(modules.map((module) => [module, 'u']));
  });

  it('the validators build no pattern at run time, and compile only schema patterns, each with the u flag', () => {
    expect(validatorScan.flatMap((scan) => scan.dynamic)).toEqual([]);
    const schemaPatterns = new Set(SCHEMA_PATTERNS.map((p) => p.pattern));
    const compiled = VALIDATOR_FOUND.filter((f) => schemaPatterns.has(f.source));
    expect(compiled.length).toBeGreaterThan(0);
    for (const f of compiled) expect(f.flags, f.at).toBe('u');
  });

  it.each(patterns.map((p) => [nameOf(p), p] as const))('%s', async (_, pattern) => {
    await expectSafe(pattern);
  });
});
