/**
 * The package's entry point (`crawlspec`, and `crawlspec/typebox`): the TypeBox definitions of each version
 * and the API built on them.
 *
 *   import { validate, withDefaults, migrateToV2, v2 } from 'crawlspec';
 *
 *   validate('v2/CrawlRequest', body)        → { valid: true } | { valid: false, errors: ValidationIssue[] }
 *   withDefaults('v2/CrawlRequest', body)    → the body with the interface's defaults filled in
 *   migrateToV2(v1Body)                      → the v2 body asking for the same thing, with warnings
 *   partitionBatch('v2', batchBody)          → what a batch with invalid URLs becomes
 *   validationErrorBody('v2', result.errors) → the 400 body the service answers with
 *   v2.CrawlRequest                          → the TypeBox definition (a JSON Schema object), e.g. for Fastify
 *
 * `v1` and `v2` hold the definitions each version's module exports (request bodies, scrape options,
 * answers, events); `definitions` holds every named definition of each version (`WaitAction`, `Url`, ...),
 * and `lookup('v2/Url')` finds one by name. TypeBox checks a `format` only when its registry knows it:
 * importing this module registers the formats the definitions use (see `registerTypeBoxFormats`), so
 * `Value.Check(v2.CrawlRequest, body)` decides as the generated validators do.
 *
 * Other entry points: `crawlspec/validators/v1` and `/v2` (the precompiled validators, one named export per
 * definition, stopping at the first problem; `/v1/all-errors` and `/v2/all-errors` gather every problem),
 * `crawlspec/types/v1` and `/v2` (the generated types), `crawlspec/schemas/<v>/<Name>.json`,
 * `crawlspec/openapi/<file>`, `crawlspec/contract` (the contract kit), `crawlspec/server` and
 * `crawlspec/server/http` (the reference server).
 */
export * as v1 from './v1/index.js';
export * as v2 from './v2/index.js';
export { definitions, lookup, VERSIONS, type Version } from './registry.js';
import { registerTypeBoxFormats } from './typeboxFormats.js';
export { registerTypeBoxFormats };

export {
  formatIssue,
  isSchemaName,
  MAX_ISSUES,
  REPORT_LIMIT,
  schemaNames,
  validate,
  validatorFor,
  type SchemaName,
  type ValidationResult,
} from './validate.js';
export type { ValidationIssue } from './issues.js';
export { withDefaults } from './defaults.js';
export { migrateToV2, type Migrated, type MigrationKind, type MigrationResult, type NotMigrated } from './migrate.js';
export {
  expectedInvalidUrls,
  ignoresInvalidUrls,
  NO_VALID_URLS,
  partitionBatch,
  type BatchPartition,
  type InvalidUrl,
} from './batchPartition.js';
export { MALFORMED_JSON_BODY, parseRequestBody, validationErrorBody, type ErrorBody, type ErrorDetail } from './errorEnvelope.js';
export { parseJson, type ParsedJson } from './parseJson.js';
export { crawlUrlProblem, isCrawlUrl, normalizeCrawlUrl } from './shared/crawlUrl.js';
export { operations, type OperationSpec, type ParameterName, type ResponseSpec } from './operations.js';
export { ANNOTATION_KEYWORDS, DEFAULT_SOURCE, DEFAULT_UNLESS, EXTENSION, EXTENSION_VALUES, RULES, SOURCE } from './annotations.js';
export type { Validator } from '#generated/validators/v1.js';

// A side effect on purpose (this module is listed in `sideEffects`, so bundlers keep it): see above.
registerTypeBoxFormats();
