/**
 * Scrape behaviour (`vN.scrape.behaviour.<option>`): for each scrape option whose meaning a page of the test
 * site shows (scripts/site/scrapePages.ts), what the records of a batch scrape and of a crawl's `scrapeOptions`
 * hold for that page, held against the scrape oracle (schemas/scrape/). Each option is tried at a value other
 * than its default and at its default, so that an implementation that ignores it is caught either way, and
 * each through a batch and through a crawl of the page alone (scrapeJobs.ts). A check takes, from what the
 * oracle says of the page, the constraints of its own option: several options can share a job, each judged on
 * its own page. Options with no default a page can show (`headers`, `location`) are tried given only; the
 * default of `includeTags` and `excludeTags` (none) shows as every main text kept.
 */
import type { ScrapeConstraint } from '../../../../schemas/scrape/constraint.js';
import type { Version } from '../../../../schemas/registry.js';
import type { Citation } from '../../spec/checkInfo.js';
import type { ScrapeCheckDef } from './scrapeChecks.js';
import { changedSet } from './scrapeJobs.js';

const option =
  (...names: string[]) =>
  (c: ScrapeConstraint) =>
    names.includes(c.option);

/** With no tag filter, every main text of the page is in the content formats. */
const mainText = (c: ScrapeConstraint) => c.option === 'formats' && c.kind === 'contains' && (c.field === 'markdown' || c.field === 'html');

/** A second scrape answered from the cache the first stored in (the service's; it shows storeInCache true). */
const fromCache = (c: ScrapeConstraint) => c.option === 'maxAge' && c.kind === 'notFetchedAgain';

/** The citation of an option's row: §2.3 in v1; in v2 §2.4, and §2.3 where its row says "As in v1". */
const row = (version: Version, name: string, asInV1 = true): Citation[] =>
  version === 'v1'
    ? [{ source: 'interface §2.3', names: [name] }]
    : [{ source: 'interface §2.4', names: [name] }, ...(asInV1 ? [{ source: 'interface §2.3', names: [name] }] : [])];

export const OPTION_CHECKS: readonly ScrapeCheckDef[] = [
  {
    name: 'onlyMainContent',
    level: 'interface',
    proves: () =>
      '`onlyMainContent` true (the default) leaves the header, navigation and footer out of markdown and HTML; false keeps every text of the page.',
    cites: (v) => [...row(v, 'onlyMainContent'), { source: 'service', names: ['aside'] }],
    cases: () => [
      { set: 'defaults', page: 'article', select: option('onlyMainContent') },
      { set: changedSet('onlyMainContent'), page: 'article', select: option('onlyMainContent') },
    ],
  },
  {
    name: 'includeTags',
    level: 'interface',
    proves: () => '`includeTags` keeps only what is inside the tags given; without it (the default) every main text is kept.',
    cites: (v) => [...row(v, 'includeTags')],
    cases: () => [
      { set: 'tags', page: 'article', select: option('includeTags') },
      { set: 'defaults', page: 'article', select: mainText },
    ],
  },
  {
    name: 'excludeTags',
    level: 'interface',
    proves: () =>
      '`excludeTags` leaves out what is inside the tags given, even inside included ones; without it (the default) every main text is kept.',
    cites: (v) => [...row(v, 'excludeTags')],
    cases: () => [
      { set: 'tags', page: 'article', select: option('excludeTags') },
      { set: 'defaults', page: 'article', select: mainText },
    ],
  },
  {
    name: 'removeBase64Images',
    level: 'interface',
    proves: () =>
      '`removeBase64Images` true (the default) takes a base64 image out of the markdown and keeps its alt text; false keeps the image in markdown and HTML.',
    cites: (v) => [...row(v, 'removeBase64Images'), { source: 'service', names: ['<Base64-Image-Removed>'] }],
    cases: () => [
      { set: 'defaults', page: 'image', select: option('removeBase64Images') },
      { set: changedSet('removeBase64Images'), page: 'image', select: option('removeBase64Images') },
    ],
  },
  {
    name: 'headers',
    level: 'interface',
    proves: () => 'The `headers` given are sent with the request for the page: the page shows each one it received.',
    cites: (v) => row(v, 'headers'),
    cases: () => [{ set: changedSet('headers'), page: 'headers', select: option('headers') }],
  },
  {
    name: 'mobile',
    level: 'interface',
    proves: () =>
      'A page asked with `mobile` true is returned (interface), fetched with a mobile browser’s User-Agent (naming Mobi); false (the default) with a desktop one (service).',
    cites: (v) => [
      { source: 'interface §1', names: ['emulate a mobile device'] },
      ...row(v, 'mobile'),
      { source: 'service', names: ['mobile', 'User-Agent'] },
    ],
    cases: () => [
      { set: 'defaults', page: 'headers', select: option('mobile') },
      { set: changedSet('mobile'), page: 'headers', select: option('mobile') },
    ],
  },
  {
    name: 'location',
    level: 'interface',
    proves: () =>
      'A page asked with a `location` of `languages` only is returned (interface: every field of location is optional), in the first language given: its Accept-Language names it (service).',
    cites: () => [
      { source: 'interface §1', names: ['emulate a location'] },
      { source: 'interface §2.5', names: ['country', 'languages'] },
      { source: 'service', names: ['location.languages', 'Accept-Language'] },
    ],
    cases: () => [{ set: changedSet('location'), page: 'headers', select: option('location') }],
  },
  {
    name: 'maxAge',
    level: 'interface',
    proves: (v) =>
      v === 'v1'
        ? 'With `maxAge` 0 (the v1 default) a second scrape fetches the page again; within a larger `maxAge` it is answered from the cache (service).'
        : 'With `maxAge` 0 a second scrape fetches the page again; within the default of 2 days it is answered from the cache (service).',
    cites: (v) => [...row(v, 'maxAge'), { source: 'service', names: ['maxAge', 'cache'] }],
    cases: (v) => [
      { pair: 'again', select: option('maxAge') },
      { pair: v === 'v1' ? 'aged' : 'fresh', select: option('maxAge') },
    ],
  },
  {
    name: 'storeInCache',
    level: 'interface',
    proves: () =>
      'After a scrape with `storeInCache` false nothing is cached, so the next scrape fetches the page again; with the default (true) it is answered from the cache (service).',
    cites: (v) => [...row(v, 'storeInCache'), { source: 'service', names: ['storeInCache', 'cache'] }],
    cases: (v) => [
      { pair: 'unstored', select: option('storeInCache') },
      { pair: v === 'v1' ? 'aged' : 'again', select: fromCache },
    ],
  },
  {
    name: 'timeout',
    level: 'interface',
    proves: () => 'A page slower than `timeout` is not returned; the default (30000 ms) waits for a page 3 s late.',
    cites: (v) => [...row(v, 'timeout', false), { source: 'service', names: ['timeout', 'data'] }],
    cases: () => [
      { set: 'slow', page: 'slow', select: option('timeout') },
      { set: 'timeout', page: 'slow', select: option('timeout') },
    ],
  },
  {
    name: 'parsePDF',
    versions: ['v1'],
    level: 'interface',
    proves: () => 'With `parsePDF` true (the default) a PDF’s text is extracted to markdown; false returns the PDF base64-encoded instead.',
    cites: (v) => [...row(v, 'parsePDF'), { source: 'service', names: ['markdown'] }],
    cases: () => [
      { set: 'defaults', page: 'pdf', select: option('parsePDF') },
      { set: changedSet('pdf'), page: 'pdf', select: option('parsePDF') },
    ],
  },
  {
    name: 'parsers',
    versions: ['v2'],
    level: 'interface',
    proves: () =>
      'With `parsers` holding pdf (the default) a PDF’s text is extracted to markdown; an empty list returns the PDF base64-encoded instead.',
    cites: () => [
      { source: 'interface §2.4', names: ['parsers', 'pdf'] },
      { source: 'service', names: ['markdown'] },
    ],
    cases: () => [
      { set: 'defaults', page: 'pdf', select: option('parsers') },
      { set: changedSet('pdf'), page: 'pdf', select: option('parsers') },
    ],
  },
  {
    name: 'skipTlsVerification',
    level: 'interface',
    proves: (v) =>
      v === 'v1'
        ? 'A page with a self-signed certificate is not returned with `skipTlsVerification` false (the v1 default), and is with true.'
        : 'A page with a self-signed certificate is returned with `skipTlsVerification` true (the v2 default), and not with false.',
    cites: (v) => [...row(v, 'skipTlsVerification', false), { source: 'service', names: ['skipTlsVerification', 'data'] }],
    cases: () => [
      { set: 'defaults', page: 'secure', select: option('skipTlsVerification') },
      { set: changedSet('skipTlsVerification'), page: 'secure', select: option('skipTlsVerification') },
    ],
  },
];
