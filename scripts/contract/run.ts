/**
 * `runContract(options)`: runs every check against a target and reports. Checks run `concurrency` at a
 * time, in a fixed order (cheap, job-free checks first). Each check has its own share of the request budget,
 * in proportion to what it needs (by default exactly that), so no check can starve another; a check that
 * uses up its share stops there (skipped). Every job a check starts is cancelled, by the check or, failing
 * that, here at the end. The report is cleaned of the token before it is returned.
 */
import type { Version } from '../../schemas/registry.js';
import { RequestBudget } from './budget.js';
import { statusOf, undecidedAt, type Check, type CheckOutcome } from './check.js';
import { authChecks } from './checks/auth.js';
import { behaviourChecks } from './checks/behaviour.js';
import { fieldChecks } from './checks/fields.js';
import { invalidStartChecks, validStartChecks } from './checks/generated.js';
import { invalidUrlChecks } from './checks/invalidUrls.js';
import { malformedJsonCheck } from './checks/json.js';
import { activeCheck, cancelCheck, errorsCheck, statusCheck } from './checks/lifecycle.js';
import { paginationCheck } from './checks/pagination.js';
import { ruleChecks } from './checks/rules.js';
import { undocumentedStatusCheck } from './checks/undocumented.js';
import type { BehaviourSite, Env } from './context.js';
import { serveSite } from '../site/server.js';
import { TEST_SITE_PROFILE, testSiteModel, type SiteOrigins } from '../site/testSite.js';
import { HttpClient } from './http.js';
import { JobTracker } from './jobs.js';
import { decides, type Level } from './levels.js';
import { matchesGlob, resolveOptions, type ContractOptions, type ResolvedOptions } from './options.js';
import { redact } from './redact.js';
import type { CheckResult, CheckStatus, ContractReport } from './report.js';

export type { ContractOptions, SiteProfile } from './options.js';
export { DEFAULT_OPTIONS, UNKNOWN_SITE } from './options.js';
export type { CheckResult, ContractReport, Failure, Verdict } from './report.js';
export { exitCode, verdict } from './report.js';
export { formatText } from './reportText.js';
export { formatJunit } from './junit.js';
export type { Check, CheckInfo, Citation } from './check.js';

/** Every check of a run over `versions`, in the order they run. */
export function contractChecks(versions: readonly Version[]): Check[] {
  const each = (make: (version: Version) => Check | Check[]) => versions.flatMap(make);
  return [
    ...authChecks(versions),
    malformedJsonCheck(versions),
    ...each(undocumentedStatusCheck),
    ...each(ruleChecks),
    ...each(invalidUrlChecks),
    ...each(statusCheck),
    ...each(paginationCheck),
    ...each(cancelCheck),
    ...each(errorsCheck),
    ...each(activeCheck),
    ...each(fieldChecks),
    ...each(behaviourChecks),
    ...each(validStartChecks),
    ...each(invalidStartChecks),
  ];
}

/** The names of the checks a run over `versions` reports, in order. */
export const checkNames = (versions: readonly Version[]): string[] => contractChecks(versions).map((c) => c.name);

/** Why a check does not run at all in this run, if it does not. */
function notRun(check: Check, options: ResolvedOptions, site?: BehaviourSite): string | undefined {
  if (options.only !== undefined && !options.only.some((pattern) => matchesGlob(pattern, check.name))) return 'not selected (--only)';
  if (check.needsAuth && options.token === undefined) return 'no token (--no-auth)';
  if (check.startsJob && options.onlyNoJob) return 'starts a job (--only-no-job)';
  if (check.behaviour !== undefined && !options.behaviour)
    return 'crawl behaviour is checked on a loopback target, or with --behaviour and a copy of the test site (--behaviour-site)';
  if (check.behaviour === 'subdomain' && (site?.origins ?? options.behaviourSite)?.subdomain === undefined && options.siteHost === undefined)
    return 'the test site has no subdomain: serve it under a host name (--site-host) or give one (--behaviour-subdomain)';
  return undefined;
}

/**
 * Each check's share of the budget: what it needs, or (under a lower `maxRequests`) its part of it in
 * proportion to what it needs; checks that do not run get none.
 */
export function budgetShares(checks: readonly Check[], options: ResolvedOptions): { shares: number[]; total: number } {
  const needs = checks.map((check) => (notRun(check, options) === undefined ? check.cost(options) : 0));
  const need = needs.reduce((a, b) => a + b, 0);
  const total = options.maxRequests ?? need;
  if (total >= need) return { shares: needs, total };
  return { shares: needs.map((n) => Math.floor((n * total) / need)), total };
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
  const reason = notRun(check, env.options, env.behaviour);
  // A check left out by the run's own options (--no-auth, --only-no-job) is out of its scope.
  if (reason !== undefined) return { ...base, inScope: false, status: 'skipped', failures: [], detail: reason };
  const inScope = decides(check.level, level);
  if (env.client.unreachable !== undefined)
    return { ...base, inScope, status: 'skipped', failures: [], detail: `target unreachable: ${env.client.unreachable}` };
  const outcome = await check.run({ ...env, budget: new RequestBudget(share) });
  const failures = outcome.failures.filter((f) => decides(f.level, level));
  const decided = statusOf(failures, outcome, level);
  const inRunScope = inScope || failures.length > 0;
  const status = inRunScope ? decided : informed(decided, outcome, check.level);
  const detail =
    status === 'skipped'
      ? outcome.skipped
      : status === 'inconclusive' || status === 'notJudged'
        ? undecidedAt(outcome, inRunScope ? level : check.level)?.reason
        : undefined;
  const notes = outcome.undecided.filter((u) => !decides(u.level, level)).map((u) => u.reason);
  return {
    ...base,
    inScope: inRunScope,
    status,
    failures,
    differences: outcome.failures.filter((f) => !decides(f.level, level)),
    ...(detail === undefined ? {} : { detail }),
    ...(notes.length === 0 ? {} : { notes }),
    requests: outcome.requests,
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

export async function runContract(options: ContractOptions): Promise<ContractReport> {
  const given: ResolvedOptions = resolveOptions(options);
  // The behaviour checks crawl the kit's test site: a copy given, or the site served here for the run. A
  // served site is also the default site of the other checks' jobs: its pages and its failing page are known.
  const served = given.behaviour && given.behaviourSite === undefined ? await serveSite(given.siteHost === undefined ? {} : { host: given.siteHost }) : undefined;
  try {
    const resolved =
      served !== undefined && options.siteUrl === undefined ? resolveOptions({ ...options, siteUrl: served.origins.main, site: TEST_SITE_PROFILE }) : given;
    return await runResolved(resolved, resolved.behaviourSite ?? served?.origins);
  } finally {
    await served?.close();
  }
}

async function runResolved(resolved: ResolvedOptions, origins: SiteOrigins | undefined): Promise<ContractReport> {
  const client = new HttpClient({
    token: resolved.token,
    timeoutMs: resolved.timeoutMs,
    concurrency: resolved.concurrency,
    maxResponseBytes: resolved.maxResponseBytes,
  });
  const env: Env = {
    options: resolved,
    client,
    budget: new RequestBudget(0),
    jobs: new JobTracker(resolved.baseUrl),
    ...(origins === undefined ? {} : { behaviour: { origins, model: testSiteModel(origins) } }),
  };
  const checks = contractChecks(resolved.versions);
  const { shares, total } = budgetShares(checks, resolved);
  const results: CheckResult[] = new Array<CheckResult>(checks.length);
  const begun = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < checks.length; i = next++) results[i] = await runCheck(checks[i]!, env, shares[i]!);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(resolved.concurrency, checks.length) }, worker));
  } finally {
    await cancelLeftovers(env);
  }
  const durationMs = Math.round(performance.now() - begun);
  const all = env.jobs.all;
  const report: ContractReport = {
    target: resolved.baseUrl,
    level: resolved.level,
    versions: [...resolved.versions],
    seed: resolved.seed,
    runs: resolved.runs,
    maxRequests: total,
    checks: results,
    notImplemented: [],
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
    },
  };
  return redact(report, resolved.token);
}
