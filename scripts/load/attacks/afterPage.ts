/**
 * The attacks of issue 22 ("Hardening, round three") on what the server does after a page arrives, what a
 * crawl holds, and how fetches share their places: findings 1–6. Each serves a hostile site on 127.0.0.1
 * (`sites.ts`; the server is started with `--allow-host 127.0.0.1`) and has a fresh `crawlspec serve` crawl or
 * scrape it; the harness holds it to the usual bounds (memory, the unrelated request answered within 1 s,
 * alive afterwards), and each attack checks what its finding is about.
 */
import { MAX_ROBOTS_BLOCKED_LISTED } from '../../server/crawler.js';
import { validate } from '../../../schemas/validate.js';
import { parsed } from '../shared.js';
import { ERRORS_ANSWER_BYTES, QUICK_BATCH_MS, RSS_CRAWL_MIB, RSS_SMALL_MIB, UNRELATED_LATENCY_MS } from './bounds.js';
import type { Attack, AttackContext } from './harness.js';
import { call, outcome, silentReader } from './net.js';
import {
  ampersandsText,
  costlyRobots,
  digitsPage,
  hostileSite,
  largeRobots,
  lineBreaksInCellPage,
  linkFarm,
  longPathLinksPage,
  longWordItemPage,
  originsPage,
  page,
  robotsSite,
  type Answer,
  type HostileSite,
} from './sites.js';

const MiB = 1024 * 1024;
const round = (n: number): number => Math.round(n);

/** A site the attack serves, closed when it is over. */
export async function serve(ctx: AttackContext, route: (path: string) => Answer): Promise<HostileSite> {
  const site = await hostileSite(route);
  ctx.defer(site);
  return site;
}

/** Starts a job (`/v2/crawl` or `/v2/batch/scrape`): its status path, or undefined when it did not start (a check says why). */
export async function start(ctx: AttackContext, what: string, path: string, body: unknown): Promise<string | undefined> {
  const answer = await call(ctx.base, 'POST', path, { body: JSON.stringify(body), timeoutMs: 10_000 });
  ctx.answered(answer);
  const id = (parsed(answer.text) as { id?: unknown } | undefined)?.id;
  if (answer.status === 200 && typeof id === 'string') return `${path}/${id}`;
  ctx.check(`${what} started (200)`, false, `${outcome(answer)} ${answer.text.slice(0, 160)}`);
  return undefined;
}

interface Ended {
  readonly status: string;
  readonly completed: number;
  /** ms from the call to the first status read that was not `scraping`. */
  readonly ms: number;
}

/** Reads a job's status (one record a page) until it has ended, `timeoutMs` at most: how it ended, or undefined. */
export async function ended(ctx: AttackContext, path: string, timeoutMs: number, everyMs = 100): Promise<Ended | undefined> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs && !ctx.signal.aborted) {
    const read = await call(ctx.base, 'GET', `${path}?limit=1`, { timeoutMs: 15_000 });
    const body = parsed(read.text) as { status?: unknown; completed?: unknown } | undefined;
    if (read.status === 200 && typeof body?.status === 'string' && body.status !== 'scraping')
      return { status: body.status, completed: Number(body.completed), ms: performance.now() - started };
    await ctx.sleep(everyMs);
  }
  return undefined;
}

/** Checks that a job ended `completed` with `pages` records within `timeoutMs`. */
async function completed(ctx: AttackContext, what: string, path: string | undefined, pages: number, timeoutMs: number): Promise<boolean> {
  if (path === undefined) return false;
  const end = await ended(ctx, path, timeoutMs);
  const pass = end?.status === 'completed' && end.completed === pages;
  ctx.check(
    `${what} ended completed, ${pages} pages, within ${timeoutMs / 1000} s`,
    pass,
    end === undefined ? 'still scraping' : `${end.status}, ${end.completed} pages, in ${round(end.ms)} ms`,
  );
  return pass;
}

interface Errors {
  readonly errors: readonly { readonly url: string; readonly error: string }[];
  readonly robotsBlocked: readonly string[];
}

/** The job's errors endpoint: the answer, its size and whether the schema accepts it. */
export async function errorsOf(
  ctx: AttackContext,
  path: string,
): Promise<{ readonly body: Errors | undefined; readonly bytes: number; readonly valid: boolean }> {
  const answer = await call(ctx.base, 'GET', `${path}/errors`, { timeoutMs: 30_000 });
  ctx.answered(answer);
  const body = parsed(answer.text) as Errors | undefined;
  return { body, bytes: Buffer.byteLength(answer.text), valid: answer.status === 200 && validate('v2/JobErrorsResponse', body).valid };
}

/** A crawl's body as the attacks send it: no sitemap, records without formats (small: memory is the crawl's, not its records'). */
const crawlBody = (url: string, more: Record<string, unknown> = {}) => ({ url, sitemap: 'skip', scrapeOptions: { formats: [] }, ...more });

// ---------------------------------------------------------------------------------------------------------

/** Characters of the digits page: a page at the 5 MiB body limit, less its tags. */
const DIGITS = 5 * MiB - 1024;

const attack1: Attack = {
  id: '22-1',
  title:
    'markdown of pages node-html-markdown took quadratic time on: 5 MiB of digits, a 1 MiB word in a list item, line breaks in a table cell, a 5 MiB text page',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 90_000,
  prepare() {
    return {
      notes: {
        pages: `${DIGITS} digits in one text node; a 1 MiB word in an <li>; 1,000,000 line breaks in a <pre> in a <td>; 5 MiB of & as text/plain`,
      },
      async run(ctx) {
        const site = await serve(ctx, (path) =>
          path === '/digits'
            ? digitsPage(DIGITS)
            : path === '/word'
              ? longWordItemPage(MiB)
              : path === '/cell'
                ? lineBreaksInCellPage(1_000_000)
                : path === '/text'
                  ? ampersandsText(5 * MiB - 1024)
                  : { status: 404, body: 'not here' },
        );
        const paths = ['/digits', '/word', '/cell', '/text'];
        // One page at a time: each is at the size limit, and what the attack measures is the work on one.
        const job = await start(ctx, 'the batch', '/v2/batch/scrape', { urls: paths.map((p) => `${site.origin}${p}`), maxConcurrency: 1 });
        if (!(await completed(ctx, 'the batch of four pages', job, 4, 60_000))) return;
        // Each record's markdown is whole (the digits page: every digit).
        const lengths: number[] = [];
        for (let skip = 0; skip < 4; skip++) {
          const read = await call(ctx.base, 'GET', `${job}?skip=${skip}&limit=1`, { timeoutMs: 30_000 });
          const record = (parsed(read.text) as { data?: { markdown?: string; metadata?: { url?: string } }[] } | undefined)?.data?.[0];
          lengths.push(record?.markdown?.length ?? -1);
        }
        ctx.note('markdown lengths (digits, word, cell, text)', lengths.join(', '));
        ctx.check(
          'the digits page gives every digit in its markdown',
          lengths[0] === DIGITS + 1,
          `${lengths[0]} characters (expected ${DIGITS + 1})`,
        );
      },
    };
  },
};

const attack2: Attack = {
  id: '22-2',
  title:
    'a crawl of a site whose robots.txt is costly to match (a 300 KB rule, 12 wildcard rules of 16 KB) and whose start links to 10 paths of 1,500 characters',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    const robots = costlyRobots(300_000, 12);
    return {
      notes: { 'robots.txt': `${(Buffer.byteLength(robots) / 1e3).toFixed(0)} KB` },
      async run(ctx) {
        const site = await serve(ctx, robotsSite(robots, longPathLinksPage(10, 1500)));
        const crawl = await start(ctx, 'the crawl', '/v2/crawl', crawlBody(`${site.origin}/`, { limit: 20 }));
        if (!(await completed(ctx, 'the crawl', crawl, 1, 45_000))) return;
        const { body } = await errorsOf(ctx, crawl!);
        const said = body?.errors.find((e) => /links on this page were not followed: judging them against robots\.txt/.test(e.error));
        ctx.check(
          'the links robots.txt was too costly to judge against are left out, and listed as an error of their page',
          said !== undefined && said.error.startsWith('10 links'),
          said?.error.slice(0, 140) ?? `errors: ${JSON.stringify(body?.errors ?? []).slice(0, 140)}`,
        );
      },
    };
  },
};

const attack3: Attack = {
  id: '22-3',
  title:
    'crawls of link farms, pages of 1,000 distinct links: of 5,000 characters, 200 pages (the finding), and of 1,000 characters (followed), 40 pages',
  rssMiB: RSS_CRAWL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 120_000,
  prepare() {
    return {
      async run(ctx) {
        const long = await serve(ctx, linkFarm(1000, 5000, false));
        const followed = await serve(ctx, linkFarm(1000, 1000, false));
        const crawls = [
          await start(
            ctx,
            'the crawl of 5,000-character links',
            '/v2/crawl',
            crawlBody(`${long.origin}/`, { limit: 200, maxConcurrency: 8 }),
          ),
          await start(
            ctx,
            'the crawl of 1,000-character links',
            '/v2/crawl',
            crawlBody(`${followed.origin}/`, { limit: 40, maxConcurrency: 8 }),
          ),
        ];
        const [a, b] = await Promise.all([
          completed(ctx, 'the crawl of 5,000-character links (none followed)', crawls[0], 1, 90_000),
          // 40 pages of 1,000 addresses of ~1 KB: more than a crawl holds.
          completed(ctx, 'the crawl of 1,000-character links', crawls[1], 40, 90_000),
        ]);
        ctx.note('pages the farms served', `${long.requests}, ${followed.requests}`);
        if (!a || !b) return;
        const { body } = await errorsOf(ctx, crawls[1]!);
        const stopped = body?.errors.find((e) => e.error.startsWith('The crawl stopped taking new addresses'));
        ctx.check(
          'the crawl of 1,000-character links says it stopped taking new addresses',
          stopped !== undefined,
          stopped?.error ?? 'no such error',
        );
      },
    };
  },
};

/** Origins of attack 4's crawls: the most a crawl reads robots.txt of. */
const ORIGINS = 16;
/** Crawls of attack 4, and how many run at once. */
const CRAWLS = 20;
const AT_ONCE = 2;

const attack4: Attack = {
  id: '22-4',
  title: `${CRAWLS} crawls, each across ${ORIGINS} origins whose robots.txt are 500 KB of rules, one after another (${AT_ONCE} at a time)`,
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 150_000,
  prepare() {
    const robots = largeRobots(500 * 1024 - 100);
    return {
      notes: { 'robots.txt': `${(Buffer.byteLength(robots) / 1e3).toFixed(0)} KB, ${robots.split('\n').length - 2} rules` },
      async run(ctx) {
        const sites: HostileSite[] = [];
        let origins: string[] = [];
        for (let i = 0; i < ORIGINS; i++)
          sites.push(
            await serve(ctx, (path) =>
              path === '/robots.txt'
                ? { type: 'text/plain', body: robots }
                : path === '/' && i === 0
                  ? originsPage(origins)
                  : page('<p>An origin.</p>'),
            ),
          );
        origins = sites.map((s) => s.origin);
        let done = 0;
        const times: number[] = [];
        const one = async (): Promise<void> => {
          const crawl = await start(
            ctx,
            'a crawl',
            '/v2/crawl',
            crawlBody(`${origins[0]}/`, { limit: ORIGINS + 1, allowExternalLinks: true, maxConcurrency: 8 }),
          );
          const end = crawl === undefined ? undefined : await ended(ctx, crawl, 60_000);
          if (end?.status === 'completed' && end.completed === ORIGINS) done += 1;
          if (end !== undefined) times.push(round(end.ms));
        };
        for (let i = 0; i < CRAWLS && !ctx.signal.aborted; i += AT_ONCE) await Promise.all(Array.from({ length: AT_ONCE }, one));
        ctx.note('crawl durations (ms)', times.join(', '));
        ctx.check(`every crawl ended completed with its ${ORIGINS} pages`, done === CRAWLS, `${done} of ${CRAWLS}`);
        // What the ended crawls still hold shows in the RSS once they are all over.
        await ctx.sleep(1_000);
        ctx.note('RSS once every crawl had ended (MiB)', round(ctx.server.memory()?.rssMiB ?? 0));
      },
    };
  },
};

/** Pages attack 5's crawl reads, each linking to 1,000 addresses robots.txt disallows. */
const FARM_PAGES = 300;

const attack5: Attack = {
  id: '22-5',
  title: `a crawl of ${FARM_PAGES} pages each linking to 1,000 addresses robots.txt disallows; its errors asked for by 10 clients that never read`,
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 120_000,
  prepare() {
    return {
      async run(ctx) {
        const farm = await serve(ctx, linkFarm(1000, 130, true));
        const crawl = await start(
          ctx,
          'the crawl',
          '/v2/crawl',
          crawlBody(`${farm.origin}/farm/`, { limit: FARM_PAGES, maxConcurrency: 8 }),
        );
        if (!(await completed(ctx, 'the crawl', crawl, FARM_PAGES, 90_000))) return;
        const { body, bytes, valid } = await errorsOf(ctx, crawl!);
        ctx.note(
          'errors answer',
          `${bytes} bytes, ${body?.robotsBlocked.length ?? '?'} addresses listed, ${body?.errors.length ?? '?'} errors`,
        );
        ctx.check(`the errors answer is at most ${ERRORS_ANSWER_BYTES} bytes`, bytes <= ERRORS_ANSWER_BYTES, `${bytes} bytes`);
        ctx.check(
          `robotsBlocked lists ${MAX_ROBOTS_BLOCKED_LISTED} addresses, the others counted in an error, and the schema accepts the answer`,
          valid &&
            body?.robotsBlocked.length === MAX_ROBOTS_BLOCKED_LISTED &&
            body.errors.some((e) => /^robots\.txt disallowed \d+ more addresses than robotsBlocked lists/.test(e.error)),
          `${body?.robotsBlocked.length ?? '?'} listed; valid ${valid}; ${body?.errors.map((e) => e.error.slice(0, 80)).join(' | ') ?? ''}`,
        );
        for (let i = 0; i < 10; i++) ctx.defer(silentReader(ctx.port, `${crawl}/errors`));
        await ctx.sleep(5_000);
      },
    };
  },
};

const attack6: Attack = {
  id: '22-6',
  title: "another caller's 10-page batch beside six crawls of a site that never answers (8 pages in flight each)",
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    return {
      async run(ctx) {
        const silent = await serve(ctx, (path) =>
          path === '/'
            ? page(Array.from({ length: 50 }, (_, i) => `<a href="/hang/${i}">${i}</a>`).join(' '))
            : path.startsWith('/hang/')
              ? 'hang'
              : { status: 404, body: 'not here' },
        );
        const quick = await serve(ctx, () => page('<p>A quick page.</p>'));
        const crawls: string[] = [];
        for (let i = 0; i < 6; i++) {
          const crawl = await start(
            ctx,
            'a crawl of the silent site',
            '/v2/crawl',
            crawlBody(`${silent.origin}/`, { limit: 50, maxConcurrency: 8 }),
          );
          if (crawl !== undefined) crawls.push(crawl);
        }
        // Wait until the silent site holds fetches (its start pages read, their links being fetched).
        const until = performance.now() + 10_000;
        while (silent.hanging < 8 && performance.now() < until) await ctx.sleep(50);
        ctx.note('fetches the silent site held when the batch started', silent.hanging);
        const closedBefore = silent.hangsClosed;
        const batch = await start(ctx, 'the batch', '/v2/batch/scrape', {
          urls: Array.from({ length: 10 }, (_, i) => `${quick.origin}/page/${i}`),
          maxConcurrency: 10,
        });
        const end = batch === undefined ? undefined : await ended(ctx, batch, 50_000, 20);
        ctx.check(
          `the batch ended completed, 10 pages, within ${QUICK_BATCH_MS} ms`,
          end?.status === 'completed' && end.completed === 10 && end.ms <= QUICK_BATCH_MS,
          end === undefined ? 'still scraping after 50 s' : `${end.status}, ${end.completed} pages, in ${round(end.ms)} ms`,
        );
        ctx.note('fetches of the silent site given up meanwhile', silent.hangsClosed - closedBefore);
        for (const crawl of crawls) ctx.answered(await call(ctx.base, 'DELETE', crawl, { timeoutMs: 10_000 }));
      },
    };
  },
};

export const AFTER_PAGE_ATTACKS: readonly Attack[] = [attack1, attack2, attack3, attack4, attack5, attack6];
