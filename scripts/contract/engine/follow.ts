/**
 * What every started job goes through: the start answer's `url` resolves to a valid status (each page a
 * valid `Document`), and the job is cancelled (200, or 409 when it had completed already). Also: waiting
 * for a job to end, with bounded polling, and the batch start answer's `invalidURLs`.
 */
import { expectedInvalidUrls } from '../../../schemas/batchPartition.js';
import type { Version } from '../../../schemas/registry.js';
import type { Attempt, JobStatusBody } from './context.js';
import type { Expectation } from '../spec/expectation.js';
import { POLL_DELAYS } from './polls.js';
import { sleep, type Exchange } from '../wire/http.js';
import type { Level } from '../spec/levels.js';
import type { Body } from '../generation/safeRequests.js';
import type { JobKind } from '../spec/operations.js';

/** `values` as a multiset key: sorted JSON texts. */
const multiset = (values: readonly unknown[]) => JSON.stringify(values.map((v) => JSON.stringify(v)).sort());

/**
 * Compares a batch start answer's `invalidURLs` with `expected` (interface §4 rule 1: with invalid URLs
 * ignored, the invalid URLs from the request, empty when none; otherwise absent: `undefined`). The interface
 * names which entries, not their order: the entries are compared as a multiset at `level` (the level the
 * request's invalid entries are invalid at), their order (the request's, as the service gives it) at service
 * level.
 */
export function checkInvalidUrls(attempt: Attempt, expected: readonly unknown[] | undefined, exchange: Exchange, level: Level): void {
  const answer = exchange.json as { invalidURLs?: unknown };
  const got = answer.invalidURLs ?? undefined; // null is the schema's "absent"
  if (JSON.stringify(got) === JSON.stringify(expected)) return;
  const sameEntries = Array.isArray(got) && expected !== undefined && multiset(got) === multiset(expected);
  attempt.fail({
    kind: 'invalidURLs',
    level: sameEntries ? 'service' : level,
    message:
      expected === undefined
        ? `invalidURLs is ${JSON.stringify(got)} although invalid URLs are not ignored`
        : got === undefined
          ? `invalidURLs is absent although invalid URLs are ignored`
          : sameEntries
            ? `invalidURLs is ${JSON.stringify(got)}: the invalid entries, but not in request order`
            : `invalidURLs is ${JSON.stringify(got)}, not the invalid entries of the request`,
    expected:
      expected === undefined
        ? 'no invalidURLs when ignoreInvalidURLs is false (the v1 default)'
        : `invalidURLs: ${JSON.stringify(expected)} (the invalid entries of urls as sent${sameEntries ? ', in request order as the service gives them' : ''}; empty when none)`,
    section: !sameEntries && level === 'interface' ? 'interface §4' : 'service',
    exchange,
  });
}

/**
 * Starts a job with `body`, which must be accepted (`expectation`); follows its `url` to a valid status;
 * cancels it. The status is read once the start answer held; the cancel always happens.
 */
export async function startFollowCancel(attempt: Attempt, version: Version, kind: JobKind, body: Body, expectation: Expectation): Promise<void> {
  const { exchange, ok, job } = await attempt.start(version, kind, { json: body }, expectation);
  if (!job) return;
  try {
    if (!ok) return;
    if (kind === 'batch') checkInvalidUrls(attempt, expectedInvalidUrls(version, body), exchange, expectation.interface ? 'interface' : 'service');
    const statusUrl = attempt.statusUrl(job, exchange);
    if (statusUrl !== undefined) await attempt.status(statusUrl);
  } finally {
    await attempt.cancel(job);
  }
}


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
