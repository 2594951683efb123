/**
 * What the test files of the JSON Schemas given for extraction (test/jsonSchemas*.test.ts) share: v1 options
 * extracting with a schema, the problems a validation reports, an object schema of n properties, how many times
 * Ajv compiled, and the CPU time a call took.
 */
import { vi } from 'vitest';
import { ajv as ajvPackage } from '#generated/load/dependencies.js';
import { type ValidationResult } from '../../schemas/validate.js';
import { withCpuMs } from './cpuTime.js';

/** A v1 set of options extracting with `schema`. */
export const v1 = (schema: unknown) => ({ formats: ['json'], jsonOptions: { schema } });

export const problems = (result: ValidationResult) =>
  result.valid ? [] : result.errors.map((e) => ({ path: e.path, rule: e.rule, message: e.message }));

/** An object schema of `n` string properties: 1 + 2 + 3n values. */
export const objectOf = (n: number, tag = '') => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}${tag}`, { type: 'string' }])),
});

/** Counts the schemas Ajv compiles (every instance: the validators' compiler is one) until `restore()`. */
export function compileCalls(): { count(): number; restore(): void } {
  const spy = vi.spyOn(ajvPackage().Ajv.prototype, 'compile');
  return { count: () => spy.mock.calls.length, restore: () => spy.mockRestore() };
}

/** What `run` returns and the CPU milliseconds it took (not the clock: a loaded machine does not lengthen it). */
export const timed = withCpuMs;
