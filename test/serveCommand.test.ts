/**
 * `crawlspec serve`, run for real, on what issue 22 (finding 7) added to it: a warning at start for `--no-auth`
 * and for an address other machines reach, the token read from CRAWLSPEC_TOKEN, `--allow-host HOST[:PORT]`
 * (loopback ports other than the server's own are fetched from only when named), and `--public-url` (the name it
 * answers to, and job addresses). Every server binds 127.0.0.1 on a port the system picks and stops on SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWarnings } from '../scripts/cli/serve.js';
import { siteNameWarning, type Resolver } from '../scripts/cli/site.js';
import { builtCli } from './support/build.js';
import { ROOT, runCli } from './support/runCli.js';
import { untilEnded } from './support/untilEnded.js';

const TIMEOUT_MS = 60_000;
const SECRET = 'served-on-another-port';

interface Served {
  readonly url: string;
  readonly line: string;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** `crawlspec serve --port 0 ...args` until it says where it listens; `env` added to its environment. */
function serve(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const { CRAWLSPEC_TOKEN: _outside, ...outside } = process.env;
  const child: ChildProcess = spawn(process.execPath, [builtCli(), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...outside, ...env },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (found === null || !stdout.includes('\n')) return;
      resolve({
        url: found[1]!,
        line: stdout.split('\n')[0]!,
        stderr: () => stderr,
        stop: async () => {
          child.kill('SIGINT');
          return closed;
        },
      });
    });
    void closed.then((code) => reject(new Error(`serve ended (${code}) before listening: ${stderr}`)));
  });
}

/** A page on 127.0.0.1, on a port of its own, holding SECRET. */
async function page(): Promise<{ readonly url: string; readonly port: number; asked: number; close(): Promise<void> }> {
  const served = { url: '', port: 0, asked: 0, close: async () => {} };
  const server: Server = createServer((_request, response) => {
    served.asked += 1;
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${SECRET}</title>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.port = (server.address() as AddressInfo).port;
  served.url = `http://127.0.0.1:${served.port}/page`;
  served.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return served;
}

const json = { 'content-type': 'application/json' };

/** A v2 batch of `urls` on `base`, read until it has ended: its records. */
async function batch(base: string, urls: readonly string[], headers: Record<string, string> = {}): Promise<any[]> {
  const started = await fetch(`${base}/v2/batch/scrape`, {
    method: 'POST',
    headers: { ...json, ...headers },
    body: JSON.stringify({ urls }),
  });
  const { id } = (await started.json()) as { id: string };
  const read = async () => (await fetch(`${base}/v2/batch/scrape/${id}`, { headers })).json() as Promise<{ status: string; data: any[] }>;
  return (await untilEnded(read, id, { timeoutMs: TIMEOUT_MS })).data;
}

describe('site serve --host NAME: a warning when the names it prints do not resolve to 127.0.0.1', () => {
  const table =
    (entries: Record<string, readonly string[] | string>): Resolver =>
    (name) =>
      Promise.resolve(entries[name] ?? 'ENOTFOUND');

  it('none when NAME and sub.NAME resolve to 127.0.0.1; else one line naming each that does not, and the fix', async () => {
    expect(
      await siteNameWarning('site.test', table({ 'site.test': ['127.0.0.1'], 'sub.site.test': ['::1', '127.0.0.1'] })),
    ).toBeUndefined();
    expect(await siteNameWarning('site.test', table({ 'site.test': ['127.0.0.1'] }))).toBe(
      'crawlspec site serve: warning: sub.site.test does not resolve (ENOTFOUND): the addresses printed above reach this site only from a crawler that maps the names to 127.0.0.1 itself (crawlspec serve does, for the kit); for others, add "127.0.0.1 site.test sub.site.test" to /etc/hosts',
    );
    expect(await siteNameWarning('site.test', table({ 'site.test': ['::1'], 'sub.site.test': ['192.0.2.7'] }))).toMatch(
      /^crawlspec site serve: warning: site\.test resolves to ::1, not 127\.0\.0\.1; sub\.site\.test resolves to 192\.0\.2\.7, not 127\.0\.0\.1: /,
    );
  });

  it(
    'the command writes it on stderr and serves the site all the same',
    async () => {
      const child = spawn(process.execPath, [builtCli(), 'site', 'serve', '--port', '0', '--host', 'nosuch.invalid'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
      const line = await new Promise<string>((resolve) => {
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
        });
      });
      child.kill('SIGINT');
      expect(await closed).toBe(0);
      expect(line).toMatch(/^test site serving http:\/\/nosuch\.invalid:\d+\//);
      expect(stderr).toMatch(
        /^crawlspec site serve: warning: nosuch\.invalid does not resolve \(\w+\); sub\.nosuch\.invalid does not resolve/,
      );
    },
    TIMEOUT_MS,
  );
});

describe('warnings at start', () => {
  it('one line each: for --no-auth, and for an address other machines reach (in words of the auth in force)', () => {
    const token = { token: 't' };
    expect(serveWarnings(token, '127.0.0.1')).toEqual([]);
    for (const loopback of ['localhost', '::1', '127.0.0.2']) expect(serveWarnings(token, loopback), loopback).toEqual([]);
    expect(serveWarnings('none', '127.0.0.1')).toEqual([
      'crawlspec serve: warning: --no-auth: whoever can reach this server can start jobs on it and read every job',
    ]);
    expect(serveWarnings(token, '0.0.0.0')).toEqual([
      'crawlspec serve: warning: --host 0.0.0.0 is reachable from other machines: whoever has the token can use this server',
    ]);
    expect(serveWarnings('none', '::')).toEqual([
      'crawlspec serve: warning: --no-auth: whoever can reach this server can start jobs on it and read every job',
      'crawlspec serve: warning: --host :: is reachable from other machines: anyone there can use this server',
    ]);
  });

  it('--no-auth: the warning is written on stderr when the server starts', async () => {
    const server = await serve(['--no-auth']);
    try {
      expect(server.line).toMatch(/\(no auth\)/);
      expect(server.stderr()).toBe(
        'crawlspec serve: warning: --no-auth: whoever can reach this server can start jobs on it and read every job\n',
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('the token from CRAWLSPEC_TOKEN', () => {
  it('is the token the server requires, and is not printed', async () => {
    const server = await serve([], { CRAWLSPEC_TOKEN: 'env-token-1234' });
    try {
      expect(server.line).toContain('(token from CRAWLSPEC_TOKEN)');
      expect(server.line).not.toContain('env-token-1234');
      expect(server.stderr()).toBe('');
      expect((await fetch(`${server.url}/v2/crawl/active`, { headers: { authorization: 'Bearer env-token-1234' } })).status).toBe(200);
      expect((await fetch(`${server.url}/v2/crawl/active`, { headers: { authorization: 'Bearer other' } })).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('--token wins over it; set but empty it is a usage error; --no-auth ignores it', async () => {
    const server = await serve(['--token', 'flag-token'], { CRAWLSPEC_TOKEN: 'env-token' });
    try {
      expect(server.line).toContain('(token flag-token)');
    } finally {
      await server.stop();
    }
    const empty = await runCli(['serve'], '', TIMEOUT_MS, { CRAWLSPEC_TOKEN: '' });
    expect({ code: empty.code, stderr: empty.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(
        /^crawlspec: CRAWLSPEC_TOKEN is empty; expected the token clients must send \(or --no-auth for no authentication\) \(crawlspec serve --help\)\n$/,
      ),
    });
    const ignored = await serve(['--no-auth'], { CRAWLSPEC_TOKEN: 'env-token' });
    try {
      expect((await fetch(`${ignored.url}/v2/crawl/active`)).status).toBe(200);
    } finally {
      await ignored.stop();
    }
  });
});

describe('--allow-host HOST[:PORT]', () => {
  let first: Awaited<ReturnType<typeof page>>;
  let second: Awaited<ReturnType<typeof page>>;
  beforeAll(async () => {
    [first, second] = await Promise.all([page(), page()]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('without it, a page on another loopback port is not fetched; with HOST:PORT that port is, and no other', async () => {
    const before = [first.asked, second.asked];
    const closed = await serve(['--no-auth']);
    try {
      expect(await batch(closed.url, [first.url])).toEqual([]); // an error of the job instead, saying how to allow it
      expect(first.asked).toBe(before[0]);
    } finally {
      await closed.stop();
    }
    const open = await serve(['--no-auth', '--allow-host', `127.0.0.1:${first.port}`]);
    try {
      const records = await batch(open.url, [first.url, second.url]);
      expect(records.map((r) => r.metadata.sourceURL)).toEqual([first.url]);
      expect(JSON.stringify(records[0])).toContain(SECRET);
      expect([first.asked - before[0]!, second.asked - before[1]!]).toEqual([1, 0]);
    } finally {
      await open.stop();
    }
  });

  it('HOST alone opens every port of it', async () => {
    const server = await serve(['--no-auth', '--allow-host', '127.0.0.1']);
    try {
      const records = await batch(server.url, [first.url, second.url]);
      expect(records.map((r) => r.metadata.sourceURL).sort()).toEqual([first.url, second.url].sort());
      for (const record of records) expect(JSON.stringify(record)).toContain(SECRET);
    } finally {
      await server.stop();
    }
  });

  it.each([['[10.0.0.1]:80'], ['[::1'], ['host:'], ['http://x/']])('%s: a usage error, exit 2', async (value) => {
    const run = await runCli(['serve', '--no-auth', '--allow-host', value], '', TIMEOUT_MS);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr).toBe(
      `crawlspec: --allow-host takes a host name or an IP address, with a port or not (e.g. intranet.example.com, 10.0.0.5 or 127.0.0.1:8080), not "${value}" (crawlspec serve --help)\n`,
    );
  });

  it.each([
    ['127.0.0.1:0', '0'],
    ['127.0.0.1:65536', '65536'],
  ])('%s: a usage error naming the port, exit 2', async (value, port) => {
    const run = await runCli(['serve', '--no-auth', '--allow-host', value], '', TIMEOUT_MS);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr).toBe(
      `crawlspec: --allow-host "${value}" has the port ${port}; expected a port from 1 to 65535, or none for every port (crawlspec serve --help)\n`,
    );
  });
});

describe('--public-url', () => {
  it('is answered to, and job addresses are built from it; another name is refused', async () => {
    const server = await serve(['--no-auth', '--public-url', 'https://crawlspec.example.com/api']);
    try {
      expect(server.line).toContain(`listening on ${server.url} as https://crawlspec.example.com/api `);
      const port = new URL(server.url).port;
      const asked = (host: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = httpRequest(
            { host: '127.0.0.1', port, method: 'POST', path: '/v2/crawl', headers: { host, ...json } },
            (response: IncomingMessage) => {
              let body = '';
              response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
              response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
            },
          );
          request.on('error', reject);
          request.end(JSON.stringify({ url: 'https://example.com/' }));
        });
      const started = await asked('crawlspec.example.com');
      expect(started.status).toBe(200);
      expect(JSON.parse(started.body).url).toMatch(/^https:\/\/crawlspec\.example\.com\/api\/v2\/crawl\/[0-9a-f-]{36}$/);
      expect((await asked('other.example.com')).status).toBe(421);
    } finally {
      await server.stop();
    }
  });
});
