/**
 * Pagination of a job's results: a batch of two pages of the site, read once it has ended, one result
 * per page (`limit=1`), following `next`. Each `next` must resolve to a valid 200 status; no page address
 * and no result may come twice; once the job has ended the results over all pages number `completed`.
 */
import type { Version } from '../../../schemas/registry.js';
import { simpleCheck, type Check } from '../check.js';
import { locate } from '../spec.js';
import { POLL_DELAYS, waitForEnd } from './follow.js';

/** Pages followed at most. */
export const MAX_PAGES = 10;

export function paginationCheck(version: Version): Check {
  return simpleCheck(`${version}.status.pagination`, { startsJob: true }, async (attempt) => {
    const site = attempt.options.siteUrl;
    const request = { urls: [`${site}/`, `${site}/about`] };
    const { exchange, ok, job } = await attempt.start(version, 'batch', { json: request }, { status: 200 });
    if (!job) return;
    try {
      if (!ok) return;
      const statusUrl = attempt.statusUrl(job, exchange);
      const ended = await waitForEnd(attempt, statusUrl);
      if (!ended) return;
      if (ended.status === 'scraping') {
        attempt.note = `the batch did not end within ${POLL_DELAYS.reduce((a, b) => a + b, 0) / 1000} s; pagination not checked`;
        return;
      }
      const first = new URL(statusUrl);
      first.searchParams.set('limit', '1');
      const seenPages = new Set<string>();
      const seenResults = new Set<string>();
      let results = 0;
      let url: string | undefined = first.href;
      const fail = (message: string, expected: string, ex = exchange) =>
        attempt.fail({ kind: 'pagination', message, expected, section: 'service', exchange: ex });
      for (let page = 0; url !== undefined; page += 1) {
        if (seenPages.has(url)) {
          fail(`next points at a page already read: ${url}`, 'each next addresses a page not seen before');
          return;
        }
        if (page >= MAX_PAGES) {
          fail(
            `pagination did not end after ${MAX_PAGES} pages of a job with ${ended.completed} results`,
            'next absent once the results are all read',
          );
          return;
        }
        seenPages.add(url);
        if (!locate(attempt.options.baseUrl, 'GET', url)) {
          let sameOrigin = false;
          try {
            sameOrigin = new URL(url).origin === new URL(attempt.options.baseUrl).origin;
          } catch {
            sameOrigin = false;
          }
          if (sameOrigin) fail(`next ${url} is not a status endpoint`, "next is the address of the job's following status page");
          else attempt.note = `next ${url} is not on the target; not followed (the token stays with the target)`;
          return;
        }
        const read = await attempt.status(url);
        if (!read.body) return;
        for (const result of read.body.data) {
          const key = JSON.stringify(result);
          if (seenResults.has(key)) {
            fail(`a result came twice: ${key.slice(0, 200)}`, 'each result on exactly one page', read.exchange);
            return;
          }
          seenResults.add(key);
          results += 1;
        }
        url = typeof read.body.next === 'string' ? read.body.next : undefined;
      }
      if (results !== ended.completed)
        fail(
          `${results} results over all pages of an ended job whose completed is ${ended.completed}`,
          'once the job has ended, following next reads every result: as many as completed',
        );
    } finally {
      await attempt.cancel(job);
    }
  });
}
