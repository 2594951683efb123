/**
 * The text of a PDF (interface §2.3 `parsePDF`, §2.4 `parsers`: "PDFs are extracted to markdown"), page by page,
 * extracted by unpdf in a child process whose whole memory is bounded.
 *
 * unpdf (unjs, MIT): Mozilla's pdf.js built to run without a browser, in one 2 MB package without native code
 * or dependencies (pdfjs-dist itself is 38 MB, with an optional native canvas). 1.7.0 is its last release that
 * runs on this package's Node 20.19 (1.8 asks for Node 22).
 *
 * Away from the server's thread, because pdf.js parses a file on the thread that asks, and a PDF, which anybody
 * may serve, can make that take as long and as much memory as its author likes (a stream that inflates a
 * thousandfold, objects that refer to each other). Each PDF is given at most `PDF_TIMEOUT_MS` (less when the
 * scrape's `timeout` says so) and its reader at most `PDF_MEMORY_MIB` of memory, all of it: a reader past
 * either is killed and the page is an error that says which. At most `MAX_PDF_WORKERS` read at once in the
 * whole server, shared fairly between jobs (`FetchGate`), and the text kept is at most `MAX_PDF_TEXT_CHARS`
 * characters, cut as the page's text items are joined (what is past it is never joined, nor read: `cut`).
 *
 * Why a child process watched from a thread of its own (issue 41, finding 5, measured on Node 20, Linux x64):
 * pdf.js inflates streams into typed arrays, whose memory lies outside the V8 heap, so a worker thread's
 * `resourceLimits` never saw it (two 2.1 MB PDFs took the server to 3142 MiB; the attack, 1076 MiB). Within
 * one process, no other thread can read a worker's ArrayBuffer total (`process.memoryUsage()` reports its own
 * isolate's; the process's RSS is every job's), and a sampler on the reading thread runs only between pdf.js's
 * steps (measured while it inflated, on a loaded machine: gaps of 40–600 ms). An address-space limit (`ulimit -v`) on a child does not
 * bound what matters either: node reserves ~0.7 GiB of address space at start and ~0.65 GiB more for each
 * thread, so under 1 GB a 64 MiB ArrayBuffer already failed, and under 2 GB 960 MiB were still allowed. So
 * the reader is a child process (`node` with V8's heap capped at the same bound), and a thread in it samples
 * the process's resident memory (`process.memoryUsage.rss()`: everything, heap, ArrayBuffers and native,
 * whatever the reading thread is doing) every `MEMORY_SAMPLE_MS` and kills the process (SIGKILL) past
 * `PDF_MEMORY_MIB`, or once its parent has gone. At the finding's pace (~150 MB/s a reader), a sample misses
 * at most a few MiB of a peak.
 *
 * A reader reads one PDF at a time and is kept for the next: starting one (node, then pdf.js) costs about
 * 0.45 s of CPU (measured), as much as reading a short PDF several times over, and a batch of PDFs paid it for
 * each. What one PDF leaves in a reader is bounded: pdf.js's document is destroyed after each; a reader is
 * replaced after `PDFS_PER_WORKER` PDFs, or when its memory after one passes `KEEP_MEMORY_MIB`; one that went
 * past its time, whose job stopped, that failed, or that met a PDF pdf.js could not read is killed, never
 * reused; one idle for `IDLE_MS` ends (and an idle one never keeps the server's process alive).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { FetchGate } from './fetcher.js';
import { escapeHtml } from './site.js';

/** Time one PDF's text may take, in ms. */
export const PDF_TIMEOUT_MS = 10_000;
/**
 * Memory of a process reading PDFs, all of it (resident: heap, ArrayBuffers, native), in MiB. A reader holds
 * 67 MiB after a PDF of one line, 83 after one of 10,000 lines, 121 at its peak reading 5 Mi characters.
 */
export const PDF_MEMORY_MIB = 192;
/** How often a reader's memory is sampled, in ms. */
export const MEMORY_SAMPLE_MS = 20;
/** PDFs read at once, in the whole server. */
export const MAX_PDF_WORKERS = 2;
/** Characters of text kept of one PDF. */
export const MAX_PDF_TEXT_CHARS = 5 * 1024 * 1024;
/** PDFs one reader reads before it is replaced. */
export const PDFS_PER_WORKER = 64;
/** Memory a reader may hold after a PDF and still read the next, in MiB (one that read a long text is replaced). */
export const KEEP_MEMORY_MIB = 96;
/** How long an idle reader is kept, in ms. */
export const IDLE_MS = 5_000;

export interface PdfText {
  /** The text of each page read, its lines ended by line breaks. */
  readonly pages: readonly string[];
  /** Pages the PDF has. */
  readonly numPages: number;
  /** The text was cut at `MAX_PDF_TEXT_CHARS` (within the last page read; any pages after it are left out). */
  readonly cut: boolean;
}

/** Why a PDF's text could not be had: it took too long (`timeout`), too much memory, or it is no PDF the library can read. */
export class PdfError extends Error {
  constructor(
    message: string,
    readonly timeout = false,
  ) {
    super(message);
  }
}

/** The unpdf entry the reader loads (CommonJS: `node -e` runs a script). */
const LIBRARY = createRequire(import.meta.url).resolve('unpdf');

/** The reader's watchdog thread: kills its process past `limit` bytes resident, or once its parent has gone. */
const WATCHDOG = `
const { workerData: { limit, every, parent } } = require('node:worker_threads');
setInterval(() => {
  if (process.memoryUsage.rss() > limit || process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
}, every);
`;

/**
 * The reader, run as `node -e READER <library> <limit bytes> <sample ms>`: starts its watchdog, then for each
 * message `{bytes, maxChars}` reads the PDF with unpdf's pdf.js (errors only, no eval of font programs), page
 * after page, each page's text items streamed and joined until `maxChars` characters are had (the item that
 * passes it cut, the stream cancelled), destroys the document, and sends `{ok, pages, numPages, cut, rssMiB}`
 * or `{ok: false, message, rssMiB}` (rssMiB: its memory after). A string: the same code runs from the sources
 * and from the build.
 */
const READER = `
const { Worker } = require('node:worker_threads');
const [library, limit, every] = process.argv.slice(1);
new Worker(${JSON.stringify(WATCHDOG)}, {
  eval: true,
  workerData: { limit: Number(limit), every: Number(every), parent: process.ppid },
}).unref();
const { getDocumentProxy } = require(library);
const itemText = (item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : '') : '');
async function pageText(page, left) {
  const parts = [];
  const reader = page.streamTextContent().getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const text = chunk.value.items.map(itemText).join('');
    if (text.length <= left) {
      parts.push(text);
      left -= text.length;
      continue;
    }
    // Cut at the bound, never between the two halves of a surrogate pair.
    const end = /[\\ud800-\\udbff]/.test(text[left - 1] ?? '') ? left - 1 : left;
    parts.push(text.slice(0, end));
    await reader.cancel(new Error('the text is cut at its bound'));
    return { text: parts.join(''), cut: true };
  }
  return { text: parts.join(''), cut: false };
}
async function read(bytes, maxChars) {
  const pdf = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false });
  try {
    const pages = [];
    let chars = 0;
    let cut = false;
    for (let n = 1; n <= pdf.numPages && !cut; n++) {
      const page = await pageText(await pdf.getPage(n), maxChars - chars);
      pages.push(page.text);
      chars += page.text.length;
      cut = page.cut;
    }
    return { ok: true, pages, numPages: pdf.numPages, cut };
  } finally {
    await pdf.destroy();
  }
}
// The bytes come as a Buffer, which pdf.js refuses: the same memory, seen as a Uint8Array.
process.on('message', ({ bytes, maxChars }) =>
  read(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxChars)
    .catch((error) => ({ ok: false, message: String((error && error.message) || error) }))
    .then((answer) => process.send({ ...answer, rssMiB: process.memoryUsage.rss() / 1048576 })),
);
process.on('disconnect', () => process.exit(0));
`;

type Answer = { readonly rssMiB: number } & (
  | { readonly ok: true; readonly pages: string[]; readonly numPages: number; readonly cut: boolean }
  | { readonly ok: false; readonly message: string }
);

/** A reader process and the PDF it reads, if any. */
class Reader {
  readonly #child: ChildProcess;
  reads = 0;
  #ending = false;
  #pending: { resolve(answer: Answer): void; reject(error: Error): void } | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    // Without NODE_OPTIONS: the reader's limits are the ones given here, and it loads nothing the server was run with.
    const { NODE_OPTIONS: _, ...env } = process.env;
    this.#child = spawn(
      process.execPath,
      [`--max-old-space-size=${PDF_MEMORY_MIB}`, '-e', READER, LIBRARY, String(PDF_MEMORY_MIB * 1024 * 1024), String(MEMORY_SAMPLE_MS)],
      { env, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' },
    );
    started += 1;
    this.#child.on('message', (answer: Answer) => this.#settle((p) => p.resolve(answer)));
    this.#child.on('error', (error) => {
      this.#settle((p) => p.reject(new PdfError(`the PDF reader could not be started: ${error.message}`)));
      this.end();
    });
    this.#child.on('exit', (code, signal) => {
      // Killed, and not by this side: its watchdog saw it pass its memory bound (or the system ran out of memory).
      const memory = signal === 'SIGKILL' && !this.#ending;
      this.#settle((p) =>
        p.reject(
          new PdfError(
            memory
              ? `reading the PDF took more than ${PDF_MEMORY_MIB} MiB of memory`
              : `the PDF reader stopped (${signal ?? `exit code ${code}`}) before it answered`,
          ),
        ),
      );
      clearTimeout(this.#idle);
      gone(this);
    });
  }

  #settle(how: (pending: { resolve(answer: Answer): void; reject(error: Error): void }) => void): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending !== undefined) how(pending);
  }

  /** The answer for `bytes`; the reader is busy (and keeps the process alive) until it comes. */
  read(bytes: Uint8Array): Promise<Answer> {
    clearTimeout(this.#idle);
    this.#child.ref();
    this.#child.channel?.ref();
    this.reads += 1;
    return new Promise<Answer>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#child.send({ bytes, maxChars: MAX_PDF_TEXT_CHARS });
    });
  }

  /** Idle, in the pool for the next PDF: kept for `IDLE_MS`, without keeping the process alive. */
  rest(): void {
    this.#child.unref();
    this.#child.channel?.unref();
    idle.push(this);
    this.#idle = setTimeout(() => this.end(), IDLE_MS);
    this.#idle.unref();
  }

  /** Out of the pool at once (a reader being killed is never handed a PDF), then killed. */
  end(): void {
    clearTimeout(this.#idle);
    gone(this);
    this.#ending = true;
    this.#child.kill('SIGKILL');
  }
}

let started = 0;
const idle: Reader[] = [];
const gone = (reader: Reader): void => {
  const at = idle.indexOf(reader);
  if (at >= 0) idle.splice(at, 1);
};
const readers = new FetchGate(MAX_PDF_WORKERS, Math.max(1, MAX_PDF_WORKERS / 2));

/** Readers started so far in this process, and those idle now (what the tests see of the reuse). */
export const pdfReaders = (): { readonly started: number; readonly idle: number } => ({ started, idle: idle.length });

/**
 * The text of the PDF `bytes`, within `timeoutMs` (at most `PDF_TIMEOUT_MS`). Rejects with a `PdfError` when it
 * cannot be had, and with the signal's reason when `signal` (its job's) aborts first.
 */
export async function pdfText(bytes: Uint8Array, signal: AbortSignal, timeoutMs = PDF_TIMEOUT_MS): Promise<PdfText> {
  const release = await readers.acquire(signal);
  try {
    signal.throwIfAborted();
    const limit = Math.max(1, Math.min(timeoutMs, PDF_TIMEOUT_MS));
    const reader = idle.pop() ?? new Reader();
    let answer: Answer;
    try {
      answer = await withinLimit(reader.read(bytes), limit, signal);
    } catch (error) {
      // Past its time or its memory, its job stopped, or it failed: what it is doing is not waited for, and it is not reused.
      reader.end();
      throw error;
    }
    // A PDF pdf.js could not read may have left anything behind in it: that reader is not reused either.
    if (answer.ok && reader.reads < PDFS_PER_WORKER && answer.rssMiB <= KEEP_MEMORY_MIB) reader.rest();
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
