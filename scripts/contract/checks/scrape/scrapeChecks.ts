/**
 * The scrape-behaviour checks (`vN.scrape.behaviour.<option>`, scrapeBehaviour.ts) and the batch-behaviour
 * checks (`vN.batch.behaviour.*`, batchBehaviour.ts) as kit checks: each is a list of cases, a page of a job and
 * the constraints of the scrape oracle it takes there, judged on the records of the jobs it rests on (shared
 * between the checks: scrapePlan.ts). An option check judges each case through a batch scrape and through a
 * crawl of the page alone; a batch check through the batch only.
 *
 * A check resting on a page a static copy of the test site cannot hold (COPY_MISSING: the headers page, the
 * counter, the slow page, the page gone, the TLS page) is not run against a copy (`--behaviour-site`): skipped,
 * saying which page and why, and how to run it.
 */
import { createHash } from 'node:crypto';
import type { ScrapeConstraint } from '../../../../schemas/scrape/constraint.js';
import type { Version } from '../../../../schemas/registry.js';
import { COPY_MISSING, SCRAPE_PATHS, type ScrapePageName } from '../../../site/scrapePages.js';
import { newOutcome, runAttempt, type Check } from '../../engine/check.js';
import type { Citation } from '../../spec/checkInfo.js';
import { Attempt, type Env } from '../../engine/context.js';
import type { Level } from '../../spec/levels.js';
import { Skip } from '../../engine/signals.js';
import type { JobKind } from '../../spec/operations.js';
import { BATCH_CHECKS } from './batchBehaviour.js';
import { OPTION_CHECKS } from './scrapeBehaviour.js';
import {
  batchKey,
  crawlKey,
  pageAvailable,
  pairJobs,
  scrapeJobs,
  type Addresses,
  type PageRef,
  type PairName,
  type SetName,
} from './scrapeJobs.js';
import { judgeCase, takeJob } from './scrapeJudging.js';
import { jobsOf, ownJobs, payerOf, planFor, scrapeCost, type JobResult, type PlanCheck } from './scrapePlan.js';

/** A case: a page of a set's jobs, or a counter pair (its second scrape, after its first), and what it judges there. */
export interface CaseDef {
  readonly set?: SetName;
  readonly page?: ScrapePageName;
  readonly pair?: PairName;
  readonly select: (c: ScrapeConstraint) => boolean;
}

export interface ScrapeCheckDef {
  /** `onlyMainContent`: the check is `vN.scrape.behaviour.onlyMainContent` (`vN.batch.behaviour.<name>` for a batch check). */
  readonly name: string;
  /** `batch`: judged on batches only, named `vN.batch.behaviour.*`. */
  readonly kind?: 'batch';
  readonly versions?: readonly Version[];
  readonly level: Level;
  readonly proves: (version: Version) => string;
  readonly cites: (version: Version) => Citation[];
  readonly cases: (version: Version) => readonly CaseDef[];
  /** Jobs it rests on besides its cases', judged by `judge`. */
  readonly jobs?: (version: Version) => readonly string[];
  readonly judge?: (attempt: Attempt, results: ReadonlyMap<string, JobResult>, at: Addresses) => void;
}

/** A case through one kind of job: the job's key, the page, and the job that scraped its address first. */
interface Expanded {
  readonly job: string;
  readonly earlier?: string;
  /** The defaults job of the same kind with the same page, for a job that changes options (scrapeJudging.ts). */
  readonly control?: string;
  readonly page: PageRef;
  readonly select: (c: ScrapeConstraint) => boolean;
}

function expand(def: ScrapeCheckDef, version: Version): Expanded[] {
  const kinds: JobKind[] = def.kind === 'batch' ? ['batch'] : ['batch', 'crawl'];
  return def.cases(version).flatMap((c) =>
    kinds.map((kind): Expanded => {
      if (c.pair !== undefined) {
        const { first, second } = pairJobs(version, c.pair, kind);
        return { job: second, earlier: first, page: { name: 'counter', query: `case=${version}-${c.pair}-${kind}` }, select: c.select };
      }
      const page = c.page!;
      const key = (set: SetName) => (kind === 'batch' ? batchKey(set) : crawlKey(set, page));
      const control =
        c.set !== 'defaults' &&
        scrapeJobs(version, false)
          .get(key('defaults'))
          ?.pages.some((p) => p.name === page);
      return { job: key(c.set!), ...(control === true ? { control: key('defaults') } : {}), page: { name: page }, select: c.select };
    }),
  );
}

const checkName = (def: ScrapeCheckDef, version: Version) =>
  `${version}.${def.kind === 'batch' ? 'batch' : 'scrape'}.behaviour.${def.name}`;

/** Every definition with its versions, in the order the checks run (per version: the options, then the batch). */
const DEFS: readonly ScrapeCheckDef[] = [...OPTION_CHECKS, ...BATCH_CHECKS];
const defsOf = (version: Version) => DEFS.filter((d) => (d.versions ?? ['v1', 'v2']).includes(version));

/** The pages a check rests on. */
const pagesOf = (def: ScrapeCheckDef, version: Version): ScrapePageName[] => {
  const served = scrapeJobs(version, false);
  return [
    ...new Set([
      ...expand(def, version).map((e) => e.page.name),
      ...(def.jobs?.(version) ?? []).flatMap((k) => served.get(k)!.pages.map((p) => p.name)),
    ]),
  ];
};

function planCheck(def: ScrapeCheckDef, version: Version): PlanCheck {
  const cases = expand(def, version);
  const pages = pagesOf(def, version);
  return {
    name: checkName(def, version),
    version,
    jobs: (copy) =>
      pages.every((p) => pageAvailable(p, copy))
        ? [
            ...new Set([
              ...cases.flatMap((c) => [
                ...(c.earlier === undefined ? [] : [c.earlier]),
                ...(c.control === undefined ? [] : [c.control]),
                c.job,
              ]),
              ...(def.jobs?.(version) ?? []),
            ]),
          ]
        : undefined,
  };
}

/** Every check of the plan, both versions, in the order they run (run.ts puts them together, per version). */
const ALL: readonly PlanCheck[] = (['v1', 'v2'] as const).flatMap((v) => defsOf(v).map((d) => planCheck(d, v)));

/** Why a check is not run against a copy of the test site: the pages it rests on that a copy lacks. */
function notOnCopy(def: ScrapeCheckDef, version: Version): string {
  const missing = COPY_MISSING.filter((m) => pagesOf(def, version).some((p) => SCRAPE_PATHS[p] === m.path));
  return `it rests on ${missing.map((m) => `${m.path} (${m.why})`).join(' and ')}, which a static copy of the test site cannot hold: run it against a target that can reach the site the kit serves (on loopback, or with --site-host NAME), or leave it out with --skip '${checkName(def, version).replace(/^v\d+/, 'v*')}'`;
}

function scrapeCheck(def: ScrapeCheckDef, version: Version): Check {
  const plan = planCheck(def, version);
  const cases = expand(def, version);
  const info = {
    name: plan.name,
    level: def.level,
    proves: def.proves(version),
    cites: def.cites(version),
    startsJob: true,
    needsAuth: false,
    behaviour: 'site' as const,
  };
  // What the check sends, whatever the run's addresses: the same for every run (the digest of its requests).
  const digest = JSON.stringify(cases.map((c) => [c.job, c.earlier ?? null, c.page.name, c.page.query ?? null]));
  return {
    ...info,
    cost: (options) => scrapeCost(plan, ALL, options),
    async run(env: Env) {
      const outcome = newOutcome();
      const attempt = new Attempt(info, env);
      let sent: Promise<JobResult>[] = [];
      await runAttempt(
        attempt,
        async (a) => {
          const copy = a.options.behaviourSite !== undefined;
          if (plan.jobs(copy) === undefined) throw new Skip(notOnCopy(def, version));
          const { plan: jobs, shared } = planFor(env, plan.name);
          // The first check of the run sends every job the run's checks rest on, all at once.
          const own = ownJobs(plan, copy);
          const payer = shared && payerOf(ALL, a.options) === plan.name;
          const started = jobs.start(payer ? jobsOf(ALL, a.options) : own, env, info);
          sent = started.sent;
          const results = new Map<string, JobResult>();
          for (const spec of own) results.set(spec.key, await started.results.get(`${version} ${spec.key}`)!);
          const taken = new Set<JobResult>();
          for (const spec of own) takeJob(a, results.get(spec.key)!, taken);
          for (const c of cases)
            judgeCase(
              a,
              {
                result: results.get(c.job)!,
                page: c.page,
                select: c.select,
                ...(c.earlier === undefined ? {} : { earlier: results.get(c.earlier)! }),
                ...(c.control === undefined ? {} : { control: results.get(c.control)! }),
              },
              jobs.at,
              def.name,
            );
          def.judge?.(a, results, jobs.at);
        },
        outcome,
      );
      // The jobs this check sent are its requests; it ends when they have all ended (and been cancelled).
      for (const result of await Promise.all(sent)) outcome.requests += result.requests;
      outcome.failures.push(...attempt.failures);
      outcome.digest = createHash('sha256').update(digest);
      return outcome;
    },
  };
}

/** The scrape-behaviour and batch-behaviour checks of `version`, in the order they run. */
export function scrapeChecks(version: Version): Check[] {
  return defsOf(version).map((def) => scrapeCheck(def, version));
}
