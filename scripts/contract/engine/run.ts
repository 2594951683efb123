/**
 * `runChecks(checks, options, listeners)`: runs the checks against a target and tells the run's listeners
 * (events.ts) what happens, ending with the report. Checks run `concurrency` at a time, in the order given (the
 * catalogue, checks/index.ts, puts the cheap, job-free ones first). Each check has its own share of the request
 * budget, in proportion to what it needs (by default exactly that), so no check can starve another; a check that
 * uses up its share stops there (skipped). Every job a check starts is cancelled, by the check or, failing that,
 * here at the end. The report is cleaned of the token before it is returned. The engine knows no output format:
 * the progress lines, the reports and the recording are listeners (reporters/).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { RequestBudget } from '../wire/budget.js';
import { statusOf, undecidedAt, type Check, type CheckOutcome } from './check.js';
import { startWebhookReceiver, type WebhookReceiver } from '../wire/webhookReceiver.js';
import { randomBytes } from 'node:crypto';
import type { BehaviourSite, Env } from './context.js';
import { serveSite } from '../../site/server.js';
import { COPY_PROFILE, TEST_SITE_PROFILE, testSiteModel, type SiteOrigins } from '../../site/testSite.js';
import { MissingEndpoints } from './endpoints.js';
import { HttpClient } from '../wire/http.js';
import { JobTracker } from '../wire/jobs.js';
import { decides, type Level } from '../spec/levels.js';
import { matchesGlob, resolveOptions, withSite, type ContractOptions, type ResolvedOptions } from './options.js';
import { preflightCost, preflightSites, runPreflight } from './preflight.js';
import { redact, runRedaction } from '../wire/redact.js';
import { confirm } from './confirm.js';
import { Reserve } from '../wire/reserve.js';
import { Transport } from './transport.js';
import { waitForTarget } from './waitForTarget.js';
import { TimeLimit } from '../wire/timeLimit.js';
import { blockedDetail, NOT_SELECTED, type CheckResult, type CheckStatus, type ContractReport } from '../report/report.js';
import { causesOf } from '../report/causes.js';
import { collapse } from '../report/collapse.js';
import { RunEvents, type RunListener } from './events.js';

/** Whether `--only` (if given) selects the check. */
const selected = (check: Check, options: ResolvedOptions) =>
  options.only === undefined || options.only.some((pattern) => matchesGlob(pattern, check.name));

/**
 * Why a check does not run in this run, if it does not: left out by the user (`excluded`: out of the run's
 * scope), or impossible on this target as the run is set up (the run is incomplete, and the reason says how to
 * include it or leave it out).
 */
function notRun(check: Check, options: ResolvedOptions, site?: BehaviourSite): { reason: string; excluded: boolean } | undefined {
  const excluded = (reason: string) => ({ reason, excluded: true });
  if (!selected(check, options)) return excluded(NOT_SELECTED);
  const skip = options.skip.find((pattern) => matchesGlob(pattern, check.name));
  if (skip !== undefined) return excluded(`left out (--skip ${skip})`);
  if (check.needsAuth && options.token === undefined) return excluded('no token (--no-auth)');
  if (check.startsJob && options.onlyNoJob) return excluded('starts a job (--only-no-job)');
  if (check.behaviour !== undefined && options.behaviourLeftOut) return excluded('crawl behaviour left out (--no-behaviour)');
  // The target signs its deliveries with a secret of its own, if any: without it there is nothing to verify.
  if (check.webhook === 'signature' && options.webhookSecret === undefined)
    return excluded('no webhook secret (--webhook-secret): the target signs its deliveries only with a secret of its own');
  if (check.webhook !== undefined && options.webhookUrl === undefined)
    return {
      reason: `no webhook receiver: the target is not on loopback, so it cannot deliver to one the kit runs here: run crawlspec webhook-receiver where the target can deliver to it and the kit can read it, and give its address with --webhook-url URL, or leave these out with --skip 'v*.webhook.*'`,
      excluded: false,
    };
  if (check.behaviour !== undefined && !options.behaviour)
    return {
      reason: `the target is not on loopback, so it cannot crawl the test site the kit serves: give a copy it can reach (crawlspec site export, then --behaviour-site URL --behaviour-external URL), or serve the site for it (--behaviour, with --site-host NAME resolving to this machine for the target), or leave these out with --no-behaviour`,
      excluded: false,
    };
  if (
    check.behaviour === 'subdomain' &&
    (site?.origins ?? options.behaviourSite)?.subdomain === undefined &&
    options.siteHost === undefined
  )
    return {
      reason: `the test site has no subdomain here: serve it under a host name (--site-host NAME, with sub.NAME resolving to 127.0.0.1 for the target) or give a copy's subdomain (--behaviour-subdomain), or leave it out with --skip '${check.name.replace(/^v\d+/, 'v*')}'`,
      excluded: false,
    };
  return undefined;
}

/**
 * Each check's share of the budget, and the preflight's (which needs `preflight`): what each needs, or (under
 * a lower `maxRequests`) its part of it in proportion to what it needs; checks that do not run get none.
 */
export function budgetShares(
  checks: readonly Check[],
  options: ResolvedOptions,
  preflight = 0,
): { shares: number[]; preflight: number; total: number } {
  const needs = [preflight, ...checks.map((check) => (notRun(check, options) === undefined ? check.cost(options) : 0))];
  const need = needs.reduce((a, b) => a + b, 0);
  const total = options.maxRequests ?? need;
  const [first, ...shares] = total >= need ? needs : needs.map((n) => Math.floor((n * total) / need));
  return { shares, preflight: first!, total };
}

/**
 * What a check above the run's level saw at its own level (it informs, it does not decide): a difference from
 * the service, something it could not judge there, or everything it holds observed (`pass`). Skipped stays skipped.
 */
function informed(decided: CheckStatus, outcome: CheckOutcome, own: Level): CheckStatus {
  if (decided === 'skipped') return decided;
  if (outcome.failures.length > 0) return 'differs';
  return undecidedAt(outcome, own) !== undefined ? 'notJudged' : 'pass';
}

async function runCheck(check: Check, env: Env, share: number): Promise<CheckResult> {
  const { level } = env.options;
  const begun = performance.now();
  const base = { name: check.name, level: check.level, requests: 0, differences: [], digest: '', durationMs: 0 };
  const left = notRun(check, env.options, env.behaviour);
  const inScope = decides(check.level, level);
  // A check the user left out (--only, --skip, --no-auth, ...) is out of the run's scope; one this target
  // cannot run keeps it incomplete, with the fix.
  if (left !== undefined) return { ...base, inScope: inScope && !left.excluded, status: 'skipped', failures: [], detail: left.reason };
  if (env.client.unreachable !== undefined)
    return { ...base, inScope, status: 'skipped', failures: [], detail: `target unreachable: ${env.client.unreachable}` };
  // The run's time limit reached (--max-duration): what the check is to prove is not judged (timeLimit.ts).
  const late = env.client.outOfTime;
  if (late !== undefined) return { ...base, inScope, status: inScope ? 'inconclusive' : 'notJudged', failures: [], detail: late };
  // A check resting on a site the target cannot use (preflight.ts) is not run: it could show nothing.
  const blocked = env.preflight?.blocking(check, env.options, env.behaviour);
  if (blocked !== undefined) return { ...base, inScope, status: inScope ? 'inconclusive' : 'notJudged', failures: [], detail: blocked };
  const outcome = await check.run({ ...env, budget: new RequestBudget(share) });
  const failures = outcome.failures.filter((f) => decides(f.level, level));
  const decided = statusOf(failures, outcome, level);
  // A failing behaviour check run again (--confirm), to tell a flaky target from a broken one.
  const confirmed = decided === 'fail' ? await confirm(check, env, share) : undefined;
  const inRunScope = inScope || failures.length > 0;
  const status = inRunScope ? decided : informed(decided, outcome, check.level);
  const undecided =
    status === 'inconclusive' || status === 'notJudged' ? undecidedAt(outcome, inRunScope ? level : check.level) : undefined;
  const detail = status === 'skipped' ? outcome.skipped : undecided?.reason;
  const notes = outcome.undecided.filter((u) => !decides(u.level, level)).map((u) => u.reason);
  return {
    ...base,
    inScope: inRunScope,
    status,
    // Each class of failure once, with how many (collapse.ts), in every rendering.
    failures: collapse(failures),
    differences: collapse(outcome.failures.filter((f) => !decides(f.level, level))),
    ...(detail === undefined ? {} : { detail }),
    ...(undecided?.cause === undefined ? {} : { cause: undecided.cause }),
    ...(notes.length === 0 ? {} : { notes }),
    ...(confirmed === undefined ? {} : { confirmations: { runs: confirmed.runs, failed: confirmed.failed } }),
    ...(outcome.crawls === undefined ? {} : { crawls: outcome.crawls }),
    ...(check.drawn === true ? { drawn: true as const } : {}),
    requests: outcome.requests + (confirmed?.requests ?? 0),
    digest: outcome.digest.digest('hex'),
    durationMs: Math.round(performance.now() - begun),
  };
}

/** Cancels the jobs still open: each with its reserved unit, and once more (budget permitting) if that failed. */
async function cancelLeftovers(env: Env): Promise<void> {
  for (const job of env.jobs.open()) {
    if (job.address === undefined) continue;
    for (let tries = 0; tries < 2 && job.state === 'open'; tries += 1) {
      if (job.cancelAttempts > 0 && tries === 0) continue;
      try {
        const exchange = await env.client.send({ method: 'DELETE', url: job.address }, job.budget, job.reservation);
        env.jobs.settle(job, exchange.status);
      } catch {
        env.jobs.settle(job, undefined);
        break;
      }
    }
  }
  for (const job of env.jobs.open()) job.state = 'notCancelled';
}

/**
 * Runs `checks` against the target of `options`, telling `listeners` what happens (events.ts), and returns the
 * report (cleaned of the token). The run's listeners hear `runEnded` whether it ends or fails.
 */
export async function runChecks(
  checks: readonly Check[],
  options: ContractOptions,
  listeners: RunListener | readonly RunListener[] = [],
): Promise<ContractReport> {
  const given: ResolvedOptions = resolveOptions(options);
  // One notion of the site: the kit's test site, a copy given or the site served here for the run (on the
  // port asked for, if any), is what the behaviour checks crawl and, without --site-url, where every job
  // points: its pages are known (and, served, its failing page).
  const served = given.servesSite
    ? await serveSite({
        ...(given.siteHost === undefined ? {} : { host: given.siteHost }),
        ...(given.sitePort === undefined ? {} : { port: given.sitePort }),
      })
    : undefined;
  let receiver: WebhookReceiver | undefined;
  try {
    // The webhook checks' receiver: the one given, or (a loopback target) one run here on 127.0.0.1 for the run.
    if (given.servesWebhookReceiver && checks.some((c) => c.webhook !== undefined && selected(c, given)))
      receiver = await startWebhookReceiver();
    const origins = given.behaviourSite ?? served?.origins;
    const profile = served === undefined ? (options.site ?? COPY_PROFILE) : TEST_SITE_PROFILE;
    const sited = origins !== undefined && options.siteUrl === undefined ? withSite(given, origins.main, profile) : given;
    // The run's inboxes are below 128 random bits: nobody else can guess (and read) them on a receiver others reach.
    const receiverUrl = receiver?.url ?? sited.webhookUrl;
    const resolved =
      receiverUrl === undefined ? sited : { ...sited, webhookUrl: `${receiverUrl}/${randomBytes(16).toString('base64url')}` };
    const events = new RunEvents(listeners, runRedaction(resolved));
    let report: ContractReport;
    try {
      await events.runStarted(resolved);
      report = await runResolved(checks, resolved, origins, events);
    } catch (error) {
      await events.runEnded(undefined).catch(() => undefined);
      throw error;
    }
    for (const cause of report.causes) events.causeFound(cause);
    await events.runEnded(report);
    return report;
  } finally {
    await receiver?.close();
    await served?.close();
  }
}

async function runResolved(
  checks: readonly Check[],
  resolved: ResolvedOptions,
  origins: SiteOrigins | undefined,
  events: RunEvents,
): Promise<ContractReport> {
  // Which check sent a request: each runs in a scope of its own, since its requests go out from deep inside it
  // and several checks run at once.
  const running = new AsyncLocalStorage<string>();
  const timeLimit = new TimeLimit(resolved.maxDurationMs);
  const client = new HttpClient({
    token: resolved.token,
    timeoutMs: resolved.timeoutMs,
    concurrency: resolved.concurrency,
    maxResponseBytes: resolved.maxResponseBytes,
    onExchange: (record) => events.exchange(record, running.getStore() ?? null),
    headers: resolved.headers,
    timeLimit,
  });
  // Before anything is sent: a target that is starting is waited for (--wait-for-target); one that never
  // answers is unreachable, and every check is skipped.
  const notReady = await waitForTarget(resolved);
  if (notReady !== undefined) client.unreachable = notReady;
  const behaviour = origins === undefined ? undefined : { origins, model: testSiteModel(origins) };
  const jobs = new JobTracker(resolved.baseUrl);
  const sites = preflightSites(
    checks.filter((check) => notRun(check, resolved, behaviour) === undefined),
    resolved,
    behaviour,
  );
  const { shares, preflight: preflightShare, total } = budgetShares(checks, resolved, preflightCost(sites));
  const begun = performance.now();
  // The run's time limit (--max-duration) counts from here, the preflight included (timeLimit.ts).
  timeLimit.start(begun);
  // Before the suite: can the target use the sites the checks rest on?
  const preflight = await runPreflight({ client, jobs, options: resolved }, sites, new RequestBudget(preflightShare));
  // Told before the checks run, cleaned of the token (an error text the target sent may hold it).
  if (preflight.diagnoses.length > 0) events.diagnoses(preflight.diagnoses);
  const env: Env = {
    options: resolved,
    running: new Set(checks.filter((check) => notRun(check, resolved, behaviour) === undefined).map((check) => check.name)),
    client,
    budget: new RequestBudget(0),
    jobs,
    ...(behaviour === undefined ? {} : { behaviour }),
    preflight,
    endpoints: new MissingEndpoints(),
    events,
    // Beyond the shares: by default what resends and confirmations take; under --max-requests what the shares leave.
    reserve: new Reserve(resolved.maxRequests === undefined ? Infinity : total - preflightShare - shares.reduce((a, b) => a + b, 0)),
    transport: new Transport(),
  };
  const results: CheckResult[] = new Array<CheckResult>(checks.length);
  let next = 0;
  // Each selected check is told as it ends, cleaned of the token like the report.
  const told = { done: 0, total: checks.filter((check) => selected(check, resolved)).length };
  const worker = async () => {
    for (let i = next++; i < checks.length; i = next++) {
      const check = checks[i]!;
      events.checkStarted(check.name);
      results[i] = await running.run(check.name, () => runCheck(check, env, shares[i]!));
      events.checkEnded(results[i]!, selected(check, resolved) ? { done: (told.done += 1), total: told.total } : undefined);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(resolved.concurrency, checks.length) }, worker));
  } finally {
    await cancelLeftovers(env);
    client.close();
  }
  const durationMs = Math.round(performance.now() - begun);
  const all = env.jobs.all;
  const report: ContractReport = {
    target: resolved.baseUrl,
    level: resolved.level,
    versions: [...resolved.versions],
    seed: resolved.seed,
    runs: resolved.runs,
    // By default the budget is what the checks need, and what resends and confirmations took from the reserve.
    maxRequests: total + (resolved.maxRequests === undefined ? env.reserve.given : 0),
    checks: results,
    causes: causesOf(results),
    notImplemented: env.endpoints.list(),
    // The checks of the run's scope it kept from a verdict (as the incomplete section counts them); those above the
    // run's level it kept from running decide nothing.
    diagnoses: preflight.diagnoses.map((d) => ({ ...d, checks: results.filter((r) => r.inScope && r.detail === blockedDetail(d)).length })),
    requests: client.sent,
    durationMs,
    requestsPerSecond: durationMs > 0 ? Math.round((client.sent / durationMs) * 1000 * 10) / 10 : 0,
    // Unreachable only when it never answered: a target lost mid-run leaves the checks after it skipped, and
    // the failures found before still decide (deviations found), else the run is incomplete.
    unreachable: client.unreachable !== undefined && client.answered === 0,
    ...(client.unreachable === undefined ? {} : { unreachableReason: client.unreachable }),
    jobs: {
      started: all.length,
      cancelled: all.filter((j) => j.state === 'cancelled' || j.state === 'completed').length,
      notCancelled: all.filter((j) => j.state === 'notCancelled').map((j) => `${j.version} ${j.kind} ${JSON.stringify(j.id)}`),
      ...(env.transport.mayHaveStarted.length === 0 ? {} : { mayHaveStarted: env.transport.mayHaveStarted }),
    },
    transport: { lost: client.lost, retried: env.transport.retried, inconclusive: env.transport.inconclusive },
  };
  return redact(report, runRedaction(resolved));
}
