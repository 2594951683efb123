/**
 * The scrape oracle: from a page (page.ts) and the scrape options of a v1 or v2 request, what the record a
 * conforming scrape returns for that page must hold and must not hold, as constraints (constraint.ts), each
 * with its level of truth, the sentence it rests on and why. `judgeScrapeRecord` (judge.ts) holds a record
 * against them; docs/scrape-behaviour.md has the whole table.
 *
 *   - `interface`: the meaning interface §2.3 (v1) and §2.4 (v2; its rows that refer back to v1 cite both) give an
 *     option, and what a format is: the markdown and the HTML of a page hold its content; raw HTML is the page
 *     as served, before any option shapes the content; links are the page's links, as absolute addresses. That
 *     each format asked for is returned (interface §1) is judged by content: some text of the record holds it
 *     (`holdsFormat`). The field a format is returned in is named by the service only (interface §2.6: the
 *     record's fields are not shown), so a constraint on `markdown` is judged on that field when the record
 *     has it, else on the text that holds the markdown (judge.ts), and the `present` constraint, at service
 *     level, fails.
 *   - `service`: the record's fields and metadata, the formats present and only those, and what the service
 *     does where the interface says nothing: an `aside` removed, CSS selectors, the user
 *     agent of `mobile`, the language of `location`, a second scrape answered from the cache.
 *
 * What a page's texts and images become under `onlyMainContent`, `includeTags` and `excludeTags` is decided in
 * verdicts.ts; what the way a page is served shows (request headers, a fetch count, an answer late or over TLS)
 * in serving.ts. A page a scrape must fail (slower than `timeout`; a self-signed certificate that is verified)
 * gets only the constraints of the failure.
 */
import { Constraints, serviceCite, type ScrapeCitation, type ScrapeExpectation } from './constraint.js';
import { defaultNote, isRecord, type Context, type ScrapeRequest } from './context.js';
import { SEARCHED_FORMATS, type SearchedFormat } from './formatSearch.js';
import type { ScrapePageModel } from './page.js';
import { readSelector } from './selectors.js';
import { counter, echo, returnsPage } from './serving.js';
import { scrapeSettings } from './settings.js';
import { placeVerdict, Selectors, type PlaceVerdict } from './verdicts.js';

export type { EarlierScrape, ScrapeRequest } from './context.js';

/** The record fields of the formats, by format name (v1 `screenshot@fullPage` is a `screenshot`). */
const FORMAT_FIELDS: Readonly<Record<string, string>> = {
  markdown: 'markdown',
  html: 'html',
  rawHtml: 'rawHtml',
  links: 'links',
  screenshot: 'screenshot',
  'screenshot@fullPage': 'screenshot',
  json: 'json',
  extract: 'extract',
  summary: 'summary',
  changeTracking: 'changeTracking',
  images: 'images',
  branding: 'branding',
};
/** The formats that hold the page's content, shaped by `onlyMainContent`, `includeTags` and `excludeTags`. */
const CONTENT_FORMATS = ['markdown', 'html'] as const;
/** What the service writes in markdown in place of a removed base64 image's address. */
export const BASE64_PLACEHOLDER = '<Base64-Image-Removed>';
/** Options no page can show: what the page would have to see is not in the HTTP request it receives. */
const NO_PAGE_SHOWS: Readonly<Record<string, string>> = {
  waitFor: 'a delay before the content is read shows nothing in what a page answers',
  actions: 'actions run in a browser on the page; the test pages have nothing to act on',
  proxy: 'the proxy class is how the service reaches the page, which a page cannot tell',
  blockAds: 'the test pages have no ads or cookie pop-ups',
  jsonOptions: 'structured extraction needs a language model; its answer is not the page',
  changeTrackingOptions: 'change tracking compares scrapes over time, with a language model in some modes',
  fastMode: 'a service extension with no meaning a page can show',
};

/** The formats present and only those, and the metadata of the page. */
function recordFields(c: Context): void {
  const { out, s, page } = c;
  const fieldsAsked = new Set((s.formats ?? ['markdown']).flatMap((f) => FORMAT_FIELDS[f] ?? []));
  for (const field of new Set(Object.values(FORMAT_FIELDS))) {
    if (page.kind === 'pdf' && field !== 'markdown') continue;
    const given = fieldsAsked.has(field);
    out.add({
      subject: field,
      option: 'formats',
      field,
      kind: given ? 'present' : 'absent',
      cites: serviceCite(field),
      why: given
        ? `${s.formats === undefined ? 'markdown is the service’s default format' : 'the format is asked for'}, and the service returns it as ${field}`
        : 'the service returns only the formats asked for',
    });
  }
  out.add({
    subject: 'page',
    option: 'page',
    field: 'metadata.sourceURL',
    kind: 'equals',
    value: page.url,
    cites: serviceCite('metadata.sourceURL'),
    why: 'the address the scrape was asked for',
  });
  out.add({
    subject: 'page',
    option: 'page',
    field: 'metadata.statusCode',
    kind: 'equals',
    value: page.status,
    cites: serviceCite('metadata.statusCode'),
    why: 'the HTTP status the page answers with',
  });
  if (page.title !== undefined)
    out.add({
      subject: 'page',
      option: 'page',
      field: 'metadata.title',
      kind: 'equals',
      value: page.title,
      cites: serviceCite('metadata.title'),
      why: 'the page’s <title>',
    });
}

/** A PDF: its text extracted to markdown, or the file itself base64-encoded (v1 `parsePDF`, v2 `parsers`). */
function pdf(c: Context): void {
  const { out, s, page } = c;
  const option = s.version === 'v1' ? 'parsePDF' : 'parsers';
  const cites = s.version === 'v1' ? out.option('parsePDF') : [{ source: 'interface §2.4', names: ['parsers', 'pdf'] }];
  if (s.extractsPdf) {
    if (c.asked('markdown'))
      for (const [i, t] of page.texts.entries())
        out.add({
          subject: `t${i}`,
          option,
          field: 'markdown',
          kind: 'contains',
          text: t.text,
          cites,
          why: 'PDF content is extracted to markdown',
        });
    return;
  }
  if (page.body === undefined) return;
  // The body of a PDF model is ASCII (page.ts), which btoa encodes byte for byte.
  const base64 = btoa(page.body);
  out.add({
    subject: 'body',
    option,
    field: 'record',
    kind: 'holdsBase64',
    text: base64,
    cites,
    why: 'the PDF is returned base64-encoded',
  });
  for (const [i, t] of page.texts.entries())
    out.add({
      subject: `t${i}`,
      option,
      field: 'record',
      kind: 'lacks',
      text: t.text,
      cites,
      why: 'the PDF is returned base64-encoded, not extracted',
    });
  if (c.asked('markdown'))
    out.add({
      subject: 'body',
      option,
      field: 'markdown',
      kind: 'holdsBase64',
      text: base64,
      cites: serviceCite('markdown'),
      why: 'the service returns the base64 PDF as markdown',
    });
}

/** The citations of a verdict on `field`: the option's row, or the format's when no option decides; or the service. */
const citesOf = (c: Context, verdict: PlaceVerdict, field: string): ScrapeCitation[] =>
  verdict.level === 'service'
    ? serviceCite(verdict.decided.option === 'formats' ? field : verdict.decided.option)
    : verdict.decided.option === 'formats'
      ? c.out.format(field)
      : c.out.option(verdict.decided.option);

/** Each known text in the content formats, raw HTML and links. */
function texts(c: Context): void {
  const { out, page } = c;
  for (const [i, t] of page.texts.entries()) {
    const verdict = placeVerdict(t.region, t.path, c.sel);
    if (verdict !== undefined)
      for (const field of c.contentFields)
        out.add({
          subject: `t${i}`,
          option: verdict.decided.option,
          field,
          kind: verdict.decided.verdict === 'must' ? 'contains' : 'lacks',
          text: t.text,
          cites: citesOf(c, verdict, field),
          why: verdict.decided.why,
        });
    // No heading style is asserted (`# Title` or Title over `=====`): no source states one (issue 40).
    const kept = verdict?.decided.verdict === 'must';
    if (c.asked('rawHtml'))
      out.add({
        subject: `t${i}`,
        option: 'formats',
        field: 'rawHtml',
        kind: 'contains',
        text: t.text,
        cites: out.format('rawHtml'),
        why: 'raw HTML is the page as served, before onlyMainContent, includeTags or excludeTags shape the content',
      });
    if (c.asked('links') && t.href !== undefined && kept && verdict.level === 'interface')
      out.add({
        subject: `t${i}`,
        option: 'formats',
        field: 'links',
        kind: 'includes',
        text: t.href,
        cites: out.format('links'),
        why: 'a link of the page’s content, as its absolute address',
      });
  }
  if (c.asked('rawHtml') && page.body !== undefined)
    out.add({
      subject: 'body',
      option: 'formats',
      field: 'rawHtml',
      kind: 'equals',
      value: page.body,
      cites: serviceCite('rawHtml'),
      why: 'the service returns the page as it was served',
    });
  if (c.asked('links'))
    out.add({
      subject: 'page',
      option: 'formats',
      field: 'links',
      kind: 'only',
      values: page.links,
      cites: out.format('links'),
      why: 'the links of the page, and no other address',
    });
}

/**
 * Base64 images (interface §2.3 `removeBase64Images`): removed from the markdown, alt text kept (the service
 * writes a placeholder for the address); with false, kept. The service removes them from the markdown only,
 * so the HTML format is held to nothing when they are to be removed.
 */
function images(c: Context): void {
  const { out, s } = c;
  for (const [i, image] of c.page.images.entries()) {
    if (image.base64 === undefined) continue;
    const verdict = placeVerdict(image.region, image.path, c.sel);
    const kept = verdict?.decided.verdict === 'must' && verdict.level === 'interface';
    const cites = out.option('removeBase64Images');
    const subject = `img${i}`;
    const option = 'removeBase64Images';
    if (s.removeBase64Images && c.asked('markdown')) {
      out.add({
        subject,
        option,
        field: 'markdown',
        kind: 'lacksBase64',
        text: image.base64,
        cites,
        why: `base64 images are removed from the output${defaultNote(c, option)}`,
      });
      if (!kept) continue;
      out.add({
        subject,
        option,
        field: 'markdown',
        kind: 'contains',
        text: image.alt,
        cites,
        why: 'the alt text of a removed base64 image stays',
      });
      out.add({
        subject,
        option,
        field: 'markdown',
        kind: 'contains',
        text: BASE64_PLACEHOLDER,
        cites: serviceCite(option, BASE64_PLACEHOLDER),
        why: `the service writes ${BASE64_PLACEHOLDER} for its address`,
      });
    } else if (!s.removeBase64Images && kept)
      for (const field of c.contentFields)
        out.add({
          subject,
          option,
          field,
          kind: 'holdsBase64',
          text: image.base64,
          cites,
          why: 'removeBase64Images is false: the base64 image stays in the output',
        });
  }
}

/** What recognises a format in a record whatever field holds it, in words. */
const FORMAT_HOLDS: Readonly<Record<SearchedFormat, string>> = {
  markdown: 'some text of the record is the page’s markdown, holding every text its content must show',
  html: 'some text of the record is the page’s HTML, elements and all, holding every text its content must show',
  rawHtml: 'some text of the record is the page’s HTML as served, holding every text of the page',
  links: 'some list of the record holds the addresses the page’s content links to, each absolute',
};

/**
 * Each format asked for, recognised by its content (interface §1: the service returns a page in the formats
 * asked for; the formats row names them; §2.6 shows no field names): what the oracle already says it must hold
 * at interface level, its texts (for links, its addresses), somewhere in the record. A format the options
 * leave nothing in at interface level (`includeTags` of a class alone) is not looked for.
 */
function formatContents(c: Context): void {
  const { out } = c;
  for (const format of SEARCHED_FORMATS) {
    if (!c.asked(format)) continue;
    const needles = out.list
      .filter((x) => x.field === format && x.level === 'interface')
      .filter((x) => (format === 'links' ? x.kind === 'includes' : x.kind === 'contains' && x.option !== 'removeBase64Images'))
      .map((x) => x.text!);
    if (needles.length === 0) continue;
    out.add({
      subject: format,
      option: 'formats',
      field: 'record',
      kind: 'holdsFormat',
      value: format,
      values: needles,
      cites: [{ source: 'interface §1', names: ['output formats'] }, ...out.format(format)],
      why: `${format} is asked for: ${FORMAT_HOLDS[format]} (whatever field holds it: the field names are the service’s)`,
    });
  }
}

/** What a conforming scrape with `request` returns for `page`. */
export function scrapeExpectation(page: ScrapePageModel, request: ScrapeRequest): ScrapeExpectation {
  const s = scrapeSettings(request.version, request.options);
  const asked = (format: string) => (s.formats === undefined ? format === 'markdown' : s.formats.includes(format));
  const c: Context = {
    page,
    request,
    s,
    sel: new Selectors(s),
    out: new Constraints(request.version),
    given: isRecord(request.options) ? request.options : {},
    contentFields: CONTENT_FORMATS.filter(asked),
    asked,
  };
  const { out } = c;
  for (const [option, why] of Object.entries(NO_PAGE_SHOWS)) if (c.given[option] !== undefined) out.skip(option, why);
  for (const option of ['includeTags', 'excludeTags'] as const)
    for (const selector of s[option])
      if (readSelector(selector) === undefined)
        out.skip(option, `${JSON.stringify(selector)} is no tag, .class, #id or compound of them: what it selects is not judged`);

  if (!returnsPage(c)) return out.expectation(page.url, s);
  recordFields(c);
  if (page.kind === 'pdf') pdf(c);
  else {
    if (c.given['parsePDF'] !== undefined || c.given['parsers'] !== undefined)
      out.skip(s.version === 'v1' ? 'parsePDF' : 'parsers', 'this page is no PDF');
    texts(c);
    images(c);
  }
  formatContents(c);
  echo(c);
  counter(c);
  return out.expectation(page.url, s);
}
