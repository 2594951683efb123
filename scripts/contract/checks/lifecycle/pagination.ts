/**
 * Pagination of a job's results (the service's): a batch of two pages of the site, read once it has ended,
 * one result per page (`limit=1`), following `next`. Each `next` must resolve to a valid 200 status; a page
 * holds at most `limit` results; no page address and no result may come twice; once the job has ended the
 * results over all pages number `completed`; and `skip=1&limit=1` gives the second result. A job with fewer
 * than two results shows no pagination: inconclusive.
 */
import type { Version } from '../../../../schemas/registry.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import { locate, sameOrigin } from '../../spec/operations.js';
import { POLL_DELAYS, POLLS } from '../../engine/polls.js';
import { waitForEnd } from '../../engine/follow.js';
import { LOST_RECORDS_CAUSE } from './jobAccount.js';

/** Pages followed at most. */
export const MAX_PAGES = 10;

/**
 * What tells one result from another: its `metadata.scrapeId`, else its page address, else its JSON. A
 * result too deeply nested to write as JSON (a hostile target's) is told apart by where it came (`at`).
 */
function resultKey(result: unknown, at: number): string {
  const metadata = (result as { metadata?: Record<string, unknown> } | null)?.metadata;
  for (const name of ['scrapeId', 'sourceURL', 'url'])
    if (typeof metadata === 'object' && metadata !== null && typeof metadata[name] === 'string') return `${name} ${String(metadata[name])}`;
  try {
    return `result ${JSON.stringify(result)}`;
  } catch {
    return `result number ${at} (too deeply nested to compare)`;
  }
}

export function paginationCheck(version: Version): Check {
  return simpleCheck(
    {
      name: `${version}.status.pagination`,
      level: 'service',
      proves: `The results of an ended ${version} batch of two pages, read with limit=1 through next, come one per page, each once, as many as completed; skip=1 skips the first.`,
      cites: [{ source: 'service', names: ['next', 'skip', 'limit'] }],
      startsJob: true,
      cost: START + POLLS + MAX_PAGES + 1,
    },
    async (attempt) => {
      const { siteUrl, site } = attempt.options;
      const request = { urls: site.pages.slice(0, 2).map((p) => `${siteUrl}${p}`) };
      const { exchange, ok, job } = await attempt.start(version, 'batch', { json: request }, { service: { status: 200 } });
      if (!job) return;
      try {
        const statusUrl = ok ? attempt.statusUrl(job, exchange) : undefined;
        if (statusUrl === undefined) return;
        const ended = await waitForEnd(attempt, statusUrl);
        if (!ended) return;
        if (ended.status === 'scraping') {
          attempt.leaveUndecided(`the batch did not end within ${POLL_DELAYS.reduce((a, b) => a + b, 0) / 1000} s; pagination not checked`);
          return;
        }
        // Only a completed job's pages end: the service keeps next in the status of a cancelled or failed one.
        if (ended.status !== 'completed') {
          attempt.leaveUndecided(`the batch ended ${String(ended.status)}, not completed; pagination not checked`);
          return;
        }
        if (ended.completed < 2) {
          attempt.leaveUndecided(`the batch ended with ${ended.completed} result(s); pagination needs two`);
          return;
        }
        const first = new URL(statusUrl);
        first.searchParams.set('limit', '1');
        const seenPages = new Set<string>();
        const results: string[] = [];
        let url: string | undefined = first.href;
        const fail = (message: string, expected: string, ex = exchange) =>
          attempt.fail({ kind: 'pagination', level: 'service', message, expected, section: 'service', exchange: ex });
        for (let page = 0; url !== undefined; page += 1) {
          if (seenPages.has(url)) return fail(`next points at a page already read: ${url}`, 'each next addresses a page not seen before');
          if (page >= MAX_PAGES)
            return fail(
              `pagination did not end after ${MAX_PAGES} pages of a job with ${ended.completed} results`,
              'next absent once the results are all read',
            );
          seenPages.add(url);
          if (!locate(attempt.options.baseUrl, 'GET', url)) {
            if (sameOrigin(url, attempt.options.baseUrl))
              fail(`next ${url} is not a status endpoint`, "next is the address of the job's following status page");
            else attempt.leaveUndecided(`next ${url} is not on the target; not followed (the token stays with the target)`);
            return;
          }
          const read = await attempt.status(url);
          if (!read.body) return;
          if (read.body.data.length > 1)
            return fail(`limit=1 gave ${read.body.data.length} results on one page`, 'at most limit results on a page', read.exchange);
          for (const result of read.body.data) {
            const key = resultKey(result, results.length);
            if (results.includes(key))
              return fail(`a result came twice: ${key.slice(0, 200)}`, 'each result on exactly one page', read.exchange);
            results.push(key);
          }
          url = typeof read.body.next === 'string' ? read.body.next : undefined;
        }
        if (results.length !== ended.completed)
          return attempt.fail({
            kind: 'pagination',
            level: 'service',
            message: `${results.length} results over all pages of an ended job whose completed is ${ended.completed}`,
            expected: 'once the job has ended, following next reads every result: as many as completed',
            section: 'service',
            exchange,
            // Fewer than it counts: the records it lost, the same fault wherever it is met.
            ...(results.length < ended.completed ? { cause: LOST_RECORDS_CAUSE } : {}),
          });
        const skipped = new URL(statusUrl);
        skipped.searchParams.set('skip', '1');
        skipped.searchParams.set('limit', '1');
        const second = await attempt.status(skipped.href);
        if (second.body && (second.body.data.length === 0 || resultKey(second.body.data[0], -1) !== results[1]))
          fail(
            `skip=1&limit=1 gave ${second.body.data.length === 0 ? 'no result' : 'another result than the second'}`,
            'skip=1&limit=1 gives the second result (the one the second page through next gave)',
            second.exchange,
          );
      } finally {
        await attempt.cancel(job);
      }
    },
  );
}
