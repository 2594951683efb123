/**
 * The cases of the real-client conformance test (test/realClient.test.ts) for options the SDK's types expose beyond
 * the spec list, kept apart so that a schema decision about them shows up as its own failures.
 */
import { type Case, SDK_ORIGIN, type V1ScrapeParams, productSchema, v1Batch, v1Crawl, v2Batch, v2Crawl } from './realClientSdk.js';

// ---------------------------------------------------------------------------
// Cases: options the SDK's types expose beyond the spec list above. They are
// kept apart so a schema decision about them shows up as its own failures.
// ---------------------------------------------------------------------------

/** The spec rejects these keys: the service does not know them (unknown keys are rejected, as it does). */
const rejecting = (c: Case, rejectedPaths: string[]): Case => ({ ...c, rejectedPaths });

export const typedExtraCases: Case[] = [
  // auditMetadata is a v2 scrape option of the service; v1 does not accept it.
  rejecting(
    v1Crawl('v1 crawl extra: deduplicateSimilarURLs, regexOnFullURL, scrapeOptions.auditMetadata', 'https://example.com/docs', {
      deduplicateSimilarURLs: true,
      regexOnFullURL: true,
      includePaths: ['https://example\\.com/docs/.*'],
      scrapeOptions: { formats: ['markdown'], auditMetadata: { username: 'jane.doe' } },
    }),
    ['$.scrapeOptions.auditMetadata'],
  ),
  v1Batch('v1 batch extra: extract format + extract options', ['https://example.com/shop/item-1'], {
    formats: ['extract'],
    extract: { prompt: 'Extract the product title and price.', schema: productSchema, systemPrompt: 'Be concise.' },
  }),
  // The service takes `agent` only on single-page scrapes, and auditMetadata only in v2.
  rejecting(
    v1Batch('v1 batch extra: jsonOptions.checkPromptInjection, agent, auditMetadata', ['https://example.com/shop/item-1'], {
      formats: ['json'],
      jsonOptions: { prompt: 'Extract the product title and price.', checkPromptInjection: true },
      agent: { model: 'FIRE-1', prompt: 'Open the specifications tab before extracting.' },
      auditMetadata: { username: 'jane.doe' },
    }),
    ['$.agent', '$.auditMetadata'],
  ),
  v1Batch(
    'v1 batch extra: origin containing "mcp" is kept',
    ['https://example.org/a'],
    {
      formats: ['markdown'],
      origin: 'mcp-server',
    } as V1ScrapeParams,
    {
      expectedBody: { urls: ['https://example.org/a'], formats: ['markdown'], origin: 'mcp-server' },
    },
  ),
  v2Crawl(
    'v2 crawl extra: deduplicateSimilarURLs, robotsUserAgent, regexOnFullURL, integration',
    'https://example.com/docs',
    {
      deduplicateSimilarURLs: true,
      robotsUserAgent: 'DocsBot',
      regexOnFullURL: true,
      includePaths: ['https://example\\.com/docs/.*'],
      integration: '  langchain  ',
    },
    {
      expectedBody: {
        url: 'https://example.com/docs',
        deduplicateSimilarURLs: true,
        robotsUserAgent: 'DocsBot',
        regexOnFullURL: true,
        includePaths: ['https://example\\.com/docs/.*'],
        integration: 'langchain',
        origin: SDK_ORIGIN,
      },
    },
  ),
  v2Crawl(
    'v2 crawl extra: ignoreRobotsTxt is typed but dropped by the SDK',
    'https://example.org/a',
    {
      ignoreRobotsTxt: true,
      limit: 10,
    },
    {
      expectedBody: { url: 'https://example.org/a', limit: 10, origin: SDK_ORIGIN },
      absentKeys: ['ignoreRobotsTxt'],
    },
  ),
  v2Crawl('v2 crawl extra: newer format strings', 'https://example.com/shop', {
    scrapeOptions: { formats: ['branding', 'product', 'menu', 'audio', 'video'] },
  }),
  v2Crawl('v2 crawl extra: attributes / question / highlights / query formats', 'https://example.com/docs', {
    scrapeOptions: {
      formats: [
        { type: 'attributes', selectors: [{ selector: 'a.download', attribute: 'href' }] },
        { type: 'question', question: 'Which plans include SSO?' },
        { type: 'highlights', query: 'rate limits' },
        { type: 'query', prompt: 'What is the refund policy?', mode: 'directQuote' },
        { type: 'json', prompt: 'Extract the plan names.', checkPromptInjection: true },
      ],
    },
  }),
  v2Crawl('v2 crawl extra: image parser, pdf parser page options', 'https://example.com/reports', {
    scrapeOptions: {
      parsers: ['pdf', 'image', { type: 'image' }, { type: 'pdf', pages: true, blocks: true, pageMarkers: true, pageMarkdown: true }],
    },
  }),
  // domainTools, and integration/origin inside scrapeOptions, are not scrape options of the service.
  rejecting(
    v2Crawl(
      'v2 crawl extra: scrapeOptions fastMode, minAge, lockdown, redactPII, threatProtection, profile, auditMetadata',
      'https://example.com/docs',
      {
        scrapeOptions: {
          fastMode: true,
          minAge: 60000,
          lockdown: false,
          redactPII: { mode: 'accurate', entities: ['EMAIL', 'PHONE'], replaceStyle: 'mask' },
          threatProtection: { mode: 'normal', riskScoreThreshold: 70, blockedTlds: ['zip'], failurePolicy: 'closed' },
          profile: { name: 'docs-login', saveChanges: false },
          auditMetadata: { username: 'jane.doe' },
          domainTools: false,
          useMock: 'docs-fixture',
          integration: 'zapier',
          origin: 'js-sdk-wrapper',
        },
      },
    ),
    ['$.scrapeOptions.domainTools', '$.scrapeOptions.integration', '$.scrapeOptions.origin'],
  ),
  v2Batch('v2 batch extra: appendToId, integration, redactPII true', ['https://example.org/c'], {
    options: { formats: ['markdown'], redactPII: true },
    appendToId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
    integration: 'n8n',
  }),
  v2Batch(
    'v2 batch extra: origin containing "mcp" is kept',
    ['https://example.org/a'],
    {
      options: { formats: ['markdown'] },
      origin: 'firecrawl-mcp',
    },
    {
      expectedBody: { urls: ['https://example.org/a'], formats: ['markdown'], origin: 'firecrawl-mcp' },
    },
  ),
];
