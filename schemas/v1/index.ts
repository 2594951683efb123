/** The v1 definitions: request bodies, scrape options, answers, events. */
import { Type } from '@sinclair/typebox';
import { fromService } from '../annotations.js';
import { documentSchema } from '../shared/document.js';
import { CancelErrorResponse, ErrorResponse } from '../shared/errors.js';
import { jobSchemas } from '../shared/jobs.js';
import { Location } from '../shared/location.js';
import { Webhook } from '../shared/webhook.js';
import { BatchScrapeRequest } from './batchScrapeRequest.js';
import { CrawlRequest } from './crawlRequest.js';
import { Action, ScrapeOptions } from './scrapeOptions.js';

export const Document = documentSchema({
  extract: Type.Optional(
    Type.Unknown({ description: 'Extracted data, when the deprecated `extract` format was requested.', ...fromService() }),
  ),
});
export const {
  CrawlStartResponse,
  BatchScrapeStartResponse,
  JobStatusResponse,
  CancelResponse,
  JobErrorsResponse,
  ActiveCrawlsResponse,
  WebhookEvent,
} = jobSchemas(Document, {});
export { Action, BatchScrapeRequest, CancelErrorResponse, CrawlRequest, ErrorResponse, Location, ScrapeOptions, Webhook };
