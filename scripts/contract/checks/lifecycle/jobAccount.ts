/**
 * A finished job's own account of itself, next to the records it delivered: how many pages it says it scraped
 * (`completed`), and why it says it failed the pages it did not return (its errors endpoint, service: facts §8.5,
 * `{ errors: [{ url, code?, error }] }`). Two things a verdict needs from it (issue 40):
 *
 *   - a record lost: a job that says `completed: 10` and delivers 9 records lost one. That is a fault of its own,
 *     whatever the job asked, and it explains a page missing from the records better than any option does;
 *   - the target's reason for a page it failed (`SCRAPE_ALL_ENGINES_FAILED: ...`), put in the verdict that the
 *     missing page leads to, so that a reader sees the target's own words next to the kit's.
 *
 * The errors endpoint is the service's (the interface shows none): a target without one, or an answer that is no
 * list of errors, gives no reason; nothing is judged of it here (the lifecycle checks hold the endpoint itself).
 */
import type { Attempt, JobStatusBody } from '../../engine/context.js';
import { toCurl } from '../../wire/curl.js';
import type { Exchange } from '../../wire/http.js';
import { cut } from '../../wire/cut.js';
import { pageKey } from '../../../../schemas/crawl/site.js';

/** A page the target says it failed: its address as given, and the code and message it gave. */
export interface TargetError {
  readonly url: string;
  readonly code?: string;
  readonly error: string;
}

/** Most characters of the target's own message kept in a verdict. */
const MESSAGE_LIMIT = 200;
/** Most errors read of one job (a target may list thousands). */
const MAX_ERRORS = 100;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The errors of the job whose status is read at `statusUrl` (`<statusUrl>/errors`); undefined when none can be read. */
export async function readTargetErrors(attempt: Attempt, statusUrl: string): Promise<readonly TargetError[] | undefined> {
  let url: string;
  try {
    const at = new URL(statusUrl);
    at.pathname = `${at.pathname.endsWith('/') ? at.pathname.slice(0, -1) : at.pathname}/errors`;
    url = at.href;
  } catch {
    return undefined;
  }
  const exchange = await attempt.send({ method: 'GET', url });
  const body = exchange.status === 200 ? exchange.json : undefined;
  if (!isObject(body) || !Array.isArray(body['errors'])) return undefined;
  const errors: TargetError[] = [];
  for (const entry of body['errors'].slice(0, MAX_ERRORS)) {
    if (!isObject(entry) || typeof entry['url'] !== 'string') continue;
    const message = typeof entry['error'] === 'string' ? entry['error'] : JSON.stringify(entry['error'] ?? null);
    errors.push({
      url: entry['url'],
      ...(typeof entry['code'] === 'string' ? { code: cut(entry['code'], 80) } : {}),
      error: cut(message, MESSAGE_LIMIT),
    });
  }
  return errors;
}

/** The target's reason for failing `url`, in words: `its errors endpoint says SCRAPE_ALL_ENGINES_FAILED: "..."`; undefined when it gave none. */
export function targetReason(errors: readonly TargetError[] | undefined, url: string): string | undefined {
  const key = pageKey(url);
  const found = errors?.find((e) => e.url === url || pageKey(e.url) === key);
  if (found === undefined) return undefined;
  return `the target's errors endpoint says ${found.code === undefined ? '' : `${found.code}: `}${JSON.stringify(found.error)}`;
}

/** How many records a finished job says it has (`completed`), when it says it as a whole number. */
export const completedOf = (status: Pick<JobStatusBody, 'completed'>): number | undefined =>
  Number.isSafeInteger(status.completed) && status.completed >= 0 ? status.completed : undefined;

/** The cause of a lost record, the same words in every check that meets it (the report groups failures by it). */
export const LOST_RECORDS_CAUSE = 'a finished job delivers fewer records than its completed count';

/**
 * A lost record as a failure: the job counted `completed` pages scraped and delivered `delivered` records. Interface
 * §1: the service fetches pages and returns them; the count and the records are the service's fields (facts §8.3).
 */
export function lostRecords(
  kind: 'scrape' | 'crawl',
  title: string,
  ended: Pick<JobStatusBody, 'status' | 'completed' | 'total'>,
  delivered: number,
  start: Exchange | undefined,
) {
  const completed = ended.completed;
  return {
    kind,
    // The evidence: the job's count beside the records read over all its status pages; the start's curl line.
    got: { status: 200, body: JSON.stringify({ status: ended.status, completed, total: ended.total, recordsRead: delivered }) },
    ...(start === undefined ? {} : { request: toCurl(start.request) }),
    level: 'interface' as const,
    message: `${title}: the job says completed ${completed} and delivered ${delivered} record(s): ${completed - delivered} record(s) lost`,
    expected: 'a finished job delivers a record for every page it counts as completed',
    section: 'interface §1',
    cause: LOST_RECORDS_CAUSE,
  };
}
