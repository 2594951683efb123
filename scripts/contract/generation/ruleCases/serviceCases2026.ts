/**
 * The request rules the service gained between August 2025 and its state of 2026-08-21 (issue 44): new formats and
 * their rules, plain format objects refusing unknown keys, the checked `integration`, new scrape options and their
 * bounds, batches of at least one URL, the webhook's event list. Each case names the date of the service's change.
 */
import type { Version } from '../../../../schemas/registry.js';
import type { OptionCase } from './placement.js';
import { BOTH, EXAMPLE_URL, HOOK, type RuleCase } from './ruleCase.js';

// The service's messages, written out here (not imported) so that a changed message fails a test.
export const RAW_BASE64_ALONE = 'The rawBase64 format cannot be combined with other formats';
export const JSON_OR_DETERMINISTIC_JSON = 'Cannot specify both json and deterministicJson formats';
export const INTEGRATION =
  "Invalid enum value. Expected 'dify' | 'zapier' | 'pipedream' | 'raycast' | 'langchain' | 'crewai' | 'llamaindex' | 'n8n' | 'camelai' | 'make' | 'flowise' | 'metagpt' | 'relevanceai' | 'viasocket' | 'cli' | 'hermes' | 'gstack' | 'prometheus'";
const UNKNOWN_KEY = 'is not a known field here';

export const OPTION_CASES_2026: readonly OptionCase[] = [
  {
    title: 'rawBase64 must be the only format (2026-08-21)',
    kind: 'schema',
    versions: BOTH,
    rule: 'rawBase64Alone',
    valid: { formats: ['rawBase64'] },
    invalid: { formats: ['rawBase64', 'markdown'] },
    at: '.formats',
    message: RAW_BASE64_ALONE,
  },
  {
    title: 'rawBase64 as an object, beside a markdown object (2026-08-21)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'rawBase64Alone',
    valid: { formats: [{ type: 'rawBase64' }] },
    invalid: { formats: [{ type: 'markdown' }, { type: 'rawBase64' }] },
    at: '.formats',
    message: RAW_BASE64_ALONE,
  },
  {
    title: 'not both json and deterministicJson (2026-06-04)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'jsonOrDeterministicJson',
    valid: { formats: ['markdown', { type: 'deterministicJson', prompt: 'Extract the price' }] },
    invalid: { formats: [{ type: 'json', prompt: 'Extract the price' }, 'deterministicJson'] },
    at: '.formats',
    message: JSON_OR_DETERMINISTIC_JSON,
  },
  {
    title: 'a deterministicJson prompt of at most 10000 characters (2026-06-04)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'maxLength',
    valid: { formats: [{ type: 'deterministicJson', prompt: 'p'.repeat(10000) }] },
    invalid: { formats: [{ type: 'deterministicJson', prompt: 'p'.repeat(10001) }] },
    at: '.formats[0].prompt',
    message: 'must have at most 10000 characters, not 10001',
  },
  {
    title: 'an unknown key in a markdown, html, rawHtml, links or summary object (refused since 2025-12-03)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'additionalProperties',
    valid: { formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'rawHtml' }, { type: 'links' }, { type: 'summary' }] },
    invalid: { formats: [{ type: 'summary', length: 'short' }] },
    at: '.formats[0].length',
    message: UNKNOWN_KEY,
  },
  {
    title: 'a question of 1 to 10000 characters (2026-05-06)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'minLength',
    valid: {
      formats: [
        { type: 'question', question: 'What does it cost?' },
        { type: 'highlights', query: 'pricing' },
      ],
    },
    invalid: { formats: [{ type: 'question', question: '' }] },
    at: '.formats[0].question',
    message: 'must have at least 1 characters, not 0',
  },
  {
    title: 'timeout at least 1000 (2026-01-21)',
    kind: 'schema',
    versions: BOTH,
    rule: 'minimum',
    valid: { timeout: 1000, proxy: 'enhanced' },
    invalid: { timeout: 999 },
    at: '.timeout',
    message: 'must be >= 1000, not 999',
  },
  {
    title: 'a PDF parser object reads at most 10000 pages, with page markers (2025-08-29, 2026-08-20)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'maximum',
    valid: { parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 10000, pages: true, blocks: true, pageMarkers: true }] },
    invalid: { parsers: [{ type: 'pdf', maxPages: 10001 }] },
    at: '.parsers[0].maxPages',
    message: 'must be <= 10000, not 10001',
  },
  {
    title: 'a profile names 1 to 128 characters (2026-03-23)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'minLength',
    valid: { profile: { name: 'shop-login' }, lockdown: true, minAge: 0, redactPII: true, threatProtection: {}, auditMetadata: {} },
    invalid: { profile: { name: '' } },
    at: '.profile.name',
    message: 'must have at least 1 characters, not 0',
  },
  {
    title: 'minAge is not negative (2025-11-30)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'minimum',
    valid: { minAge: 3600000 },
    invalid: { minAge: -1 },
    at: '.minAge',
    message: 'must be >= 0, not -1',
  },
];

const onBoth = (make: (version: Version) => RuleCase): RuleCase[] => BOTH.map(make);

export const REQUEST_CASES_2026: RuleCase[] = [
  ...onBoth((version) => ({
    title: 'integrationName: a listed name or any name starting with _ (2025-09-03; prometheus 2026-05-19)',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: { url: EXAMPLE_URL, integration: version === 'v1' ? '_my-tool' : 'prometheus' },
    invalid: { url: EXAMPLE_URL, integration: 'my-tool' },
    issues: [{ path: '$.integration', rule: 'integrationName', message: INTEGRATION }],
  })),
  ...onBoth((version) => ({
    title: 'a batch has at least one URL (2025-10-10)',
    kind: 'schema',
    version,
    schema: 'BatchScrapeRequest',
    valid: { urls: [EXAMPLE_URL] },
    invalid: { urls: [] },
    issues: [{ path: '$.urls', rule: 'minItems', message: 'must have at least 1 items, not 0' }],
  })),
  ...onBoth((version) => ({
    title: 'webhook events: an empty list means every event (2026-05-08); an unknown kind is refused',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: { url: EXAMPLE_URL, webhook: { url: HOOK, events: [] } },
    invalid: { url: EXAMPLE_URL, webhook: { url: HOOK, events: ['finished'] } },
    issues: [
      {
        path: '$.webhook.events[0]',
        rule: 'enum',
        message: 'must be one of "started", "page", "completed", "failed", not "finished"',
      },
    ],
  })),
  {
    title: 'robotsUserAgent is a string (2026-04-15)',
    kind: 'schema',
    version: 'v2',
    schema: 'CrawlRequest',
    valid: { url: EXAMPLE_URL, robotsUserAgent: 'ExampleBot', sitemap: 'only' },
    invalid: { url: EXAMPLE_URL, robotsUserAgent: 5 },
    issues: [{ path: '$.robotsUserAgent', rule: 'type', message: 'must be string, not integer (5)' }],
  },
];
