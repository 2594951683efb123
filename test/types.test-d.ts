/**
 * Type-level agreement: for every definition a version exports, TypeBox's `Static` type and the type
 * json-schema-to-typescript generated (generated/types/<version>.d.ts) are mutually assignable. Nested
 * definitions are covered through the exported ones that contain them. Checked by `vitest --typecheck`.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type * as V1Types from '#generated/types/v1.js';
import type * as V2Types from '#generated/types/v2.js';
import type * as V1 from '../schemas/v1/index.js';
import type * as V2 from '../schemas/v2/index.js';
import { MALFORMED_JSON_BODY, validationErrorBody } from '../schemas/errorEnvelope.js';
import { validate, type SchemaName, type SchemaType, type ValidationIssue, type ValidationResult } from '../schemas/validate.js';

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** For each definition the module exports: does its Static type agree with the generated type? */
type Agreement<Module, Generated> = {
  [K in keyof Module & keyof Generated]: Module[K] extends TSchema ? MutuallyAssignable<Static<Module[K]>, Generated[K]> : never;
};
type AllTrue<T> = { [K in keyof T]: true };

describe('generated types and TypeBox Static types agree', () => {
  it('v1', () => {
    type A = Agreement<typeof V1, V1Types.Definitions>;
    expectTypeOf<A>().toEqualTypeOf<AllTrue<A>>();
    // The comparison covers the request bodies at least (it cannot pass by matching no names).
    expectTypeOf<'CrawlRequest' | 'BatchScrapeRequest' | 'ScrapeOptions'>().toExtend<keyof A>();
  });
  it('v2', () => {
    type A = Agreement<typeof V2, V2Types.Definitions>;
    expectTypeOf<A>().toEqualTypeOf<AllTrue<A>>();
    expectTypeOf<'CrawlRequest' | 'BatchScrapeRequest' | 'ScrapeOptions'>().toExtend<keyof A>();
  });
});

describe("the API's error bodies are the generated ErrorResponse", () => {
  it('validationErrorBody and the malformed JSON body are assignable to ErrorResponse of both versions', () => {
    // Plain assignments: the compiler refuses one that does not hold (readonly arrays did not).
    const v2: V2Types.ErrorResponse = validationErrorBody('v2', []);
    const v1: V1Types.ErrorResponse = validationErrorBody('v1', []);
    const malformed: [V1Types.ErrorResponse, V2Types.ErrorResponse] = [MALFORMED_JSON_BODY, MALFORMED_JSON_BODY];
    expectTypeOf([v1, v2, ...malformed]).not.toBeNever();
  });
});

describe('validate() narrows a valid value to the type of its definition', () => {
  it('the valid branch carries the value, typed as the generated type; the invalid one the issues', () => {
    const body: unknown = JSON.parse('{"url":"https://example.com"}');
    const result = validate('v2/CrawlRequest', body);
    if (result.valid) {
      expectTypeOf(result.value).toEqualTypeOf<V2Types.CrawlRequest>();
      expectTypeOf(result.value.url).toEqualTypeOf<string>();
    } else expectTypeOf(result.errors).toEqualTypeOf<ValidationIssue[]>();
    const v1 = validate('v1/BatchScrapeRequest', body);
    if (v1.valid) expectTypeOf(v1.value).toEqualTypeOf<V1Types.BatchScrapeRequest>();
    expectTypeOf<SchemaType<'v2/ScrapeOptions'>>().toEqualTypeOf<V2Types.ScrapeOptions>();
  });

  it('existing callers still compile: a result is a plain ValidationResult, a name may be any SchemaName', () => {
    const name = 'v1/CrawlRequest' as SchemaName;
    const plain: ValidationResult = validate(name, {});
    const typed: ValidationResult = validate('v2/CrawlRequest', {});
    if (!plain.valid) expectTypeOf(plain.errors).toEqualTypeOf<ValidationIssue[]>();
    expectTypeOf(typed.valid).toEqualTypeOf<boolean>();
  });
});
