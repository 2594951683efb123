/**
 * Page records (`Document`) of the reference server, built from a page it read (`htmlPage.ts`), with only
 * the keys of the requested formats:
 *
 *   markdown (of the content), html (the content: the body, less what the scrape options leave out, as
 *   `pageContent.ts` says), rawHtml (the document as received), links and images (v2) (absolute, from the
 *   whole page), screenshot (an
 *   address on the server's own site), summary (the title and the first paragraph), json (an object
 *   following the format's JSON Schema when one is given), branding (v2), changeTracking (always a first
 *   scrape: `new`), v1 `extract`; `actions` when the scrape options have actions. Formats whose record key
 *   the interface does not define (v2 `product`, `menu`, `audio`, `video`, `question`, `highlights`,
 *   `attributes`, `query`) add no key.
 *   `metadata` carries the page's own `<meta>` tags, then (winning over them) title, description and
 *   language when the page has them, sourceURL (as sent), url (after redirects), statusCode (the real
 *   one), contentType, numPages (a PDF read), scrapeId, proxyUsed, cacheState (`hit` for a page the cache
 *   answered, with cachedAt; else `miss`) and creditsUsed (a PDF read: one a page, as the service bills it).
 *   A PDF whose text is not extracted is its base64 in markdown and html (the service's markdown starts
 *   `JVBER`), as `verbatim` gives it.
 */
import { randomUUID } from 'node:crypto';
import type { ReadPage } from './htmlPage.js';
import { markdownOf } from './markdown.js';
import { isRecord } from '../../schemas/codeRules/codeRule.js';

export type PageRecord = Record<string, unknown>;

type Version = 'v1' | 'v2';

interface RequestedFormat {
  readonly type: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** The formats of scrape options, each as `{type, options}` (v1 `screenshot@fullPage` is a full-page screenshot). */
function requestedFormats(scrapeOptions: Readonly<Record<string, unknown>>): RequestedFormat[] {
  const formats = Array.isArray(scrapeOptions['formats']) ? (scrapeOptions['formats'] as unknown[]) : ['markdown'];
  return formats.flatMap((format): RequestedFormat[] => {
    if (format === 'screenshot@fullPage') return [{ type: 'screenshot', options: { fullPage: true } }];
    if (typeof format === 'string') return [{ type: format, options: {} }];
    if (isRecord(format) && typeof format['type'] === 'string') return [{ type: format['type'], options: format }];
    return [];
  });
}

/** A value following a JSON Schema, as far as a small sampler can tell: enough to read as extracted data. */
function sample(schema: unknown, title: string, depth = 0): unknown {
  if (!isRecord(schema) || depth > 8) return title;
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  for (const union of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[union];
    if (Array.isArray(branches) && branches.length > 0) return sample(branches[0], title, depth + 1);
  }
  const declared = schema['type'];
  const type = Array.isArray(declared) ? declared.find((t) => t !== 'null') : declared;
  const properties = isRecord(schema['properties']) ? schema['properties'] : undefined;
  switch (type ?? (properties !== undefined ? 'object' : undefined)) {
    case 'object':
      return Object.fromEntries(Object.entries(properties ?? {}).map(([key, value]) => [key, sample(value, title, depth + 1)]));
    case 'array':
      return [sample(schema['items'], title, depth + 1)];
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return title;
  }
}

/** Extracted data: an object, following `schema` when it describes an object. */
function extracted(schema: unknown, title: string, description: string): Record<string, unknown> {
  const value = schema === undefined ? undefined : sample(schema, title);
  return isRecord(value) ? value : { title, description };
}

/** Metadata keys the server sets itself: a page's `<meta>` tag of that name is left out (it may not have their type). */
const OWN_METADATA = new Set([
  'title',
  'description',
  'language',
  'sourceURL',
  'url',
  'statusCode',
  'scrapeId',
  'proxyUsed',
  'cacheState',
  'cachedAt',
  'creditsUsed',
  'contentType',
  'numPages',
  'error',
]);

/** A page as fetched and read: what its record is made of. */
export interface FetchedDocument {
  /** The address as sent or found. */
  readonly sourceURL: string;
  /** The address read from, after redirects. */
  readonly url: string;
  readonly statusCode: number;
  readonly contentType: string;
  /** The document as received. */
  readonly rawHtml: string;
  readonly page: ReadPage;
  /** What markdown and html are instead of the page's content: a PDF not extracted, as base64. */
  readonly verbatim?: string;
  /** A PDF whose text was extracted: its pages. */
  readonly numPages?: number;
  /** What the record says is wrong with what was read (a PDF's text cut at its bound). */
  readonly warning?: string;
  /** When the page was fetched, for a page the cache answered (ms since the epoch). */
  readonly cachedAt?: number;
}

/** The record of a page read. Rejects when `signal` aborts (while making its markdown). */
export async function buildDocument(
  version: Version,
  fetched: FetchedDocument,
  scrapeOptions: Readonly<Record<string, unknown>>,
  base: string,
  signal: AbortSignal,
): Promise<PageRecord> {
  const { page } = fetched;
  const title = page.title ?? fetched.url;
  const description = page.description ?? page.firstParagraph;
  const scrapeId = randomUUID();
  const record: PageRecord = {};
  for (const { type, options } of requestedFormats(scrapeOptions)) {
    switch (type) {
      case 'markdown':
        record['markdown'] = fetched.verbatim ?? (await markdownOf(page, signal));
        break;
      case 'html':
        record['html'] = fetched.verbatim ?? page.content.join('');
        break;
      case 'rawHtml':
        record['rawHtml'] = fetched.rawHtml;
        break;
      case 'links':
        record['links'] = [...page.links];
        break;
      case 'screenshot':
        record['screenshot'] = `${base}/site/screenshots/${scrapeId}${options['fullPage'] === true ? '-full' : ''}.svg`;
        break;
      case 'summary':
        record['summary'] = page.firstParagraph === '' ? title : `${title}. ${page.firstParagraph}`;
        break;
      case 'json': {
        const source = version === 'v1' ? scrapeOptions['jsonOptions'] : options;
        record['json'] = extracted(isRecord(source) ? source['schema'] : undefined, title, description);
        break;
      }
      case 'extract':
        if (version === 'v1') {
          const source = scrapeOptions['extract'];
          record['extract'] = extracted(isRecord(source) ? source['schema'] : undefined, title, description);
        }
        break;
      case 'images':
        if (version === 'v2') record['images'] = [...page.images];
        break;
      case 'branding':
        if (version === 'v2')
          record['branding'] = { colorScheme: 'light', colors: { primary: '#3366cc' }, fonts: [{ family: 'system-ui' }] };
        break;
      case 'changeTracking':
        record['changeTracking'] = { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' };
        break;
      default:
        break; // formats without a record key of their own
    }
  }
  const actions = Array.isArray(scrapeOptions['actions']) ? (scrapeOptions['actions'] as unknown[]) : [];
  if (actions.length > 0) {
    const ofType = (t: string) => actions.filter((a) => isRecord(a) && a['type'] === t);
    record['actions'] = {
      screenshots: ofType('screenshot').map((_, i) => `${base}/site/screenshots/${scrapeId}-action-${i}.svg`),
      scrapes: ofType('scrape').map(() => ({ url: fetched.url, html: fetched.rawHtml })),
      javascriptReturns: ofType('executeJavascript').map(() => ({ type: 'undefined', value: null })),
      pdfs: ofType('pdf').map((_, i) => `${base}/site/pdfs/${scrapeId}-${i}.pdf`),
    };
  }
  if (fetched.warning !== undefined) record['warning'] = fetched.warning;
  record['metadata'] = {
    ...Object.fromEntries([...page.meta].filter(([name]) => !OWN_METADATA.has(name))),
    ...(page.title === undefined ? {} : { title: page.title }),
    ...(page.description === undefined ? {} : { description: page.description }),
    ...(page.language === undefined ? {} : { language: page.language }),
    sourceURL: fetched.sourceURL,
    url: fetched.url,
    statusCode: fetched.statusCode,
    ...(fetched.contentType === '' ? {} : { contentType: fetched.contentType }),
    ...(fetched.numPages === undefined ? {} : { numPages: fetched.numPages }),
    scrapeId,
    proxyUsed: 'basic',
    ...(fetched.cachedAt === undefined
      ? { cacheState: 'miss' }
      : { cacheState: 'hit', cachedAt: new Date(fetched.cachedAt).toISOString() }),
    creditsUsed: Math.max(1, fetched.numPages ?? 1),
  };
  return record;
}
