/**
 * What the migrateToV2 test files (test/migrate*.test.ts) share: the URLs, v1's scrape defaults (from the
 * definitions), the warnings migrateToV2 gives (maxDepth, the service's own defaults, maxAge, skipTlsVerification)
 * and the check that an output is a valid v2 body.
 */
import { expect } from 'vitest';
import { type MigrationResult } from '../../schemas/migrate.js';
import { formatIssue, validate, type SchemaName } from '../../schemas/validate.js';

export const url = 'https://example.com/docs';
export const urls = ['https://example.com/a', 'https://example.com/b'];

/** What v2 is told explicitly so that it behaves as v1 (the v1 defaults where the versions differ). */
export const V1_SCRAPE_DEFAULTS = { maxAge: 0, skipTlsVerification: false, proxy: 'basic' };

export const MAX_DEPTH_WARNING = (value: string) =>
  `maxDepth: dropped (was ${value}); v2 cannot limit a crawl by the depth of the URL path. maxDiscoveryDepth is a different measure (link hops in discovery order, the start page and sitemap pages at depth 0), so it is not set in its place`;

/**
 * The warnings of a v1 default written out that the service of 2026-08-21 no longer applies (v1 `maxAge`,
 * `skipTlsVerification`): every body without those fields gets them. The examples below are about the mapping, so
 * they leave these out; the tests "the service's own v1 defaults" hold them.
 */
const SERVICE_DEFAULT_WARNING = /: set to .*, the interface's v1 default; the service's own v1 default \(/;
export const mapped = (result: MigrationResult): MigrationResult =>
  ({
    ...result,
    warnings: result.warnings.filter((w) => !SERVICE_DEFAULT_WARNING.test(w)),
  }) as MigrationResult;
export const MAX_AGE_WARNING = (at: string) =>
  `${at}maxAge: set to 0, the interface's v1 default; the service's own v1 default (since 2025-10-26) is 86400000: send maxAge: 86400000 to keep what the service did`;
export const SKIP_TLS_WARNING = (at: string) =>
  `${at}skipTlsVerification: set to false, the interface's v1 default; the service's own v1 default (since 2025-09-28) is true when headers and actions are empty or absent: send skipTlsVerification: true to keep what the service did`;

/** Expects a migrated result whose request is valid for `schema`, and returns it. */
export function expectValid(result: MigrationResult, schema: SchemaName): MigrationResult {
  const checked = validate(schema, result.request);
  expect(checked.valid ? [] : checked.errors.map(formatIssue), JSON.stringify(result.request)).toEqual([]);
  return result;
}
