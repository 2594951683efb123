/**
 * Parsing a JSON text into a value, or into an issue that says where the text stops being JSON.
 */
import type { ValidationIssue } from './issues.js';

export type ParsedJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issue: ValidationIssue };

/** Parses `text`; a leading byte order mark, which editors on some systems write, is ignored. */
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown };
  } catch (error) {
    return {
      ok: false,
      issue: {
        path: '$',
        segments: [],
        rule: 'json',
        message: `is not valid JSON (${(error as Error).message})`,
        // Interface §4: every endpoint takes `Content-Type: application/json`.
        expected: 'a JSON document [interface §4]',
        source: 'interface §4',
      },
    };
  }
}
