/**
 * What the reference server does with each scrape option whose meaning a page can show (interface §2.3, §2.4,
 * §2.5), in v1 and v2, through a batch scrape (options at the top level) and through a crawl's `scrapeOptions`:
 * each option at a value other than its default and at its default, against small pages served on loopback
 * (test/support/optionPages.ts: an HTTP site, and an HTTPS one whose certificate is self-signed). Then the records themselves:
 * rawHtml as served, links absolute and complete, the page's own status, the address asked for.
 *
 * Every case is also run against the server with its option ignored: a wrapper that drops the option from
 * the start request (for a value other than the default), or sends the other value in its place (for the
 * default), so that the server does what an implementation ignoring the option does. The case must then
 * fail: one that passes either way proves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceApp } from '../scripts/server/app.js';
import { USER_AGENT } from '../scripts/server/fetcher.js';
import { BASE64_IMAGE_PLACEHOLDER } from '../scripts/server/pageContent.js';
import { MOBILE_USER_AGENT } from '../scripts/server/pageRequest.js';
import {
  CHROME,
  DOT,
  echoed,
  PDF,
  referenceServer,
  scrape,
  serveOptionPages,
  SHORT_TIMEOUT_MS,
  SLOW_MS,
  TEXT,
  type Kind,
  type Options,
  type OptionPages,
  type Outcome,
  type PageRecord,
  type Version,
} from './support/optionPages.js';

const VERSIONS: readonly Version[] = ['v1', 'v2'];
const KINDS: readonly Kind[] = ['batch', 'crawl'];

let pages: OptionPages;
let site = '';
let tlsSite = '';

beforeAll(async () => {
  pages = await serveOptionPages();
  ({ site, tlsSite } = pages);
});

afterAll(() => pages.close());

// ---------------------------------------------------------------------------------------------------------
// The cases

interface Case {
  readonly name: string;
  /** The page, as a path of the HTTP site (of the HTTPS one with `tls`). */
  readonly page: string;
  readonly tls?: boolean;
  /** The scrape options of each scrape of the page, in order (most cases: one). */
  readonly scrapes: (version: Version) => readonly Options[];
  /** What is wrong with what the scrapes gave, or undefined. */
  readonly judge: (outcomes: readonly Outcome[], version: Version) => string | undefined;
  /** The server that ignores the option: what it makes of each start's scrape options. */
  readonly ignored: (options: Options, version: Version) => Options;
}

const without =
  (...names: string[]) =>
  (options: Options): Options =>
    Object.fromEntries(Object.entries(options).filter(([name]) => !names.includes(name)));
const withValue =
  (values: Options | ((version: Version) => Options)) =>
  (options: Options, version: Version): Options => ({ ...options, ...(typeof values === 'function' ? values(version) : values) });

/** The record of an outcome, or what it was instead. */
function recordOf(outcome: Outcome | undefined): PageRecord | string {
  if (outcome === undefined) return 'no scrape';
  return 'record' in outcome ? outcome.record : `no record: ${outcome.error.code ?? ''} ${outcome.error.error}`;
}

/** The first problem: `field` of the record lacks a text it must hold, or holds one it must not. */
function texts(
  outcome: Outcome | undefined,
  field: 'markdown' | 'html' | 'rawHtml',
  has: readonly string[],
  lacks: readonly string[] = [],
): string | undefined {
  const record = recordOf(outcome);
  if (typeof record === 'string') return record;
  const value = record[field];
  if (typeof value !== 'string') return `no ${field}`;
  const missing = has.find((text) => !value.includes(text));
  if (missing !== undefined) return `${field} lacks ${JSON.stringify(missing)}: ${value.slice(0, 400)}`;
  const present = lacks.find((text) => value.includes(text));
  return present === undefined ? undefined : `${field} holds ${JSON.stringify(present)}: ${value.slice(0, 400)}`;
}

/** The first problem with an error: a record instead, or another code. */
function failed(outcome: Outcome | undefined, code: string): string | undefined {
  if (outcome === undefined) return 'no scrape';
  if ('record' in outcome) return `a record (${(outcome.record.markdown ?? '').slice(0, 100)}), not an error ${code}`;
  return outcome.error.code === code ? undefined : `error ${outcome.error.code}: ${outcome.error.error}, not ${code}`;
}

/** The fetch counts the counting page showed, scrape after scrape. */
function fetchCounts(outcomes: readonly Outcome[]): (number | string)[] {
  return outcomes.map((outcome) => {
    const record = recordOf(outcome);
    if (typeof record === 'string') return record;
    return Number(/Fetch number (\d+)\./.exec(record.markdown ?? '')?.[1] ?? NaN);
  });
}

const sameCounts = (expected: readonly number[]) => (outcomes: readonly Outcome[]) => {
  const seen = fetchCounts(outcomes);
  return JSON.stringify(seen) === JSON.stringify(expected)
    ? undefined
    : `fetch counts ${JSON.stringify(seen)}, not ${JSON.stringify(expected)}`;
};

const CHROME_TEXTS = [TEXT.header, TEXT.nav, TEXT.aside, TEXT.footer];
const MAIN_TEXTS = [TEXT.heading, TEXT.main, TEXT.section, TEXT.note, TEXT.key];

const CASES: readonly Case[] = [
  // onlyMainContent (interface §2.3, §2.4): true by default.
  {
    name: 'onlyMainContent by default: the main content, without header, navigation, aside, footer',
    page: '/chrome',
    scrapes: () => [{}],
    judge: ([o]) =>
      texts(o, 'markdown', MAIN_TEXTS, [...CHROME_TEXTS, TEXT.sidebar]) ??
      texts(o, 'html', [TEXT.main], [...CHROME_TEXTS, TEXT.sidebar]) ??
      texts(o, 'markdown', [`# ${TEXT.heading}`]),
    ignored: withValue({ onlyMainContent: false }),
  },
  {
    name: 'onlyMainContent false: the whole body',
    page: '/chrome',
    scrapes: () => [{ onlyMainContent: false }],
    judge: ([o]) => texts(o, 'markdown', [...MAIN_TEXTS, ...CHROME_TEXTS, TEXT.sidebar]) ?? texts(o, 'html', [...CHROME_TEXTS]),
    ignored: without('onlyMainContent'),
  },
  // includeTags (interface §2.3, §2.4): a tag, a class, an id (CSS selectors, as the service takes them).
  {
    name: 'includeTags by default: all of the main content',
    page: '/chrome',
    scrapes: () => [{}],
    judge: ([o]) => texts(o, 'markdown', MAIN_TEXTS),
    ignored: withValue({ includeTags: ['.note'] }),
  },
  ...[
    ['section', TEXT.section],
    ['.note', TEXT.note],
    ['#key', TEXT.key],
  ].map(([selector, kept]): Case => ({
    name: `includeTags ${selector}: only what it selects`,
    page: '/chrome',
    scrapes: () => [{ includeTags: [selector] }],
    judge: ([o]) =>
      texts(
        o,
        'markdown',
        [kept!],
        MAIN_TEXTS.filter((t) => t !== kept),
      ) ?? texts(o, 'html', [kept!], [TEXT.main]),
    ignored: without('includeTags'),
  })),
  // excludeTags (interface §2.3, §2.4).
  {
    name: 'excludeTags by default: nothing of the main content left out',
    page: '/chrome',
    scrapes: () => [{}],
    judge: ([o]) => texts(o, 'markdown', MAIN_TEXTS),
    ignored: withValue({ excludeTags: ['#key'] }),
  },
  ...[
    ['section', TEXT.section],
    ['.note', TEXT.note],
    ['#key', TEXT.key],
  ].map(([selector, left]): Case => ({
    name: `excludeTags ${selector}: what it selects left out, the rest kept`,
    page: '/chrome',
    scrapes: () => [{ excludeTags: [selector] }],
    judge: ([o]) =>
      texts(
        o,
        'markdown',
        MAIN_TEXTS.filter((t) => t !== left),
        [left!],
      ) ?? texts(o, 'html', [TEXT.main], [left!]),
    ignored: without('excludeTags'),
  })),
  // removeBase64Images (interface §2.3, §2.4): true by default; the placeholder is the service's.
  {
    name: 'removeBase64Images by default: alt text kept, the data replaced by the placeholder',
    page: '/chrome',
    scrapes: () => [{}],
    judge: ([o]) => texts(o, 'markdown', [`![A red dot](${BASE64_IMAGE_PLACEHOLDER})`], [DOT]) ?? texts(o, 'html', ['A red dot'], [DOT]),
    ignored: withValue({ removeBase64Images: false }),
  },
  {
    name: 'removeBase64Images false: the image as written',
    page: '/chrome',
    scrapes: () => [{ removeBase64Images: false }],
    judge: ([o]) => texts(o, 'markdown', [`![A red dot](data:image/png;base64,${DOT})`]),
    ignored: without('removeBase64Images'),
  },
  // headers (interface §2.3, §2.4): sent with the page's request, over the server's own; never Host or hop-by-hop ones.
  {
    name: 'headers: sent with the request, the caller winning, Host and Connection not sent',
    page: '/echo',
    scrapes: () => [
      { headers: { 'X-Crawlspec-Probe': 'probe-1', 'User-Agent': 'probe-agent/1', Host: 'elsewhere.example', Connection: 'Upgrade' } },
    ],
    judge: ([o]) =>
      texts(
        o,
        'html',
        [echoed('x-crawlspec-probe', 'probe-1'), echoed('user-agent', 'probe-agent/1'), echoed('host', site.slice('http://'.length))],
        ['elsewhere.example', echoed('connection', 'Upgrade')],
      ),
    ignored: without('headers'),
  },
  {
    name: 'headers by default: the server sends its own alone',
    page: '/echo',
    scrapes: () => [{}],
    judge: ([o]) => texts(o, 'html', [echoed('user-agent', USER_AGENT)], ['x-crawlspec-probe']),
    ignored: withValue({ headers: { 'X-Crawlspec-Probe': 'probe-1' } }),
  },
  // mobile (interface §2.3, §2.4; the user agent: service level).
  {
    name: 'mobile: a mobile user agent',
    page: '/echo',
    scrapes: () => [{ mobile: true }],
    judge: ([o]) => texts(o, 'html', [echoed('user-agent', MOBILE_USER_AGENT)]),
    ignored: without('mobile'),
  },
  {
    name: 'mobile by default: no mobile user agent',
    page: '/echo',
    scrapes: () => [{}],
    judge: ([o]) => texts(o, 'html', [echoed('user-agent', USER_AGENT)], ['Mobile']),
    ignored: withValue({ mobile: true }),
  },
  // location.languages (interface §2.5; as Accept-Language: service level).
  {
    name: 'location.languages: Accept-Language with those languages, in order',
    page: '/echo',
    scrapes: () => [{ location: { languages: ['fr-CH', 'de'] } }],
    judge: ([o]) => texts(o, 'html', [echoed('accept-language', 'fr-CH, de;q=0.9')]),
    ignored: without('location'),
  },
  {
    name: 'location by default: no Accept-Language',
    page: '/echo',
    scrapes: () => [{}],
    judge: ([o]) => texts(o, 'html', [echoed('user-agent', USER_AGENT)], ['accept-language']),
    ignored: withValue({ location: { languages: ['fr-CH'] } }),
  },
  // timeout (interface §2.3, §2.4): the page given up after it, an error of the page (the service's code).
  {
    name: `timeout ${SHORT_TIMEOUT_MS}: a page slower than that is an error SCRAPE_TIMEOUT`,
    page: '/slow',
    scrapes: () => [{ timeout: SHORT_TIMEOUT_MS }],
    judge: ([o]) => failed(o, 'SCRAPE_TIMEOUT'),
    ignored: without('timeout'),
  },
  {
    name: `timeout by default: a page answering after ${SLOW_MS} ms is a page`,
    page: '/slow',
    scrapes: () => [{}],
    judge: ([o]) => texts(o, 'markdown', [TEXT.slow]),
    ignored: withValue({ timeout: SHORT_TIMEOUT_MS }),
  },
  // maxAge and storeInCache (interface §2.3, §2.4): a page scraped twice.
  {
    name: 'maxAge by default: v1 (0) fetches again, v2 (2 days) answers from the cache',
    page: '/count',
    scrapes: () => [{}, {}],
    judge: (outcomes, version) => {
      const problem = sameCounts(version === 'v1' ? [1, 2] : [1, 1])(outcomes);
      const second = recordOf(outcomes[1]);
      if (problem !== undefined) return problem;
      if (typeof second === 'string') return second;
      const state = second.metadata['cacheState'];
      return state === (version === 'v1' ? 'miss' : 'hit') ? undefined : `cacheState ${String(state)}`;
    },
    ignored: withValue((version) => ({ maxAge: version === 'v1' ? 60_000 : 0 })),
  },
  {
    name: 'maxAge other than the default: v1 60 s answers from the cache, v2 0 fetches again',
    page: '/count',
    scrapes: (version) => [{ maxAge: version === 'v1' ? 60_000 : 0 }, { maxAge: version === 'v1' ? 60_000 : 0 }],
    judge: (outcomes, version) => sameCounts(version === 'v1' ? [1, 1] : [1, 2])(outcomes),
    ignored: without('maxAge'),
  },
  {
    name: 'storeInCache by default: a page is stored for a later scrape',
    page: '/count',
    scrapes: () => [{ maxAge: 60_000 }, { maxAge: 60_000 }],
    judge: sameCounts([1, 1]),
    ignored: withValue({ storeInCache: false }),
  },
  {
    name: 'storeInCache false: the page is not stored',
    page: '/count',
    scrapes: () => [{ maxAge: 60_000, storeInCache: false }, { maxAge: 60_000 }],
    judge: sameCounts([1, 2]),
    ignored: without('storeInCache'),
  },
  {
    name: 'headers force storeInCache to false: the same scrape with headers fetches the page again',
    page: '/count',
    scrapes: () => [
      { maxAge: 60_000, headers: { 'X-Crawlspec-Probe': 'probe-2' } },
      { maxAge: 60_000, headers: { 'X-Crawlspec-Probe': 'probe-2' } },
    ],
    judge: sameCounts([1, 2]),
    ignored: without('headers'),
  },
  // parsePDF (v1, interface §2.3) and parsers (v2, interface §2.4): the text, or the PDF as base64.
  {
    name: 'parsePDF / parsers by default: the text of the PDF',
    page: '/doc.pdf',
    scrapes: () => [{}],
    judge: ([o]) => {
      const record = recordOf(o);
      if (typeof record === 'string') return record;
      return (
        texts(o, 'markdown', [TEXT.pdf]) ??
        (record.metadata['numPages'] === 1 ? undefined : `numPages ${String(record.metadata['numPages'])}`)
      );
    },
    ignored: withValue((version) => (version === 'v1' ? { parsePDF: false } : { parsers: [] })),
  },
  {
    name: 'parsePDF false / parsers []: the PDF base64-encoded',
    page: '/doc.pdf',
    scrapes: (version) => [version === 'v1' ? { parsePDF: false } : { parsers: [] }],
    judge: ([o]) => {
      const record = recordOf(o);
      if (typeof record === 'string') return record;
      if (record.markdown !== PDF.toString('base64')) return `markdown ${(record.markdown ?? '').slice(0, 100)}, not the PDF's base64`;
      // Not extracted: its text is nowhere in the record (the file's own bytes hold it as written).
      return texts(o, 'html', [], [TEXT.pdf]) ?? texts(o, 'rawHtml', [], [TEXT.pdf]);
    },
    ignored: without('parsePDF', 'parsers'),
  },
  // skipTlsVerification (interface §2.3, §2.4): false by default in v1, true in v2.
  {
    name: 'skipTlsVerification by default: v1 fails on a self-signed certificate (SCRAPE_SSL_ERROR), v2 reads the page',
    page: '/tls',
    tls: true,
    scrapes: () => [{}],
    judge: ([o], version) => (version === 'v1' ? failed(o, 'SCRAPE_SSL_ERROR') : texts(o, 'markdown', [TEXT.tls])),
    ignored: withValue((version) => ({ skipTlsVerification: version === 'v1' })),
  },
  {
    name: 'skipTlsVerification other than the default: v1 true reads the page, v2 false fails',
    page: '/tls',
    tls: true,
    scrapes: (version) => [{ skipTlsVerification: version === 'v1' }],
    judge: ([o], version) => (version === 'v1' ? texts(o, 'markdown', [TEXT.tls]) : failed(o, 'SCRAPE_SSL_ERROR')),
    ignored: without('skipTlsVerification'),
  },
];

let runs = 0;
/** The page of `c` under an address of its own (a query no other run uses), so that no run is answered from another's cache. */
const pageOf = (c: Case): string => `${c.tls === true ? tlsSite : site}${c.page}?run=${++runs}`;

/** Runs every scrape of `c` in turn on `app`. */
async function run(app: ReferenceApp, c: Case, version: Version, kind: Kind): Promise<Outcome[]> {
  const url = pageOf(c);
  const outcomes: Outcome[] = [];
  for (const options of c.scrapes(version)) outcomes.push(await scrape(app, version, kind, url, options));
  return outcomes;
}

describe('each scrape option, at its default and at another value, in v1 and v2, batch and crawl', () => {
  const app = referenceServer();
  afterAll(() => app.close());
  const table = CASES.flatMap((c) =>
    VERSIONS.flatMap((version) => KINDS.map((kind) => [`${version} ${kind}: ${c.name}`, c, version, kind] as const)),
  );
  it.each(table)('%s', async (_name, c, version, kind) => {
    expect(c.judge(await run(app, c, version, kind), version)).toBeUndefined();
  });
});

describe('each case fails on a server that ignores its option', () => {
  const table = CASES.flatMap((c) => VERSIONS.map((version) => [`${version}: ${c.name}`, c, version] as const));
  it.each(table)('%s', async (_name, c, version) => {
    const app = referenceServer((options) => c.ignored(options, version));
    try {
      expect(c.judge(await run(app, c, version, 'batch'), version)).toBeDefined();
    } finally {
      app.close();
    }
  });
});

describe('the records', () => {
  const app = referenceServer();
  afterAll(() => app.close());
  it.each(VERSIONS.flatMap((version) => KINDS.map((kind) => [version, kind] as const)))(
    '%s %s: rawHtml as served, links absolute and complete, the status of the page, the address asked for and the one read',
    async (version, kind) => {
      const asked = `${site}/chrome?run=${++runs}`;
      const chrome = recordOf(await scrape(app, version, kind, asked, {}));
      expect(typeof chrome).not.toBe('string');
      const record = chrome as PageRecord;
      expect(record.rawHtml).toBe(CHROME);
      expect(record.links).toEqual([`${site}/nav-target`, `${site}/relative.html`, 'https://other.example/page']);
      expect(record.metadata).toMatchObject({ statusCode: 200, sourceURL: asked, url: asked, title: 'Chrome and main' });
      const missing = recordOf(await scrape(app, version, kind, `${site}/missing?run=${++runs}`, {})) as PageRecord;
      expect(missing.metadata['statusCode']).toBe(404);
      // A redirect (a batch's: a crawl judges the target by its filters, test/referenceCrawler.test.ts): the address asked for, and the one read.
      if (kind === 'crawl') return;
      const moved = `${site}/moved?run=${++runs}`;
      const target = recordOf(await scrape(app, version, kind, moved, {})) as PageRecord;
      expect(target.metadata).toMatchObject({ statusCode: 200, sourceURL: moved, url: `${site}/chrome` });
    },
  );
});

describe('what cannot be done is an error of the page, saying what', () => {
  const app = referenceServer();
  afterAll(() => app.close());
  it.each(VERSIONS)('%s: a selector that is no CSS selector, a PDF that is none, headers HTTP cannot carry', async (version) => {
    const selector = await scrape(app, version, 'batch', `${site}/chrome?run=${++runs}`, { includeTags: ['p['] });
    expect(selector).toEqual({
      error: expect.objectContaining({ error: expect.stringMatching(/the includeTags selector "p\[" is not a CSS selector/) }),
    });
    const pdf = await scrape(app, version, 'batch', `${site}/broken.pdf?run=${++runs}`, {});
    expect(pdf).toEqual({ error: expect.objectContaining({ error: expect.stringContaining('the PDF could not be read') }) });
    const headers = await scrape(app, version, 'batch', `${site}/echo?run=${++runs}`, { headers: { 'X-Bad': 'line\nbreak' } });
    expect(headers).toEqual({ error: expect.objectContaining({ error: expect.stringContaining('cannot be sent') }) });
  });
});
