/**
 * What a change is (breakingChanges.ts): where it is, what it is, and whether it breaks someone, judged for who is
 * affected (a client writing a request, or a consumer reading an answer); and how changes are reported, one line each
 * and a summary.
 */
/** Who is affected by a schema: a client writing it (`request`), or a consumer reading it (`response`). */
export type Direction = 'request' | 'response';

export interface Change {
  readonly breaking: boolean;
  /** The document and place: `v2 POST /v2/crawl request`, `v2 GET /v2/crawl/{id} response 200`, `v2 DELETE /v2/crawl/{id}`. */
  readonly where: string;
  readonly what: string;
}

export const formatChange = (change: Change): string => `${change.breaking ? 'BREAKING' : 'ok      '}  ${change.where}: ${change.what}`;

export function summary(changes: readonly Change[], since: string): string {
  if (changes.length === 0) return `no changes since ${since}`;
  const breaking = changes.filter((c) => c.breaking).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(changes.length, 'change')} since ${since}: ${breaking} breaking, ${changes.length - breaking} not breaking`;
}
