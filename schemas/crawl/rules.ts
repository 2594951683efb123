/**
 * The rules of a crawl, one address at a time: whether a page may be among a crawl's results, and whether
 * the crawler scrapes it (so that the links on it are discovered), at each level of truth:
 *
 *   - `interface`: what interface §2.1 states: `includePaths`/`excludePaths` on the URL pathname, v1
 *     `maxDepth` (slashes in the pathname), `crawlEntireDomain` (only child URLs followed), `allowExternalLinks`,
 *     `allowSubdomains`. Where its words leave a choice (is `/docs/ab` a child of `/docs/a`? does a crawler
 *     scrape a page `includePaths` keeps out of the results, to discover links on it? robots.txt, which it never
 *     mentions), the answer is `maybe`.
 *   - `service`: the public service's behaviour where the interface is silent: it reads robots.txt (unless
 *     `ignoreRobotsTxt`), matches the path patterns on the full URL with `regexOnFullURL`, counts depth as the
 *     non-empty path segments other than `index.php`/`index.html`, treats every path that starts with the
 *     start path as a child, and never scrapes what a filter keeps out.
 *
 * Each `no` and `maybe` carries the reason and where it comes from. A path pattern runs through the given
 * matcher (the reference server passes its linear-time one; plain RegExp by default).
 */
import robotsModule from 'robots-parser';
import type { CrawlSettings } from './settings.js';

export type Tri = 'yes' | 'no' | 'maybe';
export type CrawlLevel = 'interface' | 'service';

export interface RuleVerdict {
  readonly tri: Tri;
  /** Why not `yes`: the rule, in words. */
  readonly reason?: string;
  /** Where the rule comes from: `interface §2.1`, or `service`. */
  readonly cite?: string;
}

export type Verdicts = Readonly<Record<CrawlLevel, RuleVerdict>>;

/** Whether one of `patterns` matches `subject`. */
export type PatternMatcher = (patterns: readonly string[]) => (subject: string) => boolean;

// robots-parser is CommonJS (`module.exports = robotsParser`) with types that declare an ES default export:
// imported from ESM, the default import is the function itself.
type RobotsParser = (typeof robotsModule)['default'];
const robotsParser = robotsModule as unknown as RobotsParser;

const regExpMatcher: PatternMatcher = (patterns) => {
  const compiled = patterns.map((p) => new RegExp(p));
  return (subject) => compiled.some((r) => r.test(subject));
};

const YES: RuleVerdict = { tri: 'yes' };
const both = (verdict: RuleVerdict): Verdicts => ({ interface: verdict, service: verdict });
const no = (reason: string, cite: string): RuleVerdict => ({ tri: 'no', reason, cite });
const maybe = (reason: string, cite: string): RuleVerdict => ({ tri: 'maybe', reason, cite });
const yesOrNo = (passes: boolean, reason: string, cite: string): RuleVerdict => (passes ? YES : no(reason, cite));

/** The first `no`, else the first `maybe`, else `yes`. */
function all(verdicts: readonly RuleVerdict[]): RuleVerdict {
  return verdicts.find((v) => v.tri === 'no') ?? verdicts.find((v) => v.tri === 'maybe') ?? YES;
}

const combine = (list: readonly Verdicts[]): Verdicts => ({
  interface: all(list.map((v) => v.interface)),
  service: all(list.map((v) => v.service)),
});

/** Interface §2.1 `maxDepth`: "the maximum number of slashes in the pathname". */
export const slashesIn = (pathname: string): number => pathname.split('/').length - 1;

/** The service's depth: the non-empty path segments, `index.php` and `index.html` not counted. */
export const serviceDepth = (pathname: string): number =>
  pathname.split('/').filter((s) => s !== '' && s !== 'index.php' && s !== 'index.html').length;

/** The host a crawl's start stands on, without a leading `www.`: its subdomains end with `.${base}`. */
const baseDomain = (hostname: string) => hostname.replace(/^www\./, '');
const isIpHost = (hostname: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');

export interface PageContext {
  /** The page is the crawl's start. */
  readonly isStart: boolean;
  /** The page was found in the sitemap (not by a link). */
  readonly fromSitemap: boolean;
}

export class CrawlRules {
  private readonly start: URL;
  private readonly includes: (subject: string) => boolean;
  private readonly excludes: (subject: string) => boolean;
  private readonly robots: Map<string, ReturnType<typeof robotsParser>>;

  constructor(
    readonly settings: CrawlSettings,
    robotsByOrigin: Readonly<Record<string, string>> = {},
    matcher: PatternMatcher = regExpMatcher,
  ) {
    this.start = new URL(settings.url);
    this.includes = matcher(settings.includePaths);
    this.excludes = matcher(settings.excludePaths);
    this.robots = new Map(Object.entries(robotsByOrigin).map(([origin, text]) => [origin, robotsParser(`${origin}/robots.txt`, text)]));
  }

  /** Where `url` stands against the start: the same host, a subdomain of it, or another site. */
  private placeOf(url: URL): 'internal' | 'subdomain' | 'external' {
    const host = url.hostname;
    const start = this.start.hostname;
    if (host === start) return 'internal';
    if (!isIpHost(start) && (host === baseDomain(start) || host.endsWith(`.${baseDomain(start)}`))) return 'subdomain';
    return 'external';
  }

  /** `allowSubdomains`, `allowExternalLinks`: whether a page of another host is part of the crawl. */
  private scope(url: URL): Verdicts {
    const place = this.placeOf(url);
    if (place === 'internal') {
      // Another port of the same host: the service calls it internal (it compares host names); the interface does not say.
      return url.port === this.start.port ? both(YES) : { interface: maybe('another port of the start host', 'interface §2.1'), service: YES };
    }
    const { allowSubdomains, allowExternalLinks } = this.settings;
    if (place === 'subdomain')
      return both(yesOrNo(allowSubdomains, `a subdomain of ${this.start.hostname}, and allowSubdomains is false`, 'interface §2.1'));
    // Followed when allowed, but whether a crawl keeps going there (and how far) is not said: never required.
    return both(
      allowExternalLinks
        ? maybe('a page of another site (allowExternalLinks: followed, not required)', 'interface §2.1')
        : no(`a page of another site (${url.host}), and allowExternalLinks is false`, 'interface §2.1'),
    );
  }

  /** `crawlEntireDomain` false: only child URLs of the start are followed. */
  private children(url: URL, context: PageContext): Verdicts {
    if (this.settings.crawlEntireDomain || context.isStart || this.placeOf(url) !== 'internal') return both(YES);
    const start = this.start.pathname;
    const path = url.pathname;
    const reason = `not below the start path ${start}, and crawlEntireDomain is false`;
    const service = yesOrNo(path.startsWith(start), reason, 'service');
    if (path.startsWith(start.endsWith('/') ? start : `${start}/`) && path !== start) return { interface: YES, service };
    // The start page under another query, or a longer name (`/docs/ab` of `/docs/a`): not clearly a child.
    if (path.startsWith(start)) return { interface: maybe(`${path} is not clearly a child of ${start}`, 'interface §2.1'), service };
    // "Only deeper (child) URLs are followed": a page in the sitemap is not followed from a link.
    if (context.fromSitemap) return { interface: maybe(`${reason} (a sitemap page is not a followed link)`, 'interface §2.1'), service };
    return both(no(reason, 'interface §2.1'));
  }

  private patterns(url: URL, forResults: boolean, context: PageContext): Verdicts {
    const { includePaths, excludePaths, regexOnFullURL } = this.settings;
    const test = (match: (subject: string) => boolean) => {
      const onPath = match(url.pathname);
      // With regexOnFullURL (the service's) the service matches the full URL; the interface says the pathname.
      return { interface: regexOnFullURL ? (onPath === match(url.href) ? onPath : undefined) : onPath, service: regexOnFullURL ? match(url.href) : onPath };
    };
    const out: Verdicts[] = [];
    if (excludePaths.length > 0 && !(context.isStart && !forResults)) {
      const hit = test(this.excludes);
      const reason = `matches excludePaths ${JSON.stringify(excludePaths)}`;
      out.push({
        interface: hit.interface === undefined ? maybe(`${reason} on the full URL only`, 'service') : yesOrNo(!hit.interface, reason, 'interface §2.1'),
        service: yesOrNo(!hit.service, reason, regexOnFullURL ? 'service' : 'interface §2.1'),
      });
    }
    if (includePaths.length > 0 && !(context.isStart && !forResults)) {
      const hit = test(this.includes);
      const reason = `matches no includePaths ${JSON.stringify(includePaths)}`;
      const stated = hit.interface === undefined ? maybe(`${reason} on one reading only`, 'service') : yesOrNo(hit.interface, reason, 'interface §2.1');
      out.push({
        // includePaths keeps a page out of the results; whether the crawler still scrapes it for links, the interface does not say.
        interface: forResults || stated.tri === 'yes' ? stated : maybe(`${reason}: kept out of the results, maybe still scraped for links`, 'interface §2.1'),
        service: yesOrNo(hit.service, reason, regexOnFullURL ? 'service' : 'interface §2.1'),
      });
    }
    return combine(out);
  }

  /** v1 `maxDepth`. */
  private depth(url: URL): Verdicts {
    const { maxDepth } = this.settings;
    if (maxDepth === undefined || this.placeOf(url) !== 'internal') return both(YES);
    const literal = slashesIn(url.pathname) <= maxDepth;
    const counted = serviceDepth(url.pathname) <= maxDepth;
    const reason = `deeper than maxDepth ${maxDepth} (${slashesIn(url.pathname)} slashes, ${serviceDepth(url.pathname)} path segments)`;
    return {
      interface: literal === counted ? yesOrNo(literal, reason, 'interface §2.1') : maybe(`${reason}: deeper on one reading of depth only`, 'interface §2.1'),
      service: yesOrNo(counted, reason, 'service'),
    };
  }

  /** robots.txt, which only the service reads (unless `ignoreRobotsTxt`). */
  private robotsTxt(url: URL): Verdicts {
    const robots = this.robots.get(url.origin);
    if (robots === undefined || this.settings.ignoreRobotsTxt || robots.isAllowed(url.href, 'crawlspec') !== false) return both(YES);
    const reason = `disallowed by ${url.origin}/robots.txt`;
    return { interface: maybe(`${reason} (the interface says nothing of robots.txt)`, 'service'), service: no(reason, 'service') };
  }

  /** Whether the page at `url` may be among the crawl's results, by the filters alone. */
  result(url: string, context: PageContext): Verdicts {
    const parsed = new URL(url);
    return combine([this.scope(parsed), this.children(parsed, context), this.patterns(parsed, true, context), this.depth(parsed), this.robotsTxt(parsed)]);
  }

  /** Whether the crawler scrapes the page at `url`, so that its links are discovered. */
  crawled(url: string, context: PageContext): Verdicts {
    const parsed = new URL(url);
    if (context.isStart) return combine([this.robotsTxt(parsed)]);
    return combine([this.scope(parsed), this.children(parsed, context), this.patterns(parsed, false, context), this.depth(parsed), this.robotsTxt(parsed)]);
  }

  /** Whether two addresses are one page for the crawl: with `ignoreQueryParameters`, those that differ only in their query. */
  sameGroup(url: string): string {
    if (!this.settings.ignoreQueryParameters) return url;
    const parsed = new URL(url);
    parsed.search = '';
    return parsed.href;
  }
}
