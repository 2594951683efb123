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
    ns: Record<'parse' | 'validator' | 'typebox' | 'fastPath' | 'validate', number>;
    validateOverParse: number;
    validatorOverParse: number;
    typeboxOverParse: number;
    fastPathOverParse: number;
  }[];
  overall: { validateOverParse: number; validatorOverParse: number; typeboxOverParse: number; fastPathOverParse: number };
  mixedStream: {
    bodies: number;
    drawn: number;
    passes: number;
    warmPasses: number;
    firstPassOverParse: number;
    parseMs: number;
    validateMs: number;
    validateOverParse: number;
    tail: { name: string; bytes: number; ns: { parse: number; validate: number }; validateOverParse: number }[];
    deopts: { passes: number; total: number; fastPath: number; top: { name: string; count: number; fastPath: boolean }[] };
  };
  importMs: { v1: number; v2: number; api: number };
  bundleBytes: { validate: { bytes: number; gzipBytes: number } };
  generateMs: number | null;
  targets: {
    mixedStream: {
      validateOverParse: number;
      target: number;
      verdict: string;
      worstBody: string;
      worstBodyOverParse: number;
      worstTarget: number;
      worstVerdict: string;
    };
    typicalV2Crawl: { body: string; validateOverParse: number; target: number; verdict: string };
    importValidatorsMs: { slowest: number; target: number; verdict: string };
    overallValidateOverParse: { validateOverParse: number; target: number; verdict: string };
    importApiMs: { ms: number; target: number; verdict: string };
    validateBundleBytes: { bytes: number; target: number; verdict: string };
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
      expect(body.fastPathOverParse).toBeCloseTo(body.ns.fastPath / body.ns.parse, 6);
    }
    const total = (key: 'parse' | 'validate') => report.bodies.reduce((sum, b) => sum + b.ns[key], 0);
    expect(report.overall.validateOverParse).toBeCloseTo(total('validate') / total('parse'), 6);
    expect(report.targets.overallValidateOverParse.validateOverParse).toBe(report.overall.validateOverParse);

    const typical = report.bodies.find((b) => b.name === report.targets.typicalV2Crawl.body);
    expect(typical?.schema).toBe('v2/CrawlRequest');
    expect(report.targets.typicalV2Crawl.validateOverParse).toBe(typical?.validateOverParse);
    expect(report.targets.typicalV2Crawl.verdict).toMatch(/^(met|missed by \d+(\.\d)?×)$/);
    expect(positive(report.importMs.v1) && positive(report.importMs.v2)).toBe(true);
    expect(report.targets.importValidatorsMs.slowest).toBe(Math.max(report.importMs.v1, report.importMs.v2));
    // The main entry and the browser bundle of validate, measured in the same run.
    expect(positive(report.importMs.api)).toBe(true);
    expect(report.targets.importApiMs.ms).toBe(report.importMs.api);
    const { bytes, gzipBytes } = report.bundleBytes.validate;
    expect(positive(gzipBytes) && gzipBytes < bytes).toBe(true);
    expect(report.targets.validateBundleBytes.bytes).toBe(bytes);
    for (const target of Object.values(report.targets)) expect(target.verdict).toMatch(/^(met|missed by \d+(\.\d)?×)$/);
    expect(report.generateMs).toBeNull(); // --quick skips it

    // The mixed stream: the corpus and at least 500 bodies drawn from the definitions; each corpus body alone after it.
    const { mixedStream } = report;
    expect(mixedStream.drawn).toBeGreaterThanOrEqual(500);
    expect(mixedStream.bodies).toBe(report.bodies.length + mixedStream.drawn);
    expect(
      [mixedStream.parseMs, mixedStream.validateMs, mixedStream.validateOverParse, mixedStream.firstPassOverParse].every(positive),
    ).toBe(true);
    expect(mixedStream.warmPasses).toBeGreaterThan(0);
    expect(report.targets.mixedStream.validateOverParse).toBe(mixedStream.validateOverParse);
    expect(mixedStream.tail.map((t) => t.name)).toEqual(report.bodies.map((b) => b.name));
    for (const t of mixedStream.tail) expect(t.validateOverParse).toBeCloseTo(t.ns.validate / t.ns.parse, 6);
    const worst = Math.max(...mixedStream.tail.map((t) => t.validateOverParse));
    expect(report.targets.mixedStream.worstBodyOverParse).toBe(worst);
    expect(mixedStream.tail.find((t) => t.name === report.targets.mixedStream.worstBody)?.validateOverParse).toBe(worst);
    expect(report.targets.mixedStream.worstVerdict).toMatch(/^(met|missed by \d+(\.\d)?×)$/);
    // Deoptimisations counted by function in a child run, the fast path's among them.
    const { deopts } = mixedStream;
    expect(deopts.passes).toBeGreaterThan(0);
    expect(deopts.fastPath).toBeLessThanOrEqual(deopts.total);
    expect(deopts.top.map((d) => d.count)).toEqual([...deopts.top.map((d) => d.count)].sort((a, b) => b - a));
    expect(deopts.top.filter((d) => d.fastPath).reduce((n, d) => n + d.count, 0)).toBeLessThanOrEqual(deopts.fastPath);
  }, 120_000);
});
