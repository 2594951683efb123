/**
 * The text of a PDF (interface §2.3 `parsePDF`, §2.4 `parsers`: "PDFs are extracted to markdown"), page by page,
 * extracted by unpdf in a worker thread.
 *
 * unpdf (unjs, MIT): Mozilla's pdf.js built to run without a browser, in one 2 MB package without native code
 * or dependencies (pdfjs-dist itself is 38 MB, with an optional native canvas). 1.7.0 is its last release that
 * runs on this package's Node 20.19 (1.8 asks for Node 22).
 *
 * A worker thread, because pdf.js parses a file on the thread that asks, and a PDF, which anybody may serve,
 * can make that take as long and as much memory as its author likes (a stream that inflates a thousandfold,
 * objects that refer to each other): a worker is given at most `PDF_TIMEOUT_MS` per PDF (less when the scrape's
 * `timeout` says so) and `PDF_HEAP_MIB` of heap, and is terminated past either, so the server's own thread
 * never waits for a PDF. At most `MAX_PDF_WORKERS` run at once in the whole server, shared fairly between jobs
 * (`FetchGate`), and the text kept is at most `MAX_PDF_TEXT_CHARS` characters (the pages past it are left out,
 * and the answer says so).
 *
 * A worker reads one PDF at a time and is kept for the next: starting one (loading pdf.js) costs about a fifth
 * of a second of CPU, as much as reading a short PDF several times over, and a batch of PDFs paid it for each.
 * What one PDF leaves in a worker is bounded: pdf.js's document is destroyed after each; a worker is replaced
 * after `PDFS_PER_WORKER` PDFs, or when its heap after one passes `KEEP_HEAP_MIB`; one that went past its time,
 * whose job stopped, that failed, or that met a PDF pdf.js could not read is terminated, never reused; one idle
 * for `IDLE_MS` ends (and an idle one never keeps the process alive).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { FetchGate } from './fetcher.js';
import { escapeHtml } from './site.js';

/** Time one PDF's text may take, in ms. */
export const PDF_TIMEOUT_MS = 10_000;
/** Heap of the worker that reads PDFs, in MiB. */
export const PDF_HEAP_MIB = 256;
/** PDFs read at once, in the whole server. */
export const MAX_PDF_WORKERS = 2;
/** Characters of text kept of one PDF. */
export const MAX_PDF_TEXT_CHARS = 5 * 1024 * 1024;
/** PDFs one worker reads before it is replaced. */
export const PDFS_PER_WORKER = 64;
/** Heap a worker may hold after a PDF and still read the next, in MiB. */
export const KEEP_HEAP_MIB = 64;
/** How long an idle worker is kept, in ms. */
export const IDLE_MS = 5_000;

export interface PdfText {
  /** The text of each page read, its lines ended by line breaks. */
  readonly pages: readonly string[];
  /** Pages the PDF has. */
  readonly numPages: number;
  /** Pages were left out past `MAX_PDF_TEXT_CHARS`. */
  readonly cut: boolean;
}

/** Why a PDF's text could not be had: it took too long (`timeout`), or it is no PDF the library can read. */
export class PdfError extends Error {
  constructor(
    message: string,
    readonly timeout = false,
  ) {
    super(message);
  }
}

/** The unpdf entry the worker loads (CommonJS: an evaluated worker is a script). */
const LIBRARY = createRequire(import.meta.url).resolve('unpdf');

/**
 * The worker: for each message `{bytes, maxChars}`, reads the PDF with unpdf's pdf.js (errors only, no eval of
 * font programs), page after page until the text passes `maxChars`, destroys the document, and posts
 * `{ok, pages, numPages, cut, heapMiB}` or `{ok: false, message, heapMiB}` (heapMiB: its heap after). A
 * string, evaluated: the same code runs from the sources and from the build.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { getHeapStatistics } = require('node:v8');
const { getDocumentProxy } = require(workerData.library);
const heapMiB = () => getHeapStatistics().used_heap_size / 1048576;
async function read(bytes, maxChars) {
  const pdf = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false });
  try {
    const pages = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages && chars <= maxChars; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : '') : '')).join('');
      pages.push(text);
      chars += text.length;
    }
    return { ok: true, pages, numPages: pdf.numPages, cut: chars > maxChars };
  } finally {
    await pdf.destroy();
  }
}
parentPort.on('message', ({ bytes, maxChars }) =>
  read(bytes, maxChars)
    .catch((error) => ({ ok: false, message: String((error && error.message) || error) }))
    .then((answer) => parentPort.postMessage({ ...answer, heapMiB: heapMiB() })),
);
`;

type Answer = { readonly heapMiB: number } & (
  | { readonly ok: true; readonly pages: string[]; readonly numPages: number; readonly cut: boolean }
  | { readonly ok: false; readonly message: string }
);

/** A worker and the PDF it reads, if any. */
class Reader {
  readonly worker: Worker;
  reads = 0;
  #pending: { resolve(answer: Answer): void; reject(error: Error): void } | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: { library: LIBRARY },
      resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MIB, maxYoungGenerationSizeMb: 32 },
    });
    started += 1;
    this.worker.on('message', (answer: Answer) => this.#settle((p) => p.resolve(answer)));
    this.worker.on('error', (error) => {
      const memory = (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#settle((p) =>
        p.reject(
          new PdfError(
            memory ? `reading the PDF took more than ${PDF_HEAP_MIB} MiB of memory` : `the PDF could not be read: ${error.message}`,
          ),
        ),
      );
    });
    this.worker.on('exit', () => {
      this.#settle((p) => p.reject(new PdfError('the PDF reader stopped before it answered')));
      clearTimeout(this.#idle);
      gone(this);
    });
  }

  #settle(how: (pending: { resolve(answer: Answer): void; reject(error: Error): void }) => void): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending !== undefined) how(pending);
  }

  /** The answer for `bytes`; the worker is busy (and keeps the process alive) until it comes. */
  read(bytes: Uint8Array): Promise<Answer> {
    clearTimeout(this.#idle);
    this.worker.ref();
    this.reads += 1;
    return new Promise<Answer>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.worker.postMessage({ bytes, maxChars: MAX_PDF_TEXT_CHARS });
    });
  }

  /** Idle, in the pool for the next PDF: kept for `IDLE_MS`, without keeping the process alive. */
  rest(): void {
    this.worker.unref();
    idle.push(this);
    this.#idle = setTimeout(() => this.end(), IDLE_MS);
    this.#idle.unref();
  }

  /** Out of the pool at once (a worker being terminated is never handed a PDF), then terminated. */
  end(): void {
    clearTimeout(this.#idle);
    gone(this);
    void this.worker.terminate();
  }
}

let started = 0;
const idle: Reader[] = [];
const gone = (reader: Reader): void => {
  const at = idle.indexOf(reader);
  if (at >= 0) idle.splice(at, 1);
};
const workers = new FetchGate(MAX_PDF_WORKERS, Math.max(1, MAX_PDF_WORKERS / 2));

/** Workers started so far in this process, and those idle now (what the tests see of the reuse). */
export const pdfReaders = (): { readonly started: number; readonly idle: number } => ({ started, idle: idle.length });

/**
 * The text of the PDF `bytes`, within `timeoutMs` (at most `PDF_TIMEOUT_MS`). Rejects with a `PdfError` when it
 * cannot be had, and with the signal's reason when `signal` (its job's) aborts first.
 */
export async function pdfText(bytes: Uint8Array, signal: AbortSignal, timeoutMs = PDF_TIMEOUT_MS): Promise<PdfText> {
  const release = await workers.acquire(signal);
  try {
    signal.throwIfAborted();
    const limit = Math.max(1, Math.min(timeoutMs, PDF_TIMEOUT_MS));
    const reader = idle.pop() ?? new Reader();
    let answer: Answer;
    try {
      answer = await withinLimit(reader.read(bytes), limit, signal);
    } catch (error) {
      // Past its time, its job stopped, or it failed: what it is doing is not waited for, and it is not reused.
      reader.end();
      throw error;
    }
    // A PDF pdf.js could not read may have left anything behind in it: that worker is not reused either.
    if (answer.ok && reader.reads < PDFS_PER_WORKER && answer.heapMiB <= KEEP_HEAP_MIB) reader.rest();
    else reader.end();
    if (!answer.ok) throw new PdfError(`the PDF could not be read: ${answer.message}`);
    return { pages: answer.pages, numPages: answer.numPages, cut: answer.cut };
  } finally {
    release();
  }
}

/** `answer`, unless `limit` ms pass or `signal` aborts first. */
function withinLimit(answer: Promise<Answer>, limit: number, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const settle = (how: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      how();
    };
    const timer = setTimeout(
      () => settle(() => reject(new PdfError(`extracting the text of the PDF took more than ${limit} ms`, true))),
      limit,
    );
    const aborted = () => settle(() => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason))));
    signal.addEventListener('abort', aborted, { once: true });
    answer.then(
      (value) => settle(() => resolve(value)),
      (error: Error) => settle(() => reject(error)),
    );
  });
}

/** A PDF's text as HTML: each page a `<section>`, each line of it that is not blank a paragraph. */
export function pdfHtml(text: PdfText): string {
  const page = (lines: string): string =>
    lines
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('');
  return `<body>${text.pages.map((lines) => `<section>${page(lines)}</section>`).join('')}</body>`;
}
