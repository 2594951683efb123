import { Type } from '@sinclair/typebox';
import { Named, fromInterface, extension, serviceDefault, serviceSince, strictByService } from '../annotations.js';
import { actionSchemas } from '../shared/actions.js';
import { commonScrapeOptionFields } from '../shared/scrapeOptionFields.js';
import { Format } from './formats.js';
import { Viewport } from '../shared/viewport.js';
import { WithRules } from '../rule.js';
import { Parser } from './parsers.js';
import { scrapeOptionRulesV2 } from './scrapeOptionRules.js';
import { privacyOptionFields } from './privacyOptions.js';

const here = fromInterface('§2.4');
export const { Action, Actions } = actionSchemas('v2', { viewport: Type.Optional(Viewport) });

export const ScrapeOptionsFields = {
  formats: Type.Optional(
    Type.Array(Format, {
      ...serviceDefault(['markdown']),
      description: 'Output formats. Some formats take options, given in the object form.',
      examples: [['markdown', { type: 'json', prompt: 'Extract the product name and price' }]],
      ...here,
    }),
  ),
  ...commonScrapeOptionFields('v2'),
  parsers: Type.Optional(
    Type.Array(Parser, {
      default: ['pdf'],
      description:
        'With `pdf`, PDFs are extracted to markdown and billed per page. An empty list returns PDFs base64-encoded at a flat cost.',
      ...here,
    }),
  ),
  actions: Type.Optional(Actions),
  safeMode: Type.Optional(
    Type.Boolean({ description: 'Safe mode. The service accepts it (no default) but documents no effect of it.', ...extension() }),
  ),
  minAge: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Only return a cached copy at least this old, in milliseconds.',
      ...extension(),
      ...serviceSince('2025-11-30'),
    }),
  ),
  ...privacyOptionFields,
};

export const ScrapeOptions = Named(
  'ScrapeOptions',
  WithRules(
    Type.Object(ScrapeOptionsFields, {
      additionalProperties: false,
      description: 'How each page is scraped (v2).',
      ...here,
      ...strictByService,
    }),
    scrapeOptionRulesV2,
  ),
);
