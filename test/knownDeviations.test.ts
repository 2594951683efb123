/**
 * Known deviations (`--baseline FILE`, issue 43): the kit run in process against the reference server behind
 * variants with known faults (test/support/brokenServers.ts, and one made here), the file written by
 * `--update-baseline` and each later run judged against it, through the command's own glue
 * (scripts/cli/knownDeviations.ts); the signature on its own; a bad file refused by the command (exit 2, one line).
 * Each run is narrowed to the few checks the faults show in (v2 only), so that the file takes seconds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReferenceApp } from '../scripts/server/app.js';
import {
  exitCode,
  formatHtml,
  formatJunit,
  formatMarkdown,
  formatText,
  jsonPrinter,
  knownDeviationsListener,
  runContract,
  summaryPrinter,
  verdict,
  type ContractReport,
  type Failure,
  type RunListener,
} from '../scripts/contract/index.js';
import { knownDeviations } from '../scripts/cli/knownDeviations.js';
import { InputError } from '../scripts/cli/errors.js';
import { parseKnownFile, type KnownDeviationsFile } from '../scripts/contract/known/file.js';
import { causeSignature, failureSignature, operationOf, stable } from '../scripts/contract/known/signature.js';
import { BROKEN_SERVERS, BROKEN_SERVER_TOKEN } from './support/brokenServers.js';
import { around, isObject, jsonObject, pathOf } from './support/appWrap.js';
import { kitTarget } from './support/kitTarget.js';
import { runCli, ROOT } from './support/runCli.js';

const variant = (name: string) => BROKEN_SERVERS.find((v) => v.name === name)!.wrap;
/** Fault A: a v2 crawl with sitemap "only" refused (v2.crawl.start.enumValue). */
const sitemapOnlyRefused = variant('sitemapOnly.refused');
/** Fault B: requests without Authorization served (auth.missing). */
const missingAuthAccepted = variant('auth.missingAccepted');
/** Fault C: a v2 crawl's scrapeOptions.timeout of 300001 taken as 300000 instead of refused (v2.rule.timeout.maximum, on the crawl only). */
const crawlTimeoutAccepted = (app: ReferenceApp): ReferenceApp =>
  around(app, (request, next) => {
    const body = jsonObject(request.body);
    const options = body?.['scrapeOptions'];
    if (request.method !== 'POST' || pathOf(request) !== '/v2/crawl' || !isObject(options) || options['timeout'] !== 300001) return next(request);
    return next({ ...request, body: JSON.stringify({ ...body, scrapeOptions: { ...options, timeout: 300000 } }) });
  });

const ONLY = ['auth.missing', 'v2.crawl.start.enumValue', 'v2.rule.timeout.maximum'];

/** The kit at interface level against the reference server behind `faults`, on ONLY. */
async function run(faults: readonly ((app: ReferenceApp) => ReferenceApp)[], seed: number, listeners: RunListener[] = []): Promise<ContractReport> {
  const target = await kitTarget({ token: BROKEN_SERVER_TOKEN, wrap: (app) => faults.reduce((a, wrap) => wrap(a), app), pageIntervalMs: 0 });
  try {
    return await runContract(target.options({ seed, runs: 2, versions: ['v2'], behaviour: false, timeoutMs: 120_000, only: ONLY }), listeners);
  } finally {
    await target.close();
  }
}

const folder = mkdtempSync(join(tmpdir(), 'crawlspec-known-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const FILE = join(folder, 'known.json');
const readFile = (): KnownDeviationsFile => parseKnownFile(readFileSync(FILE, 'utf8'), FILE);
const judged = async (report: ContractReport, flags: { 'update-baseline'?: boolean; 'baseline-strict'?: boolean } = {}) =>
  (await knownDeviations({ baseline: FILE, ...flags }))!.apply(report);
const names = (entries: readonly { check: string }[]) => entries.map((e) => e.check).sort();

const REPORT_SCHEMA = JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', 'report.schema.json'), 'utf8')) as object;
const FILE_SCHEMA = JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', 'known-deviations.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validReport = ajv.compile(REPORT_SCHEMA);
const validFile = ajv.compile(FILE_SCHEMA);

describe('a target with known faults, judged against its known deviations', () => {
  it('--update-baseline writes one entry per fault; later runs: KNOWN, a new one FAIL, one removed FIXED, an expired one FAIL; another seed and port match', async () => {
    // Two known faults: the file written has two entries, and the run judged against it is known deviations only.
    const first = await judged(await run([sitemapOnlyRefused, missingAuthAccepted], 7), { 'update-baseline': true });
    const file = readFile();
    expect(validFile(JSON.parse(readFileSync(FILE, 'utf8'))), JSON.stringify(validFile.errors)).toBe(true);
    expect(file.$schema).toBe('https://crawlspec.dev/schemas/contract/known-deviations.schema.json');
    expect(names(file.entries)).toEqual(['auth.missing', 'v2.crawl.start.enumValue']);
    expect(file.entries.find((e) => e.check === 'v2.crawl.start.enumValue')?.operation).toBe('POST /v2/crawl');
    expect(verdict(first)).toBe('known deviations only');

    // The next run, with another seed and on another port (a new server): exit 0, 2 KNOWN. Judged as the command
    // does, by the listener that tells the outputs the judged report.
    const printed: string[] = [];
    const relay = knownDeviationsListener(
      async (report) => (await knownDeviations({ baseline: FILE }))!.apply(report),
      [jsonPrinter((json) => printed.push(json)), summaryPrinter((text) => printed.push(text))],
    );
    await run([sitemapOnlyRefused, missingAuthAccepted], 8, [relay]);
    const again = relay.report!;
    const [json, summary] = printed;
    expect(validReport(JSON.parse(json!)), JSON.stringify(validReport.errors)).toBe(true);
    expect(JSON.parse(json!)).toMatchObject({ verdict: 'known deviations only', exitCode: 0, known: { new: [], fixed: [] } });
    expect(summary!.trimEnd().split('\n').pop()).toBe('known deviations only');
    expect(again.known?.new, formatText(again)).toEqual([]);
    expect(names(again.known!.known)).toEqual(['auth.missing', 'v2.crawl.start.enumValue']);
    expect(exitCode(again)).toBe(0);
    expect(verdict(again)).toBe('known deviations only');
    const text = formatText(again);
    expect(text).toMatch(/^known deviations \(.*known\.json\): 2 known, 0 new, 0 expired, 0 fixed, 0 not judged$/m);
    expect(text.trimEnd().split('\n').pop()).toBe('known deviations only');
    // JUnit: the known failures do not fail the suite; HTML: the checks are marked known.
    expect(formatJunit(again)).toMatch(/<testsuites name="crawlspec contract" tests="3" failures="0"/);
    expect(formatHtml(again)).toContain('FAIL (known)');
    expect(formatMarkdown(again)).toMatch(/^## crawlspec contract: known deviations only \(exit 0\)$/m);
    expect(formatMarkdown(again)).toContain('### Known deviations');

    // A third fault: exit 1, 1 FAIL (new), 2 KNOWN.
    const third = await judged(await run([sitemapOnlyRefused, missingAuthAccepted, crawlTimeoutAccepted], 7));
    expect(names(third.known!.new)).toEqual(['v2.rule.timeout.maximum']);
    expect(third.known!.known).toHaveLength(2);
    expect(exitCode(third)).toBe(1);
    expect(formatText(third)).toMatch(/^ {2}FAIL +v2\.rule\.timeout\.maximum \(POST \/v2\/crawl\): .* \(new: not in the file\)$/m);
    expect(formatJunit(third)).toMatch(/tests="3" failures="1"/);

    // One fault removed: 1 FIXED; exit 0, or 1 with --baseline-strict.
    const fewer = await run([missingAuthAccepted], 7);
    const fixed = await judged(fewer);
    expect(names(fixed.known!.fixed)).toEqual(['v2.crawl.start.enumValue']);
    expect(names(fixed.known!.known)).toEqual(['auth.missing']);
    expect(exitCode(fixed)).toBe(0);
    expect(formatText(fixed)).toMatch(/^ {2}FIXED +v2\.crawl\.start\.enumValue .*remove it from the file/m);
    const strict = await judged(fewer, { 'baseline-strict': true });
    expect(verdict(strict)).toBe('known deviations out of date');
    expect(exitCode(strict)).toBe(1);

    // An entry past its expiry fails again, saying when it expired.
    writeFileSync(
      FILE,
      JSON.stringify({ ...file, entries: file.entries.map((e) => (e.check === 'auth.missing' ? { ...e, expires: '2000-01-31', note: 'ticket 12' } : e)) }),
    );
    const expired = await judged(fewer);
    expect(names(expired.known!.expired)).toEqual(['auth.missing']);
    expect(exitCode(expired)).toBe(1);
    expect(formatText(expired)).toMatch(/^ {2}FAIL +auth\.missing .*\(known, but expired on 2000-01-31\)$/m);

    // An update keeps the expiry and the note of an entry still met (it never extends an expiry), and drops the fixed one.
    await judged(fewer, { 'update-baseline': true });
    expect(readFile().entries).toEqual([expect.objectContaining({ check: 'auth.missing', expires: '2000-01-31', note: 'ticket 12' })]);
  }, 300_000);

  it('an entry whose check did not run (--only left it out) is neither known nor fixed', async () => {
    const report = await run([missingAuthAccepted], 7);
    const narrowed = { ...report, checks: report.checks.map((c) => (c.name === 'auth.missing' ? c : { ...c, status: 'skipped' as const, inScope: false })) };
    const file: KnownDeviationsFile = {
      entries: [{ check: 'v2.crawl.start.enumValue', what: 'refused', signature: '0123456789abcdef' }],
    };
    writeFileSync(FILE, JSON.stringify(file));
    const result = await judged(narrowed);
    expect(result.known!.fixed).toEqual([]);
    expect(names(result.known!.unjudged)).toEqual(['v2.crawl.start.enumValue']);
    expect(names(result.known!.new)).toEqual(['auth.missing']);
  }, 120_000);
});

describe('the signature', () => {
  const base: Failure = {
    check: 'v2.crawl.start.invalid.fraction',
    kind: 'status',
    level: 'interface',
    section: 'interface §2.1',
    message: '200: the request was not refused, although the interface refuses it',
    expected: 'refused: a 4xx answer and no job (limit: 2.5 is not an integer: $.limit: must be integer, not number (2.5))',
    request: `curl -sS -X POST 'http://127.0.0.1:34331/v2/crawl' -H 'Content-Type: application/json' --data-raw '{"limit":2.5}'`,
    got: { status: 200, body: '{"success":true,"id":"98107fcc-2863-4f7b-a5ab-6c3988ad990b"}' },
  };
  const target = 'http://127.0.0.1:34331';
  const sign = (f: Failure, at = target) => failureSignature(f, operationOf(f, at));

  it('survives ports, job ids, generated values, seeds, timings and counts', () => {
    const other: Failure = {
      ...base,
      expected: base.expected.replace(/2\.5/g, '7.25'),
      request: base.request!.replace('34331', '40001').replace('2.5', '7.25'),
      got: { status: 200, body: '{"success":true,"id":"0b1e6c3e-1111-4a9e-9a66-6e0e482fd484"}' },
      counterexample: { seed: 99, path: '0:1', shrinks: 4 },
      count: 3,
    };
    expect(sign(other, 'http://127.0.0.1:40001')).toBe(sign(base));
    expect(operationOf(base, target)).toBe('POST /v2/crawl');
    expect(operationOf({ request: `curl -sS 'http://127.0.0.1:34331/v2/crawl/98107fcc-2863-4f7b-a5ab-6c3988ad990b'` }, target)).toBe(
      'GET /v2/crawl/{id}',
    );
    expect(stable('after 1234 ms, 3 pages of http://127.0.0.1:4000/site/a and "xYz" (job 98107fcc-2863-4f7b-a5ab-6c3988ad990b) [interface §2.4]')).toBe(
      'after {n} ms, {n} pages of {origin}/site/a and "{value}" (job {id}) [interface §2.4]',
    );
    expect(causeSignature('POST http://127.0.0.1:1/v2/crawl answers 500')).toBe(causeSignature('POST http://127.0.0.1:2/v2/crawl answers 502'));
  });

  it('tells apart another field, another expectation, another section, another check, another operation, another kind', () => {
    const variants: Failure[] = [
      { ...base, expected: base.expected.replace(/limit/g, 'maxDepth') },
      { ...base, expected: 'accepted: 200 and a start answer' },
      { ...base, section: 'interface §2.4' },
      { ...base, check: 'v2.batch.start.invalid.fraction' },
      { ...base, request: base.request!.replace('/v2/crawl', '/v2/batch/scrape') },
      { ...base, kind: 'body' },
      { ...base, level: 'service' },
    ];
    const signatures = new Set([base, ...variants].map((f) => sign(f)));
    expect(signatures.size).toBe(variants.length + 1);
    expect(causeSignature('POST /v2/crawl answers 500')).not.toBe(causeSignature('POST /v2/batch/scrape answers 500'));
  });
});

describe('a bad known-deviations file', () => {
  const entry = { check: 'auth.missing', what: 'accepted', signature: '0123456789abcdef' };
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{"entries": [', /: is not valid JSON \(.*\); expected a known-deviations file \(JSON\)$/],
    ['the wrong shape', JSON.stringify({ entries: {} }), /: \$\.entries: \{\} is wrong; expected array \(the deviations accepted as known\)$/],
    ['an unknown key', JSON.stringify({ entries: [{ ...entry, owner: 'me' }] }), /: \$\.entries\[0\]: unknown key "owner"; expected only check, operation, what, signature, expires, note$/],
    ['a date of the wrong form', JSON.stringify({ entries: [{ ...entry, expires: '31/01/2026' }] }), /: \$\.entries\[0\]\.expires: "31\/01\/2026" is wrong; expected string to match .* \(YYYY-MM-DD: the last day/],
    ['a day the calendar does not have', JSON.stringify({ entries: [{ ...entry, expires: '2026-02-30' }] }), /: \$\.entries\[0\]\.expires: "2026-02-30" is no day of the calendar; expected a date YYYY-MM-DD/],
    ['a month the calendar does not have', JSON.stringify({ entries: [{ ...entry, expires: '2026-13-01' }] }), /: \$\.entries\[0\]\.expires: "2026-13-01" is no day of the calendar; expected a date YYYY-MM-DD/],
    ['an entry without its check', JSON.stringify({ entries: [{ what: 'accepted', signature: '0123456789abcdef' }] }), /: \$\.entries\[0\]\.check: missing; expected required property \(the check that found it/],
    ['a signature twice', JSON.stringify({ entries: [entry, entry] }), /: \$\.entries\[1\]\.signature: .* is also the signature of \$\.entries\[0\]; expected each deviation once$/],
  ];

  it.each(cases)('%s: refused before the run, one line naming the file, the place and what is expected', async (_name, text, message) => {
    const path = join(folder, 'bad.json');
    writeFileSync(path, text);
    const error = await knownDeviations({ baseline: path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`--baseline ${path}: `);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('the command exits 2 with that line, before anything is sent; a missing file, and flags without --baseline, too', async () => {
    const path = join(folder, 'bad-command.json');
    writeFileSync(path, JSON.stringify({ entries: [{ ...entry, owner: 'me' }] }));
    const bad = await runCli(['contract', '--baseline', path], '', 60_000);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--baseline ${path}: $.entries[0]: unknown key "owner"`);
    expect(bad.stdout).toBe('');
    const missing = await runCli(['contract', '--baseline', join(folder, 'none.json')], '', 60_000);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file; expected a known-deviations file \(write one with --baseline .* --update-baseline\)/);
    const alone = await runCli(['contract', '--baseline-strict'], '', 60_000);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--baseline-strict goes with --baseline FILE');
  }, 120_000);
});
