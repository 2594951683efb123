/**
 * Crawl behaviour (`vN.crawl.behaviour.<option>`): small crawls of the kit's test site (scripts/site/), one
 * per option or combination, each followed to its end and read whole through `next`; what came back is held
 * against the crawl oracle (schemas/crawl/): the pages it must return, may return, must not return, at each
 * level. A failure lists the pages missing or in excess, each with the rule it breaks and where that rule
 * comes from (interface §2.1, or the service's robots.txt and redirects).
 *
 * The site is the kit's own, served on loopback (127.0.0.1, and 127.0.0.2 for the other site it links to),
 * or a copy deployed elsewhere (`--behaviour-site`); the target must be able to reach it, so by default the
 * checks run only against a loopback target. Each crawl asks for at most 100 pages of a site of about 25.
 */
import { expectedCrawl } from '../../../../schemas/crawl/oracle.js';
import { judgeCrawl, type CrawledPage, type CrawlProblem } from '../../../../schemas/crawl/judge.js';
import type { Version } from '../../../../schemas/registry.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import type { Attempt } from '../../engine/context.js';
import { crawlGraph } from '../../report/crawlGraph.js';
import { acceptance } from '../../engine/expect.js';
import type { Level } from '../../spec/levels.js';
import type { Body } from '../../generation/safeRequests.js';
import { locate } from '../../spec/operations.js';
import { Tally } from '../../spec/tally.js';
import { POLLS } from '../../engine/polls.js';
import { waitForEnd } from '../../engine/follow.js';
import { completedOf, LOST_RECORDS_CAUSE, lostRecords } from '../lifecycle/jobAccount.js';
import { MAX_PAGES } from '../lifecycle/pagination.js';
import type { SiteOrigins } from '../../../site/testSite.js';

/** One crawl of a behaviour check: its body, from the site's origins and the version. */
interface Crawl {
  readonly title: string;
  readonly body: (origins: SiteOrigins, version: Version) => Body;
}

interface BehaviourSpec {
  readonly option: string;
  readonly versions: readonly Version[];
  readonly level: Level;
  readonly proves: string;
  /** The names of interface §2.1 the check relies on (its citation). */
  readonly names: readonly string[];
  readonly crawls: readonly Crawl[];
  /** The check needs the site's subdomain. */
  readonly needsSubdomain?: boolean;
}

const LIMIT = 100;
const crawl = (title: string, path: string, extra: Body = {}): Crawl => ({
  title,
  body: (origins) => ({ url: `${origins.main}${path}`, limit: LIMIT, ...extra }),
});

export const BEHAVIOURS: readonly BehaviourSpec[] = [
  {
    option: 'default',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves:
      'A crawl of the whole site returns every page reachable from the start by links and the sitemap, and nothing of another site or a subdomain.',
    names: ['url', 'sitemap', 'allowExternalLinks', 'allowSubdomains'],
    crawls: [crawl('the whole site', '/')],
  },
  {
    option: 'limit',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves: 'A crawl returns at most `limit` pages, and as many as it can up to `limit`.',
    names: ['limit'],
    crawls: [crawl('limit 3', '/', { limit: 3 }), crawl('limit 1', '/', { limit: 1 })],
  },
  {
    option: 'includePaths',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves: '`includePaths`, matched on the URL pathname, keeps every other page out of the results.',
    names: ['includePaths'],
    crawls: [crawl('only /docs/', '/', { includePaths: ['^/docs/.*'] })],
  },
  {
    option: 'excludePaths',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves: '`excludePaths`, matched on the URL pathname, keeps the matching pages (and what only they lead to) out of the crawl.',
    names: ['excludePaths'],
    crawls: [crawl('without /blog/ and /docs/guides/', '/', { excludePaths: ['^/blog/.*', '^/docs/guides/.*'] })],
  },
  {
    option: 'maxDepth',
    versions: ['v1'],
    level: 'interface',
    proves: 'The v1 `maxDepth` keeps out the pages with more slashes in their pathname.',
    names: ['maxDepth'],
    crawls: [crawl('maxDepth 2', '/', { maxDepth: 2 })],
  },
  {
    option: 'maxDiscoveryDepth',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves:
      '`maxDiscoveryDepth` counts link hops from the start (and the sitemap pages) at depth 0: with 0 only those, with 1 also what they link to.',
    names: ['maxDiscoveryDepth', 'sitemap'],
    crawls: [0, 1, 2].map((depth) => ({
      title: `maxDiscoveryDepth ${depth}${depth < 2 ? ', sitemap skipped' : ''}`,
      body: (origins: SiteOrigins, version: Version) => ({
        url: `${origins.main}/`,
        limit: LIMIT,
        maxDiscoveryDepth: depth,
        ...(depth < 2 ? (version === 'v1' ? { ignoreSitemap: true } : { sitemap: 'skip' }) : {}),
      }),
    })),
  },
  {
    option: 'sitemap',
    versions: ['v2'],
    level: 'interface',
    proves:
      '`sitemap` skip ignores the sitemap, include adds its pages, only crawls the sitemap pages and the start with no link discovery.',
    names: ['sitemap', 'skip', 'include', 'only'],
    crawls: (['skip', 'include', 'only'] as const).map((mode) => crawl(`sitemap ${mode}`, '/', { sitemap: mode })),
  },
  {
    option: 'ignoreSitemap',
    versions: ['v1'],
    level: 'interface',
    proves: 'The v1 `ignoreSitemap` true ignores the sitemap; false adds its pages.',
    names: ['ignoreSitemap'],
    crawls: [true, false].map((ignore) => crawl(`ignoreSitemap ${String(ignore)}`, '/', { ignoreSitemap: ignore })),
  },
  {
    option: 'ignoreQueryParameters',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves: '`ignoreQueryParameters` true returns one page per path, whatever query variants link to it.',
    names: ['ignoreQueryParameters'],
    crawls: [crawl('ignoreQueryParameters', '/', { ignoreQueryParameters: true })],
  },
  {
    option: 'crawlEntireDomain',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves:
      'From /docs/, crawlEntireDomain false follows only its children; true follows siblings and parents too (v1 allowBackwardLinks likewise).',
    names: ['crawlEntireDomain', 'allowBackwardLinks'],
    crawls: [
      crawl('children only', '/docs/', { crawlEntireDomain: false }),
      crawl('the entire domain', '/docs/', { crawlEntireDomain: true }),
    ],
  },
  {
    option: 'allowBackwardLinks',
    versions: ['v1'],
    level: 'interface',
    proves: 'The v1 `allowBackwardLinks` true follows siblings and parents of the start; crawlEntireDomain false wins over it.',
    names: ['allowBackwardLinks', 'crawlEntireDomain'],
    crawls: [
      crawl('allowBackwardLinks', '/docs/', { allowBackwardLinks: true }),
      crawl('allowBackwardLinks, crawlEntireDomain false', '/docs/', { allowBackwardLinks: true, crawlEntireDomain: false }),
    ],
  },
  {
    option: 'allowExternalLinks',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves: '`allowExternalLinks` true may follow links to another site; the site itself is crawled as without it.',
    names: ['allowExternalLinks'],
    crawls: [crawl('allowExternalLinks', '/', { allowExternalLinks: true })],
  },
  {
    option: 'allowSubdomains',
    versions: ['v1', 'v2'],
    level: 'interface',
    proves: '`allowSubdomains` true follows the links to a subdomain of the site.',
    names: ['allowSubdomains'],
    crawls: [crawl('allowSubdomains', '/', { allowSubdomains: true })],
    needsSubdomain: true,
  },
];

/** A record without metadata: one object for them all (an answer may hold millions). */
const NO_METADATA: CrawledPage = Object.freeze({});

/**
 * Every record of a job, following `next` from its status (at most MAX_PAGES status pages); undefined, with the
 * reason left undecided, when they could not all be read (a job is judged whole or not at all).
 */
export async function readRecords(
  attempt: Attempt,
  first: { data: readonly unknown[]; next?: string | null },
): Promise<unknown[] | undefined> {
  const records: unknown[] = [...first.data];
  let next = typeof first.next === 'string' ? first.next : undefined;
  for (let page = 1; next !== undefined; page += 1) {
    if (page >= MAX_PAGES) {
      attempt.leaveUndecided(`the job's results go on past ${MAX_PAGES} status pages; they were not judged`);
      return undefined;
    }
    if (!locate(attempt.options.baseUrl, 'GET', next)) {
      attempt.leaveUndecided(`next ${next} is not a status page of the target; not followed, so the job was not judged`);
      return undefined;
    }
    const read = await attempt.status(next);
    if (!read.body) return undefined;
    // One by one: spread as arguments (push(...data)), a page of more than some 120,000 records overflows the stack.
    for (const record of read.body.data) records.push(record);
    next = typeof read.body.next === 'string' ? read.body.next : undefined;
  }
  return records;
}

/** Every page record of a crawl (`readRecords`), as the crawl oracle reads it: its metadata. */
async function readAll(attempt: Attempt, first: { data: readonly unknown[]; next?: string | null }): Promise<CrawledPage[] | undefined> {
  const records = await readRecords(attempt, first);
  return records?.map((r) => ((r as { metadata?: CrawledPage } | null)?.metadata ?? NO_METADATA) as CrawledPage);
}

/** Up to this many pages named in one failure. */
const SHOWN = 12;

/**
 * The problems of one crawl as failures, one per kind, level and rule, each naming its first SHOWN pages and
 * how many there are. Grouped by a tally (tally.ts): linear in the problems, of which a target's answer may
 * hold tens of thousands (80,000 pages of another site took 40 s when each group was copied per problem).
 */
function report(
  attempt: Attempt,
  title: string,
  problems: readonly CrawlProblem[],
  expected: string,
  exchange: Parameters<Attempt['fail']>[0]['exchange'],
): void {
  const groups = new Tally<CrawlProblem>(SHOWN);
  for (const p of problems) groups.add(`${p.level}|${p.kind}|${p.cite}`, () => p);
  for (const { first, count } of groups.all()) {
    const { level, kind, cite } = first[0]!;
    const more = count > SHOWN ? `; and ${count - SHOWN} more` : '';
    const listed =
      kind === 'missing'
        ? `${count} page(s) not returned, though the crawl reaches them and no rule keeps them out: ${first.map((p) => p.url).join(', ')}${more}`
        : `${first.map((p) => p.message).join('; ')}${more}`;
    attempt.fail({
      kind: 'crawl',
      level,
      message: `${title}: ${listed}`,
      expected,
      section: cite,
      ...(exchange === undefined ? {} : { exchange }),
    });
  }
}

export function behaviourChecks(version: Version): Check[] {
  return BEHAVIOURS.filter((b) => b.versions.includes(version)).map((spec) =>
    simpleCheck(
      {
        name: `${version}.crawl.behaviour.${spec.option}`,
        level: spec.level,
        proves: spec.proves,
        cites: [
          { source: 'interface §2.1', names: spec.names },
          { source: 'service', names: ['robots.txt', 'redirects'] },
        ],
        startsJob: true,
        behaviour: spec.needsSubdomain ? 'subdomain' : 'site',
        cost: spec.crawls.length * (START + POLLS + MAX_PAGES),
      },
      async (attempt) => {
        const site = attempt.env.behaviour;
        if (site === undefined) throw new Error('a behaviour check runs only with a behaviour site');
        for (const c of spec.crawls) {
          const body = c.body(site.origins, version);
          const { exchange, ok, job } = await attempt.start(
            version,
            'crawl',
            { json: body },
            acceptance('interface', `a crawl of the test site (${c.title})`, 'interface §2.1'),
          );
          if (!job) continue;
          try {
            const statusUrl = ok ? attempt.statusUrl(job, exchange) : undefined;
            if (statusUrl === undefined) {
              if (ok) attempt.leaveUndecided(`the crawl (${c.title}) has no address to read its status from; its pages were not judged`);
              continue;
            }
            const ended = await waitForEnd(attempt, statusUrl);
            if (ended === undefined) continue;
            if (ended.status === 'scraping') {
              attempt.leaveUndecided(`the crawl (${c.title}) did not end in time; its pages were not judged`);
              continue;
            }
            const results = await readAll(attempt, ended);
            if (results === undefined) continue;
            const expected = expectedCrawl(site.model, version, body, { start: String(body.url) });
            const problems = judgeCrawl(expected, results);
            attempt.crawls.push(crawlGraph(c.title, String(body.url), site.model, expected, results, problems, attempt.options.level));
            const must = expected.pages.filter((p) => p.verdict.interface === 'must').map((p) => p.url);
            // A record the job counts and does not deliver is a fault of its own (jobAccount.ts); the pages missing,
            // as many as it lost or fewer, may be those records, and are not held against the option.
            const completed = completedOf(ended);
            const lost = completed !== undefined && completed > results.length ? completed - results.length : 0;
            if (lost > 0) attempt.fail(lostRecords('crawl', `the crawl (${c.title})`, ended, results.length, exchange));
            // Fewer pages than the crawl must return (`missing`, or `tooFew` below a limit) may be the lost records.
            const short = (p: { kind: string }) => p.kind === 'missing' || p.kind === 'tooFew';
            const missing = problems.filter((p) => p.kind === 'missing').length;
            const explained = lost > 0 && problems.some(short) && missing <= lost;
            if (explained)
              attempt.leaveUndecided(
                `the crawl (${c.title}) lost ${lost} record(s) and returns fewer pages than it must, which may be those records: not held against ${spec.option}`,
                'interface',
                false,
                LOST_RECORDS_CAUSE,
              );
            report(
              attempt,
              c.title,
              explained ? problems.filter((p) => !short(p)) : problems,
              `the pages the crawl must return (${must.length}, within limit ${expected.atMost}): ${must.slice(0, 30).join(', ')}${must.length > 30 ? ', ...' : ''}; any the rules allow besides; none they keep out`,
              exchange,
            );
          } finally {
            await attempt.cancel(job);
          }
        }
      },
    ),
  );
}
