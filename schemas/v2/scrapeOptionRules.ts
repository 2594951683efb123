/**
 * Rules on v2 output formats that JSON Schema expresses. They apply wherever v2 scrape options stand: the
 * `scrapeOptions` of a crawl, and the top level of a batch scrape. A format is a name or `{type, ...}`.
 */
import { Type } from '@sinclair/typebox';
import { FieldRule, SchemaRule } from '../rule.js';
import { CHANGE_TRACKING_NEEDS_MARKDOWN, RAW_BASE64_ALONE, rawBase64Alone } from '../v1/scrapeOptionRules.js';

export const ONE_SCREENSHOT_V2 = 'You may only specify one screenshot format';
export const JSON_OR_DETERMINISTIC_JSON = 'Cannot specify both json and deterministicJson formats';

/** A format item of kind `name`, by name or as an object. */
const formatOf = (name: string) => Type.Union([Type.Literal(name), Type.Object({ type: Type.Literal(name) })]);
const containing = (name: string) => Type.Array(Type.Unknown(), { contains: formatOf(name) });

export const scrapeOptionRulesV2 = [
  FieldRule(
    'formats',
    SchemaRule(
      // The v2 table (interface §2.4) says only that some formats require options; the pairing is the service's.
      { id: 'changeTrackingNeedsMarkdown', keyword: 'anyOf', message: CHANGE_TRACKING_NEEDS_MARKDOWN, source: 'service' },
      Type.Union([Type.Not(containing('changeTracking')), containing('markdown')]),
      'With a `changeTracking` format, a `markdown` format must be requested too.',
    ),
  ),
  FieldRule(
    'formats',
    SchemaRule(
      { id: 'oneScreenshotFormat', keyword: 'not', message: ONE_SCREENSHOT_V2, source: 'service' },
      // "Not two or more" rather than `maxContains: 1`: TypeBox's checker reads `contains` as "at least one"
      // even beside `minContains: 0`.
      Type.Not(Type.Array(Type.Unknown(), { contains: formatOf('screenshot'), minContains: 2 })),
      'At most one screenshot format.',
    ),
  ),
  FieldRule(
    'formats',
    SchemaRule(
      { id: 'jsonOrDeterministicJson', keyword: 'not', message: JSON_OR_DETERMINISTIC_JSON, source: 'service', since: '2026-06-04' },
      Type.Not(Type.Intersect([containing('json'), containing('deterministicJson')])),
      'Not both a `json` and a `deterministicJson` format.',
    ),
  ),
  FieldRule('formats', rawBase64Alone(formatOf('rawBase64'))),
];
