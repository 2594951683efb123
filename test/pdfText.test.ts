/**
 * A PDF's text (scripts/server/pdfText.ts), extracted in a child process by unpdf: the text of each page, an
 * error that says so for a file that is no PDF, and a reader given up on (killed) past its time or when
 * its job stops; a reader reads PDF after PDF, and is replaced after its share; the text is cut at its bound
 * within a page. What a scrape does with it: test/scrapeOptions.test.ts. The memory bound of a reader, which a
 * test could only reach by racing the time bound: attack 41-5 (`npm run load -- --stage attacks --attack 41-5`).
 */
import { describe, expect, it, vi } from 'vitest';
import { IDLE_MS, MAX_PDF_TEXT_CHARS, pdfHtml, PdfError, pdfReaders, pdfText, PDFS_PER_WORKER } from '../scripts/server/pdfText.js';
import { textBombPdf } from '../scripts/load/attacks/hostilePdfs.js';
import { pdfDocument } from '../scripts/site/pdfDocument.js';

/** The PDF's bytes, as the extractor takes them. */
const pdfBytes = (lines: readonly string[]) => Buffer.from(pdfDocument(lines), 'latin1');

const signal = new AbortController().signal;

describe('the text of a PDF', () => {
  it('is had page by page, and written as HTML a paragraph a line', async () => {
    const text = await pdfText(pdfBytes(['First line of the page.', 'Second line, with <angle> & ampersand.']), signal);
    expect(text).toMatchObject({ numPages: 1, cut: false });
    expect(text.pages[0]).toContain('First line of the page.');
    expect(pdfHtml(text)).toBe(
      '<body><section><p>First line of the page.</p><p>Second line, with &lt;angle&gt; &amp; ampersand.</p></section></body>',
    );
  });

  it('is cut at its bound within a page, and says so', async () => {
    // One page of about 13 KB whose text is a million characters past the bound (finding 9 of issue 41).
    const text = await pdfText(textBombPdf(MAX_PDF_TEXT_CHARS + 1_000_000), signal);
    expect(text).toMatchObject({ numPages: 1, cut: true });
    expect(text.pages).toHaveLength(1);
    expect(text.pages[0]).toHaveLength(MAX_PDF_TEXT_CHARS);
    expect(text.pages[0]).toMatch(/^x[x\n]*$/); // a line a thousand glyphs
  });

  it('is an error for a file that is no PDF, and for one its time limit or its job stops; that worker is not reused', async () => {
    // The worker that met it is not kept (it may hold anything of it).
    const before = pdfReaders().idle;
    await expect(pdfText(Buffer.from('%PDF-1.4 and nothing else'), signal)).rejects.toThrow(/the PDF could not be read/);
    expect(pdfReaders().idle).toBe(Math.max(0, before - 1));
    // A worker idle, ready: the one the next read takes.
    await pdfText(pdfBytes(['x']), signal);
    const { idle } = pdfReaders();
    expect(idle).toBeGreaterThan(0);
    // One millisecond for a PDF of ten thousand lines, which takes a hundred times that to read.
    const long = pdfBytes(Array.from({ length: 10_000 }, (_, i) => `line ${i}`));
    const late = await pdfText(long, signal, 1).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(PdfError);
    expect(late).toMatchObject({ timeout: true, message: 'extracting the text of the PDF took more than 1 ms' });
    expect(pdfReaders().idle).toBe(idle - 1);
    // Its job stops while a worker reads it: that worker is not kept either. The worker is handed the PDF before the
    // next turn of the event loop (only promise steps lie between), so the job stops mid-read.
    await pdfText(pdfBytes(['x']), signal);
    const beforeStop = pdfReaders().idle;
    const controller = new AbortController();
    const stopped = pdfText(long, controller.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pdfReaders().idle).toBe(beforeStop - 1);
    controller.abort(new Error('the job stopped'));
    await expect(stopped).rejects.toThrow('the job stopped');
    expect(pdfReaders().idle).toBe(beforeStop - 1);
  });

  it('is read PDF after PDF by one worker, replaced after its share', async () => {
    const before = pdfReaders().started;
    for (let i = 0; i < 2 * PDFS_PER_WORKER + 1; i++)
      expect((await pdfText(pdfBytes([`PDF ${i}`]), signal)).pages[0]).toContain(`PDF ${i}`);
    // Two shares and one more: two or three workers (one may have been idle before), not one a PDF, nor one in all.
    expect(pdfReaders().started - before).toBeGreaterThanOrEqual(2);
    expect(pdfReaders().started - before).toBeLessThanOrEqual(3);
  });

  it('is never handed to a worker that is ending: one idle past its time leaves the pool as it is terminated', async () => {
    // Each worker idle is one just used (the reads here come one after another), its idle time on the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await pdfText(pdfBytes(['warm']), signal);
      expect(pdfReaders().idle).toBe(1);
      // The idle time passes now; the next PDF comes before the ended worker has stopped.
      vi.advanceTimersByTime(IDLE_MS);
    } finally {
      vi.useRealTimers();
    }
    expect(pdfReaders().idle).toBe(0);
    expect((await pdfText(pdfBytes(['after the idle time']), signal)).pages[0]).toContain('after the idle time');
  });
});
