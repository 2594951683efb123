/**
 * The kit's webhook checks (scripts/contract/checks/webhooks/webhooks.ts) and the receiver they read
 * (scripts/contract/wire/webhookReceiver.ts, `crawlspec webhook-receiver`):
 *
 *   - the receiver keeps what each inbox got, as it came, and every bound it states; a read waits for a delivery;
 *   - against the reference server (which signs its deliveries with the kit target's secret) every webhook check
 *     passes, and every delivery went to loopback;
 *   - each broken variant (test/support/webhookVariants.ts) fails exactly the checks that hold what it breaks,
 *     with a failure saying so (a curl line, what came back, what was expected), and no other webhook check;
 *   - without the secret the signature check is left out; without a receiver (a target not on loopback) the
 *     checks are skipped in scope, saying how to give one; with --webhook-url, the receiver given is used;
 *   - the command's usage errors for the new options.
 *
 * Every run is narrowed to the webhook checks (`--only 'v*.webhook.*'`), and every server is on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runContract, type CheckResult, type ContractReport } from '../scripts/contract/index.js';
import {
  collectDeliveries,
  InboxReader,
  ReceiverUnreadable,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../scripts/contract/wire/webhookReceiver.js';
import { kitTarget, KIT_TARGET_WEBHOOK_SECRET } from './support/kitTarget.js';
import { builtCli } from './support/build.js';
import { ROOT, runCli } from './support/runCli.js';
import { startServerProcess } from './support/serverProcess.js';
import { REFERENCE_SITE_PROFILE } from '../scripts/server/site.js';
import { BROKEN_WEBHOOKS } from './support/webhookVariants.js';
import type { BrokenServer } from './support/brokenServers.js';
import type { ContractOptions } from '../scripts/contract/engine/options.js';

const ONLY = ['v*.webhook.*'];
const WEBHOOK_CHECKS = ['v1', 'v2'].flatMap((v) => ['crawl', 'batch', 'events', 'signature'].map((c) => `${v}.webhook.${c}`));
/** How long a run waits for deliveries after a job ended (its --timeout): what a variant that never delivers costs. */
const TIMEOUT_MS = 8000;

const post = (url: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
const readJson = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;

describe('the webhook receiver', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver({
      limits: { deliveryBytes: 1000, deliveriesPerInbox: 3, inboxes: 4, answerBytes: 1500, waiters: 2 },
    });
  });
  afterAll(() => receiver.close());

  it('keeps each delivery of an inbox as it came: its headers, its body byte for byte, in order', async () => {
    const inbox = `${receiver.url}/key/kept`;
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]); // not UTF-8: kept as bytes all the same
    expect((await post(inbox, bytes, { 'X-Custom': 'a value' })).status).toBe(200);
    expect((await post(inbox, '{"second":true}')).status).toBe(200);
    const answer = await readJson(inbox);
    expect(answer).toMatchObject({ receiver: 'crawlspec webhook-receiver', more: false, refused: 0, dropped: 0 });
    const deliveries = answer['deliveries'] as { seq: number; headers: Record<string, string>; body: string }[];
    expect(deliveries.map((d) => d.seq)).toEqual([1, 2]);
    expect(Buffer.from(deliveries[0]!.body, 'base64').equals(bytes)).toBe(true);
    expect(deliveries[0]!.headers['x-custom']).toBe('a value');
    expect(Buffer.from(deliveries[1]!.body, 'base64').toString()).toBe('{"second":true}');
    // after=N: only what came after the N-th; another inbox holds nothing of this one.
    expect(((await readJson(`${inbox}?after=1`))['deliveries'] as unknown[]).length).toBe(1);
    expect(((await readJson(`${receiver.url}/key/other`))['deliveries'] as unknown[]).length).toBe(0);
  });

  it('a read with wait answers when a delivery comes, not before', async () => {
    const inbox = `${receiver.url}/key/waited`;
    let answered = false;
    const reading = readJson(`${inbox}?wait=30000`).then((a) => ((answered = true), a));
    // Another inbox's delivery, answered, does not end the wait.
    expect((await post(`${receiver.url}/key/elsewhere`, '{}')).status).toBe(200);
    expect(answered).toBe(false);
    expect((await post(inbox, '{"n":1}')).status).toBe(200);
    const answer = await reading;
    expect((answer['deliveries'] as unknown[]).length).toBe(1);
  });

  it('holds to its bounds: a body too large (413, refused), an inbox full (507, dropped), one answer at most answerBytes (more)', async () => {
    const inbox = `${receiver.url}/key/bounded`;
    expect((await post(inbox, 'x'.repeat(1001))).status).toBe(413);
    for (let i = 0; i < 3; i += 1) expect((await post(inbox, 'y'.repeat(900))).status).toBe(200);
    expect((await post(inbox, '{}')).status).toBe(507);
    const first = await readJson(inbox);
    expect(first).toMatchObject({ refused: 1, dropped: 1, more: true });
    expect((first['deliveries'] as unknown[]).length).toBe(1);
    const rest = await readJson(`${inbox}?after=1`);
    expect((rest['deliveries'] as unknown[]).length).toBe(1);
    // DELETE forgets the inbox; a method it does not take is 405, a read that is no number 400.
    expect((await fetch(inbox, { method: 'DELETE' })).status).toBe(204);
    expect(((await readJson(inbox))['deliveries'] as unknown[]).length).toBe(0);
    expect((await fetch(inbox, { method: 'PUT', body: '{}' })).status).toBe(405);
    expect((await fetch(`${inbox}?after=x`)).status).toBe(400);
  });

  it('keeps at most `inboxes` inboxes at once: a delivery to one more is 507', async () => {
    const small = await startWebhookReceiver({ limits: { inboxes: 2 } });
    try {
      expect((await post(`${small.url}/a`, '{}')).status).toBe(200);
      expect((await post(`${small.url}/b`, '{}')).status).toBe(200);
      expect((await post(`${small.url}/c`, '{}')).status).toBe(507);
      expect((await post(`${small.url}/a`, '{}')).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('the kit reads an inbox until what it waits for is there; what is not a receiver is unreadable', async () => {
    const reader = new InboxReader(`${receiver.url}/key/collected`, { timeoutMs: 5000, maxResponseBytes: 1 << 20 });
    const collecting = collectDeliveries(reader, (received) => received.length === 2, 30_000);
    expect((await post(reader.url, '{"n":1}')).status).toBe(200);
    expect((await post(reader.url, '{"n":2}')).status).toBe(200);
    const collected = await collecting;
    expect(collected.complete).toBe(true);
    expect(collected.received.map((r) => r.body.toString())).toEqual(['{"n":1}', '{"n":2}']);
    const other = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const wrong = new InboxReader(`http://127.0.0.1:${(other.address() as AddressInfo).port}/x`, {
        timeoutMs: 5000,
        maxResponseBytes: 1 << 20,
      });
      await expect(wrong.read(0, 0)).rejects.toThrow(ReceiverUnreadable);
      await expect(wrong.read(0, 0)).rejects.toThrow(/answered 404 .*not what crawlspec webhook-receiver answers/);
    } finally {
      other.close();
    }
  });
});

/**
 * A run of the webhook checks (at service level, unless `extra` says otherwise) against the reference server wrapped
 * by `variant` (none: the server as it is); the kit is told the secret the server signs with, unless `secret` is false.
 */
async function runAgainst(variant: BrokenServer | undefined, extra: Partial<ContractOptions> = {}, secret = true) {
  const target = await kitTarget({ ...(variant === undefined ? {} : { wrap: variant.wrap }) });
  try {
    const { webhookSecret, ...options } = target.options({
      only: ONLY,
      level: 'service',
      behaviour: false,
      timeoutMs: TIMEOUT_MS,
      ...extra,
    });
    const report = await runContract(secret && webhookSecret !== undefined ? { ...options, webhookSecret } : options);
    return { report, log: target.log };
  } finally {
    await target.close();
  }
}

const byName = (report: ContractReport) => new Map(report.checks.map((c) => [c.name, c]));
const summary = (report: ContractReport) =>
  report.checks.map((c) => `${c.name}: ${c.status} ${c.failures.map((f) => f.message).join(' | ') || c.detail || ''}`).join('\n');

describe('the webhook checks against the reference server', () => {
  let correct: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => {
    correct = await runAgainst(undefined);
  }, 120_000);

  it('pass, every one of them, at service level: conformant', () => {
    const { report } = correct;
    expect(
      report.checks.filter((c) => WEBHOOK_CHECKS.includes(c.name)).map((c) => `${c.name}: ${c.status}`),
      summary(report),
    ).toEqual(WEBHOOK_CHECKS.map((name) => `${name}: pass`));
    expect(exitCode(report)).toBe(0);
    expect(report.jobs.notCancelled).toEqual([]);
  });

  it('gives each job a webhook on loopback only: an inbox of the receiver the kit runs for the run, with its headers, metadata and events', () => {
    const webhooks = correct.log
      .filter((e) => e.method === 'POST' && /^\/v[12]\/(crawl|batch\/scrape)$/.test(e.url))
      .map((e) => (JSON.parse(e.body) as { webhook?: { url: string; headers: unknown; metadata: unknown; events?: unknown } }).webhook)
      .filter((w) => w !== undefined);
    expect(webhooks).toHaveLength(WEBHOOK_CHECKS.length);
    for (const webhook of webhooks) {
      const url = new URL(webhook!.url);
      expect(url.hostname).toBe('127.0.0.1');
      // `/<128 random bits>/<the check>`: nobody else can guess it.
      expect(url.pathname).toMatch(/^\/[\w-]{22}\/v[12]\.webhook\.\w+$/);
      const check = url.pathname.split('/').pop();
      expect(webhook!.headers).toEqual({ 'X-Crawlspec-Check': check });
      expect(webhook!.metadata).toEqual({ check, seed: '42' });
      expect(webhook!.events).toEqual(check?.endsWith('.events') ? ['page', 'completed'] : undefined);
    }
  });

  it('the same seed sends the same bodies: the digest does not depend on the receiver of the run', async () => {
    const again = await runAgainst(undefined, { only: ['v2.webhook.crawl'] });
    expect(byName(again.report).get('v2.webhook.crawl')?.digest).toBe(byName(correct.report).get('v2.webhook.crawl')?.digest);
  }, 120_000);
});

/** What a failure of each variant says: the aspect the variant breaks. */
const SAYS: Record<string, RegExp> = {
  'webhook.dropped': /^no webhook delivery arrived at http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/v[12]\.webhook\.\w+ within 8 s/,
  'webhook.metadataDropped': /without the webhook's metadata: the 1st delivery \((crawl|batch_scrape)\.started\) has metadata \{\}/,
  'webhook.headersDropped': /without the webhook's headers: in the 1st delivery .*X-Crawlspec-Check is null/,
  'webhook.eventsIgnored': /of an event the webhook did not ask for .*batch_scrape\.started/,
  'webhook.outOfOrder': /\.started arrived as the 2nd delivery, after (crawl|batch_scrape)\.page: out of order/,
  'webhook.pageMissing': /^1 (crawl|batch_scrape)\.page event for 2 page records of the (crawl|batch); none for http/,
  'webhook.signatureWrong': /signed wrongly, with a X-Firecrawl-Signature that is not the body's HMAC-SHA256/,
  'webhook.bodyInvalid':
    /not a valid v[12]\/WebhookEvent of the (crawl|batch) [\w-]+: the 1st delivery \((crawl|batch_scrape)\.started\): \$\.success: /,
};

describe('each broken webhook variant fails the checks that hold what it breaks, and no other', () => {
  const reports = new Map<string, ContractReport>();
  beforeAll(async () => {
    // Two runs at a time: each waits for deliveries that (for some variants) never come.
    const queue = [...BROKEN_WEBHOOKS];
    const worker = async () => {
      for (let v = queue.shift(); v !== undefined; v = queue.shift()) reports.set(v.name, (await runAgainst(v)).report);
    };
    await Promise.all([worker(), worker()]);
  }, 300_000);

  it('every variant is tested, and says what it breaks', () => {
    expect(Object.keys(SAYS).sort()).toEqual(BROKEN_WEBHOOKS.map((v) => v.name).sort());
    // Between them, the variants fail every webhook check.
    expect(new Set(BROKEN_WEBHOOKS.flatMap((v) => v.expectedFailingChecks))).toEqual(new Set(WEBHOOK_CHECKS));
  });

  it.each(BROKEN_WEBHOOKS.map((v) => [v.name, v] as const))('%s', (name, variant) => {
    const report = reports.get(name)!;
    const shown = `${variant.defect}\n${summary(report)}`;
    expect(exitCode(report), shown).toBe(1);
    const checks = byName(report);
    for (const check of variant.expectedFailingChecks) {
      const result: CheckResult | undefined = checks.get(check);
      expect(result?.status, `${check} should fail\n${shown}`).toBe('fail');
      const failure = result!.failures.find((f) => SAYS[name]!.test(f.message));
      expect(failure, `${check}: a failure saying ${SAYS[name]}\n${shown}`).toBeDefined();
      expect(failure).toMatchObject({ kind: 'webhook', level: 'service', section: 'service' });
      expect(failure!.request).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/v[12]\/(crawl|batch\/scrape)' .*"webhook":/);
      expect(failure!.got?.body.length, shown).toBeGreaterThan(0);
      expect(failure!.expected.length).toBeGreaterThan(0);
    }
    const others = report.checks.filter((c) => WEBHOOK_CHECKS.includes(c.name) && !variant.expectedFailingChecks.includes(c.name));
    expect(
      others.filter((c) => c.status === 'fail').map((c) => c.name),
      shown,
    ).toEqual([]);
    // Nothing delivered: the signature check has nothing to verify, and says so.
    for (const check of others)
      expect(`${check.name}: ${check.status}`, shown).toBe(`${check.name}: ${name === 'webhook.dropped' ? 'inconclusive' : 'pass'}`);
  });

  it('a defect of the service alone does not fail a run at interface level: the checks inform (DIFFERS)', async () => {
    const variant = BROKEN_WEBHOOKS.find((v) => v.name === 'webhook.metadataDropped')!;
    // With json.malformed, a check of interface level, so that the run decides something (one in which no check of
    // its level ran is incomplete).
    const { report } = await runAgainst(variant, { level: 'interface', only: ['v2.webhook.crawl', 'json.malformed'] });
    expect(exitCode(report), summary(report)).toBe(0);
    expect(byName(report).get('v2.webhook.crawl')).toMatchObject({ status: 'differs', inScope: false });
  }, 120_000);
});

describe('what the run needs for the webhook checks', () => {
  it('without the secret, the signature check is left out of the run (out of scope), the others pass', async () => {
    const { report } = await runAgainst(undefined, { only: ['v2.webhook.*'] }, false);
    const checks = byName(report);
    expect(checks.get('v2.webhook.signature')).toMatchObject({ status: 'skipped', inScope: false });
    expect(checks.get('v2.webhook.signature')?.detail).toMatch(/^no webhook secret \(--webhook-secret\)/);
    expect(checks.get('v2.webhook.crawl')?.status).toBe('pass');
    expect(exitCode(report), summary(report)).toBe(0);
  }, 120_000);

  it('a target not on loopback: skipped in scope without --webhook-url, and nothing sent', async () => {
    const target = await kitTarget({});
    try {
      // 0.0.0.0 is no loopback address to the kit, but what it would send stays on this machine.
      const elsewhere = target.options({
        baseUrl: target.url.replace('127.0.0.1', '0.0.0.0'),
        only: ['v2.webhook.*'],
        level: 'service',
        behaviour: false,
      });
      const skipped = await runContract(elsewhere);
      expect(target.log).toEqual([]);
      expect(exitCode(skipped)).toBe(3);
      for (const check of skipped.checks.filter((c) => c.name.startsWith('v2.webhook.'))) {
        expect(check).toMatchObject({ status: 'skipped', inScope: true });
        expect(check.detail).toMatch(
          /^no webhook receiver: .*crawlspec webhook-receiver .*--webhook-url URL, or leave these out with --skip 'v\*\.webhook\.\*'$/,
        );
      }
    } finally {
      await target.close();
    }
  });

  it('with --webhook-url, the receiver given is used (the kit runs none), an inbox below it for each job', async () => {
    const target = await kitTarget({});
    const receiver = await startWebhookReceiver();
    try {
      const given = await runContract(
        target.options({
          only: ['v2.webhook.*'],
          level: 'service',
          behaviour: false,
          webhookUrl: `${receiver.url}/prefix/`,
          timeoutMs: TIMEOUT_MS,
        }),
      );
      expect(
        given.checks.filter((c) => c.name.startsWith('v2.webhook.')).map((c) => `${c.name}: ${c.status}`),
        summary(given),
      ).toEqual(['crawl', 'batch', 'events', 'signature'].map((c) => `v2.webhook.${c}: pass`));
      const hooks = target.log
        .filter((e) => e.method === 'POST')
        .map((e) => (JSON.parse(e.body) as { webhook?: { url: string } }).webhook?.url);
      for (const hook of hooks.filter((h) => h !== undefined))
        expect(hook).toMatch(new RegExp(`^${receiver.url}/prefix/[\\w-]{22}/v2\\.webhook\\.`));
    } finally {
      await receiver.close();
      await target.close();
    }
  }, 120_000);

  it('the secret is a secret: never in what the kit reports', async () => {
    const variant = BROKEN_WEBHOOKS.find((v) => v.name === 'webhook.signatureWrong')!;
    const { report } = await runAgainst(variant, { only: ['v2.webhook.signature'] });
    expect(exitCode(report)).toBe(1);
    expect(JSON.stringify(report)).not.toContain(KIT_TARGET_WEBHOOK_SECRET);
  }, 120_000);
});

describe('the command', () => {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, '', 60_000, env);

  it('crawlspec serve --webhook-secret signs every delivery: the signature check passes with that secret, fails with another', async () => {
    const server = await startServerProcess('cli-token', 60_000, ['--webhook-secret', 'the-serve-secret']);
    try {
      const options = (webhookSecret: string): ContractOptions => ({
        baseUrl: server.url,
        token: 'cli-token',
        versions: ['v2'],
        level: 'service',
        seed: 1,
        runs: 1,
        concurrency: 2,
        siteUrl: `${server.url}/site`,
        site: REFERENCE_SITE_PROFILE,
        behaviour: false,
        only: ['v2.webhook.signature'],
        timeoutMs: TIMEOUT_MS,
        webhookSecret,
      });
      const signed = await runContract(options('the-serve-secret'));
      expect(byName(signed).get('v2.webhook.signature')?.status, summary(signed)).toBe('pass');
      const other = await runContract(options('not-the-serve-secret'));
      expect(byName(other).get('v2.webhook.signature')?.failures[0]?.message, summary(other)).toMatch(/signed wrongly/);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('crawlspec webhook-receiver prints its address, keeps what is delivered there, and stops on Ctrl-C', async () => {
    const { CRAWLSPEC_TOKEN: _token, ...env } = process.env;
    const child = spawn(process.execPath, [builtCli(), 'webhook-receiver'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const found = /^webhook receiver listening on (http:\/\/127\.0\.0\.1:\d+); give crawlspec contract --webhook-url /m.exec(output);
        if (found !== null) resolve(found[1]!);
      });
      child.once('close', () => reject(new Error(`ended before listening: ${output}`)));
    });
    try {
      expect((await post(`${url}/an/inbox`, '{"event":1}')).status).toBe(200);
      const answer = await readJson(`${url}/an/inbox`);
      expect((answer['deliveries'] as { body: string }[]).map((d) => Buffer.from(d.body, 'base64').toString())).toEqual(['{"event":1}']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await ended).toBe(0);
  }, 60_000);

  it.concurrent.each([
    [
      ['webhook-receiver', '--port', '99999'],
      {},
      /^crawlspec: --port takes a whole number from 0 to 65535, not "99999" \(crawlspec webhook-receiver --help\)\n$/,
    ],
    [
      ['contract', '--base-url', 'http://127.0.0.1:3002', '--no-auth', '--webhook-url', 'ftp://hooks.example.org'],
      {},
      /^crawlspec: --webhook-url takes an http or https address, e\.g\. http:\/\/hooks\.example\.org:8787, not "ftp:\/\/hooks\.example\.org" \(crawlspec contract --help\)\n$/,
    ],
    [
      ['contract', '--base-url', 'http://127.0.0.1:3002', '--no-auth', '--webhook-url', 'http://hooks.example.org/?a=1'],
      {},
      /^crawlspec: --webhook-url http:\/\/hooks\.example\.org\/\?a=1 has a query or a fragment; expected the receiver's address/,
    ],
    [
      ['contract', '--base-url', 'http://127.0.0.1:3002', '--no-auth', '--webhook-secret', ''],
      {},
      /^crawlspec: --webhook-secret is empty; expected the secret/,
    ],
    [['serve'], { CRAWLSPEC_WEBHOOK_SECRET: '' }, /^crawlspec: CRAWLSPEC_WEBHOOK_SECRET is empty; expected the secret/],
  ] as const)('%j is a usage error: exit 2, one line, nothing started', async (args, env, message) => {
    const result = await run([...args], env);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});
