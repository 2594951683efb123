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
 * objects that refer to each other): a worker is given at most `PDF_TIMEOUT_MS` (less when the scrape's
 * `timeout` says so) and `PDF_HEAP_MIB` of heap, and is terminated past either, so the server's own thread
 * never waits for a PDF. At most `MAX_PDF_WORKERS` run at once in the whole server, shared fairly between jobs
 * (`FetchGate`), and the text kept is at most `MAX_PDF_TEXT_CHARS` characters (the pages past it are left out,
 * and the answer says so). Each worker starts anew (about a tenth of a second): nothing of one PDF outlives it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { FetchGate } from './fetcher.js';
import { escapeHtml } from './site.js';

/** Time one PDF's text may take, in ms. */
export const PDF_TIMEOUT_MS = 10_000;
/** Heap of the worker that reads one PDF, in MiB. */
export const PDF_HEAP_MIB = 256;
/** PDFs read at once, in the whole server. */
export const MAX_PDF_WORKERS = 2;
/** Characters of text kept of one PDF. */
export const MAX_PDF_TEXT_CHARS = 5 * 1024 * 1024;

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
 * The worker: reads the PDF in `workerData.bytes` with unpdf's pdf.js (errors only, no eval of font programs),
 * page after page until the text passes `workerData.maxChars`, and posts `{ok, pages, numPages, cut}` or
 * `{ok: false, message}`. A string, evaluated: the same code runs from the sources and from the build.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { getDocumentProxy } = require(workerData.library);
(async () => {
  const pdf = await getDocumentProxy(workerData.bytes, { verbosity: 0, isEvalSupported: false });
  const pages = [];
  let chars = 0;
  for (let n = 1; n <= pdf.numPages && chars <= workerData.maxChars; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : '') : '')).join('');
    pages.push(text);
    chars += text.length;
  }
  parentPort.postMessage({ ok: true, pages, numPages: pdf.numPages, cut: chars > workerData.maxChars });
})().catch((error) => parentPort.postMessage({ ok: false, message: String((error && error.message) || error) }));
`;

const workers = new FetchGate(MAX_PDF_WORKERS, Math.max(1, MAX_PDF_WORKERS / 2));

type Answer =
  | { readonly ok: true; readonly pages: string[]; readonly numPages: number; readonly cut: boolean }
  | { readonly ok: false; readonly message: string };

/**
 * The text of the PDF `bytes`, within `timeoutMs` (at most `PDF_TIMEOUT_MS`). Rejects with a `PdfError` when it
 * cannot be had, and with the signal's reason when `signal` (its job's) aborts first.
 */
export async function pdfText(bytes: Uint8Array, signal: AbortSignal, timeoutMs = PDF_TIMEOUT_MS): Promise<PdfText> {
  const release = await workers.acquire(signal);
  try {
    signal.throwIfAborted();
    const limit = Math.max(1, Math.min(timeoutMs, PDF_TIMEOUT_MS));
    const answer = await new Promise<Answer>((resolve, reject) => {
      const worker = new Worker(WORKER, {
        eval: true,
        workerData: { library: LIBRARY, bytes, maxChars: MAX_PDF_TEXT_CHARS },
        resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MIB, maxYoungGenerationSizeMb: 32 },
      });
      const stop = (error: Error) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        void worker.terminate();
        reject(error);
      };
      const timer = setTimeout(() => stop(new PdfError(`extracting the text of the PDF took more than ${limit} ms`, true)), limit);
      const aborted = () => stop(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      signal.addEventListener('abort', aborted, { once: true });
      worker.once('message', (message: Answer) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        void worker.terminate();
        resolve(message);
      });
      worker.once('error', (error) => {
        const memory = (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        stop(
          new PdfError(
            memory ? `reading the PDF took more than ${PDF_HEAP_MIB} MiB of memory` : `the PDF could not be read: ${error.message}`,
          ),
        );
      });
      worker.once('exit', () => stop(new PdfError('the PDF reader stopped before it answered')));
    });
    if (!answer.ok) throw new PdfError(`the PDF could not be read: ${answer.message}`);
    return { pages: answer.pages, numPages: answer.numPages, cut: answer.cut };
  } finally {
    release();
  }
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
