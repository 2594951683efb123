/**
 * The `serve` and `contract` commands, run for real: `node --import tsx scripts/cli.ts ...` as a child
 * process from the repository root, stdin closed, nothing inherited from the terminal. The embedded runs
 * (no `--base-url`) test the built-in reference server; the rest are the usage errors and an unreachable
 * target (exit 2), and the reference server started, asked once, and stopped with SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ContractReportJson } from '../scripts/contract/index.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { kitTarget, type Handler } from './support/kitTarget.js';
import { closedPort } from './support/siteGuard.js';
import { builtCli } from './support/build.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// A whole run against the embedded server takes some 45 s on a loaded 2-core machine: the ceiling is a safety net only.
const TIMEOUT_MS = 200_000;
/** A line the command prints as a check ends: `[  3.2s   5/132] PASS  v1.status`. */
const PROGRESS_LINE = /^\[\s*\d+\.\ds\s+\d+\/\d+\] (PASS|FAIL|INCONCLUSIVE|SKIP|DIFFERS|NOT JUDGED)\s+\S/;
/** The JSON Schema of `--json` as the package publishes it. */
const validateReport = new Ajv2020({ strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', 'report.schema.json'), 'utf8')) as object,
);

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a child: no token from the outside, no colours. */
function childEnv(): NodeJS.ProcessEnv {
  const { CRAWLSPEC_TOKEN: _token, ...env } = process.env;
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0' };
}

function start(args: readonly string[]): ChildProcess {
  const child = spawn(process.execPath, [builtCli(), ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: TIMEOUT_MS,
    env: childEnv(),
  });
  child.stdin!.end();
  return child;
}

/** `crawlspec ...args` to its end. */
function cli(args: readonly string[]): Promise<Run> {
  return new Promise<Run>((resolve, reject) => {
    const child = start(args);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawlspec-cli-contract-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.concurrent('crawlspec contract', { timeout: TIMEOUT_MS + 20_000 }, () => {
  // The one whole run of this file (the in-process runs of test/contractReference.test.ts prove the default budget at both
  // levels): the command's embedded server, at service level (every check in scope), with the smallest budget.
  it('against the embedded reference server at --level service, with --report: exit 0, conformant, every check passes, a requests-per-second figure; the JUnit file has one test case per check and no failure', async () => {
    const file = join(dir, 'junit.xml');
    const run = await cli(['contract', '--seed', '7', '--runs', '1', '--level', 'service', '--report', file]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\d+ requests \(budget \d+\) in [\d.]+ s: \d+(\.\d+)? requests per second/);
    expect(run.stdout).toContain('level service, seed 7, 1 run per generated check');
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('conformant');
    const progress = run.stdout.split('\n').filter((line) => PROGRESS_LINE.test(line));
    expect(progress.length).toBeGreaterThan(100);
    expect(progress.filter((line) => !/\] PASS\s/.test(line))).toEqual([]);
    expect(run.stdout).toMatch(
      new RegExp(`^${progress.length} checks: ${progress.length} passed, 0 failed, 0 inconclusive, 0 skipped`, 'm'),
    );
    expect(run.stdout).toMatch(/^jobs: (\d+) started, \1 cancelled$/m);

    const xml = await readFile(file, 'utf8');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expectWellFormedXml(xml);
    expect(xml.match(/<testcase /g)?.length).toBe(progress.length);
    expect(xml).toMatch(/<testsuites name="crawlspec contract" tests="\d+" failures="0" skipped="0"/);
    expect(xml).not.toContain('<failure');
    expect(xml).toContain('<property name="seed" value="7"/>');
  });

  it('prints the header at once and a line per check as it ends, before the run ends; --only left out in one line', async () => {
    const token = 'a-token-for-the-progress-test';
    let seen: () => void = () => {};
    const firstLine = new Promise<void>((resolve) => (seen = resolve));
    let held = 0;
    const isJson = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    // json.malformed (the second check, one check at a time) sends bodies that are not JSON: each is held until the
    // first check's line is printed. Were the lines printed only at the end, it would get no answer in time and fail.
    const hold: Handler = async (request, next) => {
      if (request.method === 'POST' && !isJson(request.body)) {
        held += 1;
        await firstLine;
      }
      return next(request);
    };
    const target = await kitTarget({ token, deviate: hold });
    try {
      const child = start([
        'contract',
        '--base-url',
        target.url,
        '--token',
        token,
        '--only',
        'auth.missing',
        '--only',
        'json.malformed',
        '--concurrency',
        '1',
        '--runs',
        '1',
        '--timeout',
        '20',
      ]);
      let stdout = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (/^\[\s*\d+\.\ds 1\/2\] PASS\s+auth\.missing$/m.test(stdout)) seen();
      });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code, stdout + stderr).toBe(0);
      expect(held).toBeGreaterThan(0);
      const lines = stdout.split('\n');
      expect(lines[0]).toBe(
        `crawlspec contract: ${target.url} (v1, v2), level interface, seed ${/seed (\d+)/.exec(lines[0]!)?.[1]}, 1 run per generated check`,
      );
      expect(lines.slice(1, 3)).toEqual([
        expect.stringMatching(/\] PASS\s+auth\.missing$/),
        expect.stringMatching(/^\[\s*\d+\.\ds 2\/2\] PASS\s+json\.malformed$/),
      ]);
      // The summary: no check listed a second time, the ones --only left out in one line.
      expect(lines.filter((line) => /^(PASS|FAIL|INCONCLUSIVE|SKIP|DIFFERS|NOT JUDGED)\s/.test(line))).toEqual([]);
      expect(stdout).toMatch(/^not selected \(--only\): \d+ checks/m);
      expect(stdout.trimEnd().split('\n').pop()).toBe('conformant');
    } finally {
      await target.close();
    }
  });

  it('--json: the report on stdout, valid against the published schema, with verdict, exit status and totals; the progress and the verdict line on stderr', async () => {
    const run = await cli([
      'contract',
      '--json',
      '--seed',
      '7',
      '--runs',
      '1',
      '--only',
      'json.malformed',
      '--only',
      'v2.status.undocumentedStatus',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ContractReportJson;
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report).toMatchObject({
      verdict: 'conformant',
      exitCode: 0,
      totals: { passed: 2, failed: 0, inconclusive: 0, skipped: report.checks.length - 2 },
    });
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^crawlspec contract: http:\/\/127\.0\.0\.1:\d+ \(v1, v2\), level interface, seed 7, 1 run per generated check$/,
    );
    expect(lines.slice(1, -1).map((line) => PROGRESS_LINE.test(line))).toEqual([true, true]);
    // The line the text report ends with, so that a person watching the run sees the verdict there too.
    expect(lines.at(-1)).toBe('conformant');
  });

  it('--max-requests 0: nothing sent, incomplete, exit 3, saying what did not run and why', async () => {
    const run = await cli(['contract', '--max-requests', '0', '--runs', '1']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/^incomplete: \d+ in-scope checks did not run to a verdict:$/m);
    expect(run.stdout).toContain('share of the request budget (0 requests) was used up');
    expect(run.stdout).toMatch(/^0 requests \(budget 0\)/m);
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('incomplete');
  });

  it('a --report that cannot be written at the end (a full disk): the verdict is printed first, then the error, exit 2', async () => {
    const run = await cli(['contract', '--max-requests', '0', '--runs', '1', '--report', '/dev/full']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('incomplete');
    expect(run.stderr).toMatch(/^crawlspec: cannot write the JUnit report to "\/dev\/full": ENOSPC\b.*\n$/m);
  });

  it.each([
    [403, {}],
    [429, { 'retry-after': '0' }],
  ] as const)('a target that answers %i to everything: incomplete, exit 3', async (status, headers) => {
    const target = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ success: false, error: 'no' }));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = target.address() as { port: number };
      const run = await cli(['contract', '--base-url', `http://127.0.0.1:${port}`, '--token', 'a-token-for-the-test', '--runs', '1']);
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expect(run.stdout).toMatch(new RegExp(`^  \\S+: ${status} from (GET|POST) \\S+: depends on the account$`, 'm'));
      expect(run.stdout.trimEnd().split('\n').pop()).toBe('incomplete');
    } finally {
      target.closeAllConnections();
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });

  it('--base-url at a closed port, --no-auth: unreachable, exit 2', async () => {
    const port = await closedPort();
    const run = await cli(['contract', '--base-url', `http://127.0.0.1:${port}`, '--no-auth', '--runs', '1']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain('target unreachable');
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('unreachable');
  });

  it('--base-url without a token (nor --no-auth): a usage error naming --token, exit 2', async () => {
    const run = await cli(['contract', '--base-url', 'http://127.0.0.1:1']);
    expect(run.code).toBe(2);
    // One line, not the whole usage (test/cliUsageErrors.test.ts checks every usage error so).
    expect(run.stderr).toBe(
      'crawlspec: a target needs --token T (or CRAWLSPEC_TOKEN), or --no-auth for one without authentication (crawlspec contract --help)\n',
    );
    expect(run.stdout).toBe('');
  });

  it('--only or --skip naming no check: the nearest pattern that names some is suggested, one line, exit 2', async () => {
    const cases: [string[], string][] = [
      [['--only', 'v2.crawl.behavior.*'], '--only "v2.crawl.behavior.*" names no check of v1 and v2; did you mean "v2.crawl.behaviour.*"? '],
      [['--only', 'behavior'], '--only "behavior" names no check of v1 and v2; did you mean "*.behaviour.*"? '],
      [['--skip', 'v2.crawl.start.vallid'], '--skip "v2.crawl.start.vallid" names no check of v1 and v2; did you mean "v2.crawl.start.valid"? '],
      // Nothing near: no suggestion.
      [['--only', 'nothing.matches'], '--only "nothing.matches" names no check of v1 and v2; '],
    ];
    for (const [args, said] of cases) {
      const run = await cli(['contract', ...args]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(`crawlspec: ${said}expected a name or pattern of crawlspec contract --list-checks (crawlspec contract --help)\n`);
    }
  });

  it('--version v3: a usage error, exit 2', async () => {
    const run = await cli(['contract', '--version', 'v3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--version takes v1, v2 or both, not "v3"');
    expect(run.stdout).toBe('');
  });
});

describe.concurrent('crawlspec serve', () => {
  it('--port 0 --no-auth: says where it listens, answers, and stops on SIGINT with exit 0', async () => {
    const child = start(['serve', '--port', '0', '--no-auth']);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal })),
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        const timer = setTimeout(
          () => reject(new Error(`no "listening on" line within 60 s; stdout: ${stdout}; stderr: ${stderr}`)),
          60_000,
        );
        child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (found) {
            clearTimeout(timer);
            resolve(found[1]!);
          }
        });
        child.once('close', () => {
          clearTimeout(timer);
          reject(new Error(`ended before listening; stdout: ${stdout}; stderr: ${stderr}`));
        });
      });
      expect(url).not.toMatch(/:0$/);
      const answer = await fetch(`${url}/v2/crawl/active`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ success: true, crawls: [] });

      child.kill('SIGINT');
      const { code, signal } = await ended;
      expect({ code, signal }, stderr).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('--token with --no-auth: a usage error, exit 2', async () => {
    const run = await cli(['serve', '--token', 'a', '--no-auth']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--token and --no-auth exclude each other');
    expect(run.stdout).toBe('');
  });

  it('--allow-host with no host in it: a usage error, exit 2', async () => {
    const run = await cli(['serve', '--no-auth', '--allow-host', 'intranet.test', '--allow-host', 'http://x/']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--allow-host takes a host name or an IP address, with a port or not (e.g. intranet.example.com, 10.0.0.5 or 127.0.0.1:8080), not "http://x/"',
    );
    expect(run.stdout).toBe('');
  });
});
