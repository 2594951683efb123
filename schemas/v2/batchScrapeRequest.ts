import { Type } from '@sinclair/typebox';
import { Named, fromInterface, keywordSources } from '../annotations.js';
import { batchFields } from '../shared/requestFields.js';
import { WithRules } from '../rule.js';
import { ScrapeOptionsFields } from './scrapeOptions.js';
import { scrapeOptionRulesV2 } from './scrapeOptionRules.js';

export const BatchScrapeRequest = Named(
  'BatchScrapeRequest',
  WithRules(
    Type.Object(
      { ...batchFields('v2'), ...ScrapeOptionsFields },
      {
        additionalProperties: false,
        description: 'Body of POST /v2/batch/scrape: the URLs, batch fields, and the v2 scrape options at top level.',
        examples: [
          { urls: ['https://example.com/a', 'https://example.com/b'] },
          { urls: ['https://example.com/a'], formats: [{ type: 'json', prompt: 'Extract the title' }], parsers: [], proxy: 'auto' },
        ],
        ...fromInterface('§2.2'),
        ...keywordSources({ additionalProperties: 'service', required: 'interface §2.2' }),
      },
    ),
    scrapeOptionRulesV2,
  ),
);
