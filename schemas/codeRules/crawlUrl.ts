/** The crawl's start address must be a valid crawl URL, and (v1) no deeper than `maxDepth`. */
import { crawlUrlProblem, isPlainCrawlUrl, isUnparseableUrl, normalizeCrawlUrl, plainOriginEnd } from '../shared/crawlUrl.js';
import { field, NO_PROBLEMS, type CodeRule } from './codeRule.js';

export const crawlUrlValid: CodeRule = {
  id: 'crawlUrl',
  // A string that is no URL at all breaks interface §2.1 ("string (URI)"); the other clauses are the service's.
  source: 'service',
  // IP literals accepted, and the message naming them (service-facts §13).
  since: '2026-08-02',
  fields: ['url'],
  triggers: ['url'],
  description:
    'A valid crawl URL: http or https (or no scheme, meaning http), parseable, with an IP address or a host whose top-level domain is in the ICANN section of the Public Suffix List.',
  check(request) {
    const url = field(request, 'url');
    const problem = typeof url === 'string' ? crawlUrlProblem(url) : undefined;
    if (problem === undefined) return NO_PROBLEMS;
    return [{ at: ['url'], message: problem, ...(isUnparseableUrl(url as string) ? { source: 'interface §2.1' as const } : {}) }];
  },
  keeps: (request) => crawlUrlKept(request.url),
  reads: ['url'],
  keepsWith: (_request, url) => crawlUrlKept(url),
};

/** A plain address is valid (crawlUrlProblem asks the same first); anything else is for `check`. */
const crawlUrlKept = (url: unknown): boolean => typeof url !== 'string' || scannedOriginEnd(url) >= 0;

/**
 * `plainOriginEnd` of the last address the crawl URL rule's cheap answer scanned (`scannedOriginEnd`), for the depth
 * rule's (v1), asked next of the same `url` (`originEnd`). It is a function of the string alone (and a string never
 * changes), so the answer remembered is the answer. The crawl URL rule scans every time, so that validating one body
 * again and again (a benchmark) costs what validating a new one does.
 */
let lastAddress = '';
let lastEnd = plainOriginEnd('');
function scannedOriginEnd(url: string): number {
  // Scanned before either is set: a scan that throws (no stack left) leaves no answer kept for an address it did not judge.
  const end = plainOriginEnd(url);
  lastAddress = url;
  return (lastEnd = end);
}
const originEnd = (url: string): number => (url === lastAddress ? lastEnd : plainOriginEnd(url));

/**
 * The depth of an address: the number of slashes in its path, not counting a trailing one, so the root
 * `/` is depth 0, `/blog/` depth 1 and `/blog/category` depth 2.
 */
export function urlDepth(url: string): number {
  return pathDepth(writtenPath(url) ?? new URL(normalizeCrawlUrl(url)).pathname);
}

/** The slashes of a URL path, not counting a trailing one. */
function pathDepth(path: string): number {
  let slashes = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 0x2f) slashes += 1;
  return path.endsWith('/') ? slashes - 1 : slashes;
}

/**
 * A `\` or a `.` or `..` segment, a dot written as itself or as `%2e` (`.%2E`, `%2e%2e`, ...): WHATWG rewrites such a
 * path. Any other `%` is kept as written (WHATWG decodes nothing else, and a `%` without two hex digits after it is
 * kept too).
 */
const REWRITTEN_PATH = /\\|(?:^|\/)(?:\.|%2e)(?:\.|%2e)?(?:\/|$)/i;

/**
 * The path of a plain address (see crawlUrl.ts) as WHATWG reads it, without parsing the address, when WHATWG
 * keeps it as written: from the first `/` after the host up to a `?` or `#` (`/` when there is none). Else
 * undefined. WHATWG percent-encodes some characters of a path too, but never a `/`, which is all depth counts.
 */
export function writtenPath(url: string): string | undefined {
  if (!isPlainCrawlUrl(url)) return undefined;
  const afterScheme = url.indexOf('://') + 3;
  let end = afterScheme;
  while (end < url.length && url[end] !== '/' && url[end] !== '?' && url[end] !== '#') end += 1;
  if (url[end] !== '/') return '/';
  let stop = end;
  while (stop < url.length && url[stop] !== '?' && url[stop] !== '#') stop += 1;
  const path = url.slice(end, stop);
  return REWRITTEN_PATH.test(path) ? undefined : path;
}

/**
 * `pathDepth(writtenPath(url))` in one pass, allocating nothing: the depth of a plain address whose path WHATWG
 * keeps as written; -1 for any other address (`writtenPath` is then undefined).
 */
export function writtenPathDepth(url: string): number {
  const end = originEnd(url);
  if (end < 0) return -1;
  const n = url.length;
  // What ends the host: a `/`, `?` or `#` just before `end`, or nothing (the host ends the address).
  const separator = end > 0 ? url.charCodeAt(end - 1) : 0;
  const inPath = separator === 0x2f;
  if (!inPath && separator !== 0x3f && separator !== 0x23 && end !== n) return -1;
  let slashes = inPath ? 1 : 0;
  let last = separator; // the path's last character so far
  let segment = 0; // characters of the current segment, while they are dots only; -1 once another shows up
  let path = inPath;
  for (let i = end; i < n; i++) {
    const c = url.charCodeAt(i);
    // isPlainCrawlUrl: visible ASCII after the host.
    if (c < 0x21 || c > 0x7e) return -1;
    if (!path) continue;
    if (c === 0x3f || c === 0x23) {
      // The path ends: a `.` or `..` segment ending it is rewritten.
      if (segment === 1 || segment === 2) return -1;
      path = false;
      continue;
    }
    // REWRITTEN_PATH: a `\`, or a `.` or `..` segment (a dot written as `.` or `%2e`).
    if (c === 0x5c) return -1;
    if (c === 0x2f) {
      if (segment === 1 || segment === 2) return -1;
      slashes += 1;
      segment = 0;
    } else if (c === 0x25 && url.charCodeAt(i + 1) === 0x32 && (url.charCodeAt(i + 2) | 0x20) === 0x65) {
      segment = segment >= 0 ? segment + 1 : -1;
      i += 2;
    } else segment = c === 0x2e && segment >= 0 ? segment + 1 : -1;
    last = c;
  }
  if (path && (segment === 1 || segment === 2)) return -1;
  if (!inPath) return 0;
  return last === 0x2f ? slashes - 1 : slashes;
}

/** `defaultMaxDepth`: the definition's default for an absent `maxDepth`. */
export function urlDepthWithinMaxDepth(defaultMaxDepth: number): CodeRule {
  return {
    id: 'urlDepthWithinMaxDepth',
    // Interface §2.1 bounds the depth of scraped URLs; refusing a deeper start URL is the service's rule.
    source: 'service',
    fields: ['maxDepth'],
    triggers: ['url'],
    description: `The start URL's depth (slashes in its path, not counting a trailing one) must not exceed \`maxDepth\` (default ${defaultMaxDepth}).`,
    check(request) {
      const url = field(request, 'url');
      const given = field(request, 'maxDepth');
      const maxDepth = typeof given === 'number' ? given : defaultMaxDepth;
      if (typeof url !== 'string') return NO_PROBLEMS;
      // A plain address is valid and its path read as written; any other address is parsed, if it is valid.
      const path = writtenPath(url) ?? (crawlUrlProblem(url) === undefined ? new URL(normalizeCrawlUrl(url)).pathname : undefined);
      return path !== undefined && pathDepth(path) > maxDepth
        ? [{ at: ['url'], message: 'URL depth exceeds the specified maxDepth' }]
        : NO_PROBLEMS;
    },
    keeps: (request) => depthKept(request, request.url, request.maxDepth),
    reads: ['url', 'maxDepth'],
    keepsWith: depthKept,
  };

  function depthKept(request: Readonly<Record<string, unknown>>, url: unknown, given: unknown): boolean {
    if (typeof url !== 'string') return true;
    const depth = writtenPathDepth(url);
    if (depth < 0) return false;
    // A plain read: an absent `maxDepth` means the default, so a number read counts only when it is the request's
    // own, which is asked only when the depth is within the number but not within the default.
    if (typeof given !== 'number') return !(depth > defaultMaxDepth);
    return !(depth > given) && (!(depth > defaultMaxDepth) || Object.hasOwn(request, 'maxDepth'));
  }
}
