/**
 * The CI files docs/ci.md shows (examples/ci/), checked offline:
 *   - the GitHub Actions workflow against SchemaStore's github-workflow schema, as @action-validator/core ships
 *     it (compiled into its WebAssembly validator: maintained, releases through 2025, used by the
 *     action-validator CLI and pre-commit hook; a devDependency only, GPL-3.0, never shipped);
 *   - the GitLab CI job: no maintained package ships GitLab's schema in a form that runs here (gitlab-ci-local
 *     bundles it, but needs Node 22; gitlab-ci-lint and gitlab-ci-validate ask GitLab's API), so it is read with
 *     `yaml` and held to what the page says it does;
 *   - crawlspec.config.json against the schema the package publishes, and the files the jobs keep are the ones it
 *     writes.
 * What the jobs run is run by test/docsCommands.test.ts (docs/ci.md) and test/serveResolve.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './support/runCli.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const WORKFLOW = read('examples/ci/github-workflow.yml');
const GITLAB = parse(read('examples/ci/gitlab-ci.yml')) as {
  contract: { script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } };
};
const CONFIG = JSON.parse(read('examples/ci/crawlspec.config.json')) as { $schema: string; contract: Record<string, unknown> };
const SCHEMA = JSON.parse(read('generated/config.schema.json')) as { $id: string };

/** The command that starts the reference server in place of the implementation, as docs/reference-server.md shows it. */
const SERVE =
  'npx crawlspec serve --port 3002 --resolve site.example.com=127.0.0.1 --resolve sub.site.example.com=127.0.0.1 --allow-host 127.0.0.1';

describe('examples/ci', () => {
  it('the GitHub Actions workflow is valid against the github-workflow schema', () => {
    expect(validateWorkflow(WORKFLOW).errors).toEqual([]);
    // The validator does tell a broken workflow.
    expect(validateWorkflow(WORKFLOW.replace('runs-on:', 'run-on:')).errors).not.toEqual([]);
  });

  it('the workflow starts the implementation and the kit, keeps the reports whatever the verdict, and gates on the exit status', () => {
    const { jobs } = parse(WORKFLOW) as { jobs: { contract: { steps: { run?: string; if?: string; with?: { path?: string } }[] } } };
    const steps = jobs.contract.steps;
    const runs = steps.map((step) => step.run ?? '').join('\n');
    expect(runs).toContain(`${SERVE} > server.log 2>&1 &`);
    expect(runs).toContain('npx crawlspec contract --markdown reports/summary.md > reports/report.json || status=$?');
    expect(runs).toContain('cat reports/summary.md >> "$GITHUB_STEP_SUMMARY"');
    expect(runs).toMatch(/exit "\$status"\s*$/);
    const keep = steps.find((step) => step.with?.path !== undefined)!;
    expect(keep.if).toBe('always()');
    expect(keep.with!.path).toContain('reports/');
  });

  it('the GitLab CI job does the same', () => {
    const { script, artifacts } = GITLAB.contract;
    expect(script).toContain(`${SERVE} > server.log 2>&1 &`);
    expect(script.at(-1)).toBe('npx crawlspec contract > reports/report.json');
    expect(artifacts.when).toBe('always');
    expect(artifacts.paths).toContain('reports/');
    expect(artifacts.reports.junit).toBe(CONFIG.contract.report);
  });

  it('crawlspec.config.json is valid against the published schema, and writes its reports where the jobs keep them', () => {
    const validate = new Ajv2020({ strict: true }).compile(SCHEMA);
    expect(validate(CONFIG), JSON.stringify(validate.errors)).toBe(true);
    expect(CONFIG.$schema).toBe(SCHEMA.$id);
    for (const option of ['report', 'html', 'record']) expect(CONFIG.contract[option], option).toMatch(/^reports\//);
    expect(CONFIG.contract['site-host']).toBe('site.example.com');
  });
});
