/**
 * The jobs of the scrape-behaviour checks (scrapeJobs.ts), shared between them: a job several checks rest on is
 * started once, followed to its end, read whole and cancelled, and each check judges in its records what it
 * proves. All of a run's jobs go at once, so the run waits for the slowest of them once, not for each check.
 *
 * Who pays: the first of these checks the run selects (in the order they run) sends every job the selected
 * checks rest on, from its share of the budget, which is sized for it (`scrapeCost`); the others wait for the
 * jobs they rest on and send nothing. A check whose jobs were not sent (that check's share used up) sends them
 * itself, from its own share, which is sized for its own jobs. A check run a second time (`--confirm`) starts
 * its jobs again, at new addresses of the counter page.
 *
 * What a job shows every check resting on it: a refusal of its start (a request the interface accepts), and
 * what could not be judged (an answer that depends on the account, a job that did not end). What its status
 * pages break besides is for the status and pagination checks to say.
 */
import { randomBytes } from 'node:crypto';
import type { Version } from '../../../../schemas/registry.js';
import { newOutcome, runAttempt } from '../../engine/check.js';
import type { Undecided } from '../../spec/checkInfo.js';
import { Attempt, type AttemptOf, type Env } from '../../engine/context.js';
import { acceptance } from '../../engine/expect.js';
import { sleep, type Exchange } from '../../wire/http.js';
import { matchesGlob, type ResolvedOptions } from '../../engine/options.js';
import type { Failure } from '../../report/report.js';
import { readRecords } from '../crawl/behaviour.js';
import { POLLS } from '../../engine/polls.js';
import { waitForEnd } from '../../engine/follow.js';
import { completedOf, lostRecords, readTargetErrors, type TargetError } from '../lifecycle/jobAccount.js';
import { bodyOf, jobCost, jobTitle, leastDurationMs, scrapeJobs, type Addresses, type JobSpec } from './scrapeJobs.js';

/** What became of a job. */
export interface JobResult {
  readonly spec: JobSpec;
  readonly body: Record<string, unknown>;
  /** The start answer, when one came. */
  readonly start?: Exchange;
  /** When the start was sent (performance.now()). */
  readonly startedAt: number;
  /** Every record of the job, once it ended and was read whole; otherwise why not (`unread`). */
  readonly records?: readonly unknown[];
  readonly unread?: string;
  /**
   * What the target says of the pages it failed (its errors endpoint), read when the job delivered fewer records
   * than pages asked or than it counts (jobAccount.ts); undefined when not read or not readable.
   */
  readonly errors?: readonly TargetError[];
  /** Failures of its start. */
  readonly failures: readonly Failure[];
  /** What could not be judged, at its level. */
  readonly undecided: readonly Undecided[];
  /** Why it was not sent (the payer's share used up, the target gone). */
  readonly skipped?: string;
  readonly requests: number;
}

/** A scrape-behaviour check as the plan knows it: its name, and the keys of the jobs it rests on per version. */
export interface PlanCheck {
  readonly name: string;
  readonly version: Version;
  /** The job keys it rests on; undefined when it cannot run here (a page a copy lacks). */
  jobs(copy: boolean): readonly string[] | undefined;
}

/** The jobs of one run (or of one check's second run), started once each. */
export class ScrapePlan {
  readonly #results = new Map<string, Promise<JobResult>>();
  /** The checks that took their jobs from this plan. */
  readonly consumers = new Set<string>();

  constructor(readonly at: Addresses) {}

  /**
   * Starts each of `specs` not started yet (or not sent for want of budget) in `env`, on behalf of `of`; each
   * waits for the jobs it comes after. Returns every one of `specs` (by `version key`), and those it sent, for
   * the caller to count and wait for.
   */
  start(specs: readonly JobSpec[], env: Env, of: AttemptOf): { results: Map<string, Promise<JobResult>>; sent: Promise<JobResult>[] } {
    const sent: Promise<JobResult>[] = [];
    const results = new Map<string, Promise<JobResult>>();
    const key = (spec: JobSpec) => `${spec.version} ${spec.key}`;
    const byKey = new Map(specs.map((s) => [key(s), s]));
    const launch = (spec: JobSpec): Promise<JobResult> => {
      const known = this.#results.get(key(spec));
      if (known !== undefined) return known;
      const after = spec.after.map((k) => {
        const dep = byKey.get(`${spec.version} ${k}`);
        return dep === undefined ? this.#results.get(`${spec.version} ${k}`) : launch(dep);
      });
      const result = runJob(spec, this.at, env, of, after);
      this.#results.set(key(spec), result);
      sent.push(result);
      // A job not sent for want of budget may be sent by the next check that needs it, from its own share.
      void result.then((r) => {
        if (r.skipped !== undefined && this.#results.get(key(spec)) === result) this.#results.delete(key(spec));
      });
      return result;
    };
    for (const spec of specs) results.set(key(spec), launch(spec));
    return { results, sent };
  }
}

/** One plan per run: keyed by the run's job tracker. */
const PLANS = new WeakMap<object, ScrapePlan>();

/**
 * The run's plan for `check`: the shared one, or (for a check run again, `--confirm`) a plan of its own, whose
 * jobs it sends again (`shared` false).
 */
export function planFor(env: Env, check: string): { plan: ScrapePlan; shared: boolean } {
  const site = env.behaviour;
  if (site === undefined) throw new Error('a scrape-behaviour check runs only with a behaviour site');
  // A word unique to the plan: the counter page's addresses are new to any cache the target has.
  const fresh = () => new ScrapePlan({ origins: site.origins, run: randomBytes(6).toString('hex') });
  let plan = PLANS.get(env.jobs);
  if (plan === undefined) PLANS.set(env.jobs, (plan = fresh()));
  const shared = !plan.consumers.has(check);
  if (!shared) plan = fresh();
  plan.consumers.add(check);
  return { plan, shared };
}

/** Whether `--only` and `--skip` select `name`. */
const selected = (name: string, options: ResolvedOptions) =>
  (options.only === undefined || options.only.some((p) => matchesGlob(p, name))) && !options.skip.some((p) => matchesGlob(p, name));

/** The jobs `checks` rest on in this run (the selected ones that can run), each with the jobs it comes after, once each. */
export function jobsOf(checks: readonly PlanCheck[], options: ResolvedOptions): JobSpec[] {
  const copy = options.behaviourSite !== undefined;
  const specs = new Map<string, JobSpec>();
  for (const check of checks)
    if (options.versions.includes(check.version) && selected(check.name, options))
      for (const spec of ownJobs(check, copy)) specs.set(`${spec.version} ${spec.key}`, spec);
  return [...specs.values()];
}

/** The first of `checks` that runs in this run: the one that sends every job (it runs first). */
export const payerOf = (checks: readonly PlanCheck[], options: ResolvedOptions): string | undefined =>
  checks.find(
    (c) => options.versions.includes(c.version) && selected(c.name, options) && c.jobs(options.behaviourSite !== undefined) !== undefined,
  )?.name;

/** The requests a check needs at most: the payer every job of the run, another its own. */
export function scrapeCost(check: PlanCheck, checks: readonly PlanCheck[], options: ResolvedOptions): number {
  const specs = payerOf(checks, options) === check.name ? jobsOf(checks, options) : ownJobs(check, options.behaviourSite !== undefined);
  return specs.reduce((sum, spec) => sum + jobCost(spec, POLLS), 0);
}

/** The jobs `check` rests on, each with the jobs they come after. */
export function ownJobs(check: PlanCheck, copy: boolean): JobSpec[] {
  const all = scrapeJobs(check.version, copy);
  const keys = new Set<string>();
  const add = (key: string) => {
    if (keys.has(key)) return;
    for (const before of all.get(key)!.after) add(before);
    keys.add(key);
  };
  for (const key of check.jobs(copy) ?? []) add(key);
  return [...keys].map((k) => all.get(k)!);
}

/** Starts `spec` once the jobs it comes after have ended; follows it to its end, reads it whole, cancels it. */
async function runJob(
  spec: JobSpec,
  at: Addresses,
  env: Env,
  of: AttemptOf,
  after: readonly (Promise<JobResult> | undefined)[],
): Promise<JobResult> {
  const body = bodyOf(spec, at);
  const title = jobTitle(spec);
  const attempt = new Attempt(of, env);
  const outcome = newOutcome();
  const failures: Failure[] = [];
  let start: Exchange | undefined;
  let startedAt = 0;
  let records: unknown[] | undefined;
  let errors: readonly TargetError[] | undefined;
  let unread: string | undefined = `${title} was not started`;
  await runAttempt(
    attempt,
    async (a) => {
      const before = await Promise.all(after);
      const notRead = before.find((r) => r === undefined || r.records === undefined);
      if (notRead !== undefined) {
        unread = `${title} was not sent: the scrapes it comes after (${notRead === undefined ? 'not started' : jobTitle(notRead.spec)}) could not be read`;
        return;
      }
      startedAt = performance.now();
      const failed = a.failures.length;
      const section = spec.kind === 'crawl' ? 'interface §2.1' : 'interface §2.2';
      const started = await a.start(spec.version, spec.kind, { json: body }, acceptance('interface', title, section)).finally(() => {
        failures.push(...a.failures.slice(failed));
      });
      start = started.exchange;
      unread = `${title} was not accepted`;
      if (!started.job || !started.ok) return;
      const statusUrl = a.statusUrl(started.job, started.exchange);
      unread = `${title} has no address to read its status from`;
      if (statusUrl === undefined) return;
      // A job with the slow page cannot end before the page answered: no point in asking sooner.
      const least = leastDurationMs(spec);
      if (least > 0) await sleep(least);
      unread = `the status of ${title} could not be read`;
      const ended = await waitForEnd(a, statusUrl);
      if (ended === undefined) return;
      unread = `${title} did not end in time`;
      if (ended.status === 'scraping') return;
      unread = `the records of ${title} could not all be read`;
      records = await readRecords(a, ended);
      if (records === undefined) return;
      unread = undefined;
      // The job's own account: a record it counts and does not deliver is lost; why it failed a page, in its words.
      const completed = completedOf(ended);
      if (completed !== undefined && completed > records.length) {
        a.fail(lostRecords('scrape', title, ended, records.length, started.exchange));
        failures.push(...a.failures.slice(-1));
      }
      if (records.length < spec.pages.length || (completed !== undefined && completed > records.length))
        errors = await readTargetErrors(a, statusUrl);
    },
    outcome,
  );
  return {
    spec,
    body,
    ...(start === undefined ? {} : { start }),
    startedAt,
    ...(records === undefined ? { unread: unread ?? `${title} was not read` } : { records }),
    ...(errors === undefined ? {} : { errors }),
    failures,
    undecided: outcome.undecided,
    ...(outcome.skipped === undefined ? {} : { skipped: outcome.skipped }),
    requests: outcome.requests,
  };
}
