/**
 * `crawlspec serve --resolve NAME=ADDR` (issue 43): a reference server started apart maps the kit's test-site names
 * to loopback for its own fetches, so that `crawlspec contract --site-host NAME` against it runs every check, the
 * two allowSubdomains ones included, and ends conformant with no --skip: the commands docs/reference-server.md and
 * docs/ci.md show. Both run for real as child processes (the test run's build of the command), the server on a
 * port the system picks on 127.0.0.1, stopped with SIGINT. Without --resolve the same run ends `deviations found`:
 * the server makes up a page for every name it cannot reach (50 failures, checked by hand on the change).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ContractReportJson } from '../scripts/contract/index.js';
import { builtCli } from './support/build.js';
import { ROOT, runCli } from './support/runCli.js';

// A whole run takes some 50 s on a loaded 2-core machine: the ceiling is a safety net only.
const TIMEOUT_MS = 300_000;
const TOKEN = 'fc-resolve-test';
const SECRET = 'resolve-test-webhook-secret';
/** The server's flags of docs/reference-server.md: the site's two names on loopback, its TLS page's port allowed. */
const SERVE_FLAGS = ['--resolve', 'site.example.com=127.0.0.1', '--resolve', 'sub.site.example.com=127.0.0.1', '--allow-host', '127.0.0.1'];

const environment = (): NodeJS.ProcessEnv => {
  const { CRAWLSPEC_TOKEN: _token, CRAWLSPEC_WEBHOOK_SECRET: _secret, ...outside } = process.env;
  return { ...outside, NO_COLOR: '1', CRAWLSPEC_TOKEN: TOKEN, CRAWLSPEC_WEBHOOK_SECRET: SECRET };
};

/** `crawlspec serve --port 0 ...` until it prints where it listens: its address, and how to stop it. */
function serve(args: readonly string[]): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [builtCli(), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: environment(),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (found !== null)
        resolve({
          url: found[1]!,
          stop: () => {
            child.kill('SIGINT');
            return closed;
          },
        });
    });
    void closed.then((code) => reject(new Error(`serve ended (${code}) before listening: ${stderr}`)));
  });
}

describe('crawlspec serve --resolve', () => {
  it.each([
    [['nameonly'], '--resolve takes NAME=ADDR, a host name and the loopback address it stands for (e.g. site.example.com=127.0.0.1), not "nameonly"'],
    [['site.example.com=10.0.0.5'], '--resolve "site.example.com=10.0.0.5": "10.0.0.5" is not a loopback address; expected one of 127.0.0.0/8 or ::1 (e.g. site.example.com=127.0.0.1)'],
    [['site.example.com=localhost'], '--resolve "site.example.com=localhost": "localhost" is not a loopback address; expected one of 127.0.0.0/8 or ::1 (e.g. site.example.com=127.0.0.1)'],
    [['127.0.0.9=127.0.0.1'], '--resolve takes a host name (e.g. crawlspec.example.com), not an IP address: "127.0.0.9"'],
    [['a.example.com=127.0.0.1', 'A.example.com=127.0.0.2'], '--resolve names a.example.com twice; expected each name once'],
  ])('%j is a usage error of one line (exit 2)', async (values, line) => {
    const run = await runCli(['serve', ...values.flatMap((value) => ['--resolve', value])], '', 30_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`crawlspec: ${line} (crawlspec serve --help)\n`);
  });

  it(
    'lets a kit run with --site-host against a server started apart run every check and end conformant',
    async () => {
      const server = await serve(['--webhook-secret', SECRET, ...SERVE_FLAGS]);
      try {
        const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [builtCli(), 'contract', '--base-url', server.url, '--site-host', 'site.example.com', '--json'],
            { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: environment(), timeout: TIMEOUT_MS },
          );
          let stdout = '';
          let stderr = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          child.on('error', reject);
          child.on('close', (code) => resolve({ code, stdout, stderr }));
        });
        const report = JSON.parse(run.stdout) as ContractReportJson;
        const notPassed = report.checks.filter((check) => check.status !== 'pass').map((check) => `${check.name}: ${check.status}`);
        expect(notPassed).toEqual([]);
        expect(report.verdict).toBe('conformant');
        expect(run.code).toBe(0);
        const subdomains = report.checks.filter((check) => check.name.endsWith('.crawl.behaviour.allowSubdomains'));
        expect(subdomains.map((check) => `${check.name}: ${check.status}`)).toEqual([
          'v1.crawl.behaviour.allowSubdomains: pass',
          'v2.crawl.behaviour.allowSubdomains: pass',
        ]);
        // The webhook signature check runs too (the secret from CRAWLSPEC_WEBHOOK_SECRET on both sides).
        expect(report.checks.find((check) => check.name === 'v2.webhook.signature')?.status).toBe('pass');
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    TIMEOUT_MS,
  );
});
