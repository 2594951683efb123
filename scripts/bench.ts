/**
 * `npm run bench`: what validation costs, next to what parsing the same body costs, measured in one run.
 *
 * For each body of the corpus (bench/corpus.ts): nanoseconds per call of `JSON.parse` of its text, of the
 * generated standalone validator, of TypeBox's compiled checker (the single source, compiled), of the generated
 * fast path (the schema's yes or no, which `validate()` asks first) and of `validate()` (schema and the rules
 * written as code: what a server runs); the ratio validate/parse per body and over the whole corpus (total
 * validate time over total parse time). Then the time to import each version's validators module and the
 * package's main entry (the build in dist/), the size of `validate` bundled for a browser, and the time
 * `npm run generate` takes. And the mixed stream (bench/mixedStream.ts): the corpus and 520 bodies drawn from the
 * definitions, interleaved, as a server sees them; each corpus body alone after it; and how often V8 deoptimised
 * the validation path over it (bench/deopts.ts). Prints figures; it asserts nothing about time (machines are shared
 * and noisy): the targets are reported as met or missed, by how much.
 *
 *   npm run bench                 the table
 *   npm run bench -- --json       the same figures as JSON
 *   npm run bench -- --quick      fewer and shorter rounds, fewer import runs, no generate timing (a smoke run)
 */
import { cpus, arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { lookup } from '../schemas/registry.js';
import { registerTypeBoxFormats } from '../schemas/typeboxFormats.js';
import * as v1FastPath from '#generated/fast/v1.js';
import * as v2FastPath from '#generated/fast/v2.js';
import { validate, validatorFor } from '../schemas/validate.js';
import { validateBundle } from './bench/bundle.js';
import { corpus, type BenchBody } from './bench/corpus.js';
import { deoptCounts } from './bench/deopts.js';
import { generatedBodies, interleaved, measureStream, measureTail } from './bench/mixedStream.js';
import { nsPerCall, type MeasureOptions } from './bench/measure.js';
import { generateMs, importMs } from './bench/startup.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The targets (issues: speed and hardening; the fast path and a light main entry). */
const TARGET_VALIDATE_OVER_PARSE = 0.25;
const TARGET_IMPORT_MS = 20;
const TARGET_API_IMPORT_MS = 30;
const TARGET_BUNDLE_BYTES = 250 * 1024;
/** On the mixed stream (issue 25): the whole stream, and the worst body alone after it. */
const TARGET_MIXED_OVER_PARSE = 0.3;
const TARGET_WORST_AFTER_MIX_OVER_PARSE = 1.0;

const fastPaths = { v1: v1FastPath, v2: v2FastPath } as unknown as Record<string, Record<string, (data: unknown) => boolean>>;

interface BodyFigures {
  readonly name: string;
  readonly schema: string;
  readonly bytes: number;
  readonly ns: {
    readonly parse: number;
    readonly validator: number;
    readonly typebox: number;
    readonly fastPath: number;
    readonly validate: number;
  };
  readonly validateOverParse: number;
  readonly validatorOverParse: number;
  readonly typeboxOverParse: number;
  readonly fastPathOverParse: number;
}

async function measureBody(body: BenchBody, options: MeasureOptions): Promise<BodyFigures> {
  const value: unknown = JSON.parse(body.text);
  const validator = validatorFor(body.schema);
  const typebox = TypeCompiler.Compile(lookup(body.schema)!);
  if (!typebox.Check(value)) throw new Error(`bench corpus: TypeBox's checker refuses "${body.name}"`);
  const [version, definition] = body.schema.split('/') as [string, string];
  const fastPath = fastPaths[version]![definition]!;
  const ns = await nsPerCall(
    {
      parse: () => JSON.parse(body.text),
      validator: () => validator(value),
      typebox: () => typebox.Check(value),
      fastPath: () => fastPath(value),
      validate: () => validate(body.schema, value),
    },
    options,
  );
  return {
    name: body.name,
    schema: body.schema,
    bytes: Buffer.byteLength(body.text),
    ns,
    validateOverParse: ns.validate / ns.parse,
    validatorOverParse: ns.validator / ns.parse,
    typeboxOverParse: ns.typebox / ns.parse,
    fastPathOverParse: ns.fastPath / ns.parse,
  };
}

const sum = (figures: readonly BodyFigures[], key: keyof BodyFigures['ns']) => figures.reduce((total, f) => total + f.ns[key], 0);

function verdict(value: number, target: number): string {
  return value <= target ? 'met' : `missed by ${(value / target).toFixed(1)}×`;
}

async function main(argv: string[]): Promise<number> {
  let json: boolean;
  let quick: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean', default: false }, quick: { type: 'boolean', default: false } },
    });
    json = values.json;
    quick = values.quick;
  } catch (error) {
    console.error(`bench: ${(error as Error).message}\nusage: bench [--json] [--quick]`);
    return 2;
  }
  registerTypeBoxFormats();
  const options: MeasureOptions = quick ? { rounds: 1, cpuTimeMs: 2, batchSamples: 64 } : { rounds: 5, cpuTimeMs: 40 };
  const bodies = await corpus();
  const figures: BodyFigures[] = [];
  for (const body of bodies) figures.push(await measureBody(body, options));
  const typical = figures[bodies.findIndex((b) => b.typical)]!;
  // What a server sees: the corpus and bodies drawn from the definitions, interleaved; then each corpus body alone.
  const drawn = generatedBodies();
  const stream = interleaved([...bodies, ...drawn]);
  const mixed = measureStream(stream, drawn.length, quick ? 3 : 21, quick ? 2 : 60);
  const tail = await measureTail(bodies, quick ? options : { rounds: 3, cpuTimeMs: 20 });
  const worst = tail.reduce((a, b) => (b.validateOverParse > a.validateOverParse ? b : a));
  const deopts = await deoptCounts(stream, quick ? 3 : 20);
  const importRuns = quick ? 3 : 15;
  const importTimes = {
    v1: importMs(join(ROOT, 'generated', 'validators', 'v1.js'), importRuns),
    v2: importMs(join(ROOT, 'generated', 'validators', 'v2.js'), importRuns),
    api: importMs(join(ROOT, 'dist', 'entries', 'schemas', 'index.js'), importRuns),
  };
  const bundle = { validate: await validateBundle(ROOT) };
  const overallValidateOverParse = sum(figures, 'validate') / sum(figures, 'parse');
  const report = {
    machine: {
      node: process.version,
      platform: `${platform()} ${arch()}`,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
    },
    method: `median of ${options.rounds} interleaved round(s) of mitata measurements, ${options.cpuTimeMs} ms each; imports: median of ${importRuns} fresh processes`,
    bodies: figures,
    overall: {
      validateOverParse: overallValidateOverParse,
      validatorOverParse: sum(figures, 'validator') / sum(figures, 'parse'),
      typeboxOverParse: sum(figures, 'typebox') / sum(figures, 'parse'),
      fastPathOverParse: sum(figures, 'fastPath') / sum(figures, 'parse'),
    },
    mixedStream: { ...mixed, tail, deopts },
    importMs: importTimes,
    bundleBytes: bundle,
    generateMs: quick ? null : generateMs(ROOT),
    targets: {
      mixedStream: {
        validateOverParse: mixed.validateOverParse,
        target: TARGET_MIXED_OVER_PARSE,
        verdict: verdict(mixed.validateOverParse, TARGET_MIXED_OVER_PARSE),
        worstBody: worst.name,
        worstBodyOverParse: worst.validateOverParse,
        worstTarget: TARGET_WORST_AFTER_MIX_OVER_PARSE,
        worstVerdict: verdict(worst.validateOverParse, TARGET_WORST_AFTER_MIX_OVER_PARSE),
      },
      typicalV2Crawl: {
        body: typical.name,
        validateOverParse: typical.validateOverParse,
        target: TARGET_VALIDATE_OVER_PARSE,
        verdict: verdict(typical.validateOverParse, TARGET_VALIDATE_OVER_PARSE),
      },
      overallValidateOverParse: {
        validateOverParse: overallValidateOverParse,
        target: TARGET_VALIDATE_OVER_PARSE,
        verdict: verdict(overallValidateOverParse, TARGET_VALIDATE_OVER_PARSE),
      },
      importApiMs: { ms: importTimes.api, target: TARGET_API_IMPORT_MS, verdict: verdict(importTimes.api, TARGET_API_IMPORT_MS) },
      validateBundleBytes: {
        bytes: bundle.validate.bytes,
        target: TARGET_BUNDLE_BYTES,
        verdict: verdict(bundle.validate.bytes, TARGET_BUNDLE_BYTES),
      },
      importValidatorsMs: {
        slowest: Math.max(importTimes.v1, importTimes.v2),
        target: TARGET_IMPORT_MS,
        verdict: verdict(Math.max(importTimes.v1, importTimes.v2), TARGET_IMPORT_MS),
      },
    },
  };
  if (json) {
    console.log(JSON.stringify(report, null, 2));
    return 0;
  }
  const { machine } = report;
  console.log(`crawlspec bench: Node ${machine.node}, ${machine.platform}, ${machine.cpu} × ${machine.cores}`);
  console.log(`(${report.method})\n`);
  const { mixedStream } = report.targets;
  console.log(
    `mixed stream: ${mixed.bodies} bodies (${mixed.bodies - mixed.drawn} of the corpus, ${mixed.drawn} drawn from the definitions), interleaved: parse ${mixed.parseMs.toFixed(2)} ms, validate ${mixed.validateMs.toFixed(2)} ms a pass (median of ${mixed.passes}, after ${mixed.warmPasses} passes to settle; the first pass: validate/parse ${mixed.firstPassOverParse.toFixed(2)})`,
  );
  console.log(
    `validate/parse over the mixed stream: ${mixed.validateOverParse.toFixed(2)} (target ≤ ${TARGET_MIXED_OVER_PARSE}: ${mixedStream.verdict})`,
  );
  console.log(
    `worst body alone after the mix: "${worst.name}" ${worst.validateOverParse.toFixed(2)} (target ≤ ${TARGET_WORST_AFTER_MIX_OVER_PARSE}: ${mixedStream.worstVerdict})`,
  );
  console.log(
    `deoptimisations over ${deopts.passes} passes of the stream: ${deopts.total}, ${deopts.fastPath} of the fast path; most: ${deopts.top
      .slice(0, 5)
      .map((d) => `${d.name} ${d.count}${d.fastPath ? ' (fast path)' : ''}`)
      .join(', ')}\n`,
  );
  const rows = [
    ['body', 'bytes', 'parse ns', 'validator ns', 'typebox ns', 'fast path ns', 'validate ns', 'validate/parse'],
    ...figures.map((f) => [
      `${f.name}${f === typical ? ' *' : ''}`,
      String(f.bytes),
      f.ns.parse.toFixed(0),
      f.ns.validator.toFixed(0),
      f.ns.typebox.toFixed(0),
      f.ns.fastPath.toFixed(0),
      f.ns.validate.toFixed(0),
      f.validateOverParse.toFixed(2),
    ]),
    ['overall (corpus totals)', '', '', '', '', '', '', report.overall.validateOverParse.toFixed(2)],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  const { typicalV2Crawl, overallValidateOverParse: overall, importApiMs, validateBundleBytes, importValidatorsMs } = report.targets;
  console.log(
    `\n* validate/parse of "${typicalV2Crawl.body}": ${typicalV2Crawl.validateOverParse.toFixed(2)} (target ≤ ${TARGET_VALIDATE_OVER_PARSE}: ${typicalV2Crawl.verdict})`,
  );
  console.log(
    `validate/parse over the corpus: ${overall.validateOverParse.toFixed(2)} (target ≤ ${TARGET_VALIDATE_OVER_PARSE}: ${overall.verdict})`,
  );
  console.log(
    `import crawlspec (dist/entries/schemas/index.js): ${importTimes.api.toFixed(1)} ms (target ≤ ${TARGET_API_IMPORT_MS} ms: ${importApiMs.verdict})`,
  );
  console.log(
    `validate bundled for a browser (esbuild, minified): ${(bundle.validate.bytes / 1024).toFixed(0)} KB, ${(bundle.validate.gzipBytes / 1024).toFixed(0)} KB gzipped (target ≤ ${TARGET_BUNDLE_BYTES / 1024} KB: ${validateBundleBytes.verdict})`,
  );
  console.log(
    `import generated/validators: v1 ${importTimes.v1.toFixed(1)} ms, v2 ${importTimes.v2.toFixed(1)} ms (target < ${TARGET_IMPORT_MS} ms: ${importValidatorsMs.verdict})`,
  );
  if (report.generateMs !== null) console.log(`npm run generate: ${(report.generateMs / 1000).toFixed(1)} s`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
