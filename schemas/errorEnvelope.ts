/**
 * The bodies the service answers with when a request is refused, built from validation issues, so a
 * server built on these validators answers as the service does:
 *
 *   400 `{ success: false, code: "BAD_REQUEST", error, details: [{ code, message, path }] }` for a body that
 *       breaks the schema or a rule. `error` is the unknown-key message when a key is unknown, else the
 *       message of the first broken rule when the first problem is one, else "Bad Request" (as the service
 *       words it in its 2026 form). Each detail carries a zod-style `code` (`invalid_type`,
 *       `unrecognized_keys`, `too_big`, `custom`, ...), a message, and the path as keys and indexes;
 *       unknown keys of one object are reported together, with their `keys`.
 *   400 `{ success: false, code: "BAD_REQUEST_INVALID_JSON", error: "Bad request, malformed JSON" }` for a
 *       body that is not JSON.
 *
 * The messages are this package's (they say what is expected); a rule's message is the service's own.
 * Where the service reports a scrape-option rule at the body's top level (`["waitFor"]` inside
 * `scrapeOptions`), the path given here is where the problem is.
 */
import type { ValidationIssue } from './issues.js';
import { parseJson } from './parseJson.js';

/**
 * One entry of an error body's `details`: the generated `ValidationIssue` of `crawlspec/types/v1` and `v2` (the
 * envelope's name for it), not the `ValidationIssue` that `validate()` reports (path, segments, rule, ...), from
 * which it is made. Plain mutable arrays, as the generated types have them, so that a body is assignable to the
 * generated `ErrorResponse` (test/types.test-d.ts); each call makes new ones.
 */
// A type, not an interface: an object type is assignable to one with an index signature (the generated types'), an interface is not.
export type ErrorDetail = {
  code: string;
  message: string;
  path: (string | number)[];
  keys?: string[];
};

/** The 400 body: assignable to the generated `ErrorResponse` of either version. */
export type ErrorBody = {
  success: false;
  code: 'BAD_REQUEST' | 'BAD_REQUEST_INVALID_JSON';
  error: string;
  details?: ErrorDetail[];
};

/** zod's issue code for each JSON Schema keyword; a rule (anything else) is `custom`. */
const ZOD_CODES: Record<string, string> = {
  type: 'invalid_type',
  required: 'invalid_type',
  additionalProperties: 'unrecognized_keys',
  enum: 'invalid_enum_value',
  const: 'invalid_literal',
  maximum: 'too_big',
  exclusiveMaximum: 'too_big',
  maxLength: 'too_big',
  maxItems: 'too_big',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  minLength: 'too_small',
  minItems: 'too_small',
  format: 'invalid_string',
  pattern: 'invalid_string',
  anyOf: 'invalid_union',
  oneOf: 'invalid_union',
  discriminator: 'invalid_union_discriminator',
  json: 'invalid_type',
};

const unknownKeyMessage = (version: 'v1' | 'v2') =>
  `Unrecognized key in body -- please review the ${version} API documentation for request body changes`;

/** The 400 body for a request that broke the schema or a rule (`issues` non-empty). */
export function validationErrorBody(version: 'v1' | 'v2', issues: readonly ValidationIssue[]): ErrorBody {
  const details: ErrorDetail[] = [];
  const unknownKeys = new Map<string, { path: (string | number)[]; keys: string[] }>();
  for (const issue of issues) {
    const code = ZOD_CODES[issue.rule] ?? 'custom';
    if (code !== 'unrecognized_keys') {
      details.push({ code, message: issue.message, path: [...issue.segments] });
      continue;
    }
    const path = issue.segments.slice(0, -1);
    const key = String(issue.segments[issue.segments.length - 1]);
    const group = unknownKeys.get(JSON.stringify(path));
    if (group) group.keys.push(key);
    else {
      const created = { path, keys: [key] };
      unknownKeys.set(JSON.stringify(path), created);
      details.push({ code, message: unknownKeyMessage(version), path, keys: created.keys });
    }
  }
  const first = details[0];
  const error =
    unknownKeys.size > 0 ? unknownKeyMessage('v2') : first !== undefined && first.code === 'custom' ? first.message : 'Bad Request';
  return { success: false, code: 'BAD_REQUEST', error, details };
}

export const MALFORMED_JSON_BODY: ErrorBody = Object.freeze({
  success: false,
  code: 'BAD_REQUEST_INVALID_JSON',
  error: 'Bad request, malformed JSON',
});

/** A request body's text, parsed; or the 400 body the service sends for malformed JSON. */
export function parseRequestBody(
  text: string,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly body: ErrorBody } {
  const parsed = parseJson(text);
  return parsed.ok ? parsed : { ok: false, body: MALFORMED_JSON_BODY };
}
