/**
 * The contract kit against a hostile target: job ids no URL can carry, a token echoed back (in no report, cleaned
 * before a cut), odd start and cancel answers, a job URL on another origin, a target lost mid-run, extra keys in a
 * start answer, records nested deeper than JSON.stringify goes and answers past maxResponseBytes crash nothing and
 * are judged at the level the interface or the service states.
 */
import { describe, expect, it } from 'vitest';
import { exitCode, formatJunit, formatText, runContract } from '../scripts/contract/index.js';
import { WRONG_TOKEN } from '../scripts/contract/checks/requests/auth.js';
import { isStart, kitTarget, startedAndCancelled, type Handler, type KitTarget } from './support/kitTarget.js';
import { TOKEN, byName } from './support/contractReports.js';

describe('a hostile target', () => {
  const rewriteStart =
    (edit: (answer: Record<string, unknown>, request: { url: string }) => Record<string, unknown>): Handler =>
    async (request, next) => {
      const answer = await next(request);
      if (!(request.method === 'POST' && /^\/v[12]\/(crawl|batch\/scrape)$/.test(request.url) && answer.status === 200)) return answer;
      return { ...answer, body: JSON.stringify(edit(JSON.parse(answer.body) as Record<string, unknown>, request)) };
    };

  it('job ids no URL can carry (a lone surrogate, "..") crash nothing; the other jobs are all cancelled; the unusable ones are named', async () => {
    let n = 0;
    const server = await kitTarget({
      token: TOKEN,
      deviate: rewriteStart((answer) => {
        n += 1;
        if (n % 7 === 3) return { ...answer, id: '..', url: 'http://127.0.0.1:1/elsewhere' };
        if (n % 7 === 5) return { ...answer, id: '\ud800job' };
        return answer;
      }),
    });
    try {
      // Every check but the behaviour ones, which record the jobs they start where the others do (context.ts), each
      // generated check once: some 40 of the starts get an unusable id.
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', behaviour: false, runs: 1 }));
      const texts = report.checks.map((c) => c.detail ?? '').join('\n');
      expect(texts).not.toMatch(/contract kit failed|URIError/);
      const ids = report.checks.flatMap((c) => c.failures).filter((f) => f.kind === 'jobId');
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.map((f) => f.message).join('\n')).toMatch(/cannot be used in a URL path/);
      expect(report.jobs.notCancelled.length).toBeGreaterThan(0);
      expect(report.jobs.notCancelled.every((j) => j.includes('".."') || j.includes('"\\ud800job"'))).toBe(true);
      // Every job with a usable id was cancelled.
      const { started, cancelled } = startedAndCancelled(server.log);
      expect(report.jobs.started - report.jobs.notCancelled.length).toBe(report.jobs.cancelled);
      // A start whose answer was lost on a loaded machine may have started a job the kit never learnt of: one that
      // ended by itself needs no cancel, one still running must be named in the report (jobs.mayHaveStarted).
      const unaccounted = started.filter((id) => id !== '..' && id !== '\ud800job' && !cancelled.has(id));
      const stillRunning: string[] = [];
      for (const id of unaccounted) {
        const start = server.log.find((e) => isStart(e) && e.status === 200 && e.answer.includes(id))!;
        const status = await fetch(`${server.url}${start.url}/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        const state = ((await status.json()) as { status?: unknown }).status;
        if (state !== 'completed' && state !== 'failed' && state !== 'cancelled') stillRunning.push(id);
      }
      expect(stillRunning.length).toBeLessThanOrEqual(report.jobs.mayHaveStarted?.length ?? 0);
      expect(exitCode(report)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a target that echoes the token back: it is in no text, JSON or JUnit the kit writes', async () => {
    const echo: Handler = async (request, next) => {
      const answer = await next(request);
      const token = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      // Every error answer echoes the token, as sent and percent-encoded.
      if (answer.status >= 400)
        return { ...answer, body: JSON.stringify({ success: false, error: `token ${token} / ${encodeURIComponent(token)} refused` }) };
      return answer;
    };
    const server = await kitTarget({ token: TOKEN, deviate: echo });
    try {
      // The checks that are refused (the behaviour checks' crawls are not): the report is cleaned as a whole (run.ts).
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', behaviour: false, runs: 1 }));
      expect(JSON.stringify(report)).toContain('token *** / *** refused');
      for (const text of [JSON.stringify(report), formatText(report), formatJunit(report)]) expect(text).not.toContain(TOKEN);
    } finally {
      await server.close();
    }
  });

  it('a start answered 201 with a numeric id is still a job the kit cancels; a cancel answered 204 counts as done', async () => {
    let n = 0;
    const odd: Handler = async (request, next) => {
      const answer = await next(request);
      if (request.method === 'DELETE' && answer.status === 200) return { ...answer, status: 204, body: '' };
      if (!(isStart({ ...request, status: 0, answer: '', authorization: undefined }) && answer.status === 200)) return answer;
      n += 1;
      // Every other start: its real id as 201; the rest: a number the target does not know.
      return n % 2 === 0
        ? { ...answer, status: 201 }
        : { ...answer, body: JSON.stringify({ ...(JSON.parse(answer.body) as object), id: 1000 + n }) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: odd });
    try {
      const report = await runContract(server.options({ versions: ['v2'], only: ['v2.crawl.start.valid'] }));
      const deletes = server.log.filter((e) => e.method === 'DELETE').map((e) => e.url);
      // Each numeric id was recorded as a job (as its digits) and a cancel sent for it.
      for (let i = 1; i <= n; i += 2) expect(deletes).toContain(`/v2/crawl/${1000 + i}`);
      // Each real job (answered 201) was cancelled once: a 204 is a cancel, not a failure to retry.
      const { started, cancelled } = startedAndCancelled(server.log.map((e) => (e.status === 201 ? { ...e, status: 200 } : e)));
      const real = started.filter((id) => typeof id === 'string');
      expect(real.length).toBeGreaterThan(0);
      for (const id of real) expect(cancelled.has(id), id).toBe(true);
      for (const id of real)
        expect(
          deletes.filter((u) => u.endsWith(`/${id}`)),
          id,
        ).toHaveLength(1);
      const check = byName(report).get('v2.crawl.start.valid')!;
      expect(check.failures.some((f) => f.level === 'interface' && /^201 where the interface accepts/.test(f.message))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('a token the target echoes where a failure body is cut is cleaned before the cut: no part of it is left', async () => {
    const echo: Handler = async (request, next) => {
      const answer = await next(request);
      const token = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      if (answer.status < 400) return answer;
      // 422, not the service's 400: a failure at service level, whose body the report shows cut to 600 bytes
      // with what it says of the rest (some 580 bytes of the body), which fall inside the token (it stands at 571 to 597).
      return { ...answer, status: 422, body: JSON.stringify({ success: false, error: `${'x'.repeat(545)}${token}${'y'.repeat(100)}` }) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: echo });
    try {
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', only: ['v2.rule.*', 'json.malformed'] }));
      const bodies = report.checks.flatMap((c) => c.failures).map((f) => f.got?.body ?? '');
      expect(bodies.some((b) => b.includes('x***y'))).toBe(true);
      for (const text of [JSON.stringify(report), formatText(report), formatJunit(report)]) expect(text).not.toContain(TOKEN.slice(0, 10));
    } finally {
      await server.close();
    }
  });

  it('a job url on another origin: the job is read at its own address, and only the service level is left undecided', async () => {
    const elsewhere = rewriteStart((answer) => ({ ...answer, url: `https://elsewhere.example/v2/crawl/${String(answer.id)}` }));
    const server = await kitTarget({ token: TOKEN, deviate: elsewhere });
    try {
      const only = ['v2.crawl.start.valid'];
      const atInterface = byName(await runContract(server.options({ versions: ['v2'], only }))).get('v2.crawl.start.valid')!;
      expect(atInterface.status).toBe('pass');
      expect(atInterface.notes?.join('\n')).toMatch(
        /the job url https:\/\/elsewhere\.example\/v2\/crawl\/\S+ is not on the target; not followed/,
      );
      const atService = byName(await runContract(server.options({ versions: ['v2'], only, level: 'service' }))).get(
        'v2.crawl.start.valid',
      )!;
      expect(atService.status).toBe('inconclusive');
      // The status was read at the job's own address, never elsewhere.
      expect(server.log.some((e) => e.method === 'GET' && /^\/v2\/crawl\/[0-9a-f-]{36}$/.test(e.url))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("a wrong token answered 403: refused as the interface asks (pass at interface level); the service's 401 is left undecided", async () => {
    const forbidden: Handler = async (request, next) =>
      request.headers['authorization'] === `Bearer ${WRONG_TOKEN}`
        ? { status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: false, error: 'Forbidden' }) }
        : next(request);
    const server = await kitTarget({ token: TOKEN, deviate: forbidden });
    try {
      const only = ['auth.wrongToken'];
      const atInterface = byName(await runContract(server.options({ versions: ['v2'], only }))).get('auth.wrongToken')!;
      expect(atInterface.status).toBe('pass');
      expect(atInterface.notes?.join('\n')).toMatch(/403 from POST \/v2\/crawl: depends on the account/);
      const atService = byName(await runContract(server.options({ versions: ['v2'], only, level: 'service' }))).get('auth.wrongToken')!;
      expect(atService.status).toBe('inconclusive');
    } finally {
      await server.close();
    }
  });

  it('a target lost mid-run: not "unreachable" (exit 2); what ran before decides, what came after is skipped', async () => {
    let seen = 0;
    let server: KitTarget | undefined;
    const dying: Handler = async (request, next) => {
      seen += 1;
      if (seen === 12) setImmediate(() => void server?.close());
      return next(request);
    };
    server = await kitTarget({ token: TOKEN, deviate: dying });
    const report = await runContract(server.options({ versions: ['v2'], concurrency: 1, only: ['auth.*', 'json.malformed', 'v2.rule.*'] }));
    expect(report.unreachable).toBe(false);
    expect(report.unreachableReason).toMatch(/ECONNREFUSED/);
    expect(report.checks.filter((c) => c.inScope && c.status === 'pass').length).toBeGreaterThan(0);
    expect(report.checks.some((c) => c.status === 'skipped' && /target unreachable/.test(c.detail ?? ''))).toBe(true);
    // Incomplete (3), or deviations found (1) when the request in flight as it went down got no answer.
    const lostInFlight = report.checks.some((c) => c.failures.some((f) => f.kind === 'network'));
    expect(exitCode(report)).toBe(lostInFlight ? 1 : 3);
    expect(formatText(report)).toMatch(/target lost during the run: .*ECONNREFUSED/);
  });

  it('extra keys in a start answer break interface §1 ("carries only success, id, url")', async () => {
    const server = await kitTarget({ token: TOKEN, deviate: rewriteStart((answer) => ({ ...answer, queued: true })) });
    try {
      const check = byName(await runContract(server.options({ versions: ['v2'], only: ['v2.crawl.start.valid'] }))).get(
        'v2.crawl.start.valid',
      )!;
      expect(check.status).toBe('fail');
      expect(check.failures.map((f) => `${f.level} ${f.section}: ${f.message}`)).toContainEqual(
        expect.stringMatching(/^interface interface §1: .*queued/),
      );
    } finally {
      await server.close();
    }
  });

  it('page records nested deeper than JSON.stringify can go crash nothing', async () => {
    const text = `${'['.repeat(20_000)}"bottom"${']'.repeat(20_000)}`;
    const nested: Handler = async (request, next) => {
      const answer = await next(request);
      if (request.method !== 'GET' || !/^\/v2\/batch\/scrape\/[0-9a-f-]{36}/.test(request.url) || answer.status !== 200) return answer;
      const body = JSON.parse(answer.body) as { data: Record<string, unknown>[] };
      // The nesting goes in as text, so that the target's own JSON writer does not have to walk it.
      const marked = JSON.stringify({ ...body, data: body.data.map((d) => ({ ...d, deep: '@@DEEP@@' })) });
      return { ...answer, body: marked.replaceAll('"@@DEEP@@"', text) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: nested });
    try {
      const report = await runContract(server.options({ versions: ['v2'], level: 'service', only: ['v2.status.pagination'] }));
      const check = byName(report).get('v2.status.pagination')!;
      expect(check.detail ?? '').not.toMatch(/contract kit failed/);
      expect(check.status).toBe('pass');
    } finally {
      await server.close();
    }
  });

  it('answers longer than maxResponseBytes are not read whole: their checks are inconclusive, saying how to judge them', async () => {
    const huge = 'x'.repeat(4 * 1024 * 1024);
    const big: Handler = async (request, next) => {
      const answer = await next(request);
      if (request.method !== 'GET' || !/^\/v2\/crawl\/[0-9a-f-]{36}$/.test(request.url.split('?')[0]!) || answer.status !== 200)
        return answer;
      return { ...answer, body: JSON.stringify({ ...(JSON.parse(answer.body) as object), padding: huge }) };
    };
    const server = await kitTarget({ token: TOKEN, deviate: big });
    try {
      const report = await runContract(
        server.options({ versions: ['v2'], level: 'service', only: ['v2.status'], maxResponseBytes: 1024 * 1024 }),
      );
      const status = byName(report).get('v2.status')!;
      expect(status.status).toBe('inconclusive');
      expect(status.detail).toMatch(
        /longer than 1048576 bytes \(--max-response-bytes\); it was not read: raise --max-response-bytes to judge it/,
      );
      expect(exitCode(report)).toBe(3);
    } finally {
      await server.close();
    }
  });
});
