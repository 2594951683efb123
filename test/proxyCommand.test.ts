/**
 * `crawlspec proxy`, the command: in front of `crawlspec serve` (a valid crawl forwarded, an invalid one reported
 * with its path, the token never written), and `--json` on a file that fails mid-run (said once, the proxy goes on).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './support/build.js';
import { ROOT } from './support/runCli.js';
import { startServerProcess, type ServerProcess } from './support/serverProcess.js';
import { TOKEN, post } from './support/proxyRuns.js';

describe('crawlspec proxy, the command', () => {
  // The two commands as users run them: `crawlspec serve` in its own process, and the proxy in front of it.
  let target: ServerProcess;
  let scratch: string;
  beforeAll(async () => {
    target = await startServerProcess(TOKEN);
    scratch = await mkdtemp(join(tmpdir(), 'crawlspec-proxy-'));
  });
  afterAll(async () => {
    await target.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('in front of crawlspec serve: a valid crawl forwarded (200), an invalid one reported with its path; the token never written', async () => {
    const jsonl = join(scratch, 'problems.jsonl');
    const logged = join(scratch, 'exchanges.jsonl');
    const child = spawn(process.execPath, [builtCli(), 'proxy', '--target', target.url, '--json', jsonl, '--log', logged], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const url = await new Promise<string>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (found) resolve(found[1]!);
      }),
    );
    const valid = await post(url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, limit: 1 }));
    expect(valid.status).toBe(200);
    const { id } = (await valid.json()) as { id: string };
    const invalid = await post(
      url,
      '/v2/crawl',
      JSON.stringify({
        url: `${target.url}/site/`,
        scrapeOptions: { timeout: 300001 },
        webhook: { url: 'https://hooks.example.com/x', headers: { 'X-Key': TOKEN } },
      }),
    );
    expect(invalid.status).toBe(400);
    await (await fetch(`${url}/v2/crawl/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } })).text();
    await new Promise<void>((resolve) => {
      const wait = () => (stdout.includes('$.scrapeOptions.timeout') ? resolve() : setTimeout(wait, 25));
      wait();
    });
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
      '✗ request POST /v2/crawl: $.scrapeOptions.timeout: must be <= 300000, not 300001. Expected: Request timeout in milliseconds, at most 300000. The default applies only when `waitFor` is not sent. [interface §2.4]',
    ]);
    expect(lines.at(-1)).toBe(
      'crawlspec proxy: 3 exchange(s); 1 problem(s), 1 of interface level and 0 of service level (1 decide at interface level); 0 exchange(s) unchecked',
    );
    const log = await readFile(logged, 'utf8');
    expect(
      log
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { method: string; path: string; status: number; verdict: string; requestBody?: string }),
    ).toEqual([
      expect.objectContaining({ method: 'POST', path: '/v2/crawl', status: 200, verdict: 'passed' }),
      expect.objectContaining({
        method: 'POST',
        path: '/v2/crawl',
        status: 400,
        verdict: 'problems',
        requestBody: expect.stringContaining('"X-Key":"***"'),
      }),
      expect.objectContaining({ method: 'DELETE', path: `/v2/crawl/${id}`, verdict: 'passed' }),
    ]);
    const written = await readFile(jsonl, 'utf8');
    expect(
      written
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { at: string }),
    ).toEqual([expect.objectContaining({ at: '$.scrapeOptions.timeout' })]);
    for (const text of [stdout, stderr, written, log]) expect(text).not.toContain(TOKEN);
  }, 60_000);

  it('--json on a file that fails mid-run (/dev/full: no space): said once on stderr, the proxy goes on answering', async () => {
    const child = spawn(process.execPath, [builtCli(), 'proxy', '--target', target.url, '--json', '/dev/full'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const said = new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('\n')) resolve();
      }),
    );
    const url = await new Promise<string>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (found) resolve(found[1]!);
      }),
    );
    expect((await post(url, '/v2/crawl', JSON.stringify({ url: 5 }))).status).toBe(400);
    await said;
    expect((await post(url, '/v2/crawl', JSON.stringify({ url: 6 }))).status).toBe(400);
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    expect(stderr).toBe('crawlspec proxy: cannot write --json "/dev/full" (ENOSPC); the problems are printed here only from now on\n');
    expect(stdout.split('\n').filter((l) => l.startsWith('✗ request POST /v2/crawl: $.url'))).toHaveLength(2);
  }, 60_000);
});
