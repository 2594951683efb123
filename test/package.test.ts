/**
 * The package as it is published: `npm pack` (which builds dist/ through the `prepare` script), installed
 * from the tarball into a scratch project outside the repository, and used from there the way a consumer
 * would, through the `exports` map only:
 *
 *   - what is shipped: every target of the exports map, the bin, the LICENSE, the manifest's links and
 *     engines, and nothing that is not needed (no tests, no generator, no HTML docs);
 *   - three consumer projects in it, each its own package.json: a TypeScript ES module project compiled by
 *     tsc under `module: nodenext` and run; a TypeScript project for a bundler (`moduleResolution: bundler`),
 *     type-checked, bundled with esbuild and run; a plain CommonJS project that `require()`s the package
 *     (Node >= 20.19 loads ES modules with require) and decides every conformance vector with it;
 *   - a plain ES module run with `node`: the API (`crawlspec`), the TypeBox definitions (`crawlspec/typebox`),
 *     a precompiled validator, a JSON Schema and an OpenAPI document, the reference server and the contract
 *     kit run against it; paths outside the exports map are refused;
 *   - a TypeScript file type-checked with this repository's `tsc` under `moduleResolution` node16 and bundler:
 *     validators narrow to the generated types, the TypeBox definitions infer them, the kit's types resolve;
 *   - a bundler (esbuild) drops the validators and the API that are not imported (`sideEffects`, named exports
 *     only, tsc's modules through the `module` condition);
 *   - `@arethetypeswrong/cli` on the tarball, with the flags of `npm run check:package`.
 *
 * The install is offline (the dependencies come from the npm cache `npm ci` filled), falling back to
 * `--prefer-offline`. Packing and installing happen once, in `beforeAll`; the rest reads the scratch project.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, packAndInstall, ROOT, sh, sizeOf, targets } from './support/packageTools.js';


/**
 * Everything shipped must stay below this (about 7 MB unpacked since every schema element names its source and
 * the rule cases of issue 14 joined the vectors, 8.6 MB since issue 21's kit: preflight, baselines, transport,
 * record and replay, the report's schema), 14 MB since the HTML pages ship (issue 26: 5.3 MB, Redoc inlined in each),
 * 16.8 MB since issues 40 and 41 (the proxy's verdicts and bounds, selector limits, PDF readers in child processes,
 * the kit's causes: 16.41 MB before them, 16.80 MB after, sources, builds and source maps), 17.13 MB since issue 44
 * (the reference of the interface, 0.23 MB, and a linked source line on every element of the docs pages), 18.34 MB
 * with issues 42 to 44 together (the service of 2026's definitions and vectors, spec coverage, known deviations, the
 * config schema, check-traffic: 1.2 MB more).
 */
const MAX_UNPACKED_BYTES = 18.5 * 1024 * 1024;

interface Manifest {
  readonly license: string;
  readonly exports: Record<string, unknown>;
  readonly bin: Record<string, string>;
  readonly scripts: Record<string, string>;
}

let work: string;
let project: string;
let tarball: string;
/** The installed package: node_modules/crawlspec of the scratch project. */
let installed: string;

beforeAll(async () => {
  ({ work, project, tarball, installed } = await packAndInstall());
}, 240_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});


describe('the packed package', () => {
  it('ships every target of the exports map and the bin, and nothing it does not need', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as Manifest;
    for (const [subpath, value] of Object.entries(manifest.exports)) {
      for (const target of targets(value)) {
        if (target.includes('*')) {
          const [dir, pattern] = [target.slice(0, target.lastIndexOf('/')), target.slice(target.lastIndexOf('/') + 1)];
          const [prefix, suffix] = pattern.split('*') as [string, string];
          const matches = readdirSync(join(installed, dir), { recursive: true })
            .map(String)
            .filter((f) => f.startsWith(prefix) && f.endsWith(suffix));
          expect(matches.length, `${subpath} → ${target}`).toBeGreaterThan(0);
        } else {
          expect(existsSync(join(installed, target)), `${subpath} → ${target}`).toBe(true);
        }
      }
    }
    for (const bin of Object.values(manifest.bin)) expect(existsSync(join(installed, bin)), bin).toBe(true);
    // The license it declares, and where it lives.
    expect(await readFile(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The crawlspec authors\n/);
    expect(manifest).toMatchObject({
      license: 'MIT',
      homepage: 'https://github.com/crawlspec/crawlspec#readme',
      repository: { type: 'git', url: 'git+https://github.com/crawlspec/crawlspec.git' },
      bugs: { url: 'https://github.com/crawlspec/crawlspec/issues' },
      // require() of an ES module, which the package is, needs Node 20.19.
      engines: { node: '>=20.19' },
    });
    // The vectors are shipped and exported.
    expect(manifest.exports['./vectors/*']).toBe('./generated/vectors/*');
    // So are the HTML documentation pages, and `crawlspec docs` makes a publisher's page of one from the installed package.
    expect(manifest.exports['./docs/*.html']).toBe('./generated/docs/*.html');
    for (const version of ['v1', 'v2']) expect(existsSync(join(installed, 'generated', 'docs', `${version}.html`)), version).toBe(true);
    const docs = await sh(
      join(project, 'node_modules', '.bin', 'crawlspec'),
      ['docs', '--version', 'v1', '--title', 'Acme Crawl API', '--server-url', 'https://api.acme.example', '-o', 'api.html'],
      project,
      30_000,
    );
    expect(docs.stdout).toContain('wrote api.html: "Acme Crawl API (v1)", server https://api.acme.example');
    expect(await readFile(join(project, 'api.html'), 'utf8')).toContain('<title>Acme Crawl API (v1)</title>');
    for (const absent of ['test', 'scripts/emit', 'dist/scripts/emit', 'dist/scripts/generate.js', 'dist/test']) {
      expect(existsSync(join(installed, absent)), absent).toBe(false);
    }
    expect(sizeOf(installed)).toBeLessThan(MAX_UNPACKED_BYTES);

    const { stdout } = await sh(join(project, 'node_modules', '.bin', 'crawlspec'), ['validate', '--list'], project, 30_000);
    expect(stdout.split('\n')).toContain('v2/CrawlRequest');
  });

  it('ships every module the bin and the exports map load, the ones loaded on demand (`import()`) included', async () => {
    // esbuild resolves every import of a bundle, `import('...')` of a literal too, and fails naming each it cannot
    // find: `crawlspec proxy` loaded dist/scripts/proxy/ on demand, which was not shipped, and failed so only when run.
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as Manifest;
    const entries = [...Object.values(manifest.bin), ...Object.values(manifest.exports).flatMap(targets)]
      .filter((target) => target.endsWith('.js') && !target.includes('*'))
      .map((target) => join(installed, target));
    expect(entries.length).toBeGreaterThan(5);
    const bundled = await build({
      entryPoints: [...new Set(entries)],
      absWorkingDir: installed,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outdir: 'bundle',
      write: false,
      logLevel: 'silent',
    }).catch((error: { errors?: { text: string; location: { file: string } | null }[] }) => error);
    const unresolved = 'errors' in bundled ? (bundled.errors ?? []).map((e) => `${e.location?.file ?? '?'}: ${e.text}`) : [];
    expect(unresolved).toEqual([]);
  });

  it('runs from an ES module: the API, TypeBox definitions, validators, JSON documents, server and kit', async () => {
    const script = `
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Value } from '@sinclair/typebox/value';
import { validate, partitionBatch, validationErrorBody, schemaNames } from 'crawlspec';
import * as typebox from 'crawlspec/typebox';
// The TypeBox definitions and what needs them are at crawlspec/typebox (the main entry loads no TypeBox).
import { withDefaults, migrateToV2, v2 } from 'crawlspec/typebox';
import * as api from 'crawlspec';
// What a scrape must return, and its judge, at crawlspec/scrape (a server validating requests does not load them).
import { scrapeExpectation, judgeScrapeRecord } from 'crawlspec/scrape';
import { CrawlRequest } from 'crawlspec/validators/v2';
import { CrawlRequest as CrawlRequestAllErrors } from 'crawlspec/validators/v2/all-errors';
import * as v1Validators from 'crawlspec/validators/v1';
import { runContract } from 'crawlspec/contract';
import { createReferenceApp } from 'crawlspec/server';
import { listen } from 'crawlspec/server/http';

const require = createRequire(import.meta.url);
const openapi = require('crawlspec/openapi/v2.json');
const schema = require('crawlspec/schemas/v2/CrawlRequest.json');
const refused = [];
for (const specifier of ['crawlspec/generated/validators/v2.js', 'crawlspec/dist/schemas/validate.js', 'crawlspec/types/v2']) {
  await import(specifier).then(() => refused.push(specifier + ': imported'), (e) => refused.push(e.code));
}

const body = { url: 'https://example.com', limit: 'ten' };
const result = validate('v2/CrawlRequest', body);
assert.equal(result.valid, false);

const app = createReferenceApp({ auth: { token: 'secret' }, publicUrl: () => server.url });
const server = await listen(app);
let report;
try {
  report = await runContract({ baseUrl: server.url, token: 'secret', versions: ['v2'], seed: 7, runs: 1, maxRequests: 60, concurrency: 4, siteUrl: 'https://example.com', onlyNoJob: true });
} finally {
  await server.close();
  app.close();
}

console.log(JSON.stringify({
  valid: validate('v2/CrawlRequest', { url: 'https://example.com' }).valid,
  error: validationErrorBody('v2', result.errors).details.map((d) => d.path.join('.')),
  names: schemaNames().length,
  limit: withDefaults('v2/CrawlRequest', { url: 'https://example.com' }).limit,
  migrated: migrateToV2({ url: 'https://example.com', ignoreSitemap: true }).request,
  batch: partitionBatch('v2', { urls: ['https://example.com', 'not a url'] }).outcome,
  typeboxIsApi: typebox.v2 === v2 && typebox.validate === validate,
  scrape: [typeof scrapeExpectation, typeof judgeScrapeRecord, 'scrapeExpectation' in api],
  typeboxCheck: [Value.Check(v2.CrawlRequest, { url: 'https://example.com' }), Value.Check(v2.CrawlRequest, body)],
  validator: [CrawlRequest({ url: 'https://example.com' }), CrawlRequest(body), CrawlRequest.errors?.[0]?.instancePath],
  v1Validators: Object.keys(v1Validators).includes('BatchScrapeRequest'),
  errorsListed: [CrawlRequest, CrawlRequestAllErrors].map((check) => (check({ ...body, delay: 'x' }), check.errors.length)),
  openapi: [openapi.openapi, Object.keys(openapi.paths).includes('/v2/crawl')],
  schemaId: schema.$id,
  refused,
  contract: { checks: report.checks.length, failed: report.checks.filter((c) => c.status === 'fail').map((c) => c.name), unreachable: report.unreachable },
}));
`;
    await writeFile(join(project, 'smoke.mjs'), script);
    const { stdout, stderr } = await sh(process.execPath, ['smoke.mjs'], project, 60_000);
    expect(stderr).toBe('');
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      valid: true,
      error: ['limit'],
      limit: 10000,
      migrated: { url: 'https://example.com', sitemap: 'skip' },
      batch: 'accepted',
      typeboxIsApi: true,
      scrape: ['function', 'function', false],
      typeboxCheck: [true, false],
      validator: [true, false, '/limit'],
      v1Validators: true,
      // The validators stop at the first problem; the all-errors ones list both.
      errorsListed: [1, 2],
      openapi: ['3.1.0', true],
      schemaId: 'https://crawlspec.dev/schemas/v2/CrawlRequest.json',
      // Only the exports map is public; `types/*` are types only.
      refused: ['ERR_PACKAGE_PATH_NOT_EXPORTED', 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'ERR_PACKAGE_PATH_NOT_EXPORTED'],
      contract: { failed: [], unreachable: false },
    });
    expect(out['names']).toBeGreaterThan(50);
    expect((out['contract'] as { checks: number }).checks).toBeGreaterThan(5);
  });

  it('type-checks from TypeScript under moduleResolution node16 and bundler', async () => {
    const consumer = `
import { validate, type SchemaName, type ValidationResult, type Validator } from 'crawlspec';
import { v1, withDefaults, v2, definitions } from 'crawlspec/typebox';
import { CrawlRequest } from 'crawlspec/validators/v2';
import { CrawlRequest as CrawlRequestAllErrors } from 'crawlspec/validators/v2/all-errors';
import type { CrawlRequest as CrawlRequestBody } from 'crawlspec/types/v2';
import type { BatchScrapeRequest as V1BatchBody } from 'crawlspec/types/v1';
import type { runContract, ContractReport } from 'crawlspec/contract';
import type { createReferenceApp } from 'crawlspec/server';
import type { listen } from 'crawlspec/server/http';
import type { Static } from '@sinclair/typebox';

declare const body: unknown;
if (CrawlRequest(body)) {
  // The validator narrows to the generated type.
  const request: CrawlRequestBody = body;
  const url: string = request.url;
  void url;
}
const check: Validator<CrawlRequestBody> = CrawlRequest;
const checkAll: Validator<CrawlRequestBody> = CrawlRequestAllErrors;
const result: ValidationResult = validate('v2/CrawlRequest', body);
// @ts-expect-error not a schema name (SchemaName is derived from the validators, through #generated/*)
validate('v3/CrawlRequest', body);
const name: SchemaName = 'v1/BatchScrapeRequest';
// The TypeBox definitions infer the same shape as the generated types.
const fromTypeBox: Static<typeof v2.CrawlRequest> = { url: 'https://example.com' };
const asGenerated: CrawlRequestBody = fromTypeBox;
// @ts-expect-error url is a string
const wrong: CrawlRequestBody = { url: 1 };
const batch: V1BatchBody = { urls: ['https://example.com'] };
const v1Request: Static<typeof v1.CrawlRequest> = { url: 'https://example.com' };
const report: ContractReport extends Awaited<ReturnType<typeof runContract>> ? true : false = true;
type Server = ReturnType<typeof createReferenceApp> & Awaited<ReturnType<typeof listen>>;
export type { Server };
export { check, checkAll, result, name, asGenerated, wrong, batch, v1Request, report, withDefaults, definitions };
`;
    await writeFile(join(project, 'consumer.ts'), consumer);
    const options = { target: 'ES2022', lib: ['ES2023'], strict: true, noEmit: true, skipLibCheck: true, types: [] };
    const configs = {
      'tsconfig.node16.json': { ...options, module: 'node16', moduleResolution: 'node16' },
      'tsconfig.bundler.json': { ...options, module: 'esnext', moduleResolution: 'bundler' },
    };
    await Promise.all(
      Object.entries(configs).map(async ([file, compilerOptions]) => {
        await writeFile(join(project, file), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
        const checked = await sh(BIN('tsc'), ['-p', file], project, 90_000).catch((e: { stdout?: string }) => ({
          stdout: e.stdout ?? String(e),
        }));
        expect(checked.stdout, file).toBe('');
      }),
    );
  });

  /** A TypeScript module of a consumer: the API, a validator narrowing to its type, the JSON documents and vectors. */
  const TYPESCRIPT_APP = `
import { validate, type SchemaName, type ValidationResult } from 'crawlspec';
import { withDefaults } from 'crawlspec/typebox';
import { CrawlRequest } from 'crawlspec/validators/v2';
import type { CrawlRequest as CrawlRequestBody } from 'crawlspec/types/v2';
import schema from 'crawlspec/schemas/v2/CrawlRequest.json' with { type: 'json' };
import vectors from 'crawlspec/vectors/v2/Action.json' with { type: 'json' };
import rules from 'crawlspec/vectors/rules.json' with { type: 'json' };

const body: unknown = JSON.parse('{"url":"https://example.com","limit":10}');
let url = '';
if (CrawlRequest(body)) {
  const request: CrawlRequestBody = body; // narrowed to the generated type
  url = request.url;
}
const refused: ValidationResult = validate('v2/CrawlRequest', { url: 'ftp://example.com' });
let agree = 0;
let total = 0;
for (const group of vectors)
  for (const test of group.tests) {
    total += 1;
    if (validate(group.schema as SchemaName, test.data).valid === test.valid) agree += 1;
  }
console.log(JSON.stringify({
  url,
  refused: refused.valid ? [] : refused.errors.map((issue) => issue.path),
  limit: (withDefaults('v2/CrawlRequest', { url: 'https://example.com' }) as CrawlRequestBody).limit,
  schemaId: schema.$id,
  vectors: { agree, total },
  rules: rules.rules.length > 0,
}));
`;
  const APP_OUTPUT = {
    url: 'https://example.com',
    refused: ['$.url'],
    limit: 10000,
    schemaId: 'https://crawlspec.dev/schemas/v2/CrawlRequest.json',
    rules: true,
  };

  /** A consumer project in `name/` of the scratch project (whose node_modules it resolves from). */
  async function consumer(name: string, manifest: object, files: Record<string, string>): Promise<string> {
    const dir = join(project, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...manifest }));
    for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
    return dir;
  }

  const tsc = (dir: string) =>
    sh(BIN('tsc'), ['-p', 'tsconfig.json'], dir, 90_000).catch((e: { stdout?: string; stderr?: string }) => ({
      stdout: `${e.stdout ?? ''}${e.stderr ?? String(e)}`,
      stderr: '',
    }));

  const checkOutput = (stdout: string) => {
    const out = JSON.parse(stdout) as typeof APP_OUTPUT & { vectors: { agree: number; total: number } };
    expect(out).toMatchObject(APP_OUTPUT);
    expect(out.vectors.total).toBeGreaterThan(10);
    expect(out.vectors.agree).toBe(out.vectors.total);
  };

  /** What the two TypeScript consumers share; each adds its module system. */
  const CONSUMER_OPTIONS = {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    strict: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    types: [],
  };

  it('a TypeScript ES module project (module nodenext): compiles with tsc and runs', async () => {
    const compilerOptions = { ...CONSUMER_OPTIONS, module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out' };
    const dir = await consumer(
      'nodenext',
      { type: 'module' },
      {
        'tsconfig.json': JSON.stringify({ compilerOptions, files: ['app.ts'] }),
        'app.ts': TYPESCRIPT_APP,
      },
    );
    expect((await tsc(dir)).stdout).toBe('');
    const { stdout, stderr } = await sh(process.execPath, [join('out', 'app.js')], dir, 60_000);
    expect(stderr).toBe('');
    checkOutput(stdout);
  });

  it('a TypeScript project for a bundler (moduleResolution bundler): type-checks, bundles with esbuild and runs', async () => {
    const compilerOptions = { ...CONSUMER_OPTIONS, module: 'esnext', moduleResolution: 'bundler', noEmit: true };
    const dir = await consumer(
      'bundler',
      { type: 'module' },
      {
        'tsconfig.json': JSON.stringify({ compilerOptions, files: ['app.ts'] }),
        'app.ts': TYPESCRIPT_APP,
      },
    );
    expect((await tsc(dir)).stdout).toBe('');
    await build({
      entryPoints: [join(dir, 'app.ts')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: join(dir, 'app.bundle.mjs'),
      logLevel: 'silent',
    });
    const { stdout, stderr } = await sh(process.execPath, ['app.bundle.mjs'], dir, 60_000);
    expect(stderr).toBe('');
    checkOutput(stdout);
  });

  it('a plain CommonJS project: require() of the API, validators, kit and JSON documents; every vector decided alike', async () => {
    const script = `
'use strict';
const assert = require('node:assert/strict');
const { readdirSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { validate, schemaNames } = require('crawlspec');
const { CrawlRequest } = require('crawlspec/validators/v2');
const { runContract } = require('crawlspec/contract');
const { createReferenceApp } = require('crawlspec/server');
const openapi = require('crawlspec/openapi/v2.json');
const rules = require('crawlspec/vectors/rules.json');
const vectorsDir = dirname(require.resolve('crawlspec/vectors/rules.json'));
let agree = 0;
let total = 0;
const disagree = [];
for (const version of ['v1', 'v2'])
  for (const file of readdirSync(join(vectorsDir, version))) {
    for (const group of require('crawlspec/vectors/' + version + '/' + file))
      for (const test of group.tests) {
        total += 1;
        if (validate(group.schema, test.data).valid === test.valid) agree += 1;
        else disagree.push(test.description);
      }
  }
assert.equal(typeof runContract, 'function');
assert.equal(typeof createReferenceApp, 'function');
console.log(JSON.stringify({
  module: typeof module, // CommonJS
  names: schemaNames().includes('v2/CrawlRequest'),
  validator: [CrawlRequest({ url: 'https://example.com' }), CrawlRequest({ url: 1 })],
  openapi: openapi.openapi,
  rules: rules.rules.length > 0,
  vectors: { agree, total, disagree: disagree.slice(0, 5) },
}));
`;
    const dir = await consumer('commonjs', {}, { 'index.js': script });
    const { stdout, stderr } = await sh(process.execPath, ['index.js'], dir, 60_000);
    expect(stderr).toBe('');
    const out = JSON.parse(stdout) as { vectors: { agree: number; total: number; disagree: string[] } };
    expect(out).toMatchObject({ module: 'object', names: true, validator: [true, false], openapi: '3.1.0', rules: true });
    expect(out.vectors.disagree).toEqual([]);
    expect(out.vectors.total).toBeGreaterThan(1000);
  });

  it('lets a bundler drop the validators and the API it does not import', async () => {
    const bundleSize = async (contents: string) => {
      const result = await build({
        stdin: { contents, resolveDir: project, sourcefile: 'entry.mjs' },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'node',
        write: false,
        logLevel: 'silent',
      });
      return result.outputFiles[0]!.contents.byteLength;
    };
    const [one, all, api, constant] = await Promise.all([
      bundleSize(`import { CrawlRequest } from 'crawlspec/validators/v2'; console.log(CrawlRequest({}));`),
      bundleSize(`import * as all from 'crawlspec/validators/v2'; console.log(all);`),
      bundleSize(`import { validate } from 'crawlspec'; console.log(validate('v2/Url', 'x'));`),
      bundleSize(`import { VERSIONS } from 'crawlspec'; console.log(VERSIONS);`),
    ]);
    expect(api).toBeGreaterThan(all); // the API bundles (its #generated/* imports resolve) and needs every validator
    expect(one, `one validator: ${one} bytes, every validator: ${all} bytes`).toBeLessThan(all / 2);
    // A bundler takes tsc's modules (the `module` condition), not the chunks Node loads, so it keeps only what is used.
    expect(constant, `VERSIONS alone: ${constant} bytes`).toBeLessThan(1024);
  });

  it('passes @arethetypeswrong/cli (npm run check:package)', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest;
    const script = manifest.scripts['check:package'];
    expect(script).toMatch(/^attw --pack \. /);
    // The script's flags, on the tarball packed above rather than packing again. They ignore what is inherent
    // to an ESM-only package with an exports map: the `node10` resolution (no `exports`, no `#imports`, so
    // subpaths and the dist .d.ts files' `#generated/*` imports do not resolve) and `require()` from CommonJS
    // under node16 (an ES module). `--profile esm-only` ignores those two resolution kinds, but attw's exit
    // code still counts an internal resolution error under node10 (it records `resolutionOption`, not
    // `resolutionKind`), hence `--ignore-rules internal-resolution-error`; the JSON report is checked here
    // so that no problem of any kind under node16 (from ESM) or bundler slips through that flag.
    const flags = script!.replace(/^attw --pack \. /, '').split(/\s+/);
    const { stdout } = await sh(BIN('attw'), [tarball, ...flags, '--format', 'json'], project, 90_000);
    const report = JSON.parse(stdout) as {
      analysis: { problems: { kind: string; resolutionKind?: string; resolutionOption?: string; entrypoint?: string }[] };
    };
    const esm = report.analysis.problems.filter((p) => {
      const resolution = p.resolutionKind ?? p.resolutionOption;
      return resolution !== 'node10' && resolution !== 'node16-cjs';
    });
    expect(esm).toEqual([]);
  });
});
