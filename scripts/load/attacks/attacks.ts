/**
 * The attacks: each finding of issue 13 about the server, replayed against a fresh `crawlspec serve`. What
 * every attack is held to (peak RSS, the unrelated request's latency, alive afterwards) is checked by the
 * harness; what is particular to one attack is checked here. Bounds and time limits: `bounds.ts`.
 */
import { DEFAULT_MAX_BODY_BYTES, WEBHOOK_TIMEOUT_MS } from '../../server/app.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import { parsed, valid } from '../shared.js';
import {
  deeplyNestedBody,
  deeplyNestedCrawls,
  hangingWebhookBatch,
  hugeBatch,
  idnBatch,
  longUrlCrawl,
  manyPagesBigMetadata,
  namedGroupPatterns,
  TWENTY_MIB,
  webhookBatch,
} from './bodies.js';
import {
  JUDGE_FACTOR,
  REFUSAL_MS,
  RSS_ANSWERS_MIB,
  RSS_BATCHES_MIB,
  RSS_SMALL_MIB,
  UNAUTHENTICATED_ANSWER_MS,
  UNAUTHENTICATED_CPU_MS,
  UNRELATED_LATENCY_MS,
} from './bounds.js';
import type { Attack, AttackContext } from './harness.js';
import { call, closedPort, hangingReceiver, outcome, rawPost, receiver, silentReader, type Answer } from './net.js';
import { SURFACE_ATTACKS } from './surface.js';
import { AFTER_PAGE_ATTACKS } from './afterPage.js';
import { RECEIVER_ATTACKS } from './receiver.js';
import { PDF_ATTACKS } from './pdf.js';
import { PROXY_ATTACKS } from './proxy.js';
import { SELECTOR_ATTACKS } from './selectors.js';

const MiB = 1024 * 1024;
const round = (n: number): number => Math.round(n);
/** A size as the findings give it: MB (10^6 bytes), and MiB too from 1 MiB on. */
const size = (text: string): string => {
  const bytes = Buffer.byteLength(text);
  return `${(bytes / 1e6).toFixed(2)} MB${bytes >= MiB ? ` (${(bytes / MiB).toFixed(2)} MiB)` : ''}`;
};

/** Whether `validate()` accepts `text` as `name`: an attack's valid body must be one, or it proves nothing. */
const validBody = (name: SchemaName, text: string): boolean => validate(name, JSON.parse(text)).valid;

/** The notes on a body the attack needs accepted: its size, and whether `validate()` accepts it. */
const bodyNotes = (name: SchemaName, text: string): Record<string, string> => ({
  body: size(text),
  'body valid by validate()': String(validBody(name, text)),
});

/** A start the attack needs accepted: 200 with an id, else the attack cannot go on (the check says why). */
function startedId(ctx: AttackContext, what: string, answer: Answer): string | undefined {
  ctx.answered(answer);
  const id = (parsed(answer.text) as { id?: unknown } | undefined)?.id;
  if (answer.status === 200 && typeof id === 'string') return id;
  ctx.check(`${what} started (200)`, false, `${outcome(answer)} ${answer.text.slice(0, 160)}`);
  return undefined;
}

/** A start that may be refused for the size of what it asks: 200, or the 402/429 refusal with the error envelope. */
const acceptedOrRefused = (answer: Answer): boolean =>
  answer.status === 200 ||
  ((answer.status === 402 || answer.status === 429) && (parsed(answer.text) as { success?: unknown })?.success === false);

/**
 * Starts the v2 crawl of `body` and waits until it has ended (left the active list: its one page is scraped),
 * 10 s at most: its id, or undefined when it did not start (the check says why).
 */
async function endedCrawl(ctx: AttackContext, body: string): Promise<string | undefined> {
  const id = startedId(ctx, 'the crawl', await call(ctx.base, 'POST', '/v2/crawl', { body, timeoutMs: 30_000 }));
  if (id === undefined) return undefined;
  const until = performance.now() + 10_000;
  let ended = false;
  while (!ended && performance.now() < until && !ctx.signal.aborted) {
    const active = await call(ctx.base, 'GET', '/v2/crawl/active', { timeoutMs: 15_000 });
    ended = active.status === 200 && !active.text.includes(id);
    if (!ended) await ctx.sleep(100);
  }
  ctx.check('the crawl ended (left the active list) within 10 s', ended, 'its one page');
  return id;
}

/** A 400 that came in time with the version's error body; for the check's detail, what it said. */
function refusal(answer: Answer, version: 'v1' | 'v2'): { readonly ok: boolean; readonly said: string } {
  const body = parsed(answer.text) as { details?: { message?: string }[]; error?: string } | undefined;
  const ok = answer.status === 400 && answer.ms <= REFUSAL_MS && valid(`${version}/ErrorResponse`, body);
  return {
    ok,
    said: `${outcome(answer)} in ${round(answer.ms)} ms: ${String(body?.details?.[0]?.message ?? body?.error ?? answer.error ?? '').slice(0, 100)}`,
  };
}

const attack1: Attack = {
  id: '1',
  title: 'one 1.1 MB request: a v2 batch of 5000 pages at maxConcurrency 5000, webhook metadata of 1 MB, no receiver',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 30_000,
  async prepare() {
    const body = manyPagesBigMetadata(`http://127.0.0.1:${await closedPort()}/hook`);
    return {
      notes: bodyNotes('v2/BatchScrapeRequest', body),
      async run(ctx) {
        const answer = await call(ctx.base, 'POST', '/v2/batch/scrape', { body, timeoutMs: 30_000 });
        ctx.answered(answer);
        ctx.check(
          'the batch answered 200, or a 402/429 refusal',
          acceptedOrRefused(answer),
          `${outcome(answer)} in ${round(answer.ms)} ms`,
        );
        // The job's pages are all scraped in its first tick (100 ms), their webhook events built with them;
        // watched for 10 s (the finding: 4.1 GB in 13 s).
        await ctx.sleep(10_000);
      },
    };
  },
};

const attack2: Attack = {
  id: '2',
  title: 'five 9.7 MiB v2 batches of ~850,000 short addresses, maxConcurrency as high, one after another',
  rssMiB: RSS_BATCHES_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 150_000,
  prepare() {
    const { text, count } = hugeBatch(Math.floor(9.7 * MiB));
    if (Buffer.byteLength(text) > DEFAULT_MAX_BODY_BYTES) throw new Error('the 9.7 MiB batch is past the default body limit');
    const started = performance.now();
    const accepted = validate('v2/BatchScrapeRequest', JSON.parse(text)).valid;
    const judgeMs = performance.now() - started;
    return {
      unrelatedMs: Math.max(UNRELATED_LATENCY_MS, round(JUDGE_FACTOR * judgeMs)),
      notes: {
        body: `${size(text)}, ${count} addresses (limit ${DEFAULT_MAX_BODY_BYTES} bytes)`,
        'body valid by validate()': String(accepted),
        'parse + validate one body in the load generator (ms)': round(judgeMs),
      },
      async run(ctx) {
        const times: string[] = [];
        let fine = 0;
        for (let i = 0; i < 5 && !ctx.signal.aborted; i++) {
          const answer = await call(ctx.base, 'POST', '/v2/batch/scrape', { body: text, timeoutMs: 60_000 });
          ctx.answered(answer);
          times.push(`${outcome(answer)} in ${round(answer.ms)} ms`);
          if (acceptedOrRefused(answer)) fine += 1;
        }
        ctx.note('the five answers', times.join(', '));
        ctx.check('every batch answered 200, or a 402/429 refusal', fine === 5, `${fine} of 5`);
        await ctx.sleep(2_000); // the pages of an accepted batch are built in its first tick
      },
    };
  },
};

const attack3: Attack = {
  id: '3',
  title: 'path patterns of named groups and named backreferences in a 1.6 MB body (regression: fixed in validation)',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 30_000,
  prepare() {
    const { onePattern, manyPatterns } = namedGroupPatterns(1_600_000);
    return {
      notes: { bodies: `one pattern (v2 crawl) ${size(onePattern)}; 2000-character patterns (v1 crawl) ${size(manyPatterns)}` },
      async run(ctx) {
        for (const [version, body] of [
          ['v2', onePattern],
          ['v1', manyPatterns],
        ] as const) {
          const answer = await call(ctx.base, 'POST', `/${version}/crawl`, { body, timeoutMs: 60_000 });
          ctx.answered(answer);
          const { ok, said } = refusal(answer, version);
          ctx.check(`${version} crawl of ${size(body)} of patterns: 400 within ${REFUSAL_MS} ms`, ok, said);
        }
      },
    };
  },
};

const attack4a: Attack = {
  id: '4a',
  title: 'a 1 MB crawl (a long address, 50 scrape actions) whose status is read by 12 clients that never read the answer',
  rssMiB: RSS_ANSWERS_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 45_000,
  prepare() {
    const body = longUrlCrawl(1_000_000);
    return {
      notes: bodyNotes('v2/CrawlRequest', body),
      async run(ctx) {
        const id = await endedCrawl(ctx, body);
        if (id === undefined) return;
        for (let i = 0; i < 12; i++) ctx.defer(silentReader(ctx.port, `/v2/crawl/${id}`));
        await ctx.sleep(8_000);
      },
    };
  },
};

const attack4b: Attack = {
  id: '4b',
  title: 'a crawl of a 2.1 MB address with 50 scrape actions: its status read',
  rssMiB: RSS_ANSWERS_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 90_000,
  prepare() {
    const body = longUrlCrawl(2_100_000);
    return {
      notes: bodyNotes('v2/CrawlRequest', body),
      async run(ctx) {
        const id = await endedCrawl(ctx, body);
        if (id === undefined) return;
        const reads: string[] = [];
        let fine = 0;
        for (let i = 0; i < 2 && !ctx.signal.aborted; i++) {
          const answer = await call(ctx.base, 'GET', `/v2/crawl/${id}`, { timeoutMs: 30_000 });
          ctx.answered(answer);
          reads.push(`${outcome(answer)} in ${round(answer.ms)} ms, ${size(answer.text)}`);
          if (answer.status !== undefined && answer.status < 500) fine += 1;
        }
        ctx.check('every status read of the job answered, and none a 5xx', fine === 2, reads.join('; '));
      },
    };
  },
};

const REDIRECTS = [301, 302, 303, 307, 308] as const;
const SECRET_HEADER = 'x-crawlspec-secret';

const attack5: Attack = {
  id: '5',
  title: `webhook deliveries answered with a redirect (${REDIRECTS.join(', ')}) to another listener on loopback`,
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 30_000,
  prepare() {
    return {
      async run(ctx) {
        const target = await receiver(() => ({ status: 200 }));
        ctx.defer(target);
        const redirector = await receiver((request) => ({
          status: Number(/\/(\d{3})$/.exec(request.url ?? '')?.[1] ?? 302),
          headers: { location: `${target.url}/followed${request.url ?? ''}` },
        }));
        ctx.defer(redirector);
        for (const code of REDIRECTS) {
          const body = webhookBatch(`${redirector.url}/hook/${code}`, { [SECRET_HEADER]: `secret-${code}` }, String(code));
          startedId(
            ctx,
            `the batch whose receiver answers ${code}`,
            await call(ctx.base, 'POST', '/v2/batch/scrape', { body, timeoutMs: 10_000 }),
          );
        }
        // Each job sends started, page and completed; wait for all of them at the first receiver, 5 s at most.
        const until = performance.now() + 5_000;
        while (redirector.received.length < 3 * REDIRECTS.length && performance.now() < until) await ctx.sleep(50);
        await ctx.sleep(500);
        const reached = REDIRECTS.filter((code) => redirector.received.some((r) => r.path.endsWith(`/${code}`)));
        const secrets = target.received.filter((r) => r.headers[SECRET_HEADER] !== undefined).length;
        ctx.note('deliveries to the receiver that redirects', redirector.received.length);
        ctx.note('requests at the listener it redirects to', `${target.received.length} (${secrets} with the custom header)`);
        ctx.check(
          'the redirecting receiver got deliveries for every redirect status',
          reached.length === REDIRECTS.length,
          `deliveries for ${reached.join(', ') || 'none'}`,
        );
        ctx.check(
          'the listener redirected to got no request (no redirect followed, no custom header carried)',
          target.received.length === 0,
          target.received.length === 0
            ? 'none'
            : `${target.received.length} requests (${secrets} with ${SECRET_HEADER}): ${[...new Set(target.received.map((r) => `${r.method} ${r.path}`))].slice(0, 5).join(', ')}`,
        );
      },
    };
  },
};

const attack6: Attack = {
  id: '6',
  title: 'a 480 KB v2 batch of addresses with long internationalised labels (regression: fixed in validation)',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 30_000,
  prepare() {
    const body = idnBatch(16, 10_000);
    // What the finding cost: WHATWG parsing (punycoding) one of these addresses, here, before the fix refused them unparsed.
    const first = (JSON.parse(body) as { urls: string[] }).urls[0]!;
    const started = performance.now();
    URL.canParse(first);
    const whatwgMs = round(performance.now() - started);
    return {
      notes: {
        body: `${size(body)}, 16 addresses of a 10,000-character label`,
        'WHATWG parse of one such address in the load generator (ms)': whatwgMs,
      },
      async run(ctx) {
        const answer = await call(ctx.base, 'POST', '/v2/batch/scrape', { body, timeoutMs: 60_000 });
        ctx.answered(answer);
        const { ok, said } = refusal(answer, 'v2');
        ctx.check(`the batch: 400 within ${REFUSAL_MS} ms`, ok, said);
      },
    };
  },
};

const NESTING = 6000;

const attack7: Attack = {
  id: '7',
  title: `GET /v1 and /v2 crawl/active while crawls whose options nest ${NESTING} levels deep run`,
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 30_000,
  prepare() {
    const bodies = deeplyNestedCrawls(NESTING, 30);
    return {
      notes: {
        bodies: `v2 ${size(bodies.v2)}, v1 ${size(bodies.v1)}`,
        'bodies valid by validate()': `v2 ${validBody('v2/CrawlRequest', bodies.v2)}, v1 ${validBody('v1/CrawlRequest', bodies.v1)}`,
      },
      async run(ctx) {
        const ids: string[] = [];
        for (const version of ['v2', 'v1'] as const) {
          const id = startedId(
            ctx,
            `the ${version} crawl`,
            await call(ctx.base, 'POST', `/${version}/crawl`, { body: bodies[version], timeoutMs: 10_000 }),
          );
          if (id === undefined) return;
          ids.push(id);
        }
        const lists: string[] = [];
        let fine = 0;
        for (let turn = 0; turn < 3; turn++) {
          for (const version of ['v1', 'v2'] as const) {
            const answer = await call(ctx.base, 'GET', `/${version}/crawl/active`, { timeoutMs: 10_000 });
            ctx.answered(answer);
            const listed = ids.filter((id) => answer.text.includes(id)).length;
            if (answer.status === 200 && listed === ids.length) fine += 1;
            if (turn === 0) lists.push(`${version}: ${outcome(answer)}, ${listed} of ${ids.length} listed`);
          }
        }
        ctx.check('every active list answered 200 and listed both crawls', fine === 6, `${fine} of 6; ${lists.join('; ')}`);
        for (const [i, version] of (['v2', 'v1'] as const).entries())
          await call(ctx.base, 'DELETE', `/${version}/crawl/${ids[i]}`, { timeoutMs: 5_000 });
      },
    };
  },
};

const attack8: Attack = {
  id: '8',
  title: 'a webhook receiver that never answers: 30,000 pages with 64 KiB of metadata, cancelled a third of the way',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 45_000,
  async prepare() {
    return {
      async run(ctx) {
        const hanging = await hangingReceiver();
        ctx.defer(hanging);
        const body = hangingWebhookBatch(hanging.url, 30_000, 1_000, 64 * 1024);
        ctx.note('body', `${size(body)}, valid by validate(): ${validBody('v2/BatchScrapeRequest', body)}`);
        const id = startedId(ctx, 'the batch', await call(ctx.base, 'POST', '/v2/batch/scrape', { body, timeoutMs: 10_000 }));
        if (id === undefined) return;
        // Cancel once a third of the pages are scraped: their events are queued behind the first, which hangs.
        let done = 0;
        const until = performance.now() + 15_000;
        while (done < 10_000 && performance.now() < until && !ctx.signal.aborted) {
          const read = await call(ctx.base, 'GET', `/v2/batch/scrape/${id}?limit=1`, { timeoutMs: 10_000 });
          done = Number((parsed(read.text) as { completed?: unknown } | undefined)?.completed ?? 0);
          if (done < 10_000) await ctx.sleep(20);
        }
        const cancel = await call(ctx.base, 'DELETE', `/v2/batch/scrape/${id}`, { timeoutMs: 10_000 });
        ctx.answered(cancel);
        const cancelledAt = performance.now();
        const before = hanging.deliveries.length;
        ctx.note('pages scraped (their events queued) when the cancel was sent', done);
        ctx.check('the cancel reached the running job (200)', cancel.status === 200, `${outcome(cancel)} ${cancel.text.slice(0, 100)}`);
        // A delivery in flight may take the sender's time limit to give up; whatever is queued comes after it.
        await ctx.sleep(WEBHOOK_TIMEOUT_MS + 2_500);
        const after = hanging.deliveries.filter((d) => d.at > cancelledAt);
        const kinds = [...new Set(after.map((d) => d.type))];
        ctx.note('deliveries begun before the cancel', before);
        ctx.note(
          `deliveries begun in the ${(WEBHOOK_TIMEOUT_MS + 2_500) / 1000} s after it`,
          `${after.length}${kinds.length === 0 ? '' : ` (${kinds.join(', ')})`}`,
        );
        ctx.check('the receiver got a delivery before the cancel', before > 0, `${before}`);
        ctx.check(
          'the receiver learned that the job ended: the completed event was delivered after the cancel',
          after.some((d) => d.type.endsWith('.completed')),
          kinds.join(', ') || 'nothing delivered',
        );
        ctx.check(
          'after the cancel, no delivery but at most one completed event',
          after.length === 0 || (after.length === 1 && after[0]!.type.endsWith('.completed')),
          `${after.length} deliveries: ${
            after
              .map((d) => d.type)
              .slice(0, 5)
              .join(', ') || 'none'
          }`,
        );
      },
    };
  },
};

const attack9: Attack = {
  id: '9',
  title: 'an unauthenticated 20 MiB deeply nested body to a start endpoint (v2 crawl, v1 batch)',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    const body = deeplyNestedBody(TWENTY_MIB);
    return {
      notes: { body: `${(body.length / MiB).toFixed(2)} MiB, an array ${Math.floor(body.length / 2)} levels deep, no Authorization` },
      async run(ctx) {
        const cpuBefore = ctx.server.cpuMs();
        const answers: string[] = [];
        let fine = 0;
        for (const path of ['/v2/crawl', '/v1/batch/scrape']) {
          const answer = await rawPost(ctx.port, path, { 'content-type': 'application/json' }, body, 30_000);
          ctx.answered(answer);
          answers.push(
            `${path}: ${answer.status ?? answer.error} in ${round(answer.ms)} ms after ${(answer.sent / MiB).toFixed(1)} MiB sent`,
          );
          if ((answer.status === 401 || answer.status === 413) && answer.ms <= UNAUTHENTICATED_ANSWER_MS) fine += 1;
        }
        await ctx.sleep(200); // whatever the server does after answering counts too
        const cpuAfter = ctx.server.cpuMs();
        const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : round(cpuAfter - cpuBefore);
        ctx.check(`each answered 401 (or 413) within ${UNAUTHENTICATED_ANSWER_MS} ms`, fine === 2, answers.join('; '));
        ctx.check(
          `the server's CPU time for both ≤ ${UNAUTHENTICATED_CPU_MS} ms`,
          cpu !== undefined && cpu <= UNAUTHENTICATED_CPU_MS,
          cpu === undefined ? 'not measured (the server is gone)' : `${cpu} ms`,
        );
      },
    };
  },
};

export const ATTACKS: readonly Attack[] = [
  attack1,
  attack2,
  attack3,
  attack4a,
  attack4b,
  attack5,
  attack6,
  attack7,
  attack8,
  attack9,
  ...SURFACE_ATTACKS,
  ...AFTER_PAGE_ATTACKS,
  ...RECEIVER_ATTACKS,
  ...PDF_ATTACKS,
  ...PROXY_ATTACKS,
  ...SELECTOR_ATTACKS,
];
