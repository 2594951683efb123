/**
 * v2 output formats: each item of `formats` is a format name, or an object with `type` plus that format's
 * options. A bare name `x` means `{ "type": "x" }`. The interface names markdown, summary, html, rawHtml,
 * links, images, screenshot, json, changeTracking and branding; the other kinds are service extensions.
 */
import { Type } from '@sinclair/typebox';
import {
  BY_SERVICE_STATE,
  Named,
  fromInterface,
  fromService,
  extension,
  extensionValues,
  keywordSources,
  serviceDefault,
  serviceSince,
  use,
} from '../annotations.js';
import { ChangeTrackingMode } from '../shared/changeTrackingMode.js';
import { Discriminated } from '../discriminated.js';
import { Literals } from '../literals.js';
import { JsonSchemaObject } from '../shared/jsonSchema.js';
import { Viewport } from '../shared/viewport.js';

const here = fromInterface('§2.4');
/** A format object: its `type` is the interface's (§2.4: "an object with `type` plus options"); strictness is the service's. */
const formatObject = (strict: boolean) =>
  keywordSources(strict ? { required: 'interface §2.4', additionalProperties: 'service' } : { required: 'interface §2.4' });

export const INTERFACE_FORMATS_V2 = [
  'markdown',
  'summary',
  'html',
  'rawHtml',
  'links',
  'images',
  'screenshot',
  'json',
  'changeTracking',
  'branding',
] as const;
/** Formats with no options of their own that only the service offers. */
const EXTENSION_PLAIN_FORMATS_V2 = ['product', 'menu', 'audio', 'video', 'rawBase64'] as const;
export const EXTENSION_FORMATS_V2 = [...EXTENSION_PLAIN_FORMATS_V2, 'deterministicJson'] as const;
/** When the service added each extension format (service-facts §13; `product` and `menu` undated there). */
const EXTENSION_FORMAT_DATES = {
  product: BY_SERVICE_STATE,
  menu: BY_SERVICE_STATE,
  audio: '2026-03-25',
  video: '2026-03-25',
  rawBase64: '2026-08-21',
  deterministicJson: '2026-06-04',
} as const satisfies Record<(typeof EXTENSION_FORMATS_V2)[number], string>;
/**
 * Formats with no options of their own: the older kinds, whose objects the service refuses any other key in since
 * its move to zod 4 (it dropped them before), and the newer ones, whose objects it always refused other keys in.
 */
const PLAIN_FORMATS = ['markdown', 'summary', 'html', 'rawHtml', 'links'] as const;
const STRICT_PLAIN_FORMATS = ['images', 'branding', ...EXTENSION_PLAIN_FORMATS_V2] as const;

export const FormatName = Named(
  'FormatName',
  Literals([...INTERFACE_FORMATS_V2, ...EXTENSION_FORMATS_V2], {
    description: `A format by name (shorthand for \`{"type": name}\`). ${EXTENSION_FORMATS_V2.map((f) => `\`${f}\``).join(', ')} are service extensions.`,
    ...here,
    ...extensionValues(EXTENSION_FORMATS_V2),
    ...serviceSince({ enum: EXTENSION_FORMAT_DATES }),
  }),
);

export const PlainFormat = Named(
  'PlainFormat',
  Type.Object(
    {
      type: Literals(PLAIN_FORMATS, { description: 'Format kind.', ...here }),
    },
    {
      additionalProperties: false,
      description: 'A format that takes no options; the service refuses any other key (it dropped them before 2025-12-03).',
      ...here,
      ...formatObject(true),
      ...serviceSince({ additionalProperties: '2025-12-03' }),
    },
  ),
);

export const StrictPlainFormat = Named(
  'StrictPlainFormat',
  Type.Object(
    {
      type: Literals(STRICT_PLAIN_FORMATS, {
        description: 'Format kind.',
        ...here,
        ...extensionValues(EXTENSION_PLAIN_FORMATS_V2),
        ...serviceSince({ enum: Object.fromEntries(EXTENSION_PLAIN_FORMATS_V2.map((f) => [f, EXTENSION_FORMAT_DATES[f]])) }),
      }),
    },
    {
      additionalProperties: false,
      description:
        'A newer format that takes no options; the service refuses any other key. `rawBase64` (the page as fetched, base64-encoded) must be the only format.',
      ...here,
      ...formatObject(true),
    },
  ),
);

export const ScreenshotFormat = Named(
  'ScreenshotFormat',
  Type.Object(
    {
      type: Type.Literal('screenshot', { description: 'Screenshot format.', ...here }),
      fullPage: Type.Optional(
        Type.Boolean({ ...serviceDefault(false), description: 'Capture the whole page, not just the viewport.', ...fromService() }),
      ),
      quality: Type.Optional(Type.Number({ minimum: 1, maximum: 100, description: 'Image quality, 1 to 100.', ...fromService() })),
      viewport: Type.Optional(Viewport),
    },
    { description: 'Screenshot of the page.', ...here, ...formatObject(false) },
  ),
);

export const JsonFormat = Named(
  'JsonFormat',
  Type.Object(
    {
      type: Type.Literal('json', { description: 'Structured extraction with a language model.', ...here }),
      schema: Type.Optional(use(JsonSchemaObject, { description: 'JSON Schema of the data to extract.', ...here })),
      prompt: Type.Optional(Type.String({ maxLength: 10000, description: 'Extraction prompt.', ...fromService() })),
      checkPromptInjection: Type.Optional(
        Type.Boolean({ description: 'Check the page for prompt-injection attempts before extracting.', ...extension() }),
      ),
    },
    { additionalProperties: false, description: 'Structured JSON extracted with a language model.', ...here, ...formatObject(true) },
  ),
);

export const ChangeTrackingFormat = Named(
  'ChangeTrackingFormat',
  Type.Object(
    {
      type: Type.Literal('changeTracking', { description: 'Change tracking.', ...here }),
      modes: Type.Optional(
        Type.Array(ChangeTrackingMode, { ...serviceDefault([]), description: 'Modes to compare with.', ...fromService() }),
      ),
      schema: Type.Optional(use(JsonSchemaObject, { description: 'JSON Schema for `json` mode.', ...fromService() })),
      prompt: Type.Optional(Type.String({ description: 'Prompt for `json` mode.', ...fromService() })),
      tag: Type.Optional(
        Type.Union([Type.String(), Type.Null()], {
          ...serviceDefault(null),
          description: 'Separate change-tracking history under this tag; null uses the default history.',
          ...fromService(),
        }),
      ),
    },
    {
      additionalProperties: false,
      description: 'Compare the page with its previous scrape; needs the markdown format too.',
      ...here,
      ...formatObject(true),
    },
  ),
);

export const DeterministicJsonFormat = Named(
  'DeterministicJsonFormat',
  Type.Object(
    {
      type: Type.Literal('deterministicJson', { description: 'Structured extraction without a language model.', ...extension() }),
      schema: Type.Optional(use(JsonSchemaObject, { description: 'JSON Schema of the data to extract.', ...extension() })),
      prompt: Type.Optional(Type.String({ maxLength: 10000, description: 'Extraction prompt.', ...extension() })),
    },
    {
      additionalProperties: false,
      description: 'Structured JSON extracted deterministically; cannot be combined with the `json` format.',
      ...extension(),
      ...serviceSince('2026-06-04'),
    },
  ),
);

const query = (description: string) => Type.String({ minLength: 1, maxLength: 10000, description, ...extension() });

export const QuestionFormat = Named(
  'QuestionFormat',
  Type.Object(
    {
      type: Type.Literal('question', { description: 'Answer a question.', ...extension() }),
      question: query('Question to answer from the page.'),
    },
    { additionalProperties: false, description: 'Answer a question from the page content.', ...extension(), ...serviceSince('2026-05-06') },
  ),
);

export const HighlightsFormat = Named(
  'HighlightsFormat',
  Type.Object(
    {
      type: Type.Literal('highlights', { description: 'Highlight relevant passages.', ...extension() }),
      query: query('What to highlight.'),
    },
    {
      additionalProperties: false,
      description: 'Passages of the page relevant to a query.',
      ...extension(),
      ...serviceSince('2026-05-06'),
    },
  ),
);

export const AttributesFormat = Named(
  'AttributesFormat',
  Type.Object(
    {
      type: Type.Literal('attributes', { description: 'Attribute values of selected elements.', ...extension() }),
      selectors: Type.Array(
        Type.Object(
          {
            selector: Type.String({ description: 'CSS selector.', ...extension() }),
            attribute: Type.String({ description: 'Attribute to read from the matching elements.', ...extension() }),
          },
          { additionalProperties: false },
        ),
        { description: 'Elements and attributes to read.', ...extension() },
      ),
    },
    { additionalProperties: false, description: 'Attribute values of selected elements.', ...extension() },
  ),
);

export const QueryFormat = Named(
  'QueryFormat',
  Type.Object(
    {
      type: Type.Literal('query', { description: 'Answer a prompt (deprecated).', ...extension() }),
      prompt: Type.String({ maxLength: 10000, description: 'Question to answer from the page.', ...extension() }),
      mode: Type.Optional(
        Type.Union([Type.Literal('freeform'), Type.Literal('directQuote')], {
          ...serviceDefault('freeform'),
          description: 'Answer freely, or quote the page directly.',
          ...extension(),
        }),
      ),
    },
    { additionalProperties: false, deprecated: true, description: 'Deprecated: answer a prompt from the page content.', ...extension() },
  ),
);

export const FormatObject = Named(
  'FormatObject',
  Discriminated(
    [
      PlainFormat,
      StrictPlainFormat,
      ScreenshotFormat,
      JsonFormat,
      DeterministicJsonFormat,
      ChangeTrackingFormat,
      QuestionFormat,
      HighlightsFormat,
      AttributesFormat,
      QueryFormat,
    ],
    {
      description: 'A format with its options; `type` selects the kind.',
      ...here,
    },
  ),
);

export const Format = Named(
  'Format',
  Type.Union([FormatName, FormatObject], { description: 'An output format: a name, or an object with `type` and options.', ...here }),
);
