/**
 * `npm run bench` works and reports what it promises: one quick run (`--quick --json`), checked for its
 * figures' presence and arithmetic, never for their size (timings are not asserted: machines are noisy).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

interface Report {
  machine: { node: string; cores: number };
  bodies: {
    name: string;
    schema: string;
    bytes: number;
    ns: Record<'parse' | 'validator' | 'typebox' | 'validate', number>;
    validateOverParse: number;
    validatorOverParse: number;
    typeboxOverParse: number;
  }[];
  overall: { validateOverParse: number; validatorOverParse: number; typeboxOverParse: number };
  importMs: { v1: number; v2: number };
  generateMs: number | null;
  targets: {
    typicalV2Crawl: { body: string; validateOverParse: number; target: number; verdict: string };
    importValidatorsMs: { slowest: number; target: number; verdict: string };
  };
}

const positive = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n > 0;

describe('npm run bench', () => {
  it('measures every body of the corpus, both versions and both kinds, SDK bodies included', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--quick', '--json'], { timeout: 110_000 });
    const report = JSON.parse(stdout) as Report;

    expect(report.machine.node).toBe(process.version);
    for (const schema of ['v1/CrawlRequest', 'v1/BatchScrapeRequest', 'v2/CrawlRequest', 'v2/BatchScrapeRequest']) {
      expect(report.bodies.filter((b) => b.schema === schema).length, schema).toBeGreaterThanOrEqual(3);
    }
    expect(report.bodies.filter((b) => b.name.endsWith('(SDK)')).length).toBeGreaterThanOrEqual(4);
    for (const body of report.bodies) {
      expect(Object.values(body.ns).every(positive), body.name).toBe(true);
      expect(body.validateOverParse).toBeCloseTo(body.ns.validate / body.ns.parse, 6);
      expect(body.validatorOverParse).toBeCloseTo(body.ns.validator / body.ns.parse, 6);
      expect(body.typeboxOverParse).toBeCloseTo(body.ns.typebox / body.ns.parse, 6);
    }
    const total = (key: 'parse' | 'validate') => report.bodies.reduce((sum, b) => sum + b.ns[key], 0);
    expect(report.overall.validateOverParse).toBeCloseTo(total('validate') / total('parse'), 6);

    const typical = report.bodies.find((b) => b.name === report.targets.typicalV2Crawl.body);
    expect(typical?.schema).toBe('v2/CrawlRequest');
    expect(report.targets.typicalV2Crawl.validateOverParse).toBe(typical?.validateOverParse);
    expect(report.targets.typicalV2Crawl.verdict).toMatch(/^(met|missed by \d+(\.\d)?×)$/);
    expect(positive(report.importMs.v1) && positive(report.importMs.v2)).toBe(true);
    expect(report.targets.importValidatorsMs.slowest).toBe(Math.max(report.importMs.v1, report.importMs.v2));
    expect(report.generateMs).toBeNull(); // --quick skips it
  }, 120_000);
});
