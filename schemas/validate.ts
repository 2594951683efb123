/**
 * Validating a body against a named definition, with the precompiled validators in `generated/validators/`.
 *
 *   validate('v2/CrawlRequest', body) → { valid: true } | { valid: false, errors: ValidationIssue[] }
 *
 * Never throws for any input value; an unknown schema name is a programming error and throws a RangeError.
 */
import * as v1 from '#generated/validators/v1.js';
import * as v2 from '#generated/validators/v2.js';
import type { Validator } from '#generated/validators/v1.js';
import { CODE_RULES } from './codeRules/index.js';
import { field, isRecord } from './codeRules/codeRule.js';
import { formatIssue, jsonPath, toIssues, type ValidationIssue } from './issues.js';

export type { ValidationIssue };
export { formatIssue };

const validators = { v1, v2 } as const;

/** `v1/CrawlRequest`, `v2/ScrapeOptions`, ...: every named definition of both versions. */
export type SchemaName = { [V in keyof typeof validators]: `${V}/${keyof (typeof validators)[V] & string}` }[keyof typeof validators];

export type ValidationResult = { readonly valid: true } | { readonly valid: false; readonly errors: ValidationIssue[] };

const VALID: ValidationResult = Object.freeze({ valid: true });

/** Every schema name, sorted. */
export function schemaNames(): SchemaName[] {
  return (Object.keys(validators) as (keyof typeof validators)[])
    .flatMap((version) => Object.keys(validators[version]).map((name) => `${version}/${name}` as SchemaName))
    .sort();
}

export function isSchemaName(name: string): name is SchemaName {
  const [version, definition, ...rest] = name.split('/');
  if (rest.length > 0 || (version !== 'v1' && version !== 'v2') || definition === undefined) return false;
  return Object.prototype.hasOwnProperty.call(validators[version], definition);
}

/** The precompiled validator of `name`. */
export function validatorFor(name: SchemaName): Validator<unknown> {
  if (!isSchemaName(name)) throw new RangeError(`unknown schema "${String(name)}"; see schemaNames() for the list`);
  const [version, definition] = name.split('/') as ['v1' | 'v2', string];
  return (validators[version] as unknown as Record<string, Validator<unknown>>)[definition]!;
}

/** The problems the code rules of `name` find in `data` (see codeRules/). */
function ruleIssues(name: SchemaName, data: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const { at, rule } of CODE_RULES[name] ?? []) {
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

/** Checks `data` against the definition `name`: its schema, then the rules written as code. */
export function validate(name: SchemaName, data: unknown): ValidationResult {
  const check = validatorFor(name);
  const schemaValid = check(data);
  const errors = schemaValid ? undefined : check.errors;
  const broken = ruleIssues(name, data);
  if (schemaValid && broken.length === 0) return VALID;
  const version = validators[name.slice(0, 2) as keyof typeof validators] as unknown as Record<string, Validator<unknown>>;
  const lookup = (definition: string) => (Object.prototype.hasOwnProperty.call(version, definition) ? version[definition] : undefined);
  return { valid: false, errors: [...toIssues(data, errors, lookup), ...broken] };
}
