/**
 * Validating a body against a named definition, with the precompiled validators in `generated/validators/`.
 *
 *   validate('v2/CrawlRequest', body) → { valid: true } | { valid: false, errors: ValidationIssue[] }
 *
 * Never throws for any input value; an unknown schema name is a programming error and throws a RangeError.
 * A value that cannot be checked (reading it runs a getter or a Proxy trap that throws; or a check meets an
 * engine limit, such as a `format: uri` string of 8 Mi characters overflowing the regular expression's
 * stack) is invalid, with one issue at `$` that says why.
 */
import * as v1 from '#generated/validators/v1.js';
import * as v2 from '#generated/validators/v2.js';
import type { Validator } from '#generated/validators/v1.js';
import { CODE_RULES, type PlacedRule } from './codeRules/index.js';
import { field, isRecord } from './codeRules/codeRule.js';
import { formatIssue, jsonPath, toIssues, type DefinitionLookup, type ValidationIssue } from './issues.js';

export type { ValidationIssue };
export { formatIssue };

const validators = { v1, v2 } as const;

/** `v1/CrawlRequest`, `v2/ScrapeOptions`, ...: every named definition of both versions. */
export type SchemaName = { [V in keyof typeof validators]: `${V}/${keyof (typeof validators)[V] & string}` }[keyof typeof validators];

export type ValidationResult = { readonly valid: true } | { readonly valid: false; readonly errors: ValidationIssue[] };

const VALID: ValidationResult = Object.freeze({ valid: true });

/** Every schema name, sorted. */
export function schemaNames(): SchemaName[] {
  return (Object.keys(ENTRIES) as SchemaName[]).sort();
}

export function isSchemaName(name: string): name is SchemaName {
  return Object.prototype.hasOwnProperty.call(ENTRIES, name);
}

/** The precompiled validator of `name`. */
export function validatorFor(name: SchemaName): Validator<unknown> {
  return entryOf(name).check;
}

interface Entry {
  readonly check: Validator<unknown>;
  readonly rules: readonly PlacedRule[];
  /** The validators of the same version, by definition name (for the branches of a union). */
  readonly lookup: DefinitionLookup;
}

/** Everything `validate` needs per name, looked up once (validation sits on servers' hot path). */
const ENTRIES: Readonly<Record<string, Entry>> = Object.freeze(
  Object.fromEntries(
    (Object.keys(validators) as (keyof typeof validators)[]).flatMap((version) => {
      const byName = validators[version] as unknown as Readonly<Record<string, Validator<unknown>>>;
      const lookup: DefinitionLookup = (definition) =>
        Object.prototype.hasOwnProperty.call(byName, definition) ? byName[definition] : undefined;
      return Object.entries(byName).map(([definition, check]) => {
        const name = `${version}/${definition}` as SchemaName;
        return [name, { check, rules: CODE_RULES[name] ?? [], lookup }];
      });
    }),
  ),
);

function entryOf(name: SchemaName): Entry {
  if (!isSchemaName(name)) throw new RangeError(`unknown schema "${String(name)}"; see schemaNames() for the list`);
  return ENTRIES[name]!;
}

/** The problems the code rules find in `data` (see codeRules/). */
function ruleIssues(rules: readonly PlacedRule[], data: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const { at, rule } of rules) {
    let object: unknown = data;
    for (const key of at) object = isRecord(object) ? field(object, String(key)) : undefined;
    if (!isRecord(object)) continue;
    for (const problem of rule.check(object)) {
      const segments = [...at, ...problem.at];
      issues.push({ path: jsonPath(segments), segments, rule: rule.id, message: problem.message, expected: rule.description });
    }
  }
  return issues;
}

/** What was thrown, in words; the thrown value is not trusted (it may itself be a Proxy that throws). */
function thrownMessage(thrown: unknown): string {
  try {
    return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch {
    return 'a value that cannot be printed';
  }
}

/** The one issue of a value that could not be checked. */
const uncheckable = (thrown: unknown): ValidationIssue => ({
  path: '$',
  segments: [],
  rule: 'readable',
  message: `could not be checked: reading or checking it threw ${thrownMessage(thrown)}`,
  expected: 'plain JSON data: values that can be read without running code that throws, of a size the checks can handle',
});

/** Checks `data` against the definition `name`: its schema, then the rules written as code. */
export function validate(name: SchemaName, data: unknown): ValidationResult {
  const { check, rules, lookup } = entryOf(name);
  // One try around everything that reads `data` (no cost, and nothing allocated, while nothing throws).
  try {
    const schemaValid = check(data);
    const errors = schemaValid ? undefined : check.errors;
    const broken = ruleIssues(rules, data);
    if (schemaValid && broken.length === 0) return VALID;
    return { valid: false, errors: [...toIssues(data, errors, lookup), ...broken] };
  } catch (thrown) {
    return { valid: false, errors: [uncheckable(thrown)] };
  }
}
