/**
 * A PDF's text (scripts/server/pdfText.ts), extracted in a worker thread by unpdf: the text of each page, an
 * error that says so for a file that is no PDF, and a worker given up on (terminated) past its time or when
 * its job stops. What a scrape does with it: test/scrapeOptions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { pdfHtml, PdfError, pdfText } from '../scripts/server/pdfText.js';
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

  it('is an error for a file that is no PDF, and for one its time limit or its job stops', async () => {
    await expect(pdfText(Buffer.from('%PDF-1.4 and nothing else'), signal)).rejects.toThrow(/the PDF could not be read/);
    // One millisecond: no worker has started by then.
    const late = await pdfText(pdfBytes(['x']), signal, 1).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(PdfError);
    expect(late).toMatchObject({ timeout: true, message: 'extracting the text of the PDF took more than 1 ms' });
    const controller = new AbortController();
    const stopped = pdfText(pdfBytes(['x']), controller.signal);
    controller.abort(new Error('the job stopped'));
    await expect(stopped).rejects.toThrow('the job stopped');
  });
});
