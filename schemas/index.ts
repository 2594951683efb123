/**
 * The package's main entry point (`crawlspec`): validation and what a server builds on it, without the TypeBox
 * definitions, so that it loads in milliseconds.
 *
 *   import { validate, partitionBatch, validationErrorBody } from 'crawlspec';
 *
 *   validate('v2/CrawlRequest', body)        → { valid: true, value: CrawlRequest } | { valid: false, errors: ValidationIssue[] }
 *   partitionBatch('v2', batchBody)          → what a batch with invalid URLs becomes
 *   validationErrorBody('v2', result.errors) → the 400 body the service answers with
 *
 * What it loads: the generated fast path (a decision function per definition), the rules written as code and,
 * on first use, the precompiled validators that say why a body is refused (only a refused body needs them:
 * on Node 20.19 or later they are loaded then, synchronously; elsewhere with this module). Not TypeBox, and
 * nothing is compiled.
 *
 * The TypeBox definitions and what needs them are at `crawlspec/typebox`, which exports everything this entry
 * does and also:
 *   v2.CrawlRequest                          → the TypeBox definition (a JSON Schema object), e.g. for Fastify
 *   definitions, lookup('v2/Url')            → every named definition of each version, by name
 *   withDefaults('v2/CrawlRequest', body)    → the body with the interface's defaults filled in
 *   migrateToV2(v1Body)                      → the v2 body asking for the same thing, with warnings
 *   registerTypeBoxFormats()                 → the formats TypeBox's checker needs (done on import)
 *
 * Other entry points: `crawlspec/validators/v1` and `/v2` (the precompiled validators, one named export per
 * definition, stopping at the first problem; `/v1/all-errors` and `/v2/all-errors` gather every problem),
 * `crawlspec/types/v1` and `/v2` (the generated types), `crawlspec/schemas/<v>/<Name>.json`,
 * `crawlspec/openapi/<file>`, `crawlspec/scrape` (what a scrape of a page must return, and the judge of a record:
 * scrape/index.ts), `crawlspec/contract` (the contract kit), `crawlspec/server` and `crawlspec/server/http` (the
 * reference server).
 */
export { VERSIONS, type Version } from './versions.js';
export {
  formatIssue,
  isSchemaName,
  MAX_ISSUES,
  REPORT_LIMIT,
  schemaNames,
  validate,
  validatorFor,
  type SchemaName,
  type SchemaType,
  type ValidationResult,
} from './validate.js';
export type { ValidationIssue } from './issues.js';
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
