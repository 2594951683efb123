import { Type } from '@sinclair/typebox';
import { Named, fromInterface, keywordSources, extension, serviceSince, use } from '../annotations.js';
import { crawlerFields } from '../shared/requestFields.js';
import { ScrapeOptions } from './scrapeOptions.js';

const here = fromInterface('§2.1');

export const CrawlRequest = Named(
  'CrawlRequest',
  Type.Object(
    {
      ...crawlerFields('v2'),
      prompt: Type.Optional(
        Type.String({
          maxLength: 10000,
          description:
            'Natural-language description from which the crawler options are generated; options sent explicitly win over generated ones.',
          examples: ['Crawl the blog, skip the tag pages'],
          ...here,
          ...keywordSources({ maxLength: 'service' }),
        }),
      ),
      sitemap: Type.Optional(
        Type.Union([Type.Literal('skip'), Type.Literal('include'), Type.Literal('only')], {
          default: 'include',
          description:
            '`skip`: ignore the sitemap and discover pages from the start URL. `include`: use the sitemap and discovered links. `only`: crawl only the sitemap URLs and the start URL, with no link discovery.',
          ...here,
        }),
      ),
      robotsUserAgent: Type.Optional(
        Type.String({ description: 'User agent whose robots.txt rules apply.', ...extension(), ...serviceSince('2026-04-15') }),
      ),
      scrapeOptions: Type.Optional(use(ScrapeOptions, { description: 'How each page is scraped.', ...here })),
    },
    {
      additionalProperties: false,
      description: 'Body of POST /v2/crawl.',
      examples: [
        { url: 'https://example.com/docs' },
        {
          url: 'https://example.com/docs',
          sitemap: 'skip',
          limit: 50,
          crawlEntireDomain: true,
          scrapeOptions: { formats: ['markdown', { type: 'screenshot', fullPage: true }], timeout: 60000 },
        },
      ],
      ...here,
      ...keywordSources({ additionalProperties: 'service', required: 'interface §2.1' }),
    },
  ),
);
