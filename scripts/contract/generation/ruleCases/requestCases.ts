/** The rules of the requests themselves (crawl, batch), of the status answer and of the location, per version. */
import type { Version } from '../../../../schemas/registry.js';
import { v1FieldMessage } from '../../../../schemas/v1Fields.js';
import {
  BOTH,
  COUNTRY,
  DELAY,
  EXAMPLE_URL,
  HOOK,
  HOST,
  NO_VALID_URLS,
  PROTOCOL,
  RE2,
  SIGNATURE,
  URL_DEPTH,
  numbered,
  type RuleCase,
} from './ruleCase.js';

const crawl = (fields: Record<string, unknown>) => ({ url: EXAMPLE_URL, ...fields });
const onBoth = (make: (version: Version) => RuleCase): RuleCase[] => BOTH.map(make);
/** A crawl URL rule case, in both versions: `valid` and `invalid` start URLs, and the message for the invalid one. */
const crawlUrlCases = (title: string, valid: string, invalid: string, message = HOST): RuleCase[] =>
  onBoth((version) => ({
    title: `crawlUrl: ${title}`,
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: { url: valid },
    invalid: { url: invalid },
    issues: [{ path: '$.url', rule: 'crawlUrl', message }],
  }));

export const REQUEST_CASES: RuleCase[] = [
  // urlDepthWithinMaxDepth (v1 only)
  {
    title: 'urlDepthWithinMaxDepth: /a/b/c is depth 3 > maxDepth 2; /blog/category is depth 2',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/blog/category', maxDepth: 2 },
    invalid: { url: 'https://example.com/a/b/c', maxDepth: 2 },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'urlDepthWithinMaxDepth: a trailing slash is not counted (/a/b/ is depth 2; /a/b/c/ is 3)',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/a/b/', maxDepth: 2 },
    invalid: { url: 'https://example.com/a/b/c/', maxDepth: 2 },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'urlDepthWithinMaxDepth: without maxDepth the default is 10 (depth 10 fine, 11 not)',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/1/2/3/4/5/6/7/8/9/10' },
    invalid: { url: 'https://example.com/1/2/3/4/5/6/7/8/9/10/11' },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'urlDepthWithinMaxDepth: maxDepth 0 allows the root only (scheme-less shorthand too)',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'example.com/', maxDepth: 0 },
    invalid: { url: 'example.com/docs', maxDepth: 0 },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'v2 has no depth rule: maxDepth is an unknown key there, and a deep URL is fine',
    kind: 'schema',
    version: 'v2',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/a/b/c/d/e/f/g/h/i/j/k/l' },
    invalid: { url: 'https://example.com/a/b/c', maxDepth: 2 },
    issues: [{ path: '$.maxDepth', rule: 'additionalProperties', message: v1FieldMessage('CrawlRequest', 'maxDepth')! }],
  },

  // pathPatternsCompile
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: includePaths "(" does not compile',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: ['^/blog/.*$'] }),
    invalid: crawl({ includePaths: ['('] }),
    issues: [
      {
        path: '$.includePaths[0]',
        rule: 'pathPatternsCompile',
        message: `Invalid includePaths pattern "(": Invalid regular expression: /(/: Unterminated group. ${RE2('includePaths')}`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: excludePaths lookahead (?=x)',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ excludePaths: ['^/private$', '^/blog/.*$'] }),
    invalid: crawl({ excludePaths: ['^/private$', '(?=x)'] }),
    issues: [
      {
        path: '$.excludePaths[1]',
        rule: 'pathPatternsCompile',
        message: `Invalid excludePaths pattern "(?=x)": lookahead assertions are not supported. ${RE2('excludePaths')}`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: excludePaths backreference (a)\\1',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ excludePaths: ['^/private$', '(a)+'] }),
    invalid: crawl({ excludePaths: ['^/private$', '(a)\\1'] }),
    issues: [
      {
        path: '$.excludePaths[1]',
        rule: 'pathPatternsCompile',
        message: `Invalid excludePaths pattern "(a)\\\\1": backreferences are not supported. ${RE2('excludePaths')}`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: includePaths lookbehind (?<=x)',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: ['^/blog/.*$'] }),
    invalid: crawl({ includePaths: ['(?<=/)blog'] }),
    issues: [
      {
        path: '$.includePaths[0]',
        rule: 'pathPatternsCompile',
        message: `Invalid includePaths pattern "(?<=/)blog": lookbehind assertions are not supported. ${RE2('includePaths')}`,
      },
    ],
  })),

  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: together, at most 1000 patterns (999 are fine)',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: numbered('^/a', 500), excludePaths: numbered('^/b', 499) }),
    invalid: crawl({ includePaths: numbered('^/a', 501), excludePaths: numbered('^/b', 500) }),
    issues: [
      {
        path: '$',
        rule: 'pathPatternsCompile',
        message: `includePaths and excludePaths together hold 1001 patterns of ${[...numbered('^/a', 501), ...numbered('^/b', 500)].join('').length} characters; at most 1000 patterns and 100000 characters are allowed.`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatterns: each pattern at most 2000 characters',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: [`^/${'a'.repeat(1998)}`] }),
    invalid: crawl({ includePaths: [`^/${'a'.repeat(1999)}`] }),
    issues: [{ path: '$.includePaths[0]', rule: 'maxLength', message: 'must have at most 2000 characters, not 2001' }],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatterns: at most 1000 patterns in a field',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ excludePaths: Array.from({ length: 1000 }, () => '^/x') }),
    invalid: crawl({ excludePaths: Array.from({ length: 1001 }, () => '^/x') }),
    issues: [
      { path: '$.excludePaths', rule: 'maxItems', message: 'must have at most 1000 items, not 1001' },
      // A body of more than REPORT_LIMIT values gets its first problem, and this note.
      {
        path: '$',
        rule: 'firstProblemOnly',
        message: 'only the first problem is reported: the body holds more than 500 values, too many to look for every problem in',
      },
    ],
  })),

  // crawlUrl
  ...crawlUrlCases(
    'a host label of 64 characters is longer than DNS allows (63 is fine)',
    `https://${'a'.repeat(63)}.example.com/`,
    `https://${'a'.repeat(64)}.example.com/`,
  ),
  ...crawlUrlCases(
    'an internationalised label of 64 characters too, refused before it is punycoded',
    `https://${'ü'.repeat(20)}.example.com/`,
    `https://${'ü'.repeat(64)}.example.com/`,
  ),
  ...crawlUrlCases(
    'ftp://example.com uses an unsupported protocol; example.com (no scheme) is fine',
    'example.com',
    'ftp://example.com',
    PROTOCOL,
  ),
  ...crawlUrlCases(
    'a bare file name is no host (image_0001.jpg: jpg is no top-level domain); a path may end in one',
    'https://images.example.com/image_0001.jpg',
    'image_0001.jpg',
  ),
  ...crawlUrlCases(
    'the top-level domain must be in the public suffix list (.zz is not; .museum is)',
    'https://docs.example.museum/guide',
    'https://docs.example.zz/guide',
  ),
  ...crawlUrlCases(
    'an internationalised top-level domain in the list (.рф) is fine; an unlisted one (.испытание, a test TLD) is not',
    'https://пример.рф/',
    'https://пример.испытание/',
  ),
  {
    title: 'batchUrls: v2 ignoring by default drops a bare file name; not ignoring, it fails at its index',
    kind: 'code',
    version: 'v2',
    schema: 'BatchScrapeRequest',
    valid: { urls: [EXAMPLE_URL, 'image_0001.jpg'] },
    invalid: { urls: [EXAMPLE_URL, 'image_0001.jpg'], ignoreInvalidURLs: false },
    issues: [{ path: '$.urls[1]', rule: 'batchUrls', message: HOST }],
  },
  ...crawlUrlCases('http://localhost has no top-level domain; http://127.0.0.1 is an IP address', 'http://127.0.0.1', 'http://localhost'),

  // batchUrls
  {
    title: 'batchUrls: v1 does not ignore invalid URLs by default; one invalid entry fails at its index',
    kind: 'code',
    version: 'v1',
    schema: 'BatchScrapeRequest',
    valid: { urls: [EXAMPLE_URL, 'example.com/b'] },
    invalid: { urls: [EXAMPLE_URL, 'ftp://example.com'] },
    issues: [{ path: '$.urls[1]', rule: 'batchUrls', message: PROTOCOL }],
  },
  {
    title: 'batchUrls: v1 with ignoreInvalidURLs true takes the same list',
    kind: 'code',
    version: 'v1',
    schema: 'BatchScrapeRequest',
    valid: { urls: [EXAMPLE_URL, 'ftp://example.com'], ignoreInvalidURLs: true },
    invalid: { urls: [EXAMPLE_URL, 'ftp://example.com'], ignoreInvalidURLs: false },
    issues: [{ path: '$.urls[1]', rule: 'batchUrls', message: PROTOCOL }],
  },
  {
    title: 'batchUrls: v2 ignores invalid URLs by default; with ignoreInvalidURLs false each invalid entry fails',
    kind: 'code',
    version: 'v2',
    schema: 'BatchScrapeRequest',
    valid: { urls: ['ftp://example.com', EXAMPLE_URL, 'http://localhost'] },
    invalid: { urls: ['ftp://example.com', EXAMPLE_URL, 'http://localhost'], ignoreInvalidURLs: false },
    issues: [
      { path: '$.urls[0]', rule: 'batchUrls', message: PROTOCOL },
      { path: '$.urls[2]', rule: 'batchUrls', message: HOST },
    ],
  },
  {
    title: 'batchUrls: v1 ignoring, but no valid URL is left',
    kind: 'code',
    version: 'v1',
    schema: 'BatchScrapeRequest',
    valid: { urls: ['ftp://example.com', EXAMPLE_URL], ignoreInvalidURLs: true },
    invalid: { urls: ['ftp://example.com', 'http://localhost'], ignoreInvalidURLs: true },
    issues: [{ path: '$.urls', rule: 'batchUrls', message: NO_VALID_URLS }],
  },
  {
    title: 'batchUrls: v2 ignoring by default, but no valid URL is left',
    kind: 'code',
    version: 'v2',
    schema: 'BatchScrapeRequest',
    valid: { urls: ['ftp://example.com', EXAMPLE_URL] },
    invalid: { urls: ['ftp://example.com', 'http://localhost'] },
    issues: [{ path: '$.urls', rule: 'batchUrls', message: NO_VALID_URLS }],
  },

  // webhookSignatureHeader
  ...(['CrawlRequest', 'BatchScrapeRequest'] as const).flatMap((schema) =>
    onBoth((version): RuleCase => ({
      title: 'webhookSignatureHeader: a webhook may not set X-Firecrawl-Signature, in any letter case (other headers are fine)',
      kind: 'code',
      version,
      schema,
      valid: {
        ...(schema === 'CrawlRequest' ? { url: EXAMPLE_URL } : { urls: [EXAMPLE_URL] }),
        webhook: { url: HOOK, headers: { 'X-Firecrawl-Token': 'a' } },
      },
      invalid: {
        ...(schema === 'CrawlRequest' ? { url: EXAMPLE_URL } : { urls: [EXAMPLE_URL] }),
        webhook: { url: HOOK, headers: { 'x-FIRECRAWL-signature': 'a' } },
      },
      issues: [{ path: '$.webhook.headers["x-FIRECRAWL-signature"]', rule: 'webhookSignatureHeader', message: SIGNATURE }],
    })),
  ),
  ...onBoth((version): RuleCase => ({
    title: 'webhookSignatureHeader: the Webhook definition itself, X-FIRECRAWL-SIGNATURE among other headers',
    kind: 'code',
    version,
    schema: 'Webhook',
    valid: { url: HOOK, headers: { Authorization: 'Bearer x', 'X-Signature': 'a' } },
    invalid: { url: HOOK, headers: { Authorization: 'Bearer x', 'X-FIRECRAWL-SIGNATURE': 'a' } },
    issues: [{ path: '$.headers["X-FIRECRAWL-SIGNATURE"]', rule: 'webhookSignatureHeader', message: SIGNATURE }],
  })),

  // delayAtMost60Seconds
  ...onBoth((version): RuleCase => ({
    title: 'delayAtMost60Seconds: delay 60.5 (60 is fine)',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ delay: 60 }),
    invalid: crawl({ delay: 60.5 }),
    issues: [{ path: '$.delay', rule: 'delayAtMost60Seconds', message: DELAY }],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'delay 0 is not a delay (exclusiveMinimum 0; 0.5 is fine)',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ delay: 0.5 }),
    invalid: crawl({ delay: 0 }),
    issues: [{ path: '$.delay', rule: 'exclusiveMinimum', message: 'must be > 0, not 0' }],
  })),
];

/** The status answer's `next`: a string, or absent (the service leaves the key out), never null. */
export const STATUS_CASES: RuleCase[] = onBoth((version): RuleCase => ({
  title: 'next is absent on the last page, never null',
  kind: 'schema',
  version,
  schema: 'JobStatusResponse',
  valid: { success: true, status: 'completed', completed: 0, total: 0, creditsUsed: 0, expiresAt: '2026-11-23T10:00:00.000Z', data: [] },
  invalid: {
    success: true,
    status: 'completed',
    completed: 0,
    total: 0,
    creditsUsed: 0,
    expiresAt: '2026-11-23T10:00:00.000Z',
    data: [],
    next: null,
  },
  issues: [{ path: '$.next', rule: 'type', message: 'must be string, not null (null)' }],
}));

/** Location on its own definition, in both versions. */
export const LOCATION_CASES: RuleCase[] = onBoth((version): RuleCase => ({
  title: "countryCode: the Location definition itself, 'UK' vs 'GB'",
  kind: 'schema',
  version,
  schema: 'Location',
  valid: { country: 'GB' },
  invalid: { country: 'UK' },
  issues: [{ path: '$.country', rule: 'countryCode', message: COUNTRY }],
}));
