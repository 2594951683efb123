/** Which code rules apply to which definition, and at which object inside it. */

import { defaults } from '#generated/fast/defaults.js';
import type { SchemaName } from '../validate.js';
import { batchUrlsUsable } from './batchUrls.js';
import type { CodeRule, Segments } from './codeRule.js';
import { crawlUrlValid, urlDepthWithinMaxDepth } from './crawlUrl.js';
import { jsonSchemaRules } from './jsonSchemas.js';
import { pathPatternsCompile } from './pathPatterns.js';
import { totalWaitWithinLimit, waitForWithinTimeout } from './waits.js';
import { webhookSignatureHeader } from './webhookHeaders.js';

export type { CodeRule, RuleProblem, Segments } from './codeRule.js';

// The definition's default, as the generator wrote it down (no TypeBox definition is loaded with validate()).
const V1_DEFAULT_MAX_DEPTH = defaults['v1']?.['CrawlRequest']?.['maxDepth'];
if (typeof V1_DEFAULT_MAX_DEPTH !== 'number') throw new Error('v1 maxDepth has no default');

export interface PlacedRule {
  /** The object the rule looks at, inside the body. */
  readonly at: Segments;
  readonly rule: CodeRule;
}

const at = (segments: Segments, rules: CodeRule[]): PlacedRule[] => rules.map((rule) => ({ at: segments, rule }));
const scrapeOptionRules = (version: 'v1' | 'v2') => [
  waitForWithinTimeout,
  totalWaitWithinLimit(version),
  ...jsonSchemaRules(version, 'options'),
];

const webhook = at(['webhook'], [webhookSignatureHeader]);

export const CODE_RULES: Partial<Record<SchemaName, readonly PlacedRule[]>> = {
  'v1/ScrapeOptions': at([], scrapeOptionRules('v1')),
  'v2/ScrapeOptions': at([], scrapeOptionRules('v2')),
  'v1/CrawlRequest': [
    ...at([], [crawlUrlValid, urlDepthWithinMaxDepth(V1_DEFAULT_MAX_DEPTH), pathPatternsCompile]),
    ...at(['scrapeOptions'], scrapeOptionRules('v1')),
    ...webhook,
  ],
  'v2/CrawlRequest': [...at([], [crawlUrlValid, pathPatternsCompile]), ...at(['scrapeOptions'], scrapeOptionRules('v2')), ...webhook],
  'v1/BatchScrapeRequest': [...at([], [batchUrlsUsable('v1'), ...scrapeOptionRules('v1')]), ...webhook],
  'v2/BatchScrapeRequest': [...at([], [batchUrlsUsable('v2'), ...scrapeOptionRules('v2')]), ...webhook],
  'v1/JsonOptions': at([], jsonSchemaRules('v1', 'holder')),
  'v1/ChangeTrackingOptions': at([], jsonSchemaRules('v1', 'holder')),
  'v2/JsonFormat': at([], jsonSchemaRules('v2', 'holder')),
  'v2/ChangeTrackingFormat': at([], jsonSchemaRules('v2', 'holder')),
  'v1/Webhook': at([], [webhookSignatureHeader]),
  'v2/Webhook': at([], [webhookSignatureHeader]),
  'v1/WebhookObject': at([], [webhookSignatureHeader]),
  'v2/WebhookObject': at([], [webhookSignatureHeader]),
};
