/**
 * Text cut to length for a reader: an answer's body in a failure (600 bytes), and every line of the text report
 * and of the JUnit entries (LINE_LIMIT), so that one long answer or generated request does not fill a CI log
 * (lines of 15 KB were seen). What was cut is said: `... N bytes more`. Lengths are UTF-8 bytes, cut between
 * whole characters. The JSON report keeps each request whole (a body it shows is cut all the same).
 */

/** Longest line of the text report and of a JUnit entry, in bytes. */
export const LINE_LIMIT = 1000;

const more = (bytes: number) => `... ${bytes} bytes more`;

/** `text` in at most `limit` bytes of UTF-8: whole, or its beginning and `... N bytes more`. */
export function cut(text: string, limit: number): string {
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
