/**
 * htmlparser2's streaming parser with the elements it keeps open bounded, so that parsing is linear in the
 * page whatever its nesting.
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
 */
import { Parser } from 'htmlparser2';

export const MAX_NESTING = 512;

export class BoundedParser extends Parser {
  override onopentagname(start: number, endIndex: number): void {
    // The open elements are the parser's `stack`: private to TypeScript, a plain array at run time.
    if ((this as unknown as { readonly stack: readonly string[] }).stack.length < MAX_NESTING) super.onopentagname(start, endIndex);
  }
}
