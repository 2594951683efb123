/**
 * What the command writes is safe to show in a terminal: text it did not make itself (a file name, an
 * argument, a JSON parser's quote of malformed input, what a target answered) may hold control characters,
 * and a terminal acts on them (ESC starts a sequence that can recolour, retitle or rewrite the screen; CR
 * and backspace overwrite what was printed; the bidirectional controls reorder what is shown). Each is
 * written as an escape instead (`\u001b`), so that what is shown is what was there.
 */

/**
 * C0 controls but tab and newline, DEL, C1 controls, the line and paragraph separators, and the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
 */
const UNSAFE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves as it is of the above: it escapes the C0 controls itself. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every character a terminal would act on written as `\uXXXX`; tabs and line ends kept. */
export function printable(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, escape);
}

/**
 * JSON text (what JSON.stringify writes) with the characters a terminal acts on that JSON.stringify leaves
 * raw written as `\uXXXX`. In JSON text they can only stand inside strings, where the escape means the same
 * character: the document is unchanged for any JSON parser.
 */
export function printableJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, escape);
}

/** A value from the command line, quoted for a message: `"v2/crawlrequest"`, control characters escaped. */
export function quote(value: string): string {
  return printable(JSON.stringify(value));
}
