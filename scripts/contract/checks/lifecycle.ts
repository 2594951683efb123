/**
 * The endpoints around a started job: status (read until the job ends, each page a valid `Document`), cancel, errors, and
 * the active-crawl list. Each check starts its own small jobs and cancels them.
 */
import type { Version } from '../../../schemas/registry.js';
import { simpleCheck, type Check } from '../check.js';
import type { Attempt } from '../context.js';
import { minimalRequest } from '../safeRequests.js';
import type { JobKind } from '../spec.js';
import { waitForEnd } from './follow.js';

const KINDS: readonly JobKind[] = ['crawl', 'batch'];

/** Starts the minimal job of `kind` and runs `then` with it; the job is cancelled afterwards. */
async function withJob(
  attempt: Attempt,
  version: Version,
  kind: JobKind,
  then: (statusUrl: string, cancel: () => Promise<{ status: number; ok: boolean }>) => Promise<void>,
): Promise<void> {
  const { exchange, ok, job } = await attempt.start(
    version,
    kind,
    { json: minimalRequest(kind, attempt.options.siteUrl) },
    { status: 200 },
  );
  if (!job) return;
  let cancelled = false;
  const cancel = async () => {
    cancelled = true;
    const result = await attempt.cancel(job);
    return { status: result.exchange.status, ok: result.ok };
  };
  try {
    if (ok) await then(attempt.statusUrl(job, exchange), cancel);
  } finally {
    if (!cancelled) await cancel();
  }
}

/** Status reads of a crawl and of a batch until they end, so that their pages are there to validate. */
export function statusCheck(version: Version): Check {
  return simpleCheck(`${version}.status`, { startsJob: true }, async (attempt) => {
    for (const kind of KINDS)
      await withJob(attempt, version, kind, async (statusUrl) => {
        const ended = await waitForEnd(attempt, statusUrl);
        if (ended?.status === 'scraping') attempt.note = `the ${kind} did not end in time; its pages were not all seen`;
      });
  });
}

/** Jobs a cancel check starts, per kind, to find one still running when the cancel arrives. */
const CANCEL_TRIES = 3;

export function cancelCheck(version: Version): Check {
  return simpleCheck(`${version}.cancel`, { startsJob: true }, async (attempt) => {
    for (const kind of KINDS) {
      let seenRunning = false;
      for (let tries = 0; tries < CANCEL_TRIES && !seenRunning; tries += 1) {
        await withJob(attempt, version, kind, async (statusUrl, cancel) => {
          const { status, ok } = await cancel();
          if (!ok || status !== 200) return;
          seenRunning = true;
          const { exchange, body } = await attempt.status(statusUrl);
          if (body && body.status !== 'cancelled')
            attempt.fail({
              kind: 'cancel',
              message: `after a cancel answered 200 the job's status is ${JSON.stringify(body.status)}`,
              expected: 'status "cancelled" once the cancel endpoint answered 200 (pages already scraped stay readable)',
              section: 'service',
              exchange,
            });
        });
      }
      // A 409 ("already completed") is a right answer, but says nothing of the 200 answer's shape.
      if (!seenRunning)
        attempt.note = `every ${kind} completed before it could be cancelled; the cancel answer for a running job was not seen`;
    }
  });
}

export function errorsCheck(version: Version): Check {
  return simpleCheck(`${version}.errors`, { startsJob: true }, async (attempt) => {
    for (const kind of KINDS)
      await withJob(attempt, version, kind, async (statusUrl) => {
        const url = new URL(statusUrl);
        url.pathname = `${url.pathname.replace(/(?<!\/)\/+$/, '')}/errors`;
        url.search = '';
        await attempt.call({ method: 'GET', url: url.href }, { status: 200 });
      });
  });
}

export function activeCheck(version: Version): Check {
  return simpleCheck(`${version}.active`, { startsJob: true }, async (attempt) => {
    await withJob(attempt, version, 'crawl', async () => {
      for (const path of ['/crawl/active', '/crawl/ongoing'])
        await attempt.call({ method: 'GET', url: attempt.url(version, path) }, { status: 200 });
    });
  });
}
