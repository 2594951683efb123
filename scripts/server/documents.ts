/**
 * Page records (`Document`) of the reference server, built from the synthetic site's page model (or a
 * synthetic page for an address off the site), with only the keys of the requested formats:
 *
 *   markdown, html (main content with `onlyMainContent`, else the body), rawHtml, links (absolute), screenshot
 *   (an address on the site), summary, json (an object following the format's JSON Schema when one is given),
 *   images (v2), branding (v2), changeTracking (always a first scrape: `new`), v1 `extract`; `actions` when
 *   the scrape options have actions. Formats whose record key the interface does not define (v2 `product`,
 *   `menu`, `audio`, `video`, `question`, `highlights`, `attributes`, `query`) add no key.
 *   `metadata` always carries sourceURL (as sent), url, statusCode 200, scrapeId, title, description,
 *   language, contentType, proxyUsed, cacheState and creditsUsed.
 */
import { randomUUID } from 'node:crypto';
import type { Step } from './plan.js';
import { absoluteLink, mainHtml, pageHtml, pageMarkdown, type SitePage } from './site.js';

export type PageRecord = Record<string, unknown>;

type Version = 'v1' | 'v2';

interface RequestedFormat {
  readonly type: string;
  readonly options: Readonly<Record<string, unknown>>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The formats of scrape options, each as `{type, options}` (v1 `screenshot@fullPage` is a full-page screenshot). */
function requestedFormats(scrapeOptions: Readonly<Record<string, unknown>>): RequestedFormat[] {
  const formats = Array.isArray(scrapeOptions['formats']) ? (scrapeOptions['formats'] as unknown[]) : ['markdown'];
  return formats.flatMap((format): RequestedFormat[] => {
    if (format === 'screenshot@fullPage') return [{ type: 'screenshot', options: { fullPage: true } }];
    if (typeof format === 'string') return [{ type: format, options: {} }];
    if (isObject(format) && typeof format['type'] === 'string') return [{ type: format['type'], options: format }];
    return [];
  });
}

/** A value following a JSON Schema, as far as a small sampler can tell: enough to read as extracted data. */
function sample(schema: unknown, title: string, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return title;
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  for (const union of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[union];
    if (Array.isArray(branches) && branches.length > 0) return sample(branches[0], title, depth + 1);
  }
  const declared = schema['type'];
  const type = Array.isArray(declared) ? declared.find((t) => t !== 'null') : declared;
  const properties = isObject(schema['properties']) ? schema['properties'] : undefined;
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
function extracted(schema: unknown, p: SitePage): Record<string, unknown> {
  const value = schema === undefined ? undefined : sample(schema, p.title);
  return isObject(value) ? value : { title: p.title, description: p.description };
}

/** The page an address off the synthetic site gets: deterministic, without links. */
function syntheticPage(url: string): SitePage {
  const { host, pathname } = new URL(url);
  const title = `Synthetic page for ${host}${pathname}`;
  return { path: pathname, title, description: `${title}.`, paragraph: `A synthetic page standing for ${url}.`, links: [], images: [] };
}

/** The record of a step that succeeded. */
export function buildDocument(version: Version, step: Step, scrapeOptions: Readonly<Record<string, unknown>>, base: string): PageRecord {
  const p = step.page ?? syntheticPage(step.url);
  const scrapeId = randomUUID();
  const record: PageRecord = {};
  for (const { type, options } of requestedFormats(scrapeOptions)) {
    switch (type) {
      case 'markdown':
        record['markdown'] = pageMarkdown(p, base);
        break;
      case 'html': {
        const main = mainHtml(p, base);
        record['html'] = scrapeOptions['onlyMainContent'] === false ? `<body>${main}</body>` : main;
        break;
      }
      case 'rawHtml':
        record['rawHtml'] = pageHtml(p, base);
        break;
      case 'links':
        record['links'] = [...new Set(p.links.map((l) => new URL(absoluteLink(l, base)).href))];
        break;
      case 'screenshot':
        record['screenshot'] = `${base}/site/screenshots/${scrapeId}${options['fullPage'] === true ? '-full' : ''}.svg`;
        break;
      case 'summary':
        record['summary'] = `${p.title}. ${p.paragraph}`;
        break;
      case 'json': {
        const source = version === 'v1' ? scrapeOptions['jsonOptions'] : options;
        record['json'] = extracted(isObject(source) ? source['schema'] : undefined, p);
        break;
      }
      case 'extract':
        if (version === 'v1') {
          const source = scrapeOptions['extract'];
          record['extract'] = extracted(isObject(source) ? source['schema'] : undefined, p);
        }
        break;
      case 'images':
        if (version === 'v2') record['images'] = p.images.map((i) => absoluteLink(i, base));
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
    const ofType = (t: string) => actions.filter((a) => isObject(a) && a['type'] === t);
    record['actions'] = {
      screenshots: ofType('screenshot').map((_, i) => `${base}/site/screenshots/${scrapeId}-action-${i}.svg`),
      scrapes: ofType('scrape').map(() => ({ url: step.url, html: pageHtml(p, base) })),
      javascriptReturns: ofType('executeJavascript').map(() => ({ type: 'undefined', value: null })),
      pdfs: ofType('pdf').map((_, i) => `${base}/site/pdfs/${scrapeId}-${i}.pdf`),
    };
  }
  record['metadata'] = {
    title: p.title,
    description: p.description,
    language: 'en',
    sourceURL: step.sourceURL,
    url: step.url,
    statusCode: 200,
    contentType: 'text/html; charset=utf-8',
    scrapeId,
    proxyUsed: 'basic',
    cacheState: 'miss',
    creditsUsed: 1,
  };
  return record;
}
