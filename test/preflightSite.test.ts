/**
 * The site a contract run rests on (scripts/contract/engine/options.ts, run.ts): a copy of the test site is the
 * site of every job, the served site's port can be pinned (`--site-port`), and the site options are checked before
 * anything is sent (exit 2, one line naming the option).
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract, type ContractOptions } from '../scripts/contract/index.js';
import { serveSite, SiteNotServed, type ServedSite } from '../scripts/site/server.js';
import { isStart, kitTarget } from './support/kitTarget.js';
import { runCli } from './support/runCli.js';
import { closedPort } from './support/siteGuard.js';
import { CLI_TIMEOUT_MS, TOKEN } from './support/preflightParts.js';

/** `options` without the site kitTarget gives (its own site, the test site's host name): the kit's defaults apply. */
function ownSite(options: ContractOptions): ContractOptions {
  const { siteUrl: _url, site: _site, siteHost: _host, ...rest } = options;
  return rest;
}

describe('one site: a copy of the test site is the site of every job', () => {
  let copy: ServedSite;
  beforeAll(async () => {
    // A copy deployed elsewhere, here served on loopback under a name of its own (the server resolves it).
    copy = await serveSite();
  });
  afterAll(() => copy.close());

  it('the status, pagination and errors jobs crawl the copy given with behaviourSite, and pass', async () => {
    const target = await kitTarget({ token: TOKEN });
    try {
      const only = ['v2.status', 'v2.status.pagination', 'v2.errors', 'v2.cancel'];
      const report = await runContract({
        ...ownSite(target.options({ versions: ['v2'], runs: 1, level: 'service', only })),
        behaviourSite: copy.origins,
      });
      const starts = target.log.filter(isStart);
      expect(starts.length).toBeGreaterThan(0);
      for (const start of starts) {
        const body = JSON.parse(start.body) as { url?: string; urls?: string[] };
        for (const url of [body.url, ...(body.urls ?? [])].filter((u) => u !== undefined))
          expect(url.startsWith(`${copy.origins.main}/`), url).toBe(true);
      }
      // A copy has no page known to fail (a static host cannot cut a connection): the errors check says so.
      const checks = new Map(report.checks.map((c) => [c.name, c]));
      for (const name of ['v2.status', 'v2.status.pagination', 'v2.cancel'])
        expect(checks.get(name)?.status, `${name}: ${checks.get(name)?.detail}`).toBe('pass');
      expect(checks.get('v2.errors')).toMatchObject({
        status: 'inconclusive',
        detail: expect.stringContaining(`no page of ${copy.origins.main} is known to fail`),
      });
    } finally {
      await target.close();
    }
  }, 90_000);
});

describe('--site-port', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('pins the port the test site is served on: every job points there', async () => {
    const target = await kitTarget({ token: TOKEN });
    const free = await closedPort();
    try {
      await runContract({ ...ownSite(target.options({ versions: ['v2'], runs: 1, only: ['v2.status'] })), sitePort: free });
      const starts = target.log.filter(isStart);
      expect(starts.length).toBeGreaterThan(0);
      expect(starts.every((e) => e.body.includes(`http://127.0.0.1:${free}/`))).toBe(true);
    } finally {
      await target.close();
    }
  }, 60_000);

  it(
    'a port in use: runContract rejects before anything is sent; the command exits 2 with one line',
    async () => {
      const target = await kitTarget({ token: TOKEN });
      try {
        await expect(runContract({ ...ownSite(target.options({ versions: ['v2'] })), sitePort: port })).rejects.toBeInstanceOf(
          SiteNotServed,
        );
        expect(target.log).toEqual([]);
      } finally {
        await target.close();
      }
      const run = await runCli(['contract', '--site-port', String(port), '--only', 'json.malformed'], '', CLI_TIMEOUT_MS);
      expect(run.code).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(`^crawlspec: --site-port ${port}: cannot serve the test site on 127\\.0\\.0\\.1:${port} .*in use`),
        ),
      ]);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('site options are checked before anything is sent (exit 2, one line naming the option)', () => {
  const usage = async (args: string[], said: RegExp) => {
    const run = await runCli(['contract', ...args], '', CLI_TIMEOUT_MS);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(said)]);
  };

  it('--site-host with a name without a public suffix', () =>
    usage(
      ['--site-host', 'site.crawlspec.test'],
      /^crawlspec: --site-host "site\.crawlspec\.test" .* not a valid v1 crawl address .*e\.g\. crawlspec\.example\.com/,
    ));
  it('--skip naming no check, or empty', async () => {
    await usage(['--skip', 'v9.*'], /^crawlspec: --skip "v9\.\*" names no check of v1 and v2/);
    await usage(['--skip', ''], /^crawlspec: --skip is empty/);
  });
  it('--site-port out of range or a port fetch never connects to', async () => {
    await usage(['--site-port', '70000'], /^crawlspec: --site-port takes a whole number from 1 to 65535/);
    await usage(['--site-port', '6000'], /^crawlspec: --site-port 6000 is a port fetch never connects to/);
  });
  it('--behaviour-site with a path, or no valid crawl address; --site-host with a copy', async () => {
    const external = ['--behaviour-external', 'https://crawlspec-elsewhere.example.org'];
    await usage(
      ['--behaviour-site', 'https://crawlspec-site.example.org/site', ...external],
      /^crawlspec: --behaviour-site https:\/\/crawlspec-site\.example\.org\/site has a path/,
    );
    await usage(
      ['--behaviour-site', 'http://localhost:8000', ...external],
      /^crawlspec: --behaviour-site http:\/\/localhost:8000 is not a valid v1 crawl address/,
    );
    await usage(
      ['--behaviour-site', 'https://crawlspec-site.example.org', ...external, '--site-host', 'crawlspec.example.com'],
      /^crawlspec: --site-host is for the test site the kit serves/,
    );
  });

  it('runContract refuses a siteHost without a public suffix before anything is sent', async () => {
    const target = await kitTarget({ token: TOKEN });
    try {
      await expect(runContract(target.options({ siteHost: 'site.crawlspec.test' }))).rejects.toThrow(
        /^siteHost "site\.crawlspec\.test" .*not a valid v1 crawl address/,
      );
      expect(target.log).toEqual([]);
    } finally {
      await target.close();
    }
  });
});
