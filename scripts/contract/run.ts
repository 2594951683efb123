/**
 * `runContract(options)`: runs every check against a target and reports. Checks run `concurrency` at a
 * time, in a fixed order (cheap, job-free checks first); requests never exceed `maxRequests` (the checks
 * left when it is reached are skipped); every job a check starts is cancelled, by the check or, failing
 * that, here at the end.
 */
import type { Version } from '../../schemas/registry.js';
import { RequestBudget } from './budget.js';
import { statusOf, type Check } from './check.js';
import { authChecks } from './checks/auth.js';
import { invalidStartChecks, validStartChecks } from './checks/generated.js';
import { invalidUrlChecks } from './checks/invalidUrls.js';
import { malformedJsonCheck } from './checks/json.js';
import { activeCheck, cancelCheck, errorsCheck, statusCheck } from './checks/lifecycle.js';
import { paginationCheck } from './checks/pagination.js';
import { ruleChecks } from './checks/rules.js';
import { undocumentedStatusCheck } from './checks/undocumented.js';
import type { Env } from './context.js';
import { HttpClient } from './http.js';
import { JobTracker } from './jobs.js';
import { resolveOptions, type ContractOptions, type ResolvedOptions } from './options.js';
import type { CheckResult, ContractReport } from './report.js';

export type { ContractOptions } from './options.js';
export { DEFAULT_OPTIONS } from './options.js';
export type { CheckResult, ContractReport, Failure } from './report.js';
export { exitCode, formatJunit, formatText } from './report.js';

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
    ...each(validStartChecks),
    ...each(invalidStartChecks),
  ];
}

/** The names of the checks a run over `versions` reports, in order. */
export const checkNames = (versions: readonly Version[]): string[] => contractChecks(versions).map((c) => c.name);

function skipReason(check: Check, env: Env): string | undefined {
  if (check.needsAuth && env.options.token === undefined) return 'no token (--no-auth)';
  if (check.startsJob && env.options.onlyNoJob) return 'starts a job (onlyNoJob)';
  if (env.client.unreachable !== undefined) return `target unreachable: ${env.client.unreachable}`;
  if (env.budget.exhausted) return `maxRequests (${env.options.maxRequests}) reached`;
  return undefined;
}

async function runCheck(check: Check, env: Env): Promise<CheckResult> {
  const begun = performance.now();
  const reason = skipReason(check, env);
  if (reason !== undefined) return { name: check.name, status: 'skipped', failures: [], detail: reason, requests: 0, durationMs: 0 };
  const outcome = await check.run(env);
  const status = statusOf(outcome);
  const detail = status === 'skipped' ? outcome.skipped : status === 'inconclusive' ? outcome.inconclusive : undefined;
  return {
    name: check.name,
    status,
    failures: outcome.failures,
    ...(detail === undefined ? {} : { detail }),
    requests: outcome.requests,
    durationMs: Math.round(performance.now() - begun),
  };
}

/** Cancels the jobs still open: each with its reserved unit, and once more (budget permitting) if that failed. */
async function cancelLeftovers(env: Env): Promise<void> {
  for (const job of env.jobs.open()) {
    for (let tries = 0; tries < 2 && job.state === 'open'; tries += 1) {
      if (job.cancelAttempts > 0 && tries === 0) continue;
      try {
        const exchange = await env.client.send({ method: 'DELETE', url: env.jobs.address(job) }, job.reservation);
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
  const resolved: ResolvedOptions = resolveOptions(options);
  const budget = new RequestBudget(resolved.maxRequests);
  const client = new HttpClient({ token: resolved.token, timeoutMs: resolved.timeoutMs, concurrency: resolved.concurrency, budget });
  const env: Env = { options: resolved, client, budget, jobs: new JobTracker(resolved.baseUrl) };
  const checks = contractChecks(resolved.versions);
  const results: CheckResult[] = new Array<CheckResult>(checks.length);
  const begun = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < checks.length; i = next++) results[i] = await runCheck(checks[i]!, env);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(resolved.concurrency, checks.length) }, worker));
  } finally {
    await cancelLeftovers(env);
  }
  const durationMs = Math.round(performance.now() - begun);
  const all = env.jobs.all;
  return {
    target: resolved.baseUrl,
    versions: [...resolved.versions],
    seed: resolved.seed,
    runs: resolved.runs,
    maxRequests: resolved.maxRequests,
    checks: results,
    requests: client.sent,
    durationMs,
    requestsPerSecond: durationMs > 0 ? Math.round((client.sent / durationMs) * 1000 * 10) / 10 : 0,
    unreachable: client.unreachable !== undefined,
    ...(client.unreachable === undefined ? {} : { unreachableReason: client.unreachable }),
    jobs: {
      started: all.length,
      cancelled: all.filter((j) => j.state === 'cancelled' || j.state === 'completed').length,
      notCancelled: all.filter((j) => j.state === 'notCancelled').map((j) => `${j.version} ${j.kind} ${j.id}`),
    },
  };
}
