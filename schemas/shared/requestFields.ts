/**
 * Request fields that crawl and batch scrape share across versions. Each version assembles its request
 * bodies from these in `v1/` and `v2/`.
 */
import { Type } from '@sinclair/typebox';
import { Named, defaultUnless, fromInterface, extension, keywordSources, serviceDefault, use } from '../annotations.js';
import { Literals } from '../literals.js';
import { ruleMarks } from '../rule.js';
import { PATH_PATTERN_MAX_LENGTH, PATH_PATTERNS_PER_FIELD } from './pathPatternBounds.js';
import { Url } from './url.js';
import { Webhook } from './webhook.js';

export const INTEGRATIONS = [
  'dify',
  'zapier',
  'pipedream',
  'raycast',
  'langchain',
  'crewai',
  'llamaindex',
  'n8n',
  'camelai',
  'make',
  'flowise',
  'metagpt',
  'relevanceai',
] as const;

export const Integration = Named(
  'Integration',
  Literals(INTEGRATIONS, { description: 'Integration the request comes from.', ...extension() }),
);

/** Fields every crawl and batch request accepts. */
export function jobRequestFields(kind: 'crawl' | 'batch') {
  const section = kind === 'crawl' ? '§2.1' : '§2.2';
  const here = fromInterface(section);
  const job = kind === 'crawl' ? 'crawl' : 'batch';
  return {
    webhook: Type.Optional(use(Webhook, { description: `Where to deliver this ${job}'s events.`, ...here })),
    maxConcurrency: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `Maximum number of pages scraped at once for this ${job}; without it the team's concurrency limit applies.`,
        ...here,
        ...keywordSources({ minimum: 'service' }),
      }),
    ),
    zeroDataRetention: Type.Optional(
      Type.Boolean({
        default: false,
        description: `Keep no data of this ${job} after it ends. The provider's support must enable it for the team first.`,
        ...here,
      }),
    ),
    origin: Type.Optional(Type.String({ ...serviceDefault('api'), description: 'Client that sent the request.', ...extension() })),
    integration: Type.Optional(use(Integration, { description: 'Integration the request comes from.', ...extension() })),
  };
}

export { PATH_PATTERN_MAX_LENGTH, PATH_PATTERNS_PER_FIELD };

const pathPatterns = (description: string) =>
  Type.Optional(
    Type.Array(Type.String({ maxLength: PATH_PATTERN_MAX_LENGTH, ...keywordSources({ maxLength: 'service' }) }), {
      maxItems: PATH_PATTERNS_PER_FIELD,
      ...serviceDefault([]),
      description,
      examples: [['^/blog/.*']],
      ...fromInterface('§2.1'),
      ...keywordSources({ maxItems: 'service' }),
    }),
  );

/** Crawler fields common to v1 and v2 crawl requests. */
export function crawlerFields(version: 'v1' | 'v2') {
  const here = fromInterface('§2.1');
  const entireDomain =
    'false: only follow links to deeper (child) paths of the start URL. true: follow any internal link, siblings and parents included.';
  return {
    url: use(Url, { description: 'Address the crawl starts from.', examples: ['https://example.com/docs'], ...here }),
    excludePaths: pathPatterns('Regular expressions on the URL path; matching URLs are left out of the crawl.'),
    includePaths: pathPatterns('Regular expressions on the URL path; only matching paths are included in the results.'),
    maxDiscoveryDepth: Type.Optional(
      Type.Integer({
        description:
          'Maximum depth in discovery order: the start page and the pages listed in the sitemap are at depth 0. With 1 and the sitemap skipped, the start page and the pages it links to are crawled.',
        ...here,
      }),
    ),
    ignoreQueryParameters: Type.Optional(
      Type.Boolean({ default: false, description: 'Do not scrape the same path again with other (or no) query parameters.', ...here }),
    ),
    limit: Type.Optional(Type.Integer({ default: 10000, description: 'Maximum number of pages to crawl.', ...here })),
    crawlEntireDomain: Type.Optional(
      Type.Boolean({
        default: false,
        // v1: the service takes `crawlEntireDomain ?? allowBackwardLinks`, so a filled-in false would override a sent allowBackwardLinks.
        ...(version === 'v1' ? defaultUnless(entireDomain, ['allowBackwardLinks']) : { description: entireDomain }),
        ...here,
      }),
    ),
    allowExternalLinks: Type.Optional(Type.Boolean({ default: false, description: 'Follow links to other websites.', ...here })),
    allowSubdomains: Type.Optional(
      Type.Boolean({ default: false, description: 'Follow links to subdomains of the start domain.', ...here }),
    ),
    delay: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 60,
        ...ruleMarks({
          id: 'delayAtMost60Seconds',
          source: 'service',
          keyword: 'maximum',
          message: 'The delay parameter is measured in seconds and cannot exceed 60 seconds.',
        }),
        description: "Seconds to wait between scrapes, to respect the site's rate limits (the service allows at most 60).",
        ...here,
        ...keywordSources({ exclusiveMinimum: 'service', maximum: 'service' }),
      }),
    ),
    ...jobRequestFields('crawl'),
    ignoreRobotsTxt: Type.Optional(
      Type.Boolean({ ...serviceDefault(false), description: "Ignore the site's robots.txt.", ...extension() }),
    ),
    deduplicateSimilarURLs: Type.Optional(
      Type.Boolean({
        ...serviceDefault(true),
        description: 'Treat near-identical URLs (e.g. `www.` and not) as one page.',
        ...extension(),
      }),
    ),
    regexOnFullURL: Type.Optional(
      Type.Boolean({
        ...serviceDefault(false),
        description: 'Match `includePaths`/`excludePaths` against the full URL instead of the path.',
        ...extension(),
      }),
    ),
  };
}

/** Batch fields common to v1 and v2 (the version's scrape options are added at top level). */
export function batchFields(version: 'v1' | 'v2') {
  const here = fromInterface('§2.2');
  return {
    urls: Type.Array(use(Url, {}), {
      minItems: 1,
      description: 'Addresses to scrape.',
      examples: [['https://example.com/a', 'https://example.com/b']],
      ...here,
      ...keywordSources({ minItems: 'service' }),
    }),
    ignoreInvalidURLs: Type.Optional(
      Type.Boolean({
        default: version === 'v2',
        description:
          'true: invalid entries of `urls` are dropped, the batch is made of the valid ones, and the dropped ones are listed in `invalidURLs`. false: one invalid entry fails the whole request.',
        ...here,
      }),
    ),
    ...jobRequestFields('batch'),
    appendToId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'Add these pages to an existing batch job instead of starting a new one.',
        ...extension(),
      }),
    ),
  };
}
