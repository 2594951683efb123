/**
 * `POST /v2/crawl/params-preview`: the crawler options a `prompt` would generate for a `url`, without starting a
 * crawl. The interface does not show the endpoint; it follows the service, which takes other keys and drops them.
 */
import { Type } from '@sinclair/typebox';
import { Named, fromService, keywordSources } from '../annotations.js';

export const CrawlParamsPreviewRequest = Named(
  'CrawlParamsPreviewRequest',
  Type.Object(
    {
      url: Type.String({
        format: 'uri',
        description: 'Address the crawl would start from (any parseable URL: no scheme is added, no top-level domain required).',
        examples: ['https://example.com/docs'],
        ...fromService(),
      }),
      prompt: Type.String({
        maxLength: 10000,
        description: 'Natural-language description from which the crawler options are generated.',
        examples: ['Crawl the blog, skip the tag pages'],
        ...fromService(),
      }),
    },
    {
      description: 'Body of POST /v2/crawl/params-preview. Other keys are taken and dropped.',
      examples: [{ url: 'https://example.com/docs', prompt: 'Crawl the blog, skip the tag pages' }],
      ...fromService(),
      ...keywordSources({ required: 'service' }),
    },
  ),
);

export const CrawlParamsPreviewResponse = Named(
  'CrawlParamsPreviewResponse',
  Type.Object(
    {
      success: Type.Literal(true, { description: 'True when options were generated.', ...fromService() }),
      data: Type.Object(
        { url: Type.String({ description: 'The address sent.', ...fromService() }) },
        {
          description: 'The address sent, and the crawler options generated from the prompt (those it says nothing of are left out).',
          ...fromService(),
        },
      ),
    },
    { description: 'Answer to previewing the crawler options of a prompt.', ...fromService() },
  ),
);
