/**
 * htmlparser2's streaming parser, bounded so that reading a page never holds the server up: linear in the
 * page whatever its nesting, and fed a slice at a time with a turn of the event loop between slices.
 *
 * Why: the parser keeps its open elements in an array it grows and shrinks at the front (`unshift`,
 * `shift`) and searches for every closing tag (`indexOf`), so each tag costs time in proportion to the
 * nesting depth. A page of nothing but opening tags (5 MiB of `<b>` nests 1.7 million deep) or of closing
 * tags that match nothing makes that quadratic: 40 000 `<div>` and as many `</span>` took 2.3 s, the same
 * at the page size limit would take minutes of the server's one thread.
 *
 * How: past `MAX_NESTING` open elements an opening tag is dropped, as the parser itself drops a second
 * `<form>` (its attributes and end are then ignored); its text still comes through. Browsers bound the tree
 * the same way (Blink at 512 levels); no real page comes near.
 *
 * `parseInSlices` writes `SLICE_CHARS` at a time (a few milliseconds of parsing), so that other requests
 * are answered between slices of a page at the size limit.
 */
import { Parser } from 'htmlparser2';

export const MAX_NESTING = 512;
/** Characters written to a parser between two turns of the event loop (and of a text page read, `htmlPage.ts`). */
export const SLICE_CHARS = 64 * 1024;

/** Lets the event loop answer whatever is waiting, then resolves. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Writes `text` to `parser` a slice at a time, a turn of the event loop between slices, then ends it. Rejects when `signal` aborts. */
export async function parseInSlices(parser: Parser, text: string, signal: AbortSignal): Promise<void> {
  for (let at = 0; at < text.length; at += SLICE_CHARS) {
    if (at > 0) await turn();
    signal.throwIfAborted();
    parser.write(text.slice(at, at + SLICE_CHARS));
  }
  parser.end();
}

export class BoundedParser extends Parser {
  override onopentagname(start: number, endIndex: number): void {
    // The open elements are the parser's `stack`: private to TypeScript, a plain array at run time.
    if ((this as unknown as { readonly stack: readonly string[] }).stack.length < MAX_NESTING) super.onopentagname(start, endIndex);
  }
}
