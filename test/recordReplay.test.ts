/**
 * Record and replay (`crawlspec contract --record FILE`, `crawlspec contract replay FILE`). A run against a broken
 * variant of the reference server (test/support/brokenServers.ts) is recorded: the file is a valid HAR 1.2 (the
 * har-schema package's JSON Schemas, and the spec's rules on timings the schemas leave out) holding every exchange
 * the target got, with neither the token nor a `--header` value in any spelling, although the target echoes both.
 * Replayed against the same broken target, each failing exchange is STILL FAILING (exit 1) and the jobs its starts
 * started are cancelled; against the correct reference server it is FIXED (exit 0), a refusal only beside an
 * accepted baseline (against a target refusing every start it is NOT JUDGED). What no single exchange shows (a
 * crawl judged over its job, a status page of a job the run started) is NOT REPLAYED (exit 3); of a generated
 * check only the minimal counterexample is marked. A lost connection and a long answer are recorded too. Every
 * run is narrowed to one check.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestBudget } from '../scripts/contract/wire/budget.js';
import { HttpClient } from '../scripts/contract/wire/http.js';
import { resolveOptions } from '../scripts/contract/engine/options.js';
import { Recording } from '../scripts/contract/reporters/recording.js';
import { runContract, type ContractOptions, type ContractReport } from '../scripts/contract/index.js';
import { TEXT_LIMIT, type EntryMark, type HarEntry, type RunMark } from '../scripts/contract/reporters/har.js';
import { BROKEN_CRAWLERS, BROKEN_SERVER_TOKEN, BROKEN_SERVERS } from './support/brokenServers.js';
import { isStart, kitTarget, startedAndCancelled, type Handler, type KitTarget } from './support/kitTarget.js';
import { runCli } from './support/runCli.js';

const TOKEN = 'record-token/with+signs=42';
const GATEWAY = { name: 'X-Gateway-Key', value: 'gateway-secret-7f3a' };
const TIMEOUT_MS = 90_000;

/** Every spelling redact.ts promises to clean that the echoing target below sends back. */
const spellings = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  Buffer.from(secret).toString('base64'),
  Buffer.from(secret).toString('base64url'),
];

/** The target echoes the token and the gateway key it was sent: as sent, percent-encoded and in base64. */
const echo: Handler = async (request, next) => {
  const answer = await next(request);
  const token = request.headers['authorization']?.replace(/^Bearer /, '') ?? '';
  const key = request.headers[GATEWAY.name.toLowerCase()] ?? '';
  const echoed = { 'x-echo': `${encodeURIComponent(token)} ${Buffer.from(key).toString('base64')}`, 'x-echo-raw': `${token};${key}` };
  return { ...answer, headers: { ...answer.headers, ...echoed } };
};

/** A target that refuses every start, whatever its body (as one whose URL rule refuses the run's site would). */
const refuseStarts: Handler = async (request, next) =>
  request.method === 'POST' && /^\/v[12]\/(crawl|batch\/scrape)$/.test(request.url)
    ? { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: false, error: 'URL not allowed' }) }
    : next(request);

const variant = (name: string) => [...BROKEN_SERVERS, ...BROKEN_CRAWLERS].find((v) => v.name === name)!;

interface Har {
  readonly log: {
    readonly version: string;
    readonly creator: { name: string; version: string };
    readonly entries: HarEntry[];
    readonly _crawlspec: RunMark;
  };
}

let dir: string;
let correct: KitTarget;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawlspec-replay-'));
  correct = await kitTarget({ token: TOKEN });
});
afterAll(async () => {
  await correct?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The HAR 1.2 schemas of har-schema, compiled by Ajv (they are draft-06). */
function harValidator() {
  const require = createRequire(import.meta.url);
  const schemas = require('har-schema') as Record<string, object>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  addFormats.default(ajv);
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

/** Options for a run of one job-free check against `target`, without the test site (no behaviour check runs). */
function oneCheck(target: KitTarget, check: string, record: string, extra: Partial<ContractOptions> = {}): ContractOptions {
  const { siteHost: _served, ...options } = target.options({ only: [check], runs: 1, behaviour: false, record, ...extra });
  return options;
}

const replayArgs = (file: string, extra: string[] = []) => [
  'contract',
  'replay',
  file,
  '--token',
  TOKEN,
  '--header',
  `${GATEWAY.name}: ${GATEWAY.value}`,
  ...extra,
];

describe.concurrent('record and replay', () => {
  it(
    'a refusal the broken target does not make: recorded as HAR 1.2 without secrets, STILL FAILING there, FIXED on the reference server',
    { timeout: TIMEOUT_MS },
    async () => {
      const broken = await kitTarget({ token: TOKEN, wrap: variant('timeout.aboveMaximumAccepted').wrap, deviate: echo });
      try {
        const file = join(dir, 'timeout.har');
        const report: ContractReport = await runContract(
          oneCheck(broken, 'v2.rule.timeout.maximum', file, { headers: { [GATEWAY.name]: GATEWAY.value } }),
        );
        expect(report.checks.find((c) => c.name === 'v2.rule.timeout.maximum')?.status).toBe('fail');
        const text = await readFile(file, 'utf8');
        const har = JSON.parse(text) as Har;

        // HAR 1.2, by the published schemas and the spec's rules the schemas leave out.
        const validate = harValidator();
        expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
        expect(har.log.version).toBe('1.2');
        expect(har.log.creator.name).toBe('crawlspec');
        for (const entry of har.log.entries) {
          const { send, wait, receive } = entry.timings;
          for (const t of [send, wait, receive]) expect(t).toBeGreaterThanOrEqual(0);
          expect(entry.time).toBeCloseTo(send + wait + receive, 2);
          expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
          if (entry.request.postData) expect(entry.request.bodySize).toBe(Buffer.byteLength(entry.request.postData.text));
        }

        // Every exchange the target got, each once.
        expect(har.log.entries.length).toBe(broken.log.length);
        expect(har.log.entries.length).toBe(report.requests);
        const sent = (e: { method: string; url: string }) => `${e.method} ${e.url}`;
        expect(
          har.log.entries
            .map((e) => sent({ method: e.request.method, url: new URL(e.request.url).pathname + new URL(e.request.url).search }))
            .sort(),
        ).toEqual(broken.log.map(sent).sort());

        // No secret in any spelling, although the target echoed both in every answer; the headers say where they were.
        for (const secret of [TOKEN, GATEWAY.value]) for (const spelling of spellings(secret)) expect(text).not.toContain(spelling);
        const first = har.log.entries[0]!;
        expect(first.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer ***' });
        expect(first.request.headers).toContainEqual({ name: GATEWAY.name, value: '***' });
        expect(first.response.headers.find((h) => h.name === 'x-echo-raw')?.value).toBe('***;***');

        // The failing start is marked, with its expectation; the run's verdict is kept.
        const failed = har.log.entries.filter((e) => e._crawlspec.failed);
        expect(failed.length).toBeGreaterThan(0);
        for (const entry of failed) {
          const mark: EntryMark = entry._crawlspec;
          expect(mark).toMatchObject({
            check: 'v2.rule.timeout.maximum',
            auth: 'token',
            replay: true,
            expectation: { interface: { outcome: 'refused' } },
          });
          expect(entry.request.method).toBe('POST');
          expect(entry.response.status).toBe(200);
        }
        expect(har.log._crawlspec).toMatchObject({ level: 'interface', verdict: 'deviations found', notReplayable: [] });

        // Replayed against the same broken target (the recorded one, confirmed): still failing, and the job each
        // replayed start started is cancelled.
        const before = broken.log.length;
        const again = await runCli(replayArgs(file, ['--to-recorded-target']), '', TIMEOUT_MS);
        expect(again.code, again.stderr + again.stdout).toBe(1);
        expect(again.stdout).toMatch(/^STILL FAILING\s+v2\.rule\.timeout\.maximum: POST \/v2\/crawl$/m);
        expect(again.stdout).toContain('the request was not refused, although the interface refuses it');
        expect(again.stdout).toMatch(
          new RegExp(`^0 fixed, ${failed.length} still failing, 0 not judged, 0 checks not replayed: still failing$`, 'm'),
        );
        const replayed = broken.log.slice(before);
        expect(replayed.filter(isStart)).toHaveLength(failed.length);
        const { started, cancelled } = startedAndCancelled(replayed);
        expect(started.length).toBe(failed.length);
        for (const id of started) expect(cancelled.has(id), `job ${id} not cancelled`).toBe(true);
        for (const secret of [TOKEN, GATEWAY.value]) expect(again.stdout + again.stderr).not.toContain(secret);

        // Against the reference server: refused, beside a baseline start it accepts (and whose job is cancelled). A
        // server of its own: the other tests of this file run at once against `correct`, and its log would hold their jobs.
        const reference = await kitTarget({ token: TOKEN });
        try {
          const fixed = await runCli(replayArgs(file, ['--base-url', reference.url]), '', TIMEOUT_MS);
          expect(fixed.code, fixed.stderr + fixed.stdout).toBe(0);
          expect(fixed.stdout).toMatch(/^FIXED\s+v2\.rule\.timeout\.maximum: POST \/v2\/crawl$/m);
          expect(fixed.stdout).toContain(`sent to ${reference.url}`);
          expect(fixed.stdout).toMatch(
            new RegExp(`^${failed.length} fixed, 0 still failing, 0 not judged, 0 checks not replayed: all fixed$`, 'm'),
          );
          const onReference = reference.log.filter((e) => e.url === '/v2/crawl');
          expect(onReference.some((e) => e.body.includes('300001') && e.status === 400)).toBe(true);
          const baseline = startedAndCancelled(reference.log);
          expect(baseline.started.length).toBeGreaterThan(0);
          for (const id of baseline.started) expect(baseline.cancelled.has(id), `baseline job ${id} not cancelled`).toBe(true);
        } finally {
          await reference.close();
        }

        // Against a target that refuses every start: its refusal shows nothing, so nothing is claimed fixed.
        const refusing = await kitTarget({ token: TOKEN, deviate: refuseStarts });
        try {
          const vacuous = await runCli(replayArgs(file, ['--base-url', refusing.url]), '', TIMEOUT_MS);
          expect(vacuous.code, vacuous.stderr + vacuous.stdout).toBe(3);
          expect(vacuous.stdout).toMatch(/^NOT JUDGED\s+v2\.rule\.timeout\.maximum: POST \/v2\/crawl$/m);
          expect(vacuous.stdout).toContain('the refusal shows nothing: the same body without the breaking change was refused too (400');
          expect(vacuous.stdout).not.toMatch(/^FIXED/m);
        } finally {
          await refusing.close();
        }

        // Against an address nothing listens on: the target was never reached (exit 2, as for a run), nothing judged.
        const closed = createServer();
        await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
        const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
        await new Promise<void>((resolve) => closed.close(() => resolve()));
        const unreached = await runCli(replayArgs(file, ['--base-url', nowhere]), '', TIMEOUT_MS);
        expect(unreached.code, unreached.stderr + unreached.stdout).toBe(2);
        expect(unreached.stdout).toMatch(/: target never reached \(.*ECONNREFUSED.*\): nothing was judged again$/m);
        expect(unreached.stdout).not.toMatch(/^(FIXED|STILL FAILING)/m);
      } finally {
        await broken.close();
      }
    },
  );

  it(
    'a request recorded without the token is replayed without it; FIXED once the target refuses it (CLI --record)',
    { timeout: TIMEOUT_MS },
    async () => {
      // The variant serves a request without a token as if it carried the right one: its own (BROKEN_SERVER_TOKEN).
      const broken = await kitTarget({ token: BROKEN_SERVER_TOKEN, wrap: variant('auth.missingAccepted').wrap });
      const reference = await kitTarget({ token: BROKEN_SERVER_TOKEN });
      try {
        const file = join(dir, 'auth.har');
        const run = await runCli(
          [
            'contract',
            '--base-url',
            broken.url,
            '--token',
            BROKEN_SERVER_TOKEN,
            '--only',
            'auth.missing',
            '--no-behaviour',
            '--record',
            file,
          ],
          '',
          TIMEOUT_MS,
        );
        expect(run.code, run.stderr + run.stdout).toBe(1);
        const har = JSON.parse(await readFile(file, 'utf8')) as Har;
        expect(har.log.entries.length).toBe(broken.log.length);
        const failed = har.log.entries.filter((e) => e._crawlspec.failed);
        expect(failed.length).toBeGreaterThan(0);
        for (const entry of failed) {
          expect(entry._crawlspec.auth).toBe('none');
          expect(entry.request.headers.some((h) => h.name === 'Authorization')).toBe(false);
        }

        const fixed = await runCli(
          ['contract', 'replay', file, '--token', BROKEN_SERVER_TOKEN, '--base-url', reference.url],
          '',
          TIMEOUT_MS,
        );
        expect(fixed.code, fixed.stderr + fixed.stdout).toBe(0);
        // Each version's start, although the report folds the two into one failure with a count.
        expect(fixed.stdout).toMatch(/^FIXED\s+auth\.missing: POST \/v1\/crawl$/m);
        expect(fixed.stdout).toMatch(/^FIXED\s+auth\.missing: POST \/v2\/crawl$/m);
        // The replayed start went without a token, and was refused; the baseline went with it, and its job was cancelled.
        const starts = reference.log.filter(isStart);
        expect(starts.some((e) => e.authorization === undefined && e.status === 401)).toBe(true);
        expect(starts.some((e) => e.authorization === `Bearer ${BROKEN_SERVER_TOKEN}` && e.status === 200)).toBe(true);
        const { started, cancelled } = startedAndCancelled(reference.log);
        for (const id of started) expect(cancelled.has(id), `baseline job ${id} not cancelled`).toBe(true);
      } finally {
        await broken.close();
        await reference.close();
      }
    },
  );

  it('a failure judged over a whole crawl is NOT REPLAYED, with the check to run again (exit 3)', { timeout: TIMEOUT_MS }, async () => {
    const broken = await kitTarget({ token: TOKEN, wrap: variant('crawl.limitIgnored').wrap });
    try {
      const file = join(dir, 'behaviour.har');
      const report = await runContract(broken.options({ only: ['v2.crawl.behaviour.limit'], runs: 1, record: file }));
      expect(report.checks.find((c) => c.name === 'v2.crawl.behaviour.limit')?.status).toBe('fail');
      const har = JSON.parse(await readFile(file, 'utf8')) as Har;
      expect(har.log._crawlspec.notReplayable).toEqual([expect.objectContaining({ check: 'v2.crawl.behaviour.limit', reason: 'whole' })]);
      expect(har.log.entries.filter((e) => e._crawlspec.replay === true)).toEqual([]);

      const before = broken.log.length;
      const replayed = await runCli(['contract', 'replay', file, '--token', TOKEN, '--to-recorded-target'], '', TIMEOUT_MS);
      expect(replayed.code, replayed.stderr + replayed.stdout).toBe(3);
      expect(replayed.stdout).toMatch(
        /^NOT REPLAYED\s+v2\.crawl\.behaviour\.limit \(judged over a whole job or several exchanges: re-run it with --only v2\.crawl\.behaviour\.limit\)$/m,
      );
      expect(replayed.stdout).toMatch(/0 fixed, 0 still failing, 0 not judged, 1 check not replayed: incomplete/);
      expect(broken.log.length).toBe(before);
    } finally {
      await broken.close();
    }
  });

  it(
    'a generated check: only the minimal counterexample of each class is marked failed, not the requests met while shrinking',
    { timeout: TIMEOUT_MS },
    async () => {
      const broken = await kitTarget({ token: TOKEN, wrap: variant('types.dropped').wrap });
      try {
        const file = join(dir, 'generated.har');
        const check = 'v2.crawl.start.invalid.wrongType';
        const report = await runContract(oneCheck(broken, check, file, { runs: 3 }));
        const reported = report.checks.find((c) => c.name === check)!.failures;
        expect(reported.length).toBeGreaterThan(0);
        expect(reported.every((f) => f.counterexample !== undefined)).toBe(true);
        const har = JSON.parse(await readFile(file, 'utf8')) as Har;
        const accepted = har.log.entries.filter(
          (e) => e._crawlspec.check === check && e.request.method === 'POST' && e.response.status === 200,
        );
        const failed = har.log.entries.filter((e) => e._crawlspec.failed);
        // Each reported counterexample's request is marked, and only those: shrinking sent more accepted bodies.
        expect(failed.map((e) => e.request.postData?.text).sort()).toEqual(
          reported.map((f) => /--data-raw '(.*)'$/.exec(f.request ?? '')?.[1]?.replaceAll(`'\\''`, "'")).sort(),
        );
        expect(accepted.length).toBeGreaterThan(failed.length);
      } finally {
        await broken.close();
      }
    },
  );

  it(
    'a failing answer about a job the run started (its status page) is NOT REPLAYED: the job is gone with the run',
    { timeout: TIMEOUT_MS },
    async () => {
      const broken = await kitTarget({ token: TOKEN, wrap: variant('status.completedAsString').wrap });
      try {
        const file = join(dir, 'status.har');
        const report = await runContract(oneCheck(broken, 'v2.status', file, { level: 'service' }));
        expect(report.checks.find((c) => c.name === 'v2.status')?.status).toBe('fail');
        const har = JSON.parse(await readFile(file, 'utf8')) as Har;
        const failed = har.log.entries.filter((e) => e._crawlspec.failed);
        expect(failed.length).toBeGreaterThan(0);
        for (const entry of failed) {
          expect(entry.request.method).toBe('GET');
          expect(entry._crawlspec).toMatchObject({ check: 'v2.status', replay: false, expectation: { service: { status: 200 } } });
        }
        expect(har.log._crawlspec.notReplayable).toEqual([expect.objectContaining({ check: 'v2.status', reason: 'job' })]);

        const before = broken.log.length;
        const replayed = await runCli(['contract', 'replay', file, '--token', TOKEN, '--to-recorded-target'], '', TIMEOUT_MS);
        expect(replayed.code, replayed.stderr + replayed.stdout).toBe(3);
        expect(replayed.stdout).toMatch(
          /^NOT REPLAYED\s+v2\.status \(judged on a job the run started: re-run it with --only v2\.status\)$/m,
        );
        expect(replayed.stdout).toContain('completed');
        expect(broken.log.length).toBe(before);
      } finally {
        await broken.close();
      }
    },
  );

  it(
    'a lost connection is an entry too (status 0, the reason in _error), and a long answer is cut, saying so',
    { timeout: TIMEOUT_MS },
    async () => {
      const server = createServer((request, response) => {
        if (request.url === '/v2/crawl/active') request.socket.destroy();
        else response.writeHead(200, { 'content-type': 'text/plain' }).end('é'.repeat(TEXT_LIMIT + 10));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const file = join(dir, 'lost.har');
        const options = resolveOptions({
          baseUrl: base,
          token: TOKEN,
          versions: ['v2'],
          seed: 0,
          runs: 1,
          concurrency: 1,
          behaviour: false,
          record: file,
        });
        const recording = new Recording(file);
        await recording.runStarted(options);
        const client = new HttpClient({
          token: TOKEN,
          timeoutMs: 10_000,
          concurrency: 1,
          maxResponseBytes: 1 << 20,
          onExchange: (record) => recording.exchange(record, null),
        });
        const budget = new RequestBudget(2);
        await expect(client.send({ method: 'GET', url: `${base}/v2/crawl/active` }, budget)).rejects.toThrow();
        await client.send({ method: 'GET', url: `${base}/v2/crawl/long` }, budget);
        await recording.runEnded(undefined);

        const har = JSON.parse(await readFile(file, 'utf8')) as Har;
        const validate = harValidator();
        expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
        const [lost, long] = har.log.entries;
        expect(lost!.response).toMatchObject({ status: 0, httpVersion: '', headers: [], _error: expect.stringMatching(/\S/) });
        expect(lost!._crawlspec).toEqual({ check: null, auth: 'token', failed: false });
        expect(long!.response.status).toBe(200);
        expect(long!.response.content.text).toBe('é'.repeat(TEXT_LIMIT));
        expect(long!.response.content.size).toBe(2 * (TEXT_LIMIT + 10));
        expect(long!.response.content.comment).toBe(`cut: 10 characters more (a recording keeps ${TEXT_LIMIT} characters of an answer)`);
        expect(har.log._crawlspec).not.toHaveProperty('verdict');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );

  it('usage errors and files that are no recording: exit 2, one line, nothing sent', { timeout: TIMEOUT_MS }, async () => {
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, 'not json');
    const otherHar = join(dir, 'other.har');
    await writeFile(otherHar, JSON.stringify({ log: { version: '1.2', creator: { name: 'Firefox', version: '1' }, entries: [] } }));
    const target = await kitTarget({});
    const cases: [string[], RegExp][] = [
      [['contract', 'replay'], /replay needs the recording to replay/],
      [['contract', 'replay', join(dir, 'missing.har')], /cannot read the recording .*missing\.har.*ENOENT/],
      [['contract', 'replay', notJson], /cannot be replayed: it is not JSON/],
      [['contract', 'replay', otherHar], /cannot be replayed: it was written by Firefox, not by crawlspec contract --record/],
      [['contract', 'replay', otherHar, '--token', 'a', '--no-auth'], /--token and --no-auth exclude each other/],
      [['contract', 'replay', otherHar, '--base-url', 'ftp://x'], /--base-url takes an http or https address/],
      [['contract', 'replay', otherHar, '--header', 'Authorization: x'], /--header "Authorization: \*\*\*": Authorization cannot be set/],
      [
        ['contract', '--base-url', target.url, '--no-auth', '--record', dir],
        /--record .* is a directory; expected a file to write the exchanges of the run \(HAR 1\.2\) to/,
      ],
      [
        ['contract', '--base-url', target.url, '--no-auth', '--record', join(dir, 'nowhere', 'run.har')],
        /--record .*: the directory .* does not exist/,
      ],
      [
        ['contract', '--base-url', target.url, '--no-auth', '--record', join(dir, 'same'), '--report', join(dir, 'same')],
        /--record and --report name the same file/,
      ],
    ];
    try {
      for (const [args, message] of cases) {
        const run = await runCli(args, '', TIMEOUT_MS);
        expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(2);
        expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
        expect(run.stderr, args.join(' ')).toMatch(message);
      }
      expect(target.log).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it(
    'a run where nothing failed replays nothing (exit 0); one that sent a token is not replayed without one',
    { timeout: TIMEOUT_MS },
    async () => {
      const file = join(dir, 'needs-token.har');
      await runContract(oneCheck(correct, 'v2.rule.timeout.maximum', file));
      const har = JSON.parse(await readFile(file, 'utf8')) as Har;
      // A correct target: nothing failed, nothing to replay; shown as such.
      expect(har.log.entries.some((e) => e._crawlspec.failed)).toBe(false);
      const none = await runCli(['contract', 'replay', file, '--to-recorded-target'], '', TIMEOUT_MS);
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toMatch(/^0 fixed, 0 still failing, 0 not judged, 0 checks not replayed: all fixed$/m);
      // Marked failing by hand: now it needs the token.
      const marked = {
        ...har,
        log: {
          ...har.log,
          entries: har.log.entries.map((e, i) =>
            i === 0 ? { ...e, _crawlspec: { ...e._crawlspec, failed: true, replay: true, expectation: { service: { status: 200 } } } } : e,
          ),
        },
      };
      await writeFile(file, JSON.stringify(marked));
      const run = await runCli(['contract', 'replay', file, '--to-recorded-target'], '', TIMEOUT_MS);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/the recorded run sent a token: give --token T \(or CRAWLSPEC_TOKEN\), or --no-auth/);
    },
  );
});
