/**
 * Running the kit against a deployment: `--header 'Name: value'` (a gateway's key) goes on every request and
 * its value, like the token, is in nothing the kit writes (text, JSON, JUnit, curl lines, the progress lines);
 * a header the kit sets itself, or one that is no `Name: value`, is a usage error before anything is sent.
 * `--wait-for-target SECONDS` waits for a target that is starting, and ends as soon as it answers; one that
 * never answers is unreachable (exit 2), saying how long the kit waited.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCode, formatJunit, formatText, jsonReport, runContract } from '../scripts/contract/index.js';
import { resolveOptions } from '../scripts/contract/engine/options.js';
import { kitTarget, type Handler } from './support/kitTarget.js';
import { runCli } from './support/runCli.js';
import { closedPort } from './support/siteGuard.js';

const TOKEN = 'gateway-test-token';
const KEY = 'gw-key-7f3a9c2e51d04b6a';
const CLI_TIMEOUT_MS = 60_000;

/**
 * A gateway in front of the reference server: it refuses what comes without the key (403), and its 500 to a
 * malformed body echoes the key back (in JSON, percent-encoded and as sent), so that a failure shows it.
 */
const seen: string[] = [];
const gateway: Handler = async (request, next) => {
  // The server's own site (which its jobs fetch) is not behind the gateway.
  if (!/^\/v[12]\//.test(request.url)) return next(request);
  seen.push(request.headers['x-api-key'] ?? '(none)');
  if (request.headers['x-api-key'] !== KEY)
    return { status: 403, headers: { 'content-type': 'application/json' }, body: '{"error":"no key"}' };
  let json = true;
  try {
    JSON.parse(request.body);
  } catch {
    json = request.method !== 'POST';
  }
  if (json) return next(request);
  return {
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ success: false, error: `gateway ${KEY} failed`, key: encodeURIComponent(`${KEY}/x`) }),
  };
};

describe('--header', () => {
  it('is sent on every request and its value is in nothing the kit writes', async () => {
    seen.length = 0;
    const target = await kitTarget({ token: TOKEN, deviate: gateway });
    try {
      const lines: string[] = [];
      const report = await runContract(
        target.options({ only: ['json.malformed', 'auth.missing'], runs: 2, headers: { 'X-Api-Key': KEY } }),
        {
          checkEnded: (check, progress) => progress !== undefined && lines.push(JSON.stringify(check)),
        },
      );
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.every((key) => key === KEY)).toBe(true);
      // The 500 is a failure, with its curl line and the echo.
      const failure = report.checks.find((c) => c.name === 'json.malformed')!.failures[0]!;
      expect(failure.got?.status).toBe(500);
      expect(failure.request).toContain("-H 'X-Api-Key: ***'");
      expect(failure.got?.body).toContain('gateway *** failed');
      expect(exitCode(report)).toBe(1);
      for (const text of [formatText(report), JSON.stringify(jsonReport(report)), formatJunit(report), ...lines]) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(encodeURIComponent(KEY));
      }
    } finally {
      await target.close();
    }
  });

  it('a header the kit sets itself, a bad name, an empty or non-ASCII value, a name twice: refused before anything is sent', () => {
    const options = (headers: Record<string, string>) => ({
      baseUrl: 'http://127.0.0.1:9999',
      token: undefined,
      versions: ['v2' as const],
      seed: 1,
      runs: 1,
      concurrency: 1,
      headers,
    });
    for (const [headers, message] of [
      [{ Authorization: 'Bearer x' }, /Authorization cannot be set: the kit sends the token there \(--token\)/],
      [{ 'content-type': 'text/plain' }, /content-type cannot be set/],
      [{ Host: 'example.com' }, /Host cannot be set: the kit sends the target's host/],
      [{ 'Transfer-Encoding': 'chunked' }, /Transfer-Encoding cannot be set/],
      [{ 'X Key': 'a' }, /is not an HTTP header name/],
      [{ 'X-Key': '' }, /value of X-Key is empty or holds a control character/],
      [{ 'X-Key': 'a\nb' }, /value of X-Key is empty or holds a control character/],
      [{ 'X-Key': 'é' }, /beyond ASCII/],
      [{ 'X-Key': 'a', 'x-key': 'b' }, /x-key is given twice/],
    ] as const)
      expect(() => resolveOptions(options(headers)), JSON.stringify(headers)).toThrow(message);
    expect(resolveOptions(options({ 'X-Api-Key': 'a b\tc' })).headers).toEqual({ 'X-Api-Key': 'a b\tc' });
  });
});

describe('crawlspec contract --header', () => {
  it('usage errors: one line, exit 2, the value never shown', async () => {
    const cases: readonly (readonly [string[], string])[] = [
      [['--header', 'x'], `--header "x" is not Name: value; expected a header name, a colon and its value, e.g. --header 'X-Api-Key: KEY'`],
      [['--header', `: ${KEY}`], '--header ": ***" is not Name: value; expected a header name, a colon and its value, ...'],
      [['--header', 'X-Api-Key:'], '--header "X-Api-Key:" is not Name: value; ...'],
      [
        ['--header', `Authorization: Bearer ${KEY}`],
        '--header "Authorization: ***": Authorization cannot be set: the kit sends the token there (--token); expected a header of another name',
      ],
      [['--header', `Host: ${KEY}`], `--header "Host: ***": Host cannot be set: the kit sends the target's host; expected a header of another name`],
      [
        ['--header', `content-type: ${KEY}`],
        '--header "content-type: ***": content-type cannot be set: the kit sends its JSON bodies as application/json; ...',
      ],
      [
        ['--header', `X Key: ${KEY}`],
        `--header "X Key: ***": the name "X Key" is not an HTTP header name; expected letters, digits and ...`,
      ],
      [
        ['--header', `X-Key: ${KEY}\u0001`],
        '--header "X-Key: ***": the value of X-Key is empty or holds a control character or a character beyond ASCII; ...',
      ],
      [['--header', `X-A: ${KEY}`, '--header', `x-a: ${KEY}`], '--header x-a is given twice; expected each name once'],
    ];
    const runs = await Promise.all(
      cases.map(([args]) => runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--no-auth', ...args], '', CLI_TIMEOUT_MS)),
    );
    runs.forEach((run, i) => {
      const [args, said] = cases[i]!;
      const pattern = said
        .split('...')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      expect({ code: run.code, stdout: run.stdout }, args.join(' ')).toEqual({ code: 2, stdout: '' });
      expect(run.stderr, args.join(' ')).toMatch(new RegExp(`^crawlspec: ${pattern} \\(crawlspec contract --help\\)\n$`));
      expect(run.stderr).not.toContain(KEY);
    });
  }, 120_000);

  it('arrives at the server, and is in none of the text, JSON and JUnit the command writes', async () => {
    seen.length = 0;
    const target = await kitTarget({ token: TOKEN, deviate: gateway });
    const dir = await mkdtemp(join(tmpdir(), 'crawlspec-gateway-'));
    try {
      const args = [
        'contract',
        '--base-url',
        target.url,
        '--token',
        TOKEN,
        '--header',
        `X-Api-Key: ${KEY}`,
        '--only',
        'json.malformed',
        '--runs',
        '1',
      ];
      const [text, json] = await Promise.all([
        runCli([...args, '--report', join(dir, 'junit.xml')], '', CLI_TIMEOUT_MS),
        runCli([...args, '--json'], '', CLI_TIMEOUT_MS),
      ]);
      const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
      expect(text.code, text.stdout + text.stderr).toBe(1);
      expect(json.code, json.stderr).toBe(1);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((key) => key === KEY)).toBe(true);
      expect(text.stdout).toContain("-H 'X-Api-Key: ***'");
      expect(junit).toContain('X-Api-Key: ***');
      for (const output of [text.stdout, text.stderr, json.stdout, json.stderr, junit]) expect(output).not.toContain(KEY);
    } finally {
      await target.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * A target that comes up late, driven by what the kit does: on a free port, a listener that drops the first
 * connection (the kit's first try, seen failing), then stops listening (tries are refused), and is replaced
 * by one that passes every connection on to `upstream`, once the test starts it (`up`).
 */
async function lateTarget(
  upstream: string,
): Promise<{ url: string; firstTry: Promise<void>; up(): Promise<void>; close(): Promise<void> }> {
  const port = await closedPort();
  const sockets = new Set<Socket>();
  let tried: () => void = () => {};
  const firstTry = new Promise<void>((resolve) => (tried = resolve));
  const first = createServer((socket) => {
    socket.destroy();
    first.close();
    tried();
  });
  await new Promise<void>((resolve) => first.listen(port, '127.0.0.1', resolve));
  let forwarder: Server | undefined;
  const { port: upstreamPort } = new URL(upstream);
  return {
    url: `http://127.0.0.1:${port}`,
    firstTry,
    async up() {
      forwarder = createServer((socket) => {
        const out = connect(Number(upstreamPort), '127.0.0.1');
        for (const s of [socket, out]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => sockets.delete(s));
        }
        socket.pipe(out).pipe(socket);
      });
      await new Promise<void>((resolve) => forwarder!.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      for (const s of sockets) s.destroy();
      if (forwarder) await new Promise<void>((resolve) => forwarder!.close(() => resolve()));
    },
  };
}

describe('--wait-for-target', () => {
  it('waits for a target that is starting, and goes on as soon as it answers', async () => {
    const target = await kitTarget({ token: TOKEN });
    const late = await lateTarget(target.url);
    try {
      // Ten minutes to wait: the test ends in seconds only if the wait ends when the target answers.
      const run = runContract(target.options({ baseUrl: late.url, only: ['json.malformed'], runs: 1, waitForTargetMs: 600_000 }));
      await late.firstTry;
      await late.up();
      const report = await run;
      // The first request that reached the target was the wait's, and nothing of the run was lost on the way.
      expect(target.log[0]).toMatchObject({ method: 'GET', url: '/' });
      expect(report.transport.lost).toBe(0);
      expect(report.unreachable).toBe(false);
      expect(report.checks.find((c) => c.name === 'json.malformed')?.status, formatText(report)).toBe('pass');
      expect(exitCode(report)).toBe(0);
    } finally {
      await late.close();
      await target.close();
    }
  }, 60_000);

  it('a target that never answers: unreachable (exit 2), saying how long the kit waited; nothing sent', async () => {
    const port = await closedPort();
    const report = await runContract({
      baseUrl: `http://127.0.0.1:${port}`,
      token: undefined,
      versions: ['v2'],
      seed: 1,
      runs: 1,
      concurrency: 1,
      waitForTargetMs: 1000,
    });
    expect(report.unreachable).toBe(true);
    expect(report.unreachableReason).toMatch(/^no HTTP answer after waiting 1 s \(--wait-for-target\); the last try: .*ECONNREFUSED/);
    expect(report.requests).toBe(0);
    expect(report.checks.every((c) => c.status === 'skipped')).toBe(true);
    expect(exitCode(report)).toBe(2);

    const run = await runCli(
      ['contract', '--base-url', `http://127.0.0.1:${port}`, '--no-auth', '--wait-for-target', '1', '--only', 'json.malformed'],
      '',
      CLI_TIMEOUT_MS,
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toMatch(/^target unreachable: no HTTP answer after waiting 1 s \(--wait-for-target\)/m);
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('unreachable');
  }, 60_000);

  it('--wait-for-target and --confirm take whole numbers in their range (exit 2 otherwise)', async () => {
    for (const [option, value, line] of [
      ['--wait-for-target', '0', '--wait-for-target takes a whole number from 1 to 3600, not "0"'],
      ['--wait-for-target', 'soon', '--wait-for-target takes a whole number from 1 to 3600, not "soon"'],
      ['--confirm', '0', '--confirm takes a whole number from 1 to 20, not "0"'],
      ['--confirm', '21', '--confirm takes a whole number from 1 to 20, not "21"'],
    ] as const) {
      const run = await runCli(['contract', '--no-auth', option, value], '', CLI_TIMEOUT_MS);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toContain(line);
    }
  }, 120_000);
});
