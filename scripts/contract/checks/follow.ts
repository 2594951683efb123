/**
 * What every started job goes through: the start answer's `url` resolves to a valid status (each page a
 * valid `Document`), and the job is cancelled (200, or 409 when it had completed already). Also: waiting
 * for a job to end, with bounded polling.
 */
import { expectedInvalidUrls } from '../../../schemas/batchPartition.js';
import type { Version } from '../../../schemas/registry.js';
import type { Attempt, JobStatusBody } from '../context.js';
import { sleep, type Exchange } from '../http.js';
import type { Body } from '../safeRequests.js';
import type { JobKind } from '../spec.js';

/** Compares a batch start answer's `invalidURLs` with what `expectedInvalidUrls` says the request must get. */
export function checkInvalidUrls(attempt: Attempt, version: Version, request: unknown, exchange: Exchange): void {
  const expected = expectedInvalidUrls(version, request);
  const answer = exchange.json as { invalidURLs?: unknown };
  const got = answer.invalidURLs ?? undefined; // null is the schema's "absent"
  const same = JSON.stringify(got) === JSON.stringify(expected);
  if (same) return;
  attempt.fail({
    kind: 'invalidURLs',
    message:
      expected === undefined
        ? `invalidURLs is ${JSON.stringify(got)} although invalid URLs are not ignored`
        : got === undefined
          ? `invalidURLs is absent although invalid URLs are ignored`
          : `invalidURLs is ${JSON.stringify(got)}, not the invalid entries in request order`,
    expected:
      expected === undefined
        ? 'no invalidURLs when ignoreInvalidURLs is false (the v1 default)'
        : `invalidURLs: ${JSON.stringify(expected)} (the invalid entries of urls as sent, in order; empty when none)`,
    section: 'interface §4',
    exchange,
  });
}

/**
 * Starts a job with `body`, which must be accepted; follows its `url` to a valid status; cancels it.
 * The status is read once the start answer held; the cancel always happens.
 */
export async function startFollowCancel(attempt: Attempt, version: Version, kind: JobKind, body: Body): Promise<void> {
  const { exchange, ok, job } = await attempt.start(version, kind, { json: body }, { status: 200 });
  if (!job) return;
  try {
    if (!ok) return;
    if (kind === 'batch') checkInvalidUrls(attempt, version, body, exchange);
    await attempt.status(attempt.statusUrl(job, exchange));
  } finally {
    await attempt.cancel(job);
  }
}

/** Status reads while waiting for the job to end, and the waits between them (ms). */
export const POLL_DELAYS = [50, 100, 200, 400, 800, 1500, 2500, 4000, 5000, 5000, 5000, 5000];

/** Reads the status until the job has ended (or the polls run out); the last status read. */
export async function waitForEnd(attempt: Attempt, statusUrl: string): Promise<JobStatusBody | undefined> {
  let last: JobStatusBody | undefined;
  for (const delay of [0, ...POLL_DELAYS]) {
    if (delay > 0) await sleep(delay);
    const { body } = await attempt.status(statusUrl);
    if (!body) return undefined;
    last = body;
    if (body.status !== 'scraping') return body;
  }
  return last;
}
