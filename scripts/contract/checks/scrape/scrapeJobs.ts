/**
 * The jobs the scrape-behaviour checks (scrapeBehaviour.ts, batchBehaviour.ts) rest on: batch scrapes and
 * crawls of the test site's scrape pages (scripts/site/scrapePages.ts), each with a set of scrape options. A
 * few sets cover every option: the defaults, one with every option whose meaning shows on its own page changed
 * at once (each option is judged on its own page, so the judgement stays per option), the tags, the slow page
 * with and without a short `timeout`, and the counter's pairs of scrapes (a first one, then a second one of the
 * same address: `maxAge`, `storeInCache`). A batch asks for several pages at once; a crawl for one page only:
 * it starts at the page, with `limit` 1, `includePaths` matching its path alone and the sitemap skipped, so the
 * crawl oracle says the page is the one page it returns (the scrape pages are linked from no crawl page).
 *
 * A job is named by its key within its version (`batch defaults`, `crawl changed article`); the checks that
 * rest on the same job share it (scrapePlan.ts).
 */
import type { Version } from '../../../../schemas/registry.js';
import { COPY_MISSING, SCRAPE_PATHS, SLOW_MS, scrapePage, type ScrapePageName } from '../../../site/scrapePages.js';
import type { SiteOrigins } from '../../../site/testSite.js';
import type { JobKind } from '../../spec/operations.js';
import { INTERFACE_INVALID_URLS } from '../requests/invalidUrls.js';

/** Scrape options, as sent: a batch's top-level fields, or a crawl's `scrapeOptions`. */
export type ScrapeOptions = Readonly<Record<string, unknown>>;

/** The header the `changed` set sends, and the language it asks for (plain words: no converter escapes them). */
const PROBE_HEADER = { name: 'X-Crawlspec-Probe', value: 'crawlspec scrape check' } as const;
const PROBE_LANGUAGE = 'de-DE';
/** A `maxAge` a second scrape a few seconds after the first is well within (an hour). */
const WITHIN_MAX_AGE_MS = 3_600_000;
/** A `timeout` the slow page answers well after: the least the service takes. */
const SHORT_TIMEOUT_MS = 1000;

/**
 * The options changed alone, each from its default, each on the page that shows its meaning. `pdf` is v1's
 * `parsePDF` and v2's `parsers`.
 */
export const CHANGED = {
  onlyMainContent: 'article',
  removeBase64Images: 'image',
  pdf: 'pdf',
  skipTlsVerification: 'secure',
  headers: 'headers',
  mobile: 'headers',
  location: 'headers',
} as const satisfies Record<string, ScrapePageName>;
export type ChangedOption = keyof typeof CHANGED;

/** The set that changes `option` alone: `changed mobile`. */
export const changedSet = (option: ChangedOption) => `changed ${option}` as const;

/** The option sets, by name, per version. */
export type SetName =
  | 'defaults'
  | ReturnType<typeof changedSet>
  | 'tags'
  | 'slow'
  | 'timeout'
  | 'records'
  | 'first'
  | 'firstUnstored'
  | 'again'
  | 'aged'
  | 'fresh';

const CONTENT = ['markdown', 'html'];

/** `option` changed from its default (v1's and v2's defaults differ for skipTlsVerification). */
function changedValue(version: Version, option: ChangedOption): ScrapeOptions {
  switch (option) {
    case 'onlyMainContent':
      return { onlyMainContent: false };
    case 'removeBase64Images':
      return { removeBase64Images: false };
    case 'pdf':
      return version === 'v1' ? { parsePDF: false } : { parsers: [] };
    case 'skipTlsVerification':
      return { skipTlsVerification: version === 'v1' };
    case 'headers':
      return { headers: { [PROBE_HEADER.name]: PROBE_HEADER.value } };
    case 'mobile':
      return { mobile: true };
    case 'location':
      // Languages only: interface §2.5 makes every field of location optional (a target that demands a country is caught here).
      return { location: { languages: [PROBE_LANGUAGE] } };
  }
}

function optionSet(version: Version, set: SetName): ScrapeOptions {
  const markdown = { formats: ['markdown'] };
  if (set.startsWith('changed ')) return { formats: CONTENT, ...changedValue(version, set.slice('changed '.length) as ChangedOption) };
  switch (set) {
    case 'defaults':
      return { formats: [...CONTENT, 'rawHtml', 'links'] };
    case 'tags':
      // Tag names only (the interface's "tags"); the excluded `h2` stands inside an included `section`.
      return { formats: CONTENT, includeTags: ['section', 'blockquote'], excludeTags: ['h2'] };
    case 'slow':
      return { formats: CONTENT };
    case 'timeout':
      return { formats: CONTENT, timeout: SHORT_TIMEOUT_MS };
    case 'records':
    case 'first':
    case 'again':
      return markdown;
    case 'firstUnstored':
      return { ...markdown, storeInCache: false };
    case 'aged':
      return { ...markdown, maxAge: WITHIN_MAX_AGE_MS };
    case 'fresh':
      return { ...markdown, maxAge: 0 };
  }
  throw new Error(`no option set ${set}`);
}

/** In words, for a reader of a failure: `mobile true alone`. */
const setWords = (version: Version, set: SetName): string => {
  if (!set.startsWith('changed ')) return SET_WORDS[set as Exclude<SetName, `changed ${string}`>];
  const changed = changedValue(version, set.slice('changed '.length) as ChangedOption);
  return `${Object.entries(changed)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ')} alone`;
};
const SET_WORDS: Record<Exclude<SetName, `changed ${string}`>, string> = {
  defaults: 'default options',
  tags: 'includeTags and excludeTags',
  slow: 'the default timeout',
  timeout: `timeout ${SHORT_TIMEOUT_MS}`,
  records: 'an invalid entry ignored',
  first: 'a first scrape',
  firstUnstored: 'a first scrape with storeInCache false',
  again: 'a second scrape with default options',
  aged: `a second scrape with maxAge ${WITHIN_MAX_AGE_MS}`,
  fresh: 'a second scrape with maxAge 0',
};

/** The counter's pairs of scrapes, per version: the first scrape's set, the second's. */
export type PairName = 'again' | 'aged' | 'fresh' | 'unstored';
const PAIRS: Readonly<Record<Version, Partial<Record<PairName, { readonly first: SetName; readonly second: SetName }>>>> = {
  // v1: maxAge 0 by default (fetched again); within maxAge, from the cache; nothing stored, fetched again.
  v1: {
    again: { first: 'first', second: 'again' },
    aged: { first: 'first', second: 'aged' },
    unstored: { first: 'firstUnstored', second: 'aged' },
  },
  // v2: maxAge 2 days by default (from the cache); maxAge 0, fetched again; nothing stored, fetched again.
  v2: {
    again: { first: 'first', second: 'again' },
    fresh: { first: 'first', second: 'fresh' },
    unstored: { first: 'firstUnstored', second: 'again' },
  },
};

/** A scrape page a job asks for; the counter's with a query of its own (`case=v1-again-batch`), so that each pair has its address. */
export interface PageRef {
  readonly name: ScrapePageName;
  readonly query?: string;
}

export interface JobSpec {
  /** Unique within the version. */
  readonly key: string;
  readonly version: Version;
  readonly kind: JobKind;
  readonly set: SetName;
  /** The pages it asks for: a crawl, one. */
  readonly pages: readonly PageRef[];
  /** The jobs whose scrapes of the same addresses must end first (a counter's first scrapes). */
  readonly after: readonly string[];
}

/** The options of a job. */
export const optionsOf = (spec: JobSpec): ScrapeOptions => optionSet(spec.version, spec.set);

export const batchKey = (set: SetName | string) => `batch ${set}`;
export const crawlKey = (set: SetName, page: ScrapePageName) => `crawl ${set} ${page}`;

/** The least time a job takes: one with the slow page, and a timeout it answers within, cannot end before it answers. */
export const leastDurationMs = (spec: JobSpec): number =>
  spec.pages.some((p) => p.name === 'slow') && spec.set !== 'timeout' ? SLOW_MS : 0;

/** Whether the scrape page is served where the run's site is: a static copy lacks some, and the TLS origin. */
export const pageAvailable = (name: ScrapePageName, copy: boolean): boolean =>
  !copy || !COPY_MISSING.some((m) => m.path === SCRAPE_PATHS[name]);

/** The pages of the batches of each set (the copy's only those it holds). */
function batchPages(set: SetName, copy: boolean): ScrapePageName[] {
  const pages: ScrapePageName[] =
    set === 'defaults'
      ? ['article', 'image', 'pdf', 'headers', 'secure', 'gone']
      : set.startsWith('changed ')
        ? [CHANGED[set.slice('changed '.length) as ChangedOption]]
        : set === 'tags'
          ? ['article']
          : set === 'slow' || set === 'timeout'
            ? ['slow']
            : set === 'records'
              ? ['article', 'image', 'pdf']
              : [];
  return pages.filter((p) => pageAvailable(p, copy));
}

/** Every job of `version` the checks may rest on, by key. */
export function scrapeJobs(version: Version, copy: boolean): ReadonlyMap<string, JobSpec> {
  const jobs = new Map<string, JobSpec>();
  const add = (spec: JobSpec) => jobs.set(spec.key, spec);
  const sets: SetName[] = ['defaults', ...(Object.keys(CHANGED) as ChangedOption[]).map(changedSet), 'tags', 'slow', 'timeout', 'records'];
  for (const set of sets) {
    const pages = batchPages(set, copy);
    add({ key: batchKey(set), version, kind: 'batch', set, pages: pages.map((name) => ({ name })), after: [] });
    // A crawl of each page but the page gone, whose status only the batch checks judge.
    if (set !== 'records')
      for (const name of pages.filter((p) => p !== 'gone'))
        add({ key: crawlKey(set, name), version, kind: 'crawl', set, pages: [{ name }], after: [] });
  }
  if (!pageAvailable('counter', copy)) return jobs;
  const pairs = Object.entries(PAIRS[version]) as [PairName, { first: SetName; second: SetName }][];
  const counter = (pair: PairName, kind: JobKind): PageRef => ({ name: 'counter', query: `case=${version}-${pair}-${kind}` });
  // The batches: one per set, of the pairs whose scrape it is; each second batch after the first batches of its pairs.
  for (const step of ['first', 'second'] as const) {
    const sets = [...new Set(pairs.map(([, p]) => p[step]))];
    for (const set of sets) {
      const mine = pairs.filter(([, p]) => p[step] === set);
      add({
        key: batchKey(`${step} ${set}`),
        version,
        kind: 'batch',
        set,
        pages: mine.map(([pair]) => counter(pair, 'batch')),
        after: step === 'first' ? [] : [...new Set(mine.map(([, p]) => batchKey(`first ${p.first}`)))],
      });
    }
  }
  // The crawls: one per pair and step, each second after its first.
  for (const [pair, { first, second }] of pairs) {
    const page = counter(pair, 'crawl');
    add({ key: `crawl first ${pair}`, version, kind: 'crawl', set: first, pages: [page], after: [] });
    add({ key: `crawl second ${pair}`, version, kind: 'crawl', set: second, pages: [page], after: [`crawl first ${pair}`] });
  }
  return jobs;
}

/** The key of the batch that scrapes a pair's address second, and of the one that scrapes it first. */
export function pairJobs(version: Version, pair: PairName, kind: JobKind): { first: string; second: string } {
  const steps = PAIRS[version][pair]!;
  return kind === 'batch'
    ? { first: batchKey(`first ${steps.first}`), second: batchKey(`second ${steps.second}`) }
    : { first: `crawl first ${pair}`, second: `crawl second ${pair}` };
}

/** Where the pages of a run are: the site's origins, and a word unique to the run for the counter's addresses. */
export interface Addresses {
  readonly origins: SiteOrigins;
  readonly run: string;
}

/** The address of a page of a job (the counter's with the run's word and its case). */
export function addressOf(at: Addresses, ref: PageRef): string {
  const url = scrapePage(at.origins, ref.name).url;
  return ref.query === undefined ? url : `${url}?run=${at.run}&${ref.query}`;
}

/** The entries of a records batch that are no URL (the interface's invalid entries). */
export const RECORDS_INVALID = [INTERFACE_INVALID_URLS[0]] as const;

/** A regex matching `path` and nothing else (for `includePaths`). */
const only = (path: string) => `^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;

/** The body a job sends. */
export function bodyOf(spec: JobSpec, at: Addresses): Record<string, unknown> {
  const options = optionsOf(spec);
  if (spec.kind === 'batch') {
    const urls = spec.pages.map((p) => addressOf(at, p));
    return spec.set === 'records'
      ? { urls: [urls[0], ...RECORDS_INVALID, ...urls.slice(1)], ignoreInvalidURLs: true, ...options }
      : { urls, ...options };
  }
  const page = spec.pages[0]!;
  return {
    url: addressOf(at, page),
    limit: 1,
    includePaths: [only(SCRAPE_PATHS[page.name])],
    ...(spec.version === 'v1' ? { ignoreSitemap: true } : { sitemap: 'skip' }),
    scrapeOptions: options,
  };
}

/** A job in words: `a v2 batch scrape of 5 scrape pages with default options`. */
export function jobTitle(spec: JobSpec): string {
  const what =
    spec.kind === 'batch'
      ? `a ${spec.version} batch scrape of ${spec.pages.map((p) => SCRAPE_PATHS[p.name]).join(', ')}`
      : `a ${spec.version} crawl of ${SCRAPE_PATHS[spec.pages[0]!.name]} alone`;
  return `${what} with ${setWords(spec.version, spec.set)}`;
}

/** The requests a job needs at most: its start and cancel, the status polls, a status page per record, its errors. */
export const jobCost = (spec: JobSpec, polls: number): number => 2 + polls + spec.pages.length + 2;
