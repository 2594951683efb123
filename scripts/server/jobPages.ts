/**
 * A job's pages over time: the app ticks the job, and each tick starts pages until as many are in flight as
 * the job may have (its `maxConcurrency`, at most `MAX_JOB_FETCHES_IN_FLIGHT`), taken from the job's source (a crawl's
 * discoveries or a batch's addresses, `pageSource.ts`). Each page is fetched (`fetcher.ts`), read
 * (`htmlPage.ts`), settled with its source (which says whether it is a result, and learns its links), and
 * made into a record (`documents.ts`) or an error:
 *
 *   - a page that answers, whatever its status (a 404 or a 500 too, as the service), is read and may be a
 *     record, with that `metadata.statusCode`;
 *   - a page that cannot be fetched (refused, reset, timed out, too large, too many redirects) is an error
 *     with the fetcher's code and message, never a record; so is a page of a type the server does not read
 *     (`SCRAPE_UNSUPPORTED_FILE_ERROR`: only HTML and text are);
 *   - what the source lists as an error although the page was read (a crawl's start that its filters keep
 *     out of the results) is an error without code.
 * `stop()` (cancel, expiry, close) aborts every fetch and reading in flight; nothing is reported after it.
 * Every path settles its page with the source exactly once, so a job always ends. What the source reports
 * that is no page's error (a crawl's bounds reached: `Notice`) is listed as an error of the job after it is
 * prepared and after each page; `end()`, when the job has ended, has the source drop what it held to go on.
 */
import type { Version } from '../../schemas/registry.js';
import { buildDocument, type FetchedDocument, type PageRecord } from './documents.js';
import type { Fetcher } from './fetcher.js';
import { readHtml, readText } from './htmlPage.js';
import { MAX_PAGES_PER_JOB, type Notice, type PageSource, type PageTask } from './pageSource.js';

/** Pages of one job in flight at once, whatever its `maxConcurrency`. */
export const MAX_JOB_FETCHES_IN_FLIGHT = 8;

export interface JobPagesEvents {
  page(record: PageRecord): void;
  error(url: string, code: string | undefined, message: string): void;
  /** Something happened that may end the job: the job was prepared, a page settled, or the job cannot go on. */
  progress(): void;
}

export interface JobPagesOptions {
  readonly version: Version;
  readonly scrapeOptions: Readonly<Record<string, unknown>>;
  readonly base: () => string;
  readonly fetcher: Fetcher;
  /** The job's: `stop()` aborts it (the source's own fetches listen to it too). */
  readonly controller: AbortController;
  readonly events: JobPagesEvents;
}

type Outcome = { readonly document: FetchedDocument } | { readonly code: string | undefined; readonly message: string };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const HTML = /html/;
const TEXT = /^text\/|json|xml|javascript/;

export class JobPages {
  readonly #source: PageSource;
  readonly #options: JobPagesOptions;
  readonly #controller: AbortController;
  #prepared = false;
  #inFlight = 0;

  constructor(source: PageSource, options: JobPagesOptions) {
    this.#source = source;
    this.#options = options;
    this.#controller = options.controller;
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

  async #read(task: PageTask): Promise<Outcome> {
    if (task.overCap === true)
      return { code: undefined, message: `Not fetched: a job of the reference server fetches at most ${MAX_PAGES_PER_JOB} pages` };
    const { scrapeOptions, fetcher } = this.#options;
    const signal = this.#controller.signal;
    const timeoutMs = typeof scrapeOptions['timeout'] === 'number' ? scrapeOptions['timeout'] : undefined;
    const fetched = await fetcher.fetch(task.url, { signal, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    if (!fetched.ok) return { code: fetched.code, message: fetched.message };
    const type = fetched.contentType.split(';', 1)[0]!.trim().toLowerCase();
    const page =
      type === '' || HTML.test(type)
        ? await readHtml(fetched.body, fetched.url, scrapeOptions['onlyMainContent'] !== false, signal)
        : TEXT.test(type)
          ? await readText(fetched.body, signal)
          : undefined;
    if (page === undefined)
      return { code: 'SCRAPE_UNSUPPORTED_FILE_ERROR', message: `${fetched.url} is ${type}, which the reference server does not read` };
    return {
      document: {
        sourceURL: task.sourceURL,
        url: fetched.url,
        statusCode: fetched.status,
        contentType: fetched.contentType,
        rawHtml: fetched.body,
        page,
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
