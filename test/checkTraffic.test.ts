/**
 * `crawlspec proxy --record FILE.har` and `crawlspec check-traffic FILE.har`: the official SDK's traffic recorded
 * through the proxy (to a variant of the reference server whose status answers carry `completed` as a string), then
 * checked offline: its problems (the request the SDK sent that breaks the spec, each status answer's `$.completed`),
 * its spec coverage (valid against the published coverage.schema.json), exit 1; a file that is no HAR: exit 2, one line.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coverage } from '../scripts/coverage/schema.js';
import { BROKEN_SERVERS } from './support/brokenServers.js';
import { builtCli } from './support/build.js';
import { kitTarget, type KitTarget } from './support/kitTarget.js';
import { ROOT, runCli } from './support/runCli.js';

const TOKEN = 'check-traffic-token-0123456789';
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', 'coverage.schema.json'), 'utf8')) as object;
const validateCoverage = new Ajv2020({ strict: true, allErrors: true }).compile(SCHEMA);

/** `crawlspec proxy --record har` in front of `target`, until `stop()`; its address. */
async function recordingProxy(
  target: string,
  har: string,
): Promise<{ url: string; stop(): Promise<{ code: number | null; stdout: string }> }> {
  const child = spawn(process.execPath, [builtCli(), 'proxy', '--target', target, '--record', har], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('close', () => reject(new Error(`the proxy ended before it listened: ${stdout}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (found) resolve(found[1]!);
    });
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      return { code: await closed, stdout };
    },
  };
}

describe('the SDK recorded through the proxy, checked offline', () => {
  let target: KitTarget;
  let dir: string;
  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN, wrap: BROKEN_SERVERS.find((v) => v.name === 'status.completedAsString')!.wrap });
    dir = await mkdtemp(join(tmpdir(), 'crawlspec-traffic-'));
  });
  afterAll(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('check-traffic reports the problems and the coverage of what the SDK did; exit 1', async () => {
    const har = join(dir, 'sdk.har');
    const proxy = await recordingProxy(target.url, har);
    let id: string;
    try {
      const sdk = new Firecrawl({ apiKey: TOKEN, apiUrl: proxy.url, maxRetries: 1 });
      const started = await sdk.startCrawl(`${target.url}/site/`, { limit: 2, sitemap: 'skip', scrapeOptions: { formats: ['markdown'] } });
      id = started.id;
      await sdk.getCrawlStatus(started.id, { autoPaginate: false }).catch(() => undefined);
      await sdk.cancelCrawl(started.id).catch(() => undefined);
      await expect(sdk.startCrawl(`${target.url}/site/`, { scrapeOptions: { timeout: 300001 } })).rejects.toThrow();
    } finally {
      const stopped = await proxy.stop();
      expect(stopped.code).toBe(0);
    }
    const recorded = await readFile(har, 'utf8');
    expect(recorded).not.toContain(TOKEN);
    const entries = (JSON.parse(recorded) as { log: { entries: { request: { method: string; url: string } }[] } }).log.entries;
    expect(entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual(
      expect.arrayContaining(['POST /v2/crawl', `GET /v2/crawl/${id}`, `DELETE /v2/crawl/${id}`]),
    );

    const run = await runCli(['check-traffic', har, '--json'], '', 60_000);
    expect(run.code).toBe(1);
    // The request the SDK sent that breaks the interface, and the status answer's problem, each with where and why.
    expect(run.stderr).toMatch(
      /✗ request POST \/v2\/crawl: \$\.scrapeOptions\.timeout: must be <= 300000, not 300001\. Expected: .*\[interface §2\.4\]/,
    );
    expect(run.stderr).toMatch(new RegExp(`answer 200 GET /v2/crawl/${id}: \\$\\.completed: must be integer`));
    expect(run.stderr).toMatch(/^Spec coverage: [\d.]+% overall/m);
    const coverage = JSON.parse(run.stdout) as Coverage;
    expect(validateCoverage(coverage), JSON.stringify(validateCoverage.errors)).toBe(true);
    expect(coverage.exchanges).toBe(entries.length);
    const start = coverage.operations.find((o) => o.operation === 'POST /v2/crawl')!;
    expect(start.exchanges).toBe(2);
    expect(start.statuses.filter((s) => s.seen > 0).map((s) => [s.status, s.checked])).toEqual([
      [200, 1],
      [400, 1],
    ]);
    const field = (path: string) => coverage.requestFields.find((f) => f.schema === 'v2/CrawlRequest' && f.path === path);
    expect(field('$.scrapeOptions.timeout')).toMatchObject({ valid: 0, invalid: 1 });
    expect(field('$.limit')).toMatchObject({ valid: 1, invalid: 0 });
    const sent = (path: string, value: string) =>
      coverage.enumValues.find((e) => e.schema === 'v2/CrawlRequest' && e.path === path && e.value === value)?.sent;
    expect(sent('$.sitemap', 'skip')).toBe(1);
    expect(sent('$.sitemap', 'only')).toBe(0);
    expect(sent('$.scrapeOptions.formats[]', 'markdown')).toBe(1);
    expect(coverage.untouched.operations).toContain('POST /v1/batch/scrape');
    expect(coverage.answerFields.find((f) => f.schema === 'v2/CrawlStartResponse' && f.path === '$.id')?.observed).toBe(1);
    expect(coverage.measures.operations.covered).toBe(3);
  });

  it('a file that is no HAR, or none at all: exit 2 and one line saying why', async () => {
    const notJson = join(dir, 'not.har');
    await writeFile(notJson, '{"log": {"version": "1.2", "entries": [ {');
    const broken = await runCli(['check-traffic', notJson], '', 30_000);
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toMatch(/cannot check .*not\.har.*: it is not JSON/);

    const noHar = join(dir, 'other.json');
    await writeFile(noHar, '{"entries": []}');
    const other = await runCli(['check-traffic', noHar], '', 30_000);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/it has no log\.version; expected a HAR 1\.2 file/);

    const badEntry = join(dir, 'entry.har');
    await writeFile(badEntry, '{"log": {"version": "1.2", "entries": [{"request": {}, "response": {}}]}}');
    const entry = await runCli(['check-traffic', badEntry], '', 30_000);
    expect(entry.code).toBe(2);
    expect(entry.stderr).toMatch(/entry 0 of log\.entries has no request\.method and request\.url; expected a HAR 1\.2 entry/);

    const missing = await runCli(['check-traffic', join(dir, 'missing.har')], '', 30_000);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*missing\.har.* \(ENOENT\); expected a HAR file/);
  });
});
