/**
 * The attack stage of `npm run load` as an instrument (the stage itself runs in `npm run load`, not here: it
 * takes minutes and gigabytes). Its bodies are what issue 13's findings describe, and valid where the attack
 * needs them accepted; its harness, run on a real `crawlspec serve` in a child process, passes a server that
 * keeps a bound and fails one that breaks it (peak RSS, the unrelated request's latency, alive afterwards).
 */
import { describe, expect, it } from 'vitest';
import { validate, type SchemaName } from '../schemas/validate.js';
import { DEFAULT_MAX_BODY_BYTES } from '../scripts/server/app.js';
import { ATTACKS } from '../scripts/load/attacks/attacks.js';
import * as bodies from '../scripts/load/attacks/bodies.js';
import { runAttack, type Attack } from '../scripts/load/attacks/harness.js';

const MB = 1_000_000;
const bytes = (text: string) => Buffer.byteLength(text);
const validity = (name: SchemaName, text: string) => validate(name, JSON.parse(text)).valid;

describe('the attack bodies', () => {
  it('1: a 1.1 MB v2 batch of 5000 pages at maxConcurrency 5000 with 1 MB of webhook metadata, valid', () => {
    const body = bodies.manyPagesBigMetadata('http://127.0.0.1:9/hook');
    expect(bytes(body) / MB).toBeCloseTo(1.1, 1);
    expect(bytes(body) / MB).toBeLessThan(1.15);
    const parsed = JSON.parse(body);
    expect([parsed.urls.length, parsed.maxConcurrency, parsed.webhook.metadata.note.length]).toEqual([5000, 5000, MB]);
    expect(validity('v2/BatchScrapeRequest', body)).toBe(true);
  });

  it('2: ~850,000 short addresses in 9.7 MiB, under the default body limit (its validity is shown by the stage)', () => {
    const { text, count } = bodies.hugeBatch(Math.floor(9.7 * 1024 * 1024));
    expect(bytes(text)).toBeLessThanOrEqual(DEFAULT_MAX_BODY_BYTES);
    expect(bytes(text)).toBeGreaterThan(9.69 * 1024 * 1024);
    expect(count).toBeGreaterThan(840_000);
    expect(JSON.parse(text).maxConcurrency).toBe(count);
  });

  it('3: 1.6 MB of named groups and backreferences, in one pattern and in 2000-character ones, refused', () => {
    const { onePattern, manyPatterns } = bodies.namedGroupPatterns(1_600_000);
    for (const body of [onePattern, manyPatterns]) {
      expect(bytes(body) / MB).toBeCloseTo(1.6, 1);
      expect(bytes(body) / MB).toBeLessThan(1.65);
      expect(body).toContain('(?<g1>a)');
      expect(body).toContain('\\\\k<g1>');
      expect(validity('v2/CrawlRequest', body)).toBe(false);
    }
    const lengths = (JSON.parse(manyPatterns).includePaths as string[]).map((p) => p.length);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(2000);
    expect(Math.min(...lengths)).toBeGreaterThan(1950);
  });

  it('4: crawls of a 1 MB and a 2.1 MB address with 50 scrape actions, valid', () => {
    for (const length of [MB, 2.1 * MB]) {
      const body = bodies.longUrlCrawl(length);
      expect(JSON.parse(body).url.length).toBe(length);
      expect(JSON.parse(body).scrapeOptions.actions).toHaveLength(50);
      expect(validity('v2/CrawlRequest', body)).toBe(true);
    }
  });

  it('5, 8: webhook batches, valid', () => {
    expect(validity('v2/BatchScrapeRequest', bodies.webhookBatch('http://127.0.0.1:9/hook/307', { 'x-a': 'b' }, '307'))).toBe(true);
    expect(validity('v2/BatchScrapeRequest', bodies.hangingWebhookBatch('http://127.0.0.1:9/hook', 30_000, 1000, 64 * 1024))).toBe(true);
  });

  it('6: a 480 KB batch of addresses with 10,000-character internationalised labels, refused', () => {
    const body = bodies.idnBatch(16, 10_000);
    expect(bytes(body) / MB).toBeCloseTo(0.48, 1);
    expect(validity('v2/BatchScrapeRequest', body)).toBe(false);
  });

  it('7: v1 and v2 crawls whose options nest 6000 levels deep, valid (v2 in a JSON schema, v1 in an open action object)', () => {
    const { v1, v2 } = bodies.deeplyNestedCrawls(6000, 30);
    for (const [name, body] of [
      ['v2/CrawlRequest', v2],
      ['v1/CrawlRequest', v1],
    ] as const) {
      expect(body.split('{"a":').length - 1, name).toBe(6000);
      expect(validity(name, body), name).toBe(true);
    }
  });

  it('9: exactly 20 MiB, one array nested as deep as that allows (not parsed here: that is the attack)', () => {
    const body = bodies.deeplyNestedBody(bodies.TWENTY_MIB);
    expect(body.length).toBe(bodies.TWENTY_MIB);
    const text = body.toString('latin1');
    expect(text.startsWith('{"url":"https://example.com/","nested":[[[')).toBe(true);
    expect(text.trimEnd().endsWith(']]]}')).toBe(true);
  });
});

describe.runIf(process.platform === 'linux')('the harness, on a real crawlspec serve', () => {
  it('passes attack 6 (fixed in validation): its bounds and checks hold, its figures are measured', async () => {
    // Latency is a figure of the stage (`npm run load`), not of a test on a shared machine: here its bounds are
    // safety nets, and the refusal's own "400 within N ms" check is left out (that it was a 400: the answers below).
    const report = await runAttack({ ...ATTACKS.find((a) => a.id === '6')!, unrelatedMs: 60_000, deadlineMs: 300_000 });
    expect(report.checks.filter((c) => !c.pass && !c.name.startsWith('the batch: 400 within'))).toEqual([]);
    expect(report.server).toBe('alive');
    expect(report.figures.idleRssMiB).toBeGreaterThan(10);
    expect(report.figures.peakRssMiB).toBeGreaterThanOrEqual(report.figures.idleRssMiB!);
    expect(report.figures.unrelated.requests).toBeGreaterThan(0);
    expect(report.figures.answers).toEqual({ 400: 1 });
  });

  it('fails a server that breaks every bound: RSS, latency, alive afterwards', async () => {
    const broken: Attack = {
      id: 'test',
      title: 'the server killed mid-attack, held to bounds no server keeps',
      rssMiB: 1,
      unrelatedMs: 0,
      deadlineMs: 60_000,
      prepare: () => ({
        async run(ctx) {
          await ctx.sleep(300);
          ctx.server.kill('the test killed it');
          await ctx.sleep(300);
        },
      }),
    };
    const report = await runAttack(broken);
    const verdicts = Object.fromEntries(report.checks.map((c) => [c.name, c.pass]));
    expect(verdicts).toEqual({
      'peak RSS ≤ 1 MiB': false,
      'every unrelated request answered 200 within 0 ms while the attack ran': false,
      'the attack ended within its deadline (60 s)': true,
      'alive afterwards: the control job answered 200': false,
    });
    expect(report.server).toBe('killed by the load generator: the test killed it');
  });
});
