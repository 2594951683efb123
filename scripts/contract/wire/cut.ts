/**
 * Text cut to length for a reader, and the size of every report bounded whatever the target sent or the kit
 * sent it: a request of 12 MB once made a 12.7 MB HTML report (issue 40). What was cut is said: `... N bytes
 * more`. Lengths are UTF-8 bytes, cut between whole characters.
 *
 *   - A failure keeps at most FAILURE_TEXT_LIMIT bytes of its message, expectation and request (context.ts), the
 *     JSON report's included; an answer's body, 600 bytes.
 *   - A report a person reads (text, JUnit, HTML) shows at most FIELD_LIMIT bytes of each of those, each line
 *     of them at most LINE_LIMIT bytes (every line of the text report and of a JUnit entry is so cut), and at
 *     most DETAIL_LIMIT bytes of failure entries in all (`DetailBudget`): the entries past it are counted, not
 *     shown, and the JSON report lists each. So none of them is over REPORT_LIMIT bytes.
 */

/** The most bytes a report the command writes (text, JUnit, HTML) takes. */
export const REPORT_LIMIT = 2 * 1024 * 1024;

/** Longest line of the text report and of a JUnit entry (and of a field of the HTML report), in bytes. */
export const LINE_LIMIT = 1000;

/** Longest message, expectation and request (curl line) a failure keeps, in every report. */
export const FAILURE_TEXT_LIMIT = 64 * 1024;

/** Longest message, expectation, answer or request of one failure a report a person reads shows. */
export const FIELD_LIMIT = 4 * 1024;

/**
 * Bytes of failure entries one report a person reads shows; with the rest of it (a line per check, the
 * sections around them, each line cut to LINE_LIMIT) it stays under REPORT_LIMIT.
 */
export const DETAIL_LIMIT = 1024 * 1024;

const more = (bytes: number) => `... ${bytes} bytes more`;

/** `text` in at most `limit` bytes of UTF-8: whole, or its beginning and `... N bytes more`. */
export function cut(text: string, limit: number): string {
  // A string of n UTF-16 units holds at most 3n bytes: most texts are known to fit without counting.
  if (text.length * 3 <= limit) return text;
  const total = Buffer.byteLength(text);
  if (total <= limit) return text;
  // Room for the note of what was cut, whose length depends on the count it says (at most that of `total`).
  const room = Math.max(0, limit - more(total).length);
  let kept = 0;
  let end = 0;
  for (const character of text) {
    const bytes = Buffer.byteLength(character);
    if (kept + bytes > room) break;
    kept += bytes;
    end += character.length;
  }
  return `${text.slice(0, end)}${more(total - kept)}`;
}

/** Every line of `text` cut to `limit` bytes. */
export const cutLines = (text: string, limit = LINE_LIMIT): string =>
  text
    .split('\n')
    .map((line) => cut(line, limit))
    .join('\n');

/** A field of a failure as a report a person reads shows it: FIELD_LIMIT bytes of it, each line LINE_LIMIT. */
export const shownField = (text: string): string => cutLines(cut(text, FIELD_LIMIT));

/** What a report says of the failure entries it leaves out past DETAIL_LIMIT. */
export const notShown = (entries: number): string =>
  `... ${entries} more ${entries === 1 ? 'entry' : 'entries'} not shown: this report shows ${DETAIL_LIMIT} bytes of failure details at most (--json lists each)`;

/** The failure entries one report shows, DETAIL_LIMIT bytes of them in all: past that, counted, not shown. */
export class DetailBudget {
  private left = DETAIL_LIMIT;

  /** Of `entries`, each rendered while room is left (so the work stays bounded too), and how many were not. */
  take<T>(entries: readonly T[], render: (entry: T) => string): { shown: string[]; hidden: number } {
    const shown: string[] = [];
    for (const entry of entries) {
      if (this.left <= 0) break;
      const text = render(entry);
      const bytes = Buffer.byteLength(text);
      if (bytes > this.left) {
        this.left = 0;
        break;
      }
      this.left -= bytes;
      shown.push(text);
    }
    return { shown, hidden: entries.length - shown.length };
  }
}
