/**
 * Request fields that crawl and batch scrape share across versions. Each version assembles its request
 * bodies from these in `v1/` and `v2/`.
 */
import { Type } from '@sinclair/typebox';
import {
  BY_SERVICE_STATE,
  Named,
  defaultUnless,
  fromInterface,
  extension,
  keywordSources,
  serviceDefault,
  serviceLevelDefault,
  serviceSince,
  use,
} from '../annotations.js';
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
  'viasocket',
  'cli',
  'hermes',
  'gstack',
  'prometheus',
] as const;
/** The names the service added on and after 2026-05-19 (service-facts §13). */
const LATER_INTEGRATIONS = ['viasocket', 'cli', 'hermes', 'gstack', 'prometheus'] as const;

export const INTEGRATION_MESSAGE = `Invalid enum value. Expected ${INTEGRATIONS.map((name) => `'${name}'`).join(' | ')}`;

export const Integration = Named(
  'Integration',
  Type.Union(
    [
      Literals(INTEGRATIONS, {
        description: 'A listed integration.',
        ...extension(),
        ...serviceSince({ enum: Object.fromEntries(LATER_INTEGRATIONS.map((name) => [name, '2026-05-19'])) }),
      }),
      Type.String({
        pattern: '^_',
        description: 'Any name starting with `_`.',
        examples: ['_my-integration'],
        ...extension(),
        ...serviceSince('2025-09-03'),
      }),
    ],
    {
      ...ruleMarks({ id: 'integrationName', keyword: 'anyOf', message: INTEGRATION_MESSAGE, source: 'service', since: '2025-09-03' }),
      description: 'Integration the request comes from: a listed name, or any name starting with `_`.',
      ...extension(),
    },
  ),
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
          since: '2026-06-03',
        }),
        description: "Seconds to wait between scrapes, to respect the site's rate limits (the service allows at most 60).",
        ...here,
        ...keywordSources({ exclusiveMinimum: 'service', maximum: 'service' }),
        ...serviceSince({ maximum: '2026-06-03' }),
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
      ...serviceSince({ minItems: '2025-10-10' }),
    }),
    ignoreInvalidURLs: Type.Optional(
      Type.Boolean({
        default: version === 'v2',
        description:
          'true: invalid entries of `urls` are dropped, the batch is made of the valid ones, and the dropped ones are listed in `invalidURLs`. false: one invalid entry fails the whole request.' +
          (version === 'v2'
            ? " The service's history is in flux here: at 2026-08-21 only a literal `true` made it drop invalid entries (an absent field behaved as false), while a later test of the service asserts the documented default `true`, which is kept."
            : ''),
        ...here,
        ...(version === 'v2'
          ? serviceLevelDefault({
              value: true,
              since: BY_SERVICE_STATE,
              inFlux:
                'At 2026-08-21 an absent ignoreInvalidURLs behaved as false (only a literal true selected the lenient parse); a later test of the service asserts the documented default true, which is kept.',
            })
          : {}),
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
