import { Type } from '@sinclair/typebox';
import { Named, fromInterface, fromService, extension, keywordSources, serviceDefault, strictByService, use } from '../annotations.js';
import { actionSchemas } from '../shared/actions.js';
import { ChangeTrackingMode } from '../shared/changeTrackingMode.js';
import { JsonSchemaObject } from '../shared/jsonSchema.js';
import { Geolocation } from '../shared/location.js';
import { commonScrapeOptionFields } from '../shared/scrapeOptionFields.js';
import { WithRules } from '../rule.js';
import { EXPERIMENTAL_CACHE_MAX_AGE } from '../v1Fields.js';
import { Format } from './formats.js';
import { scrapeOptionRulesV1 } from './scrapeOptionRules.js';

const here = fromInterface('§2.3');
export const { Action, Actions } = actionSchemas('v1', {});

export const JsonOptions = Named(
  'JsonOptions',
  Type.Object(
    {
      schema: Type.Optional(use(JsonSchemaObject, { description: 'JSON Schema of the data to extract.', ...here })),
      systemPrompt: Type.Optional(
        Type.String({
          maxLength: 10000,
          description: 'System prompt for the extraction.',
          ...here,
          ...keywordSources({ maxLength: 'service' }),
        }),
      ),
      prompt: Type.Optional(
        Type.String({ maxLength: 10000, description: 'Extraction prompt.', ...here, ...keywordSources({ maxLength: 'service' }) }),
      ),
      mode: Type.Optional(Type.Literal('llm', { ...serviceDefault('llm'), description: 'Extraction mode.', ...extension() })),
      temperature: Type.Optional(Type.Number({ description: 'Sampling temperature of the language model.', ...extension() })),
      checkPromptInjection: Type.Optional(
        Type.Boolean({ description: 'Check the page for prompt-injection attempts before extracting.', ...extension() }),
      ),
    },
    {
      additionalProperties: false,
      description: 'Options of the `json` format (structured extraction with a language model).',
      ...here,
      ...strictByService,
    },
  ),
);

export const ChangeTrackingOptions = Named(
  'ChangeTrackingOptions',
  Type.Object(
    {
      modes: Type.Optional(Type.Array(ChangeTrackingMode, { ...serviceDefault([]), description: 'Modes to compare with.', ...here })),
      schema: Type.Optional(use(JsonSchemaObject, { description: 'JSON Schema for `json` mode.', ...here })),
      prompt: Type.Optional(Type.String({ description: 'Prompt for `json` mode.', ...here })),
      tag: Type.Optional(
        Type.Union([Type.String(), Type.Null()], {
          default: null,
          description: 'Separate change-tracking history under this tag; null uses the default history.',
          ...here,
        }),
      ),
    },
    {
      additionalProperties: false,
      description: 'Beta. Options of the `changeTracking` format; `markdown` must be among the formats too.',
      ...here,
      ...strictByService,
    },
  ),
);

export const ScrapeOptionsFields = {
  formats: Type.Optional(
    Type.Array(Format, { ...serviceDefault(['markdown']), description: 'Output formats.', examples: [['markdown', 'links']], ...here }),
  ),
  ...commonScrapeOptionFields('v1'),
  parsePDF: Type.Optional(
    Type.Boolean({
      default: true,
      description: 'true: extract PDF content to markdown, billed per page. false: return the PDF base64-encoded at a flat cost.',
      ...here,
    }),
  ),
  jsonOptions: Type.Optional(JsonOptions),
  extract: Type.Optional(
    use(JsonOptions, {
      deprecated: true,
      description: 'Deprecated name of `jsonOptions`, paired with the `extract` format.',
      ...extension(),
    }),
  ),
  actions: Type.Optional(Actions),
  changeTrackingOptions: Type.Optional(ChangeTrackingOptions),
  __experimental_cache: Type.Optional(
    Type.Boolean({
      ...serviceDefault(false),
      deprecated: true,
      description: `Deprecated: when true and \`maxAge\` is absent, \`maxAge\` is ${EXPERIMENTAL_CACHE_MAX_AGE} (4 hours).`,
      ...extension(),
    }),
  ),
  geolocation: Type.Optional(
    use(Geolocation, {
      deprecated: true,
      description: 'Deprecated alias of `location` (country codes only); `location` wins when both are sent.',
      ...extension(),
    }),
  ),
};

export const ScrapeOptions = Named(
  'ScrapeOptions',
  WithRules(
    Type.Object(ScrapeOptionsFields, {
      additionalProperties: false,
      description: 'How each page is scraped (v1).',
      ...here,
      ...strictByService,
    }),
    scrapeOptionRulesV1,
  ),
);
