/**
 * Holds what a crawl returned against what the oracle says it must (oracle.ts): every problem, at its level,
 * with the page, the rule and where the rule comes from.
 *
 *   - `extra`: a page the crawl must not return (a filter keeps it out, or it is not reachable), or an address
 *     that is no page of the site;
 *   - `missing`: a page it must return, when its limit leaves room for every page it may return;
 *   - `tooFew`: when the limit does not leave that room, fewer pages than the limit and the pages it must
 *     return allow;
 *   - `tooMany`: more pages than `limit`;
 *   - `sameGroup`: two pages of one path with `ignoreQueryParameters`;
 *   - `twice`: the same page twice (the service returns each page once).
 */
import type { CrawlExpectation, PageExpectation } from './oracle.js';
import type { CrawlLevel } from './rules.js';
import { pageKey } from './site.js';

export interface CrawledPage {
  /** `metadata.url`: the address the page was read from (after redirects). */
  readonly url?: unknown;
  /** `metadata.sourceURL`: the address the crawl found. */
  readonly sourceURL?: unknown;
}

export interface CrawlProblem {
  readonly kind: 'extra' | 'missing' | 'tooFew' | 'tooMany' | 'sameGroup' | 'twice';
  readonly level: CrawlLevel;
  /** The page concerned, when one is. */
  readonly url?: string;
  readonly message: string;
  /** Where the rule comes from: `interface §2.1`, or `service`. */
  readonly cite: string;
}

const LEVELS: readonly CrawlLevel[] = ['interface', 'service'];

/** Every problem of `results` (the page records a crawl returned) against `expected`. */
export function judgeCrawl(expected: CrawlExpectation, results: readonly CrawledPage[]): CrawlProblem[] {
  const byUrl = new Map(expected.pages.map((p) => [p.url, p]));
  const problems: CrawlProblem[] = [];
  const found: PageExpectation[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    // A page is known by where it was read from, or else by where it was found.
    const keys = [result.url, result.sourceURL].flatMap((u) => (typeof u === 'string' ? (pageKey(u) ?? []) : []));
    const page = keys.map((k) => byUrl.get(k)).find((p) => p !== undefined);
    if (page === undefined) {
      problems.push({
        kind: 'extra',
        level: 'interface',
        ...(keys[0] === undefined ? {} : { url: keys[0] }),
        message: `${keys[0] ?? JSON.stringify(result)} is no page of the site, nor reachable from the start page`,
        cite: 'interface §2.1',
      });
      continue;
    }
    if (seen.has(page.url)) {
      problems.push({ kind: 'twice', level: 'service', url: page.url, message: `${page.url} is returned twice`, cite: 'service' });
      continue;
    }
    seen.add(page.url);
    found.push(page);
  }

  const { atMost, settings } = expected;
  if (found.length > atMost)
    problems.push({ kind: 'tooMany', level: 'interface', message: `${found.length} pages returned, more than limit ${settings.limit}`, cite: 'interface §2.1' });
  if (settings.ignoreQueryParameters) {
    const groups = new Map<string, string[]>();
    for (const page of found) groups.set(page.group, [...(groups.get(page.group) ?? []), page.url]);
    for (const [group, urls] of groups)
      if (urls.length > 1)
        problems.push({
          kind: 'sameGroup',
          level: 'interface',
          url: group,
          message: `${urls.join(' and ')} are the same path with other query parameters, and ignoreQueryParameters is true`,
          cite: 'interface §2.1',
        });
  }

  const reported = new Set<string>();
  for (const level of LEVELS) {
    for (const page of found) {
      if (page.verdict[level] !== 'mustNot' || reported.has(page.url)) continue;
      reported.add(page.url);
      const why = page.why[level]!;
      problems.push({ kind: 'extra', level, url: page.url, message: `${page.url} is returned, but ${why.reason}`, cite: why.cite });
    }
    // Groups the crawl must return, and those it may: the limit binds when it is smaller than all it may return.
    const must = new Set(expected.pages.filter((p) => p.verdict[level] === 'must').map((p) => p.group));
    const may = new Set(expected.pages.filter((p) => p.verdict[level] !== 'mustNot').map((p) => p.group));
    const returned = new Set(found.map((p) => p.group));
    if (atMost >= may.size) {
      for (const group of must) {
        if (returned.has(group) || reported.has(group)) continue;
        reported.add(group);
        problems.push({
          kind: 'missing',
          level,
          url: group,
          message: `${group} is not returned, though the crawl reaches it and no rule keeps it out`,
          cite: level === 'interface' ? 'interface §2.1' : 'service',
        });
      }
    } else {
      const least = Math.min(atMost, must.size);
      if (returned.size < least && !reported.has(`tooFew ${level}`) && !reported.has('tooFew interface')) {
        reported.add(`tooFew ${level}`);
        problems.push({
          kind: 'tooFew',
          level,
          message: `${returned.size} page(s) returned, fewer than the ${least} that limit ${settings.limit} and the pages the crawl must reach allow`,
          cite: level === 'interface' ? 'interface §2.1' : 'service',
        });
      }
    }
  }
  return problems;
}
