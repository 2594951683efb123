/**
 * The contract kit run against deliberately broken variants of the reference server (test/support/brokenServers.ts),
 * each with exactly one defect, and what each run must show: a run at the defect's level must find it (exit 1),
 * under the checks whose meaning the defect breaks (each with a runnable curl line, what came back and what was
 * expected), and under no other check. A defect of the service's alone must not fail a run at interface level: it
 * is reported there as a difference from the service, and the run is conformant (that run is narrowed to the
 * checks the defect shows in: `atInterfaceChecks`).
 *
 * `describeVariants` registers those tests for a list of variants; the test files that call it
 * (test/brokenServers.test.ts, brokenRequests.test.ts, brokenBehaviour.test.ts) split the variants so that vitest
 * runs them on separate workers: every run of a file shares its process, so one file would use one core.
 *
 * Each run is independent (its own app on its own port), so a file's runs go side by side in `beforeAll`, at most
 * RUNS_AT_ONCE at a time; each variant's assertions are then a test of their own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceApp } from '../../scripts/server/app.js';
import { exitCode, runContract, type ContractReport } from '../../scripts/contract/index.js';
import type { Level } from '../../scripts/contract/spec/levels.js';
import { BROKEN_SERVER_TOKEN, type BrokenServer } from './brokenServers.js';
import { kitTarget } from './kitTarget.js';
import { pooled } from './pooled.js';

const SEED = 7;

/**
 * The checks a run is narrowed to: the crawl-behaviour checks (a crawler variant), the scrape- and batch-behaviour
 * checks (a scrape variant), or every other check (a variant whose defect is not about what a crawl or a scrape
 * returns: crawling the test site for it would only repeat the correct run).
 */
export type Scope = 'behaviour' | 'scrape' | 'notBehaviour';
export type ScopedVariant = BrokenServer & { readonly scope: Scope };

/**
 * Generated requests per generated check in a variant's run: the smallest budget that catches every variant (with
 * one, types.dropped, enums.dropped and extensions.refused go uncaught at this seed). The kit draws them with
 * fast-check from the run's seed, so they are the first of the default budget's (10): a defect caught here is
 * caught by a run with the default budget and the same seed. The correct server's runs, which must raise no false
 * alarm, keep the default (test/contractReference.test.ts).
 */
export const VARIANT_RUNS = 2;

/**
 * Runs at once, at most, in one file. Some 60 whole runs all at once starved the in-process servers on a shared
 * 2-core machine: a pool bounds what they ask of the machine without changing what each proves.
 */
const RUNS_AT_ONCE = 4;

/**
 * The kit, run once at `level` against `wrap(reference server)`, on the checks of `scope` (or only those of
 * `narrowed`); everything is closed after.
 */
export async function runAgainst(
  wrap: (app: ReferenceApp) => ReferenceApp,
  level: Level,
  scope: Scope,
  narrowed?: readonly string[],
): Promise<ContractReport> {
  // The lifecycle checks need a job still running when the kit cancels it: pages take 100 ms each there. The
  // behaviour checks wait for their jobs to end, and do not depend on how fast pages come: there, none is held back.
  const pageIntervalMs = scope === 'behaviour' || scope === 'scrape' ? 0 : 100;
  const target = await kitTarget({ token: BROKEN_SERVER_TOKEN, wrap, pageIntervalMs });
  try {
    const only =
      narrowed !== undefined
        ? { only: [...narrowed] }
        : scope === 'behaviour'
          ? { only: ['*.crawl.behaviour.*'] }
          : scope === 'scrape'
            ? { only: ['*.scrape.behaviour.*', '*.batch.behaviour.*'] }
            : { behaviour: false };
    // A generous per-request timeout: these runs share a loaded machine, and no variant's defect is a slow answer.
    // Eight checks at once: most of a run is checks waiting (for a job to end, for a webhook delivery that a variant
    // never sends: 30 s), which then overlap; what the file's four runs ask of the machine at once stays bounded.
    // On the 2-core machine test/brokenServers.test.ts took 92 s where four checks at once took 117 s, the same CPU.
    return await runContract(target.options({ seed: SEED, level, timeoutMs: 120_000, runs: VARIANT_RUNS, concurrency: 8, ...only }));
  } finally {
    await target.close();
  }
}

const failingNames = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'fail').map((c) => c.name);

/** One line per check that did not pass, with its first failure: what a failed assertion shows. */
export const summary = (report: ContractReport): string =>
  report.checks
    .filter((c) => c.status === 'fail' || c.status === 'skipped' || c.status === 'inconclusive')
    .map((c) => `${c.name}: ${c.status} ${c.failures[0]?.message ?? c.detail ?? ''}`)
    .join('\n');

/**
 * The checks a service variant's run at interface level is narrowed to: those its defect shows in (and `also`), and
 * json.malformed, a check of interface level that starts one job, so that the run decides something (a run in
 * which no check of its level ran is incomplete). That no other check fails against the variant is shown by its
 * run at service level, which holds the interface's expectations too; that the correct server raises no false
 * alarm at interface level, by test/contractReference.test.ts.
 */
export const atInterfaceChecks = (
  variant: Pick<BrokenServer, 'expectedFailingChecks' | 'mayAlsoFail'>,
  also: readonly string[] = [],
): string[] => [...new Set([...variant.expectedFailingChecks, ...(variant.mayAlsoFail ?? []), ...also, 'json.malformed'])];

/** The tests of `variants`: each run at its level on its scope, and each service variant once more at interface level. */
export function describeVariants(variants: readonly ScopedVariant[]): void {
  const serviceOnly = variants.filter((v) => v.level === 'service');
  const reports = new Map<string, ContractReport>();
  const atInterface = new Map<string, ContractReport>();

  beforeAll(async () => {
    const all = await pooled(
      [
        ...variants.map((variant) => () => runAgainst(variant.wrap, variant.level, variant.scope)),
        ...serviceOnly.map((variant) => () => runAgainst(variant.wrap, 'interface', variant.scope, atInterfaceChecks(variant))),
      ],
      RUNS_AT_ONCE,
    );
    variants.forEach((variant, i) => reports.set(variant.name, all[i]!));
    serviceOnly.forEach((variant, i) => atInterface.set(variant.name, all[variants.length + i]!));
    // The ceiling is a safety net, not a timing.
  }, 900_000);

  describe('each broken variant is caught at its level, precisely', () => {
    it.each(variants.map((variant) => [variant.name, variant] as const))('%s', (_name, variant: BrokenServer) => {
      const report = reports.get(variant.name)!;
      const shown = `${variant.defect}\nfailing checks:\n${summary(report)}`;
      expect(report.unreachable, shown).toBe(false);
      expect(report.level).toBe(variant.level);
      expect(exitCode(report), shown).toBe(1);

      const byName = new Map(report.checks.map((c) => [c.name, c]));
      for (const name of variant.expectedFailingChecks) {
        const check = byName.get(name);
        expect(check?.status, `${name} should fail\n${shown}`).toBe('fail');
        const evidence = check!.failures.filter(
          (f) =>
            f.check === name &&
            typeof f.request === 'string' &&
            /^curl -sS /.test(f.request) &&
            f.got !== undefined &&
            f.got.status !== null &&
            f.got.body.length > 0 &&
            f.expected.length > 0,
        );
        expect(evidence.length, `${name}: a failure with a curl line, what came back and what was expected\n${shown}`).toBeGreaterThan(0);
        // A crawl-behaviour check draws its crawls (the HTML report): a page it lists as missing or extra is marked so there.
        if (name.includes('.crawl.behaviour.')) {
          const pages = (check!.crawls ?? []).flatMap((graph) => graph.pages);
          const strays = (check!.crawls ?? []).reduce((n, graph) => n + graph.strayCount, 0);
          expect(pages.length, `${name}: its crawls as graphs of the test site`).toBeGreaterThan(0);
          if (check!.failures.some((f) => / page\(s\) not returned, though the crawl reaches them/.test(f.message)))
            expect(pages.filter((p) => p.problem === 'missing').length, `${name}: the missing pages marked in its graph`).toBeGreaterThan(
              0,
            );
          if (check!.failures.some((f) => / is returned, but /.test(f.message)))
            expect(pages.filter((p) => p.problem === 'extra').length, `${name}: the extra pages marked in its graph`).toBeGreaterThan(0);
          if (check!.failures.some((f) => / is no page of the site/.test(f.message)))
            expect(strays, `${name}: the strays counted`).toBeGreaterThan(0);
        }
      }

      const allowed = new Set([...variant.expectedFailingChecks, ...(variant.mayAlsoFail ?? [])]);
      expect(
        failingNames(report).filter((name) => !allowed.has(name)),
        `checks that failed although the defect is not theirs\n${shown}`,
      ).toEqual([]);
      expect(report.jobs.notCancelled, shown).toEqual([]);
    });
  });

  if (serviceOnly.length > 0)
    describe('a defect of the service alone does not fail a run at interface level', () => {
      it.each(serviceOnly.map((variant) => [variant.name, variant] as const))('%s', (_name, variant: BrokenServer) => {
        const report = atInterface.get(variant.name)!;
        expect(failingNames(report), summary(report)).toEqual([]);
        expect(exitCode(report), summary(report)).toBe(0);
        const differing = new Set(report.checks.filter((c) => c.differences.length > 0).map((c) => c.name));
        for (const name of variant.expectedFailingChecks) expect(differing, `${name} reports the difference`).toContain(name);
      });
    });
}
