import { Type } from '@sinclair/typebox';
import { Named, fromInterface, keywordSources, use } from '../annotations.js';
import { crawlerFields } from '../shared/requestFields.js';
import { ScrapeOptions } from './scrapeOptions.js';

const here = fromInterface('§2.1');

export const CrawlRequest = Named(
  'CrawlRequest',
  Type.Object(
    {
      ...crawlerFields('v1'),
      maxDepth: Type.Optional(
        Type.Integer({
          default: 10,
          description: 'Maximum absolute depth below the start: the largest number of slashes in the path of a scraped URL.',
          ...here,
        }),
      ),
      ignoreSitemap: Type.Optional(Type.Boolean({ default: false, description: "Do not use the site's sitemap.", ...here })),
      allowBackwardLinks: Type.Optional(
        Type.Boolean({
          default: false,
          deprecated: true,
          description:
            'Deprecated: use `crawlEntireDomain`, which wins when both are sent. Follow internal links to sibling or parent URLs.',
          ...here,
        }),
      ),
      scrapeOptions: Type.Optional(use(ScrapeOptions, { description: 'How each page is scraped.', ...here })),
    },
    {
      additionalProperties: false,
      description: 'Body of POST /v1/crawl.',
      examples: [
        { url: 'https://example.com/docs' },
        {
          url: 'https://example.com/docs',
          includePaths: ['^/docs/.*'],
          maxDepth: 3,
          limit: 50,
          ignoreSitemap: true,
          scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: true },
        },
      ],
      ...here,
      ...keywordSources({ additionalProperties: 'service', required: 'interface §2.1' }),
    },
  ),
);
