/** The v2 definitions: request bodies, scrape options, answers, events. */
import { Type } from '@sinclair/typebox';
import { extension, fromService } from '../annotations.js';
import { documentSchema } from '../shared/document.js';
import { CancelErrorResponse, ErrorResponse } from '../shared/errors.js';
import { jobSchemas } from '../shared/jobs.js';
import { Location } from '../shared/location.js';
import { Webhook } from '../shared/webhook.js';
import { BatchScrapeRequest } from './batchScrapeRequest.js';
import { CrawlRequest } from './crawlRequest.js';
import { CrawlParamsPreviewRequest, CrawlParamsPreviewResponse } from './paramsPreview.js';
import { Action, ScrapeOptions } from './scrapeOptions.js';

export const Document = documentSchema({
  images: Type.Optional(Type.Array(Type.String(), { description: 'Image addresses found on the page.', ...fromService() })),
  branding: Type.Optional(Type.Object({}, { description: 'Brand identity of the site.', ...fromService() })),
});
export const {
  CrawlStartResponse,
  BatchScrapeStartResponse,
  JobStatusResponse,
  CancelResponse,
  JobErrorsResponse,
  ActiveCrawlsResponse,
  WebhookEvent,
} = jobSchemas(Document, {
  promptGeneratedOptions: Type.Optional(
    Type.Object({}, { description: 'Crawler options generated from `prompt` (only when a prompt was sent).', ...extension() }),
  ),
  finalCrawlerOptions: Type.Optional(
    Type.Object({}, { description: 'Options the crawl runs with after merging the prompt (only when a prompt was sent).', ...extension() }),
  ),
});
export {
  Action,
  BatchScrapeRequest,
  CancelErrorResponse,
  CrawlParamsPreviewRequest,
  CrawlParamsPreviewResponse,
  CrawlRequest,
  ErrorResponse,
  Location,
  ScrapeOptions,
  Webhook,
};
