/**
 * Parsing a JSON text into a value, or into an issue that says where the text stops being JSON.
 */
import type { ValidationIssue } from '../schemas/issues.js';

export type ParsedJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issue: ValidationIssue };

export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      ok: false,
      issue: {
        path: '$',
        segments: [],
        rule: 'json',
        message: `is not valid JSON (${(error as Error).message})`,
        expected: 'a JSON document',
      },
    };
  }
}
