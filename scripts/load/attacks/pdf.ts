/**
 * The attacks of issue 41 on the server's PDF text (findings 5 and 9): a hostile site on 127.0.0.1 serves
 * PDFs built in `hostilePdfs.ts`, and a fresh `crawlspec serve` scrapes them (the PDF's text by default). The
 * harness holds each to the usual bounds (here `RSS_PDF_MIB`: the server with its PDF readers, the unrelated
 * request answered within 1 s, alive afterwards); each attack checks what its finding is about.
 */
import { MAX_PDF_TEXT_CHARS } from '../../server/pdfText.js';
import { parsed } from '../shared.js';
import { ended, errorsOf, serve, start } from './afterPage.js';
import { RSS_PDF_MIB, UNRELATED_LATENCY_MS } from './bounds.js';
import type { Attack } from './harness.js';
import { call, outcome } from './net.js';
import { inflatingPdf, textBombPdf } from './hostilePdfs.js';
import type { Answer } from './sites.js';

const round = (n: number): number => Math.round(n);
const MB = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;

/** A PDF as the hostile site sends it. */
const pdfAnswer = (pdf: Buffer): Answer => ({ type: 'application/pdf', body: pdf.toString('latin1'), encoding: 'latin1' });

/** Bombs in the batch: two read at once (the server's two readers), then two more. */
const BOMBS = 4;
/** Compressed size of each: the finding's 2.1 MB. */
const BOMB_BYTES = 2_100_000;

const attack5: Attack = {
  id: '41-5',
  title: `${BOMBS} PDFs of ${MB(BOMB_BYTES)} whose content streams inflate to ~2 GB each, scraped in one batch`,
  rssMiB: RSS_PDF_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 90_000,
  prepare() {
    const pdf = inflatingPdf(BOMB_BYTES);
    const bomb = pdfAnswer(pdf);
    return {
      notes: { PDF: `${MB(pdf.length)}, its one content stream inflating to ~2.1 GB of spaces` },
      async run(ctx) {
        const site = await serve(ctx, () => bomb);
        const urls = Array.from({ length: BOMBS }, (_, i) => `${site.origin}/bomb-${i}.pdf`);
        const path = await start(ctx, 'the batch', '/v2/batch/scrape', { urls, formats: ['markdown'] });
        if (path === undefined) return;
        const end = await ended(ctx, path, 60_000);
        ctx.check(
          'the batch ended within 60 s',
          end !== undefined,
          end === undefined ? 'still scraping' : `${end.status} in ${round(end.ms)} ms`,
        );
        const { body } = await errorsOf(ctx, path);
        const errors = body?.errors ?? [];
        const why = (pattern: RegExp) => errors.filter((e) => pattern.test(e.error)).length;
        ctx.note('the errors', errors.length === 0 ? 'none' : [...new Set(errors.map((e) => e.error.replace(/^\S+: /, '')))].join(' | '));
        ctx.check(
          'each PDF is an error of its page naming why (its memory, or its time)',
          urls.every((url) => errors.some((e) => e.url === url && /MiB of memory|took more than/.test(e.error))),
          `${errors.length} errors for ${BOMBS} PDFs: ${why(/MiB of memory/)} past the memory bound, ${why(/took more than \d+ ms/)} past the time bound`,
        );
      },
    };
  },
};

/** Characters the 10 KB page shows: the finding's 8 million. */
const TEXT_CHARS = 8_000_000;

const attack9: Attack = {
  id: '41-9',
  title: `a PDF of one ~13 KB page whose text is ${TEXT_CHARS.toLocaleString('en')} characters, scraped as markdown`,
  rssMiB: RSS_PDF_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    const pdf = textBombPdf(TEXT_CHARS);
    return {
      notes: { PDF: `${pdf.length} bytes, one page showing ${TEXT_CHARS} characters` },
      async run(ctx) {
        const site = await serve(ctx, () => pdfAnswer(pdf));
        const path = await start(ctx, 'the batch', '/v2/batch/scrape', { urls: [`${site.origin}/text.pdf`], formats: ['markdown'] });
        if (path === undefined) return;
        const end = await ended(ctx, path, 30_000);
        const read = await call(ctx.base, 'GET', path, { timeoutMs: 30_000 });
        ctx.answered(read);
        const record = (parsed(read.text) as { data?: { markdown?: string; warning?: string }[] } | undefined)?.data?.[0];
        const chars = record?.markdown?.length;
        ctx.check(
          'the page has a record',
          end?.status === 'completed' && record !== undefined,
          `${end === undefined ? 'still scraping' : `${end.status}, ${end.completed} pages`}; ${outcome(read)}`,
        );
        // Markdown adds a blank line between the page's lines (here one every 65,536 characters): a few hundred characters.
        ctx.check(
          `its markdown is at most ${MAX_PDF_TEXT_CHARS} characters and a thousand`,
          chars !== undefined && chars <= MAX_PDF_TEXT_CHARS + 1000,
          `${chars ?? 'no'} characters`,
        );
        ctx.check('the record says the text was cut', /cut/.test(record?.warning ?? ''), `warning: ${record?.warning ?? 'none'}`);
      },
    };
  },
};

export const PDF_ATTACKS: readonly Attack[] = [attack5, attack9];
