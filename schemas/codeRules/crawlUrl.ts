/** The crawl's start address must be a valid crawl URL, and (v1) no deeper than `maxDepth`. */
import { crawlUrlProblem, normalizeCrawlUrl } from '../shared/crawlUrl.js';
import { field, type CodeRule } from './codeRule.js';

export const crawlUrlValid: CodeRule = {
  id: 'crawlUrl',
  fields: ['url'],
  description:
    'A valid crawl URL: http or https (or no scheme, meaning http), parseable, with an IP address or a host with a top-level domain.',
  check(request) {
    const url = field(request, 'url');
    const problem = typeof url === 'string' ? crawlUrlProblem(url) : undefined;
    return problem === undefined ? [] : [{ at: ['url'], message: problem }];
  },
};

/**
 * The depth of an address: the number of slashes in its path, not counting a trailing one, so the root
 * `/` is depth 0, `/blog/` depth 1 and `/blog/category` depth 2.
 */
export function urlDepth(url: string): number {
  const path = new URL(normalizeCrawlUrl(url)).pathname.replace(/\/$/, '');
  let depth = 0;
  for (const c of path) if (c === '/') depth += 1;
  return depth;
}

/** `defaultMaxDepth`: the definition's default for an absent `maxDepth`. */
export function urlDepthWithinMaxDepth(defaultMaxDepth: number): CodeRule {
  return {
    id: 'urlDepthWithinMaxDepth',
    fields: ['maxDepth'],
    description: `The start URL's depth (slashes in its path, not counting a trailing one) must not exceed \`maxDepth\` (default ${defaultMaxDepth}).`,
    check(request) {
      const url = field(request, 'url');
      const given = field(request, 'maxDepth');
      const maxDepth = typeof given === 'number' ? given : defaultMaxDepth;
      if (typeof url !== 'string' || crawlUrlProblem(url) !== undefined) return [];
      return urlDepth(url) > maxDepth ? [{ at: ['url'], message: 'URL depth exceeds the specified maxDepth' }] : [];
    },
  };
}
