/**
 * A job's pages over time: the app ticks the job, and each tick starts pages until as many are in flight as
 * the job may have (its `maxConcurrency`, at most `MAX_JOB_FETCHES_IN_FLIGHT`), taken from the job's source (a crawl's
 * discoveries or a batch's addresses, `pageSource.ts`). Each page is fetched (`fetcher.ts`), read
 * (`htmlPage.ts`), settled with its source (which says whether it is a result, and learns its links), and
 * made into a record (`documents.ts`) or an error:
 *
 *   - a page is fetched as the job's scrape options say (`ScrapeSettings`, read once per job): with their
 *     headers, user agent and languages, TLS verified or not, within their `timeout` (`pageRequest.ts`); or
 *     it is answered from the page cache (`pageCache.ts`: `maxAge`, `storeInCache`), and what was fetched is
 *     stored there when the options say so;
 *   - a page that answers, whatever its status (a 404 or a 500 too, as the service), is read and may be a
 *     record, with that `metadata.statusCode`: an HTML page for its links and metadata, and for its content
 *     when a format asked for shows it (`CONTENT_FORMATS`), kept as the options say (`pageContent.ts`), a
 *     few pages at a time in the whole server (`MAX_READS_IN_FLIGHT`: each holds the document it reads); a
 *     PDF for its text (`pdfText.ts`), unless `parsePDF` / `parsers` say not to (then as base64); a text
 *     page as preformatted text;
 *   - a page that cannot be fetched (refused, reset, timed out, too large, too many redirects) is an error
 *     with the fetcher's code and message, never a record; so is a page of a type the server does not read
 *     (`SCRAPE_UNSUPPORTED_FILE_ERROR`: only HTML, PDF and text are), a PDF whose text cannot be had, a page
 *     whose `includeTags` / `excludeTags` cannot be run, and every page of a job whose `headers` cannot be sent;
 *   - what the source lists as an error although the page was read (a crawl's start that its filters keep
 *     out of the results) is an error without code.
 * `stop()` (cancel, expiry, close) aborts every fetch and reading in flight; nothing is reported after it.
 * Every path settles its page with the source exactly once, so a job always ends. What the source reports
 * that is no page's error (a crawl's bounds reached: `Notice`) is listed as an error of the job after it is
 * prepared and after each page; `end()`, when the job has ended, has the source drop what it held to go on.
 */
import type { Version } from '../../schemas/registry.js';
import { scrapeSettings, type ScrapeSettings } from '../../schemas/scrape/settings.js';
import { buildDocument, type FetchedDocument, type PageRecord } from './documents.js';
import { FetchGate, type Fetched, type Fetcher, type FetchedPage } from './fetcher.js';
import { readHtml, readText, type ReadPage } from './htmlPage.js';
import { cacheKey, cacheVariant, type PageCache } from './pageCache.js';
import type { ContentOptions } from './pageContent.js';
import { pageRequest, type PageRequest } from './pageRequest.js';
import { MAX_PAGES_PER_JOB, type Notice, type PageSource, type PageTask } from './pageSource.js';
import { MAX_PDF_TEXT_CHARS, pdfHtml, PdfError, pdfText } from './pdfText.js';
import { NO_SELECTORS, SelectorError, type ContentSelectors } from './selectorMeter.js';

/** Pages of one job in flight at once, whatever its `maxConcurrency`. */
export const MAX_JOB_FETCHES_IN_FLIGHT = 8;
/** HTML pages read for their content at once in the whole server (each holds its document as a DOM), two of one job. */
export const MAX_READS_IN_FLIGHT = 4;
/** The formats that show a page's content (its markdown, HTML, first paragraph): without one, a page is read for its links and metadata alone. */
const CONTENT_FORMATS = new Set(['markdown', 'html', 'summary', 'json', 'extract']);
/** The content of a PDF's text: every line of it kept. */
const WHOLE: ContentOptions = { onlyMainContent: false, selectors: NO_SELECTORS, removeBase64Images: false };

export interface JobPagesEvents {
  page(record: PageRecord): void;
  error(url: string, code: string | undefined, message: string): void;
  /** Something happened that may end the job: the job was prepared, a page settled, or the job cannot go on. */
  progress(): void;
}

export interface JobPagesOptions {
  readonly version: Version;
  readonly scrapeOptions: Readonly<Record<string, unknown>>;
  /** Its `includeTags` / `excludeTags`, parsed, bounded and compiled when the job started (`selectorLimits.ts`). */
  readonly selectors: ContentSelectors;
  readonly base: () => string;
  readonly fetcher: Fetcher;
  /** The server's page cache. */
  readonly cache: PageCache;
  /** The server's places for reading a page's content (`MAX_READS_IN_FLIGHT`). */
  readonly reads: FetchGate;
  /** The job's: `stop()` aborts it (the source's own fetches listen to it too). */
  readonly controller: AbortController;
  readonly events: JobPagesEvents;
}

type Outcome = { readonly document: FetchedDocument } | { readonly code: string | undefined; readonly message: string };
/** What reading a page gives its record (`rawHtml`, when given, instead of the body as received). */
type Read = Pick<FetchedDocument, 'page'> & Partial<Pick<FetchedDocument, 'verbatim' | 'numPages' | 'rawHtml' | 'warning'>>;

/** A server's places for reading pages' content. */
export const readGate = (): FetchGate => new FetchGate(MAX_READS_IN_FLIGHT, MAX_READS_IN_FLIGHT / 2);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const HTML = /html/;
const TEXT = /^text\/|json|xml|javascript/;

export class JobPages {
  readonly #source: PageSource;
  readonly #options: JobPagesOptions;
  readonly #controller: AbortController;
  readonly #settings: ScrapeSettings;
  /** What each fetch sends, or why none can be sent. */
  readonly #request: PageRequest | { readonly refused: string };
  /** What of a page is its content, when a format asked for shows it. */
  readonly #content: ContentOptions | undefined;
  /**
   * What tells this job's cached pages apart (`pageCache.ts`): a digest of its options, made at its first fetch (a
   * job cancelled before any, as most of a contract run's are, needs none).
   */
  #cacheVariant: string | undefined;
  #prepared = false;
  #inFlight = 0;

  constructor(source: PageSource, options: JobPagesOptions) {
    this.#source = source;
    this.#options = options;
    this.#controller = options.controller;
    const settings = scrapeSettings(options.version, options.scrapeOptions);
    this.#settings = settings;
    this.#request = pageRequest(settings);
    this.#content = (settings.formats ?? ['markdown']).some((format) => CONTENT_FORMATS.has(format))
      ? { onlyMainContent: settings.onlyMainContent, selectors: options.selectors, removeBase64Images: settings.removeBase64Images }
      : undefined;
    // prepare() never rejects; were it to, the job goes on with what it has rather than the process dying of it.
    void source
      .prepare()
      .catch(() => undefined)
      .then(() => {
        this.#prepared = true;
        this.#report();
        if (!this.#stopped) options.events.progress();
      });
  }

  get #stopped(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Every page done, or nothing more can be done. */
  get finished(): boolean {
    return this.#prepared && this.#inFlight === 0 && this.#source.drained;
  }

  /** Pages that may still become records. */
  get remaining(): number {
    return this.#source.remaining;
  }

  get robotsBlocked(): readonly string[] {
    return this.#source.robotsBlocked;
  }

  get failure(): string | undefined {
    return this.#source.failure;
  }

  /** Starts pages until `concurrency` of them (at most `MAX_JOB_FETCHES_IN_FLIGHT`) are in flight, if the job may. */
  advance(concurrency: number): void {
    if (!this.#prepared || this.#stopped) return;
    const room = Math.min(concurrency, MAX_JOB_FETCHES_IN_FLIGHT) - this.#inFlight;
    for (let started = 0; started < room; started++) {
      const task = this.#source.next();
      if (task === undefined) return;
      this.#inFlight += 1;
      void this.#run(task).catch((error: unknown) => {
        if (!this.#stopped) this.#options.events.error(task.url, 'UNKNOWN_ERROR', `${task.url} failed unexpectedly: ${messageOf(error)}`);
      });
    }
  }

  /** More addresses for a batch. */
  append(addresses: readonly string[]): void {
    this.#source.append?.(addresses);
  }

  stop(): void {
    this.#controller.abort();
  }

  /** The job ended: its source drops what it held to go on (`PageSource.release`); its last notices, to list. */
  end(): readonly Notice[] {
    return this.#source.release?.() ?? [];
  }

  /** Lists what the source has to report (`PageSource.takeNotices`) as errors of the job. */
  #report(): void {
    const notices = this.#source.takeNotices?.() ?? [];
    if (!this.#stopped) for (const { url, message } of notices) this.#options.events.error(url, undefined, message);
  }

  /** The page at `task`, from the cache when the options allow and it holds one young enough, else fetched (and stored when they say so). */
  async #fetch(task: PageTask, request: PageRequest): Promise<{ readonly fetched: Fetched; readonly cachedAt?: number }> {
    const { fetcher, cache } = this.#options;
    const settings = this.#settings;
    const cached = fetcher.sourceOf(new URL(task.url)) === 'network';
    this.#cacheVariant ??= cacheVariant(this.#options.version, this.#options.scrapeOptions);
    const key = cacheKey(task.url, this.#cacheVariant);
    // A scrape with headers or actions asks for a page of its own: it neither reads nor stores (`stores` says so for storing).
    const reads = cached && Object.keys(settings.headers).length === 0 && !settings.hasActions;
    const hit = reads ? cache.get(key, settings.maxAge) : undefined;
    if (hit !== undefined) return { fetched: hit.page, cachedAt: hit.cachedAt };
    const fetched = await fetcher.fetch(task.url, {
      signal: this.#controller.signal,
      timeoutMs: request.timeoutMs,
      headers: request.headers,
      skipTlsVerification: request.skipTlsVerification,
    });
    if (cached && settings.stores && fetched.ok) cache.put(key, fetched);
    return { fetched };
  }

  /** Reads an HTML document with `content` (undefined: its links and metadata alone), holding a reading place while it does. */
  async #readHtml(document: string, url: string, content: ContentOptions | undefined): Promise<ReadPage> {
    const signal = this.#controller.signal;
    if (content === undefined) return readHtml(document, url, undefined, signal);
    const release = await this.#options.reads.acquire(signal);
    try {
      return await readHtml(document, url, content, signal);
    } finally {
      release();
    }
  }

  /**
   * A PDF's record: its text (as paragraphs, one a line, its raw HTML that HTML), or with `parsePDF` / `parsers`
   * saying not to, its base64 in every format that holds the page (the file's own bytes hold its text, often
   * as written, and the PDF is to be returned encoded).
   */
  async #readPdf(fetched: FetchedPage, bytes: Buffer, request: PageRequest): Promise<Read> {
    if (!this.#settings.extractsPdf) {
      const base64 = bytes.toString('base64');
      return { page: await readHtml('', fetched.url, undefined, this.#controller.signal), verbatim: base64, rawHtml: base64 };
    }
    const text = await pdfText(bytes, this.#controller.signal, request.timeoutMs);
    const html = pdfHtml(text);
    return {
      page: await this.#readHtml(html, fetched.url, this.#content === undefined ? undefined : WHOLE),
      numPages: text.numPages,
      rawHtml: html,
      ...(text.cut
        ? {
            warning:
              `The PDF's text was cut at ${MAX_PDF_TEXT_CHARS} characters, the most the reference server keeps of one PDF: ` +
              `within page ${text.pages.length} of ${text.numPages}${text.pages.length < text.numPages ? ', the pages after it left out' : ''}.`,
          }
        : {}),
    };
  }

  async #read(task: PageTask): Promise<Outcome> {
    if (task.overCap === true)
      return { code: undefined, message: `Not fetched: a job of the reference server fetches at most ${MAX_PAGES_PER_JOB} pages` };
    const request = this.#request;
    if ('refused' in request) return { code: undefined, message: `${task.url} was not fetched: ${request.refused}` };
    const { fetched, cachedAt } = await this.#fetch(task, request);
    if (!fetched.ok) return { code: fetched.code, message: fetched.message };
    const type = fetched.contentType.split(';', 1)[0]!.trim().toLowerCase();
    let read: Read | undefined;
    try {
      read =
        fetched.bytes !== undefined
          ? await this.#readPdf(fetched, fetched.bytes, request)
          : type === '' || HTML.test(type)
            ? { page: await this.#readHtml(fetched.body, fetched.url, this.#content) }
            : TEXT.test(type)
              ? { page: await readText(fetched.body, this.#controller.signal) }
              : undefined;
    } catch (error) {
      if (error instanceof PdfError)
        return { code: error.timeout ? 'SCRAPE_TIMEOUT' : undefined, message: `${fetched.url}: ${error.message}` };
      if (error instanceof SelectorError) return { code: undefined, message: `${fetched.url} was fetched, but ${error.message}` };
      throw error;
    }
    if (read === undefined)
      return { code: 'SCRAPE_UNSUPPORTED_FILE_ERROR', message: `${fetched.url} is ${type}, which the reference server does not read` };
    return {
      document: {
        sourceURL: task.sourceURL,
        url: fetched.url,
        statusCode: fetched.status,
        contentType: fetched.contentType,
        rawHtml: fetched.body,
        ...read,
        ...(cachedAt === undefined ? {} : { cachedAt }),
      },
    };
  }

  async #run(task: PageTask): Promise<void> {
    const { events, version, scrapeOptions, base } = this.#options;
    const signal = this.#controller.signal;
    try {
      let outcome: Outcome;
      try {
        outcome = await this.#read(task);
      } catch (error) {
        outcome = { code: 'UNKNOWN_ERROR', message: `${task.url} could not be read: ${messageOf(error)}` };
      }
      const document = 'document' in outcome ? outcome.document : undefined;
      const settled = await this.#source.settle(
        task,
        document === undefined ? undefined : { url: document.url, links: document.page.links },
      );
      if (this.#stopped) return;
      this.#report();
      if (!('document' in outcome)) events.error(task.url, outcome.code, outcome.message);
      if (settled.error !== undefined) events.error(task.url, undefined, settled.error);
      if (!settled.result || document === undefined) return;
      try {
        const record = await buildDocument(version, document, scrapeOptions, base(), signal);
        if (!this.#stopped) events.page(record);
      } catch (error) {
        if (!this.#stopped) events.error(task.url, 'UNKNOWN_ERROR', `${task.url} could not be made into a page: ${messageOf(error)}`);
      }
    } finally {
      this.#inFlight -= 1;
      if (!this.#stopped) events.progress();
    }
  }
}
