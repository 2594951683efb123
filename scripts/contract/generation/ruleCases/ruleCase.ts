/**
 * What a rule case is (ruleCases.ts): a minimal valid body, a minimal invalid body and the issues `validate` must
 * report for it; the service's messages the cases expect, written out; and the small bodies the cases are built from.
 */
import type { Version } from '../../../../schemas/registry.js';

/**
 * `schema`: the rule is a JSON Schema rule, so every form of the spec decides both bodies as `validate` does.
 * `code`: the rule is code applied by `validate` only, so every schema form accepts the invalid body too.
 */
export type RuleKind = 'schema' | 'code';

export interface ExpectedIssue {
  /** JSON path, e.g. `$.scrapeOptions.formats`. */
  readonly path: string;
  /** The issue's `rule`: a rule id, or the JSON Schema keyword for a plain schema limit. */
  readonly rule: string;
  readonly message: string;
}

export interface RuleCase {
  /** What the case shows, for the test title. */
  readonly title: string;
  readonly kind: RuleKind;
  readonly version: Version;
  /** Definition name within the version, e.g. `CrawlRequest`. */
  readonly schema: string;
  readonly valid: unknown;
  readonly invalid: unknown;
  /** Every issue `validate` reports for `invalid`: usually one. */
  readonly issues: readonly ExpectedIssue[];
}

// The service's messages, written out here (not imported) so that a changed message fails a test.
export const CHANGE_TRACKING = 'The changeTracking format requires the markdown format to be specified as well';
export const ONE_SCREENSHOT_V1 = 'You may only specify either screenshot or screenshot@fullPage';
export const ONE_SCREENSHOT_V2 = 'You may only specify one screenshot format';
export const PAIRING = "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa";
export const WAIT_TARGET = "Either 'milliseconds' or 'selector' must be provided, but not both.";
export const FIFTY_ACTIONS = 'Number of actions cannot exceed 50';
export const TOTAL_WAIT = 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds';
export const WAIT_FOR_TIMEOUT = 'waitFor must not exceed half of timeout';
export const COUNTRY = 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.';
export const GEOLOCATION_COUNTRY = 'Invalid country code. Please use a valid ISO 3166-1 alpha-2 country code.';
export const DELAY = 'The delay parameter is measured in seconds and cannot exceed 60 seconds.';
export const URL_DEPTH = 'URL depth exceeds the specified maxDepth';
export const NO_VALID_URLS = 'No valid URLs provided';
export const PROTOCOL = 'URL uses unsupported protocol';
export const HOST = 'URL must have a valid top-level domain or be an IP address';
export const SIGNATURE = 'The following headers are not allowed: x-firecrawl-signature';
export const INVALID_SCHEMA = 'Invalid JSON schema.';
export const FREE_FORM = (where: string) =>
  `The JSON Schema's object at ${where} allows any property ("additionalProperties": true) but names none ("properties" or "patternProperties"): the extraction cannot fill a free-form object. Give its properties.`;
export const RE2 = (field: string) => `${field} patterns use Rust regex (RE2-style) syntax.`;

export const EXAMPLE_URL = 'https://example.com';
export const HOOK = 'https://hooks.example.com/crawl';

export const wait = (milliseconds: number) => ({ type: 'wait', milliseconds });
/** A JSON Schema for extraction, and the same with a `meta` property of the given schema. */
export const PRODUCT_SCHEMA = { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' } } };
export const withMeta = (meta: Record<string, unknown>) => ({ type: 'object', properties: { ...PRODUCT_SCHEMA.properties, meta } });
/** `prefix0`, `prefix1`, ...: `count` patterns. */
export const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
export const scrapes = (n: number) => Array.from({ length: n }, () => ({ type: 'scrape' }));
export const BOTH: readonly Version[] = ['v1', 'v2'];
