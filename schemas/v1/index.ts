/** The v1 definitions: request bodies, scrape options, answers, events. */
import { documentSchema } from '../shared/document.js';
import { CancelErrorResponse, ErrorResponse } from '../shared/errors.js';
import { jobSchemas } from '../shared/jobs.js';
import { Location } from '../shared/location.js';
import { Webhook } from '../shared/webhook.js';
import { BatchScrapeRequest } from './batchScrapeRequest.js';
import { CrawlRequest } from './crawlRequest.js';
import { Action, ScrapeOptions } from './scrapeOptions.js';

export const Document = documentSchema('v1');
export const {
  CrawlStartResponse,
  BatchScrapeStartResponse,
  JobStatusResponse,
  CancelResponse,
  JobErrorsResponse,
  ActiveCrawlsResponse,
  WebhookEvent,
} = jobSchemas('v1', Document);
export { Action, BatchScrapeRequest, CancelErrorResponse, CrawlRequest, ErrorResponse, Location, ScrapeOptions, Webhook };

/** The definitions this version is built from; every named definition they use is part of it too. */
export const roots = [
  CrawlRequest,
  BatchScrapeRequest,
  ScrapeOptions,
  Location,
  Action,
  Webhook,
  Document,
  CrawlStartResponse,
  BatchScrapeStartResponse,
  JobStatusResponse,
  CancelResponse,
  JobErrorsResponse,
  ActiveCrawlsResponse,
  WebhookEvent,
  ErrorResponse,
  CancelErrorResponse,
];
