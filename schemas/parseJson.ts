/**
 * Parsing a JSON text into a value, or into an issue that says where the text stops being JSON.
 */
import type { ValidationIssue } from './issues.js';

export type ParsedJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issue: ValidationIssue };

/** Parses `text`; a leading byte order mark, which editors on some systems write, is ignored. */
export function parseJson(text: string): ParsedJson {
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch (error) {
    return {
      ok: false,
      issue: {
        path: '$',
        segments: [],
        rule: 'json',
        message: `is not valid JSON (${withLineAndColumn((error as Error).message, json)})`,
        // Interface §4: every endpoint takes `Content-Type: application/json`.
        expected: 'a JSON document [interface §4]',
        source: 'interface §4',
      },
    };
  }
}

/**
 * V8's message names where the text stops being JSON as an offset from its start ("... in JSON at position 1234", at
 * the end of the message), which a reader of a document of many lines cannot find: for such a document the line and
 * column (from 1, in UTF-16 code units as the offset is) are added, and the end of the text is placed so when the
 * message says the text ended early. Where V8 gives no place ("Unexpected token 'x', "..." is not valid JSON"), none is
 * made up. The line breaks of the text V8 quotes are shown as `\n` and `\r`: the message stays one line. One pass up
 * to the offset.
 */
function withLineAndColumn(message: string, json: string): string {
  const oneLine = message.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  if (!json.includes('\n')) return oneLine;
  const at = / at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(message);
  const offset = at !== null ? Number(at[1]) : message === 'Unexpected end of JSON input' ? json.length : undefined;
  if (offset === undefined || offset > json.length) return oneLine;
  let line = 1;
  let lineStart = 0;
  for (let i = json.indexOf('\n'); i !== -1 && i < offset; i = json.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return `${oneLine} (line ${line}, column ${offset - lineStart + 1})`;
}
