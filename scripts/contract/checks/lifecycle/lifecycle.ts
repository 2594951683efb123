/**
 * The endpoints around a started job, which the interface leaves to the service (§4 rule 3): status (read
 * until the job ends, each page a valid `Document`), cancel, errors, and the active-crawl list. Each check
 * starts its own small jobs on the run's site and cancels them. A check that saw nothing to judge (no page
 * record, no job still running when cancelled, no error record, its crawl not seen running in the list) is
 * inconclusive, with the reason: a pass always rests on evidence. And one the interface states: two starts
 * get two job identifiers.
 */
import type { Version } from '../../../../schemas/registry.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import { acceptance } from '../../engine/expect.js';
import type { Attempt } from '../../engine/context.js';
import type { Exchange } from '../../wire/http.js';
import type { Body } from '../../generation/safeRequests.js';
import { KIND_PATH, type JobKind } from '../../spec/operations.js';
import { POLLS } from '../../engine/polls.js';
import { waitForEnd } from '../../engine/follow.js';

const KINDS: readonly JobKind[] = ['crawl', 'batch'];

/** A job of `kind` with pages to read: a crawl of the site's first page, a batch of its first two. */
function pagesJob(attempt: Attempt, kind: JobKind): Body {
  const { siteUrl, site } = attempt.options;
  return kind === 'crawl' ? { url: `${siteUrl}${site.pages[0]}`, limit: 1 } : { urls: site.pages.slice(0, 2).map((p) => `${siteUrl}${p}`) };
}

/**
 * A job that runs for a while, to be seen running: a crawl of two pages a second apart (interface §2.1:
 * `delay`, seconds between scrapes), a batch of two pages one at a time (`maxConcurrency` 1).
 */
function slowJob(attempt: Attempt, kind: JobKind): Body {
  const { siteUrl, site } = attempt.options;
  return kind === 'crawl'
    ? { url: `${siteUrl}${site.pages[0]}`, limit: 2, delay: 1 }
    : { urls: site.pages.slice(0, 2).map((p) => `${siteUrl}${p}`), maxConcurrency: 1 };
}

/** Starts `body` (which must be accepted) and runs `then` with its status address; the job is cancelled afterwards. */
async function withJob(
  attempt: Attempt,
  version: Version,
  kind: JobKind,
  body: Body,
  then: (statusUrl: string, cancel: () => Promise<{ exchange: Exchange | undefined; ok: boolean }>, id: string) => Promise<void>,
): Promise<void> {
  const { exchange, ok, job } = await attempt.start(version, kind, { json: body }, { service: { status: 200 } });
  if (!job) return;
  let cancelled = false;
  const cancel = async () => {
    cancelled = true;
    return attempt.cancel(job);
  };
  try {
    const statusUrl = ok ? attempt.statusUrl(job, exchange) : undefined;
    if (statusUrl !== undefined) await then(statusUrl, cancel, job.id);
  } finally {
    if (!cancelled) await cancel();
  }
}

const service = (names: string[]) => [{ source: 'service', names }];

/** Status reads of a crawl and of a batch until they end, so that their pages are there to validate. */
export function statusCheck(version: Version): Check {
  return simpleCheck(
    {
      name: `${version}.status`,
      level: 'service',
      proves: `The status of a ${version} crawl and of a batch, read until each ends, is valid, and so is each page record in it (at least one is seen).`,
      cites: service(['JobStatusResponse', 'Document']),
      startsJob: true,
      cost: KINDS.length * (START + POLLS),
    },
    async (attempt) => {
      for (const kind of KINDS)
        await withJob(attempt, version, kind, pagesJob(attempt, kind), async (statusUrl) => {
          const ended = await waitForEnd(attempt, statusUrl);
          if (ended === undefined) return;
          if (ended.status === 'scraping') attempt.leaveUndecided(`the ${kind} did not end in time; its pages were not all seen`);
          else if (ended.data.length === 0)
            attempt.leaveUndecided(
              `the ${kind} ended (${ended.status}) without a page record to validate: did every page of ${attempt.options.siteUrl} fail?`,
            );
        });
    },
  );
}

/** Jobs a cancel check starts, per kind, to find one still running when the cancel arrives. */
const CANCEL_TRIES = 3;

export function cancelCheck(version: Version): Check {
  return simpleCheck(
    {
      name: `${version}.cancel`,
      level: 'service',
      proves: `Cancelling a running ${version} crawl and batch answers 200 {status: "cancelled"}, and the job's status is then "cancelled".`,
      cites: service(['CancelResponse', 'cancelled']),
      startsJob: true,
      cost: KINDS.length * CANCEL_TRIES * (START + 1),
    },
    async (attempt) => {
      for (const kind of KINDS) {
        let seenRunning = false;
        let started = 0;
        for (let tries = 0; tries < CANCEL_TRIES && !seenRunning; tries += 1) {
          await withJob(attempt, version, kind, slowJob(attempt, kind), async (statusUrl, cancel) => {
            started += 1;
            const { exchange: cancelled, ok } = await cancel();
            if (!ok || cancelled?.status !== 200) return;
            seenRunning = true;
            const { exchange, body } = await attempt.status(statusUrl);
            if (body && body.status !== 'cancelled')
              attempt.fail({
                kind: 'cancel',
                level: 'service',
                message: `after a cancel answered 200 the job's status is ${JSON.stringify(body.status)}`,
                expected: 'status "cancelled" once the cancel endpoint answered 200 (pages already scraped stay readable)',
                section: 'service',
                exchange,
              });
          });
        }
        // A 409 ("already completed") is a right answer, but says nothing of the 200 answer's shape. A start
        // that was refused is a failure of its own, already recorded.
        if (!seenRunning && started > 0)
          attempt.leaveUndecided(`every ${kind} completed before it could be cancelled; the cancel answer for a running job was not seen`);
      }
    },
  );
}

export function errorsCheck(version: Version): Check {
  return simpleCheck(
    {
      name: `${version}.errors`,
      level: 'service',
      proves: `The errors of a ${version} crawl and batch that met a failing page are listed, each error record valid.`,
      cites: service(['JobErrorsResponse', 'JobError']),
      startsJob: true,
      cost: KINDS.length * (START + POLLS + 1),
    },
    async (attempt) => {
      const { siteUrl, site } = attempt.options;
      for (const kind of KINDS) {
        const body =
          site.failing === undefined
            ? pagesJob(attempt, kind)
            : kind === 'crawl'
              ? { url: `${siteUrl}${site.failing}`, limit: 1 }
              : { urls: [`${siteUrl}${site.pages[0]}`, `${siteUrl}${site.failing}`] };
        await withJob(attempt, version, kind, body, async (statusUrl) => {
          const ended = await waitForEnd(attempt, statusUrl);
          if (ended === undefined) return;
          const url = new URL(statusUrl);
          url.pathname = `${url.pathname.replace(/(?<!\/)\/+$/, '')}/errors`;
          url.search = '';
          const { exchange, ok } = await attempt.call({ method: 'GET', url: url.href }, { service: { status: 200 } });
          const errors = ok ? (exchange.json as { errors: unknown[] }).errors : undefined;
          if (errors === undefined) return;
          if (site.failing === undefined)
            attempt.leaveUndecided(
              `no page of ${siteUrl} is known to fail, so no error record was seen (point --site-url at a crawlspec site)`,
            );
          else if (ended.status === 'scraping') attempt.leaveUndecided(`the ${kind} did not end in time; its errors were not all seen`);
          else if (errors.length === 0)
            attempt.fail({
              kind: 'body',
              level: 'service',
              message: `the ${kind} met ${siteUrl}${site.failing}, which fails, but lists no error`,
              expected: 'an error record for each page that failed',
              section: 'service',
              exchange,
            });
        });
      }
    },
  );
}

/** Crawls an active check starts, to find one still running when the list is read. */
const ACTIVE_TRIES = 3;

export function activeCheck(version: Version): Check {
  return simpleCheck(
    {
      name: `${version}.active`,
      level: 'service',
      proves: `A running ${version} crawl is listed by GET /crawl/active and /crawl/ongoing, each answer valid.`,
      cites: service(['ActiveCrawlsResponse', 'crawls']),
      startsJob: true,
      cost: ACTIVE_TRIES * (START + 3),
    },
    async (attempt) => {
      let seen = false;
      for (let tries = 0; tries < ACTIVE_TRIES && !seen; tries += 1)
        await withJob(attempt, version, 'crawl', slowJob(attempt, 'crawl'), async (statusUrl, _cancel, id) => {
          const listed: Exchange[] = [];
          for (const path of ['/crawl/active', '/crawl/ongoing']) {
            const { exchange, ok } = await attempt.call({ method: 'GET', url: attempt.url(version, path) }, { service: { status: 200 } });
            if (!ok) return;
            const crawls = (exchange.json as { crawls: { id?: unknown }[] }).crawls;
            if (crawls.some((c) => c.id === id)) listed.push(exchange);
            else if (listed.length === 0) {
              // Not listed: right only if it has ended already.
              const { exchange: read, body } = await attempt.status(statusUrl);
              if (body?.status === 'scraping')
                attempt.fail({
                  kind: 'active',
                  level: 'service',
                  message: `the crawl ${id}, still running, is not in ${path}`,
                  expected: 'every running crawl of the team in the list',
                  section: 'service',
                  exchange: read,
                });
              return;
            }
          }
          seen = listed.length === 2;
        });
      if (!seen && attempt.failures.length === 0)
        attempt.leaveUndecided('every crawl ended before the list was read; a listed crawl was not seen');
    },
  );
}

/**
 * Two starts of the same kind get two job identifiers (interface §1: "Starting a crawl returns a job identifier";
 * an identifier names one job). A target that answers every start with the same id, as a mock does, fails here;
 * and every check that follows a job whose id an earlier start got too is inconclusive (context.ts `statusUrl`),
 * so that no check passes on jobs it could not tell apart.
 */
export function distinctIdsChecks(version: Version): Check[] {
  return KINDS.map((kind) =>
    simpleCheck(
      {
        name: `${version}.${kind}.start.distinctIds`,
        level: 'interface',
        proves: `Two ${version} ${kind === 'crawl' ? 'crawls' : 'batch scrapes'} started one after the other are accepted with two different job ids (interface §1: starting one returns a job identifier, which names that job).`,
        cites: [{ source: 'interface §1', names: [kind === 'crawl' ? 'crawl' : 'batch scrape', 'id'] }],
        startsJob: true,
        cost: 2 * START,
      },
      async (attempt) => {
        const section = kind === 'crawl' ? 'interface §2.1' : 'interface §2.2';
        const started = [];
        for (let i = 0; i < 2; i++) {
          const { exchange, ok, job } = await attempt.start(
            version,
            kind,
            { json: pagesJob(attempt, kind) },
            acceptance('interface', `a ${kind} of the run's site, the smallest valid body`, section),
          );
          if (ok && job !== undefined) started.push({ exchange, job });
          if (job !== undefined) await attempt.cancelQuietly(job);
        }
        const [first, second] = started;
        if (first === undefined || second === undefined) return;
        if (first.job.id === second.job.id)
          attempt.fail({
            kind: 'jobId',
            level: 'interface',
            message: `two ${kind} starts (POST /${version}${KIND_PATH[kind]}) were answered with the same job id ${JSON.stringify(first.job.id.slice(0, 80))}`,
            expected:
              'a job id of its own for each start: an identifier names one job (interface §1: "Starting a crawl returns a job identifier")',
            section: 'interface §1',
            exchange: second.exchange,
            cause: `the target gives one job id to several ${version} ${kind} starts`,
          });
      },
    ),
  );
}
