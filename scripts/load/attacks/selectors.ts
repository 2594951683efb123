/**
 * The attacks of issue 41 on the scrape options `includeTags` / `excludeTags` (CSS selectors), findings 3 and 4
 * (finding 12, the escaped `:has(`, is a unit test: test/contentSelectors.test.ts). Each has a fresh `crawlspec
 * serve` scrape with selectors made to cost: the harness holds it to the usual bounds (memory, the unrelated
 * request answered within 1 s, alive afterwards), and each attack checks what the server answered.
 *
 *   - 41-3: the finding's 49-character chain of `~ *` on a page of 34 sibling paragraphs (46.7 s of one page's
 *     selection in the finding), then a selector the server runs (three descendant combinators) on a page
 *     nested as deep as the server keeps (512 levels), where testing one element walks billions of ancestors;
 *   - 41-4: a 6 MB selector list on the server's own demo site (6.3–6.7 s a page in the finding), then the
 *     lists the server runs that cost it most to compile (as many selectors as it takes, each a pseudo-class
 *     css-select expands into a dozen: `:enabled`, `:read-write`) on twenty of its pages.
 */
import { validate } from '../../../schemas/validate.js';
import { MAX_SELECTORS } from '../../server/selectorLimits.js';
import { parsed, valid } from '../shared.js';
import { JUDGE_FACTOR, REFUSAL_MS, RSS_SMALL_MIB, UNRELATED_LATENCY_MS } from './bounds.js';
import type { Attack, AttackContext } from './harness.js';
import { call, outcome } from './net.js';
import { hostileSite, page } from './sites.js';

const round = (n: number): number => Math.round(n);

/** The finding's selector: 12 sibling combinators, the first compound matching nothing, so every chain of siblings is tried. */
export const SIBLING_CHAIN = `i${' ~ *'.repeat(12)}`;
/** A selector the server runs, whose test of one element walks the ancestors of ancestors of ancestors (css-select keeps no result of them). */
const DESCENDANT_CHAIN = 'i div div div p';
/** Time a job of one page (or twenty) may take to end, selection included: the page's selection budget (5 s) with room. */
const JOB_END_MS = 20_000;

/** Starts a v2 batch: its answer, counted. */
async function startBatch(ctx: AttackContext, body: string): Promise<ReturnType<typeof call>> {
  const answer = await call(ctx.base, 'POST', '/v2/batch/scrape', { body, timeoutMs: 60_000 });
  ctx.answered(answer);
  return answer;
}

/** Checks a start was refused by a 400 with the error envelope within `withinMs`, naming `path`; says what it said. */
function refused(ctx: AttackContext, what: string, answer: Awaited<ReturnType<typeof call>>, path: string, withinMs: number): void {
  const body = parsed(answer.text) as { details?: { message?: string; path?: unknown[] }[] } | undefined;
  const detail = body?.details?.[0];
  ctx.check(
    `${what}: 400 within ${withinMs} ms, the envelope naming ${path}`,
    answer.status === 400 && answer.ms <= withinMs && valid('v2/ErrorResponse', body) && detail?.message?.startsWith(path) === true,
    `${outcome(answer)} in ${round(answer.ms)} ms: ${String(detail?.message ?? answer.text).slice(0, 220)}`,
  );
}

interface Ended {
  readonly status: string;
  readonly completed: number;
  readonly errors: readonly string[];
  readonly ms: number;
}

/** Waits for the batch `answer` started to end (`JOB_END_MS` at most): how it ended, with its errors; or undefined. */
async function ended(ctx: AttackContext, answer: Awaited<ReturnType<typeof call>>): Promise<Ended | undefined> {
  const id = (parsed(answer.text) as { id?: unknown } | undefined)?.id;
  if (answer.status !== 200 || typeof id !== 'string') return undefined;
  const started = performance.now();
  while (performance.now() - started < JOB_END_MS && !ctx.signal.aborted) {
    const read = await call(ctx.base, 'GET', `/v2/batch/scrape/${id}?limit=1`, { timeoutMs: 15_000 });
    const status = (parsed(read.text) as { status?: unknown; completed?: unknown } | undefined) ?? {};
    if (read.status === 200 && typeof status.status === 'string' && status.status !== 'scraping') {
      const errors = await call(ctx.base, 'GET', `/v2/batch/scrape/${id}/errors`, { timeoutMs: 15_000 });
      const listed = (parsed(errors.text) as { errors?: { error?: string }[] } | undefined)?.errors ?? [];
      return {
        status: status.status,
        completed: Number(status.completed),
        errors: listed.map((e) => String(e.error)),
        ms: performance.now() - started,
      };
    }
    await ctx.sleep(100);
  }
  return undefined;
}

const attack3: Attack = {
  id: '41-3',
  title: `includeTags ${JSON.stringify(SIBLING_CHAIN)} on 34 sibling paragraphs; ${JSON.stringify(DESCENDANT_CHAIN)} on a page 512 elements deep`,
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    const siblings = page('<p>x</p>'.repeat(34));
    const deep = page(`${'<div>'.repeat(600)}<p>x</p>${'</div>'.repeat(600)}`);
    return {
      notes: { "the finding's selector": `${SIBLING_CHAIN.length} characters` },
      async run(ctx) {
        const site = await hostileSite((path) => (path === '/siblings' ? siblings : deep));
        ctx.defer(site);
        const chain = await startBatch(ctx, JSON.stringify({ urls: [`${site.origin}/siblings`], includeTags: [SIBLING_CHAIN] }));
        if (chain.status === 200) {
          const end = await ended(ctx, chain);
          ctx.note('the sibling chain, accepted: its job', end === undefined ? 'not ended' : `${end.status} in ${round(end.ms)} ms`);
        }
        refused(ctx, 'the sibling chain', chain, '$.includeTags[0]', REFUSAL_MS);
        if (ctx.signal.aborted) return;
        const walk = await startBatch(ctx, JSON.stringify({ urls: [`${site.origin}/deep`], includeTags: [DESCENDANT_CHAIN] }));
        const end = await ended(ctx, walk);
        const said = end?.errors.find((error) => error.includes(JSON.stringify(DESCENDANT_CHAIN)));
        ctx.check(
          `the descendant chain on the deep page: accepted, its page an error naming the selector within ${JOB_END_MS / 1000} s`,
          end !== undefined && end.completed === 0 && said !== undefined,
          end === undefined
            ? `${outcome(walk)}, not ended: ${walk.text.slice(0, 160)}`
            : `${end.status} in ${round(end.ms)} ms: ${(said ?? end.errors.join('; ')).slice(0, 220)}`,
        );
      },
    };
  },
};

/** A list of selectors of about 60 characters (`main > article.entry-000…0` and a number) of `bytes` characters in the body in all. */
function selectorList(bytes: number): string[] {
  const one = (i: number) => `main > article.entry-${String(i).padStart(40, '0')}`;
  return Array.from({ length: Math.ceil(bytes / (one(0).length + 3)) }, (_, i) => one(i)); // each with its quotes and comma
}

const attack4: Attack = {
  id: '41-4',
  title: `a 6 MB includeTags list on five pages of the server's own site; the costliest lists it runs (${MAX_SELECTORS} :enabled, ${MAX_SELECTORS} :read-write) on twenty`,
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 90_000,
  prepare() {
    const huge = selectorList(6_000_000);
    // Its body is validated (linear in it, synchronous): the unrelated request and the refusal may wait for that, as in attack 2.
    const paths = ['/site/', '/site/about', '/site/docs/', '/site/blog/', '/site/products/'];
    const hugeBody = (base: string) => JSON.stringify({ urls: paths.map((p) => `${base}${p}`), includeTags: huge });
    const started = performance.now();
    validate('v2/BatchScrapeRequest', JSON.parse(hugeBody('http://127.0.0.1:1')));
    const judgeMs = performance.now() - started;
    const costliest = {
      includeTags: Array<string>(MAX_SELECTORS).fill(':enabled'),
      excludeTags: Array<string>(MAX_SELECTORS).fill(':read-write'),
    };
    const judgedMs = Math.max(UNRELATED_LATENCY_MS, round(JUDGE_FACTOR * judgeMs));
    return {
      unrelatedMs: judgedMs,
      notes: {
        'the 6 MB list': `${huge.length} selectors, ${(Buffer.byteLength(JSON.stringify(huge)) / 1e6).toFixed(2)} MB`,
        'parse + validate its body in the load generator (ms)': round(judgeMs),
      },
      async run(ctx) {
        const answer = await startBatch(ctx, hugeBody(ctx.base));
        if (answer.status === 200) {
          const end = await ended(ctx, answer);
          ctx.note('the 6 MB list, accepted: its job', end === undefined ? 'not ended' : `${end.status} in ${round(end.ms)} ms`);
        }
        // Its selectors are looked at once the body is judged: the refusal may take that, and what a refusal takes.
        refused(ctx, 'the 6 MB list', answer, '$.includeTags', REFUSAL_MS + judgedMs);
        if (ctx.signal.aborted) return;
        const urls = Array.from({ length: 20 }, (_, i) => `${ctx.base}${paths[i % paths.length]}?run=${i}`);
        const costly = await startBatch(ctx, JSON.stringify({ urls, ...costliest, maxConcurrency: 4 }));
        ctx.note('the costliest lists: the start answered (compiled once for the job)', `${outcome(costly)} in ${round(costly.ms)} ms`);
        const end = await ended(ctx, costly);
        ctx.check(
          `the costliest lists the server runs, on twenty pages: completed, 20 pages, within ${JOB_END_MS / 1000} s`,
          end?.status === 'completed' && end.completed === 20,
          end === undefined
            ? 'not ended'
            : `${end.status}, ${end.completed} pages in ${round(end.ms)} ms${end.errors.length > 0 ? `: ${end.errors[0]!.slice(0, 160)}` : ''}`,
        );
      },
    };
  },
};

export const SELECTOR_ATTACKS: readonly Attack[] = [attack3, attack4];
