/**
 * One crawl of a crawl-behaviour check as a graph of the test site (the HTML report draws it): each page of the
 * site with what the crawl oracle expects of it at the run's level, whether the target returned it and, as the
 * judge found (schemas/crawl/judge.ts), whether it is missing or extra (a page the crawl must reach may be left
 * out where the limit binds: that is no problem), the links between them, and what was returned that is no page of
 * the site. A returned record is matched to a page as the
 * judge matches it (schemas/crawl/judge.ts): by the address it was read from, else the one it was found at.
 */
import type { CrawledPage, CrawlProblem } from '../../../schemas/crawl/judge.js';
import type { CrawlExpectation } from '../../../schemas/crawl/oracle.js';
import { pageKey, type SiteModel } from '../../../schemas/crawl/site.js';
import { decides, type Level } from '../spec/levels.js';
import type { CrawlGraph } from './report.js';
import { CRAWL_GRAPH_MAX_STRAYS } from './reportSchema.js';

export function crawlGraph(
  title: string,
  start: string,
  site: SiteModel,
  expected: CrawlExpectation,
  results: readonly CrawledPage[],
  problems: readonly CrawlProblem[],
  level: Level,
): CrawlGraph {
  // The judge's word on a page, at the run's level or below (what fails the check): missing or extra.
  const judged = new Map<string, 'missing' | 'extra'>();
  for (const p of problems)
    if ((p.kind === 'missing' || p.kind === 'extra') && p.url !== undefined && decides(p.level, level)) judged.set(p.url, p.kind);
  // A missing group (ignoreQueryParameters) names its path: each page of the group not returned is missing.
  const groupOf = new Map(expected.pages.map((p) => [p.url, p.group]));
  const verdicts = new Map(expected.pages.map((p) => [p.url, p.verdict[level]]));
  const index = new Map(site.pages.map((p, i) => [p.url, i]));
  const returned = new Set<string>();
  const strays: string[] = [];
  let strayCount = 0;
  for (const result of results) {
    const keys = [result.url, result.sourceURL].flatMap((u) => (typeof u === 'string' ? (pageKey(u) ?? []) : []));
    const page = keys.find((k) => index.has(k));
    if (page !== undefined) returned.add(page);
    else {
      strayCount += 1;
      if (strays.length < CRAWL_GRAPH_MAX_STRAYS) strays.push(typeof result.url === 'string' ? result.url : String(result.sourceURL));
    }
  }
  const links: [number, number][] = [];
  site.pages.forEach((page, from) => {
    for (const target of page.redirectTo === undefined ? page.links : [page.redirectTo]) {
      const to = index.get(pageKey(target) ?? '');
      if (to !== undefined && to !== from) links.push([from, to]);
    }
  });
  return {
    title,
    start,
    pages: site.pages.map((p) => {
      const found = judged.get(p.url) ?? (returned.has(p.url) ? undefined : judged.get(groupOf.get(p.url) ?? ''));
      return {
        url: p.url,
        expected: verdicts.get(p.url) ?? 'mustNot',
        returned: returned.has(p.url),
        ...(found === undefined || (found === 'missing') === returned.has(p.url) ? {} : { problem: found }),
      };
    }),
    links,
    strays,
    strayCount,
  };
}
