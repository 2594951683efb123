/**
 * The attacks of issue 41 on the validating proxy (`crawlspec proxy`): each starts the proxy in a child process of
 * its own (ServerProcess, as `serve`), in front of the harness's `crawlspec serve` or of a hostile target, and
 * checks what its finding is about: 1, where it forwards (a request target naming another host); 2, what a gzip
 * bomb costs it (its RSS, and its CPU once every exchange has ended); 7, to whom it answers (a foreign Host); 11,
 * what it writes (a token used as a body key). The harness holds `serve` to the usual bounds meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parsed, TOKEN } from '../shared.js';
import {
  CLEANUP_TIMEOUT_MS,
  PROXY_BOMB_UNRELATED_MS,
  PROXY_SETTLE_CPU_MS,
  PROXY_SETTLE_MS,
  RSS_CEILING_MIB,
  RSS_PROXY_MIB,
  RSS_SAMPLE_MS,
  RSS_SMALL_MIB,
  SERVER_START_TIMEOUT_MS,
  UNRELATED_LATENCY_MS,
} from './bounds.js';
import type { Attack, AttackContext } from './harness.js';
import { HOST, outcome, receiver, type Answer, type Closable } from './net.js';
import { RssWatch, ServerProcess } from './serverProcess.js';
import { rawRequest } from './surface.js';

const MiB = 1024 * 1024;
const round = (n: number): number => Math.round(n);
const auth = { authorization: `Bearer ${TOKEN}` };

/** `crawlspec proxy --target <target>` with `args`, in a child process, stopped with the attack. */
async function proxyProcess(ctx: AttackContext, target: string, args: readonly string[] = []): Promise<ServerProcess> {
  const proxy = await ServerProcess.start(SERVER_START_TIMEOUT_MS, ['--target', target, ...args], 'proxy');
  ctx.defer({ close: () => proxy.stop(CLEANUP_TIMEOUT_MS) });
  return proxy;
}

/** A refusal with `status` and the error envelope `{success: false, error}`; for the detail, what it said. */
function refusal(answer: Answer, status: number): { readonly ok: boolean; readonly said: string } {
  const body = parsed(answer.text) as { success?: unknown; error?: unknown } | undefined;
  return {
    ok: answer.status === status && body?.success === false && typeof body.error === 'string',
    said: `${outcome(answer)}: ${String(body?.error ?? answer.error ?? '').slice(0, 160)}`,
  };
}

const attack1: Attack = {
  id: '41-1',
  title: 'the proxy asked for //host/x, /\\host/x, a full address and a .. path: another loopback host, with the token',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    return {
      async run(ctx) {
        const other = await receiver(() => ({ status: 200 }));
        ctx.defer(other);
        const proxy = await proxyProcess(ctx, ctx.base);
        const prefixed = await proxyProcess(ctx, `${ctx.base}/api`);
        const host = new URL(other.url).host;
        for (const [through, path] of [
          [proxy, `//${host}/admin`],
          [proxy, `/\\${host}/x`],
          [proxy, `${other.url}/admin`],
          [prefixed, '/../admin'],
        ] as const) {
          const answer = await rawRequest(Number(new URL(through.url).port), 'GET', path, { ...auth, host: new URL(through.url).host });
          ctx.answered(answer);
          const { ok, said } = refusal(answer, 400);
          ctx.check(`${path} is refused 400 with the error envelope`, ok, said);
        }
        ctx.check(
          'the other host got no request (and no token)',
          other.received.length === 0,
          other.received.map((r) => `${r.method} ${r.path}${r.headers.authorization === undefined ? '' : ' with the token'}`).join(', ') ||
            'none',
        );
      },
    };
  },
};

/** One gzip member of 32 MiB of JSON whitespace (about 32 KB), and an answer of members that is `bytes` long at most. */
function gzipBomb(bytes: number): { readonly body: Buffer; readonly decodedMiB: number } {
  const member = gzipSync(Buffer.alloc(32 * MiB, ' '), { level: 9 });
  const count = Math.floor(bytes / member.length);
  return { body: Buffer.concat(Array.from({ length: count }, () => member)), decodedMiB: 32 * count };
}

/** A target that answers every request with `body`, gzip-coded JSON. */
async function bombTarget(body: Buffer): Promise<Closable & { readonly url: string }> {
  const server = createHttpServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** GET `url` with node:http (which, unlike fetch, does not decode the body): the bytes read, or why none. */
function rawBytes(url: string, timeoutMs: number): Promise<{ readonly status?: number; readonly bytes: number; readonly error?: string }> {
  return new Promise((resolve) => {
    const request = httpGet(url, { headers: auth, agent: false, timeout: timeoutMs }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', (error) => resolve({ bytes, error: error.message }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => resolve({ bytes: 0, error: error.message }));
  });
}

const BOMB_CLIENTS = 12;
const BOMB_BYTES = 33_000_000;

const attack2: Attack = {
  id: '41-2',
  title: `${BOMB_CLIENTS} clients each read a 33 MB gzip bomb (JSON, ~33 GB decoded) through the proxy`,
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: PROXY_BOMB_UNRELATED_MS,
  deadlineMs: 120_000,
  prepare() {
    const bomb = gzipBomb(BOMB_BYTES);
    return {
      notes: { answer: `${(bomb.body.length / 1e6).toFixed(1)} MB gzip, ${(bomb.decodedMiB / 1024).toFixed(1)} GiB decoded` },
      async run(ctx) {
        const target = await bombTarget(bomb.body);
        ctx.defer(target);
        const proxy = await proxyProcess(ctx, target.url);
        const watch = new RssWatch(proxy, RSS_CEILING_MIB, RSS_SAMPLE_MS);
        ctx.defer({ close: async () => void watch.stop() });
        const idle = proxy.memory()?.rssMiB;
        const cpuStart = proxy.cpuMs();
        const read = await Promise.all(
          Array.from({ length: BOMB_CLIENTS }, () => rawBytes(`${proxy.url}/v2/crawl/${randomUUID()}`, 60_000)),
        );
        for (const r of read) ctx.answered({ status: r.status, text: '', ms: 0, ...(r.error === undefined ? {} : { error: r.error }) });
        ctx.check(
          'every client read the raw answer whole (200, every byte as the target sent it)',
          read.every((r) => r.status === 200 && r.bytes === bomb.body.length),
          read.map((r) => `${r.status ?? r.error}: ${r.bytes} bytes`).join(', '),
        );
        const cpuEnded = proxy.cpuMs();
        await ctx.sleep(PROXY_SETTLE_MS);
        const cpuAfter = proxy.cpuMs();
        const peak = watch.stop();
        const settle = cpuEnded === undefined || cpuAfter === undefined ? undefined : round(cpuAfter - cpuEnded);
        ctx.note(
          'proxy CPU while the exchanges ran (ms)',
          cpuStart === undefined || cpuEnded === undefined ? '?' : round(cpuEnded - cpuStart),
        );
        ctx.check(
          `the proxy's CPU in the ${PROXY_SETTLE_MS / 1000} s after every exchange ended ≤ ${PROXY_SETTLE_CPU_MS} ms`,
          settle !== undefined && settle <= PROXY_SETTLE_CPU_MS,
          settle === undefined ? `not measured (the proxy ${proxy.exitReason() ?? 'is gone'})` : `${settle} ms`,
        );
        ctx.check(
          `the proxy's peak RSS ≤ ${RSS_PROXY_MIB} MiB`,
          peak > 0 && peak <= RSS_PROXY_MIB,
          `peak ${round(peak)} MiB, idle ${idle === undefined ? '?' : round(idle)} MiB${proxy.killedFor === undefined ? '' : `; ${proxy.killedFor}`}`,
        );
      },
    };
  },
};

const attack7: Attack = {
  id: '41-7',
  title: 'a start naming a foreign Host (DNS rebinding), to serve and through the proxy',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    return {
      async run(ctx) {
        const proxy = await proxyProcess(ctx, ctx.base);
        const body = JSON.stringify({ urls: [`${ctx.base}/site/about`] });
        const headers = { ...auth, 'content-type': 'application/json', host: 'rebound.example' };
        for (const [name, url] of [
          ['serve', ctx.base],
          ['the proxy', proxy.url],
        ] as const) {
          const answer = await rawRequest(Number(new URL(url).port), 'POST', '/v2/batch/scrape', headers, body);
          ctx.answered(answer);
          const { ok, said } = refusal(answer, 421);
          ctx.check(`${name} answers the foreign Host 421 with the error envelope`, ok, said);
        }
      },
    };
  },
};

const attack11: Attack = {
  id: '41-11',
  title: 'the token as a body key of a start through the proxy, its problems written with --json',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 60_000,
  prepare() {
    return {
      async run(ctx) {
        const scratch = await mkdtemp(join(tmpdir(), 'crawlspec-41-11-'));
        ctx.defer({ close: () => rm(scratch, { recursive: true, force: true }) });
        const lines = join(scratch, 'problems.jsonl');
        const proxy = await proxyProcess(ctx, ctx.base, ['--json', lines]);
        const body = JSON.stringify({ urls: [`${ctx.base}/site/about`], [TOKEN]: 1 });
        const host = new URL(proxy.url).host;
        const answer = await rawRequest(
          Number(new URL(proxy.url).port),
          'POST',
          '/v2/batch/scrape',
          { ...auth, host, 'content-type': 'application/json' },
          body,
        );
        ctx.answered(answer);
        await proxy.stop(CLEANUP_TIMEOUT_MS);
        const written = await readFile(lines, 'utf8').catch((error: Error) => `(not read: ${error.message})`);
        ctx.check(
          'the problem is written, with the key redacted in its JSON path',
          written.includes('"at":"$[\\"***\\"]"'),
          written.split('\n')[0]?.slice(0, 200) ?? '',
        );
        ctx.check('the token is nowhere in what the proxy wrote', !written.includes(TOKEN), `${written.length} bytes`);
      },
    };
  },
};

export const PROXY_ATTACKS: readonly Attack[] = [attack1, attack2, attack7, attack11];
