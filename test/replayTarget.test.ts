/**
 * Where `crawlspec contract replay FILE` sends, and what it makes of an exchange that got no answer (issue 41,
 * findings 8 and 10). A recording names its target, and a recording may come from anywhere (a bug report, a CI
 * artefact): the token (`--token`, CRAWLSPEC_TOKEN) and the `--header` values go only to the target the user names,
 * `--base-url`, or to the recorded one when the user confirms it (`--to-recorded-target`); without either nothing
 * is sent (exit 2, one line naming the recorded target and both flags). A target that never answers fixes nothing:
 * no exchange of it is FIXED, and the replay does not exit 0.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HarEntry, RunMark } from '../scripts/contract/reporters/har.js';
import { runContract } from '../scripts/contract/index.js';
import { BROKEN_SERVERS } from './support/brokenServers.js';
import { kitTarget, type KitTarget } from './support/kitTarget.js';
import { runCli } from './support/runCli.js';

const TOKEN = 'replay-target-token-5d1e';
const GATEWAY = { name: 'X-Gateway-Key', value: 'gateway-secret-replay-9c2b' };
const TIMEOUT_MS = 90_000;
const CHECK = 'v2.rule.timeout.maximum';

interface Har {
  readonly log: { readonly entries: HarEntry[]; readonly _crawlspec: RunMark } & Record<string, unknown>;
}

/** Listens on 127.0.0.1, a port the system picks; the address. */
async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Another loopback service: it answers 404 to everything, and keeps the headers of every request it got. */
async function otherService(): Promise<{ url: string; got: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const got: IncomingHttpHeaders[] = [];
  const server = createHttpServer((request, response) => {
    got.push(request.headers);
    request.resume();
    response.writeHead(404, { 'content-type': 'text/plain' }).end('nothing here');
  });
  const url = await listening(server);
  return {
    url,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A target that takes every connection and never writes a byte. */
async function silentTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  const url = await listening(server);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `har` as if it had been recorded against `target`: its run and every entry's address. */
function pointedAt(har: Har, target: string): Har {
  const from = har.log._crawlspec.target;
  return {
    log: {
      ...har.log,
      _crawlspec: { ...har.log._crawlspec, target },
      entries: har.log.entries.map((e) => ({ ...e, request: { ...e.request, url: target + e.request.url.slice(from.length) } })),
    },
  };
}

let dir: string;
let recorded: Har;
let reference: KitTarget;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawlspec-replay-target-'));
  reference = await kitTarget({ token: TOKEN });
  // A failing start, recorded against a broken variant (a timeout above the maximum accepted).
  const broken = await kitTarget({ token: TOKEN, wrap: BROKEN_SERVERS.find((v) => v.name === 'timeout.aboveMaximumAccepted')!.wrap });
  try {
    const file = join(dir, 'recorded.har');
    const { siteHost: _served, ...options } = broken.options({ only: [CHECK], runs: 1, behaviour: false, record: file });
    await runContract(options);
    recorded = JSON.parse(await readFile(file, 'utf8')) as Har;
    expect(recorded.log.entries.some((e) => e._crawlspec.failed && e._crawlspec.replay)).toBe(true);
  } finally {
    await broken.close();
  }
}, TIMEOUT_MS);
afterAll(async () => {
  await reference?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const withSecrets = (file: string, extra: string[]) => [
  'contract',
  'replay',
  file,
  '--header',
  `${GATEWAY.name}: ${GATEWAY.value}`,
  ...extra,
];

describe('contract replay sends only where the user says', () => {
  it(
    'a recording naming another loopback service: without --base-url or --to-recorded-target nothing is sent (exit 2, one line naming it and both flags); the token goes where --base-url says',
    { timeout: TIMEOUT_MS },
    async () => {
      const other = await otherService();
      try {
        const file = join(dir, 'crafted.har');
        await writeFile(file, JSON.stringify(pointedAt(recorded, other.url)));
        const env = { CRAWLSPEC_TOKEN: TOKEN };

        const refused = await runCli(withSecrets(file, []), '', TIMEOUT_MS, env);
        expect(refused.code, refused.stderr + refused.stdout).toBe(2);
        const lines = refused.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(other.url);
        expect(lines[0]).toContain('--base-url');
        expect(lines[0]).toContain('--to-recorded-target');
        expect(refused.stdout).toBe('');

        const both = await runCli(withSecrets(file, ['--base-url', reference.url, '--to-recorded-target']), '', TIMEOUT_MS, env);
        expect(both.code, both.stderr).toBe(2);
        expect(both.stderr).toMatch(/--base-url and --to-recorded-target exclude each other/);
        expect(other.got).toEqual([]);

        // Named by the user: the exchanges go there, with the token and the header; the other service gets nothing.
        const before = reference.log.length;
        const named = await runCli(withSecrets(file, ['--base-url', reference.url]), '', TIMEOUT_MS, env);
        expect(named.code, named.stderr + named.stdout).toBe(0);
        expect(named.stdout).toContain(`sent to ${reference.url}`);
        expect(named.stdout).toMatch(new RegExp(`^FIXED\\s+${CHECK.replace(/\./g, '\\.')}: POST /v2/crawl$`, 'm'));
        expect(reference.log.slice(before).some((e) => e.authorization === `Bearer ${TOKEN}`)).toBe(true);
        expect(other.got).toEqual([]);

        // Confirmed by the user: the recorded target gets them (here it answers 404 to all, so nothing is fixed).
        const confirmed = await runCli(withSecrets(file, ['--to-recorded-target']), '', TIMEOUT_MS, env);
        expect(confirmed.stdout).toContain(`sent to ${other.url}`);
        expect(confirmed.stdout).not.toMatch(/^FIXED/m);
        expect(other.got.length).toBeGreaterThan(0);
        expect(other.got[0]!.authorization).toBe(`Bearer ${TOKEN}`);
        expect(other.got[0]![GATEWAY.name.toLowerCase()]).toBe(GATEWAY.value);
      } finally {
        await other.close();
      }
    },
  );
});

describe('contract replay against a target that never answers', () => {
  it('fixes nothing: no exchange is FIXED, and the exit status is not 0', { timeout: TIMEOUT_MS }, async () => {
    const silent = await silentTarget();
    try {
      const replayed = async (name: string, har: Har) => {
        const file = join(dir, name);
        await writeFile(file, JSON.stringify(har));
        const run = await runCli(
          ['contract', 'replay', file, '--token', TOKEN, '--base-url', silent.url, '--timeout', '1'],
          '',
          TIMEOUT_MS,
        );
        expect(run.stdout, run.stderr).toContain(`sent to ${silent.url}`);
        expect(run.stdout, run.stdout).not.toMatch(/^FIXED/m);
        expect(run.stdout).not.toMatch(/all fixed/);
        expect(run.code, run.stdout).not.toBe(0);
        return run;
      };
      // The recorded failing starts: no answer from a start breaks the interface, so they still fail (exit 1).
      const starts = await replayed('starts.har', recorded);
      expect(starts.stdout).toMatch(/^STILL FAILING\s+v2\.rule\.timeout\.maximum: POST \/v2\/crawl\n\s+✗ no answer within 1 s/m);
      expect(starts.code).toBe(1);

      // A read marked failing at service level in a run at interface level (as a hand-made recording may): there,
      // no answer is no failure, and it was taken for a fix. Now it is not judged, saying why (exit 3).
      const first = recorded.log.entries[0]!;
      const { postData: _body, ...request } = first.request;
      const read: HarEntry = {
        ...first,
        request: { ...request, method: 'GET', url: `${recorded.log._crawlspec.target}/v2/crawl/active`, headers: [] },
        _crawlspec: {
          check: 'v2.active',
          auth: 'token',
          failed: true,
          replay: true,
          expectation: { service: { status: 200, expected: '200 with the active crawls' } },
        },
      };
      const reads = await replayed('read.har', { log: { ...recorded.log, entries: [read] } });
      expect(reads.stdout).toMatch(
        /^NOT JUDGED\s+v2\.active: GET \/v2\/crawl\/active\n\s+· it got no answer \(.+\): nothing shows it fixed$/m,
      );
      expect(reads.code).toBe(3);
    } finally {
      await silent.close();
    }
  });
});
