/**
 * Rules on v1 output formats that JSON Schema expresses. They apply wherever v1 scrape options stand: the
 * `scrapeOptions` of a crawl, and the top level of a batch scrape.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { FieldRule, SchemaRule } from '../rule.js';

/** An array containing an item that matches `item`. */
const containing = (item: TSchema) => Type.Array(Type.Unknown(), { contains: item });

export const CHANGE_TRACKING_NEEDS_MARKDOWN = 'The changeTracking format requires the markdown format to be specified as well';
export const ONE_SCREENSHOT_V1 = 'You may only specify either screenshot or screenshot@fullPage';
export const RAW_BASE64_ALONE = 'The rawBase64 format cannot be combined with other formats';
export const FORMAT_OPTIONS_PAIRING =
  "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa";

/** A format and its options come together: both present, or neither. */
const paired = (format: string, optionsField: string) =>
  Type.Union([
    Type.Object({ formats: containing(Type.Literal(format)), [optionsField]: Type.Unknown() }),
    Type.Object({ formats: Type.Optional(Type.Not(containing(Type.Literal(format)))), [optionsField]: Type.Optional(Type.Never()) }),
  ]);

/** `rawBase64` (an item matching `rawBase64`) is the only format when it is requested; duplicates of it aside. */
export const rawBase64Alone = (rawBase64: TSchema) =>
  SchemaRule(
    { id: 'rawBase64Alone', keyword: 'anyOf', message: RAW_BASE64_ALONE, source: 'service', since: '2026-08-21' },
    Type.Union([Type.Not(containing(rawBase64)), Type.Array(rawBase64)]),
    'With a `rawBase64` format, no other format.',
  );

export const scrapeOptionRulesV1 = [
  FieldRule(
    'formats',
    SchemaRule(
      // Interface §2.3 (changeTrackingOptions): "markdown must then also be among formats".
      {
        id: 'changeTrackingNeedsMarkdown',
        keyword: 'anyOf',
        message: CHANGE_TRACKING_NEEDS_MARKDOWN,
        source: 'interface §2.3',
        stated: ['changeTrackingOptions', 'changeTracking', 'formats', 'markdown'],
      },
      Type.Union([Type.Not(containing(Type.Literal('changeTracking'))), containing(Type.Literal('markdown'))]),
      'With `changeTracking` among the formats, `markdown` must be among them too.',
    ),
  ),
  FieldRule(
    'formats',
    SchemaRule(
      { id: 'oneScreenshotFormat', keyword: 'not', message: ONE_SCREENSHOT_V1, source: 'service' },
      Type.Not(Type.Intersect([containing(Type.Literal('screenshot')), containing(Type.Literal('screenshot@fullPage'))])),
      'At most one of `screenshot` and `screenshot@fullPage`.',
    ),
  ),
  FieldRule('formats', rawBase64Alone(Type.Literal('rawBase64'))),
  SchemaRule(
    { id: 'jsonFormatNeedsOptions', keyword: 'anyOf', message: FORMAT_OPTIONS_PAIRING, source: 'service' },
    paired('json', 'jsonOptions'),
    'The `json` format is requested exactly when `jsonOptions` is given.',
  ),
  SchemaRule(
    { id: 'extractFormatNeedsOptions', keyword: 'anyOf', message: FORMAT_OPTIONS_PAIRING, source: 'service' },
    paired('extract', 'extract'),
    'The deprecated `extract` format is requested exactly when the `extract` options are given.',
  ),
];
