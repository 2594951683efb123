/**
 * Repeated failures of one check, reported once. A check that sends many requests of one kind (each field
 * alone, each enum value, each status poll) meets the same fault many times: a target that answers 500 to
 * every start, or 404 to a route it does not have, gave one entry per request (one 500 listed 22 times, the
 * same 404 on 580 lines of one report). The report is built with each class once (run.ts), so that the text,
 * the JSON and the JUnit output all say it once, with how many (`count`) and the smallest request.
 *
 * A class: the same level, kind, section and status, the same message, expectation and answer, up to the
 * specifics of the request (addresses, job ids, numbers). What was expected is part of the class: it names the
 * field, path or rule held (`limit: 2.5 is not an integer`), and three fields accepted with a fraction are three
 * deviations, not one shown three times (issue 40: `limit`, `maxDepth` and `maxDiscoveryDepth` were one line
 * `limit: 2.5 × 3`). A number is a specific only standing alone: `field1` and `field2`, `/v1/` and `/v2/` are
 * other names, not other numbers. A failure with a counterexample is a class of the generator already (shrunk on
 * its own, so that one failing field cannot hide another) and is kept as it is.
 */
import type { Failure } from './report.js';

/**
 * `text` with what varies from one request to the next in words: addresses, job ids (UUIDs, and long hexadecimal
 * ones), numbers standing alone (`2.5`, `/crawl/42`; not the digit of a name such as `field1` or `v2`).
 */
const withoutSpecifics = (text: string) =>
  text
    .replace(/\bhttps?:\/\/[^\s"'<>]+/g, '{address}')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '{id}')
    .replace(/\b(?=[a-f]*\d)[0-9a-f]{16,}\b/gi, '{id}')
    .replace(/\b\d+(?:\.\d+)?\b/g, '{n}');

const classOf = (f: Failure) =>
  JSON.stringify([
    f.level,
    f.kind,
    f.section,
    f.got?.status ?? null,
    withoutSpecifics(f.message),
    withoutSpecifics(f.expected),
    withoutSpecifics(f.got?.body ?? ''),
  ]);

const size = (f: Failure) => f.request?.length ?? Number.POSITIVE_INFINITY;

/** `failures` (of one check) with each class once, where it was first met: the one with the shortest request, and how many there were. */
export function collapse(failures: readonly Failure[]): Failure[] {
  const classes = new Map<string, Failure[]>();
  const order: (Failure | Failure[])[] = [];
  for (const failure of failures) {
    if (failure.counterexample !== undefined) {
      order.push(failure);
      continue;
    }
    const key = classOf(failure);
    const members = classes.get(key);
    if (members !== undefined) members.push(failure);
    else {
      const created = [failure];
      classes.set(key, created);
      order.push(created);
    }
  }
  return order.map((entry) => {
    if (!Array.isArray(entry)) return entry;
    const count = entry.reduce((sum, f) => sum + (f.count ?? 1), 0);
    const smallest = entry.reduce((best, f) => (size(f) < size(best) ? f : best));
    return count > 1 ? { ...smallest, count } : smallest;
  });
}
