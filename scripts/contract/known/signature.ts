/**
 * What identifies a deviation from one run to the next (known deviations, issue 43): its signature, a hash of its
 * stable parts. For a fault named as a cause (an operation not implemented, a 5xx, a record lost: `Failure.cause`),
 * the cause's words, which name the operation and the fault; not the checks it showed in, which depend on what the
 * run selected (`--only`). For a failure naming no cause, its check, level, kind, section, operation (as the
 * interface names it, `GET /v2/crawl/{id}`, never the address it was sent to), what was expected and what went wrong.
 *
 * Words are taken with what varies from run to run in them made the same (`stable`): the origin of an address (the
 * port of the target or the test site), job ids (UUIDs, long hexadecimal ids), quoted values and numbers (generated
 * values, counts, timings; not the number of a section, `§2.4`). What stays tells one deviation from another: another check, another field (`$.limit`,
 * `scrapeOptions.timeout`), another expectation, another operation, another kind.
 */
import { createHash } from 'node:crypto';
import { locate, type Method } from '../spec/operations.js';
import type { Failure } from '../report/report.js';

/** `text` with the run's specifics made the same: origins, ids, quoted values, numbers standing alone. */
export const stable = (text: string): string =>
  text
    .replace(/\bhttps?:\/\/[^\s/"'<>]+/g, '{origin}')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '{id}')
    .replace(/\b(?=[a-f]*\d)[0-9a-f]{16,}\b/gi, '{id}')
    // A quoted value up to the next quote: an escaped quote (`\"`) ends it early, which still gives the same text the
    // same signature; honouring escapes (`(?:[^"\\]|\\.)*`) made the pattern polynomial (test/redosSources.test.ts).
    .replace(/"[^"]*"/g, '"{value}"')
    // Not a section's number (`interface §2.4`): that names where the expectation comes from.
    .replace(/(?<![§.\d])\b\d+(?:\.\d+)?\b/g, '{n}');

/** A hash of `parts`: 16 hexadecimal digits (64 bits: no two entries of a file of any size that matters share one). */
const hash = (parts: readonly (string | null)[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);

/** The head of a `curl` line (wire/curl.ts): `curl -sS [-X METHOD] 'URL' ...`. */
const CURL_HEAD = /^curl -sS (?:-X (GET|POST|DELETE) )?'((?:[^']|'\\'')*)'/;

/** The operation a failure's request was sent to, as the interface names it (`POST /v2/crawl`); undefined without one. */
export function operationOf(failure: Pick<Failure, 'request'>, target: string): string | undefined {
  const head = failure.request === undefined ? null : CURL_HEAD.exec(failure.request);
  if (head === null) return undefined;
  const method = (head[1] ?? 'GET') as Method;
  const found = locate(target, method, head[2]!.replace(/'\\''/g, "'"));
  return found === undefined ? undefined : `${method} /${found.version}${found.operation.path}`;
}

/** The signature of a fault named as a cause (`Failure.cause`). */
export const causeSignature = (cause: string): string => hash(['cause', stable(cause)]);

/** The signature of a failure naming no cause, `operation` as operationOf gives it. */
export const failureSignature = (failure: Failure, operation: string | undefined): string =>
  hash([
    'failure',
    failure.check,
    failure.level,
    failure.kind,
    failure.section,
    operation ?? null,
    stable(failure.expected),
    stable(failure.message),
  ]);
