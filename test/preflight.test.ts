/**
 * The site a run rests on (scripts/contract/engine/preflight.ts, options.ts, run.ts): the preflight tells a target that
 * refuses the site, or cannot reach it, from one that refuses valid bodies whatever their site; what rests on a
 * site the target cannot use is inconclusive under one diagnosis; a copy of the test site is the site of every
 * job; the served site's port can be pinned; what a target cannot run leaves the run incomplete unless `--skip`
 * leaves it out; the site options are checked before anything is sent.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkNames,
  contractChecks,
  exitCode,
  formatJunit,
  formatText,
  runContract,
  type ContractOptions,
  type ContractReport,
} from '../scripts/contract/index.js';
import { serveSite, SiteNotServed, type ServedSite } from '../scripts/site/server.js';
import { isStart, kitTarget, type Handler, type KitTarget } from './support/kitTarget.js';
import { runCli, type CliRun } from './support/runCli.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { startServerProcess, type ServerProcess } from './support/serverProcess.js';
import { closedPort, namesLoopback, noPageRecords, refuseEveryStart, refuseLoopback, unreachableLoopback } from './support/siteGuard.js';

const TOKEN = 'preflight-test-token';
const CLI_TIMEOUT_MS = 120_000;

/** Every site-independent check (the ones a diagnosis does not stop). */
const SITE_INDEPENDENT = new Set(
  contractChecks(['v1', 'v2'])
    .filter((c) => c.siteIndependent === true)
    .map((c) => c.name),
);

/** `options` without the site kitTarget gives (its own site, the test site's host name): the kit's defaults apply. */
function ownSite(options: ContractOptions): ContractOptions {
  const { siteUrl: _url, site: _site, siteHost: _host, ...rest } = options;
  return rest;
}

const lastLine = (run: CliRun) => run.stdout.trimEnd().split('\n').pop();
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('a target that refuses every body naming a loopback address (an SSRF guard)', () => {
  let target: KitTarget;
  let report: ContractReport;

  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN, deviate: refuseLoopback });
    report = await runContract(target.options({ runs: 2 }));
  }, 120_000);
  afterAll(() => target.close());

  it('one diagnosis per site, naming --site-host and the export route; the run is incomplete (exit 3)', () => {
    // The jobs' site (the server's own, on 127.0.0.1) and the behaviour checks' (the test site, under a name the server resolves to loopback).
    expect(report.diagnoses.map((d) => d.site)).toEqual(
      expect.arrayContaining([`${target.url}/site`, expect.stringMatching(/^http:\/\/crawlspec\.example\.com:\d+$/)]),
    );
    expect(report.diagnoses).toHaveLength(2);
    for (const d of report.diagnoses) {
      expect(d.summary).toBe(`the target refuses ${d.site}`);
      expect(d.problem).toContain('400 "URL is not allowed: it resolves to a private or loopback address"');
      expect(d.problem).toContain('https://example.com');
      expect(d.checks).toBeGreaterThan(0);
    }
    const served = report.diagnoses.find((d) => d.site.includes('crawlspec.example.com'))!;
    expect(served.fix).toContain('--site-host NAME');
    expect(served.fix).toContain('crawlspec site export');
    expect(served.fix).toContain('--behaviour-site');
    expect(exitCode(report)).toBe(3);
  });

  it('no check that rests on the site passes or fails: each is not run, under its diagnosis; the site-independent ones run', () => {
    for (const check of report.checks) {
      if (SITE_INDEPENDENT.has(check.name)) expect(check.status, check.name).toBe('pass');
      else {
        // Inconclusive in scope; above the run's level (it informs, does not decide) not judged.
        expect(check.status, `${check.name}: ${check.status} ${check.detail}`).toBe(check.inScope ? 'inconclusive' : 'notJudged');
        expect(check.detail).toMatch(/^not run: the target refuses http:\/\/\S+ \(the diagnosis above says why and what to do\)$/);
        expect(check.requests).toBe(0);
      }
    }
    expect(
      report.checks
        .filter((c) => c.status === 'pass')
        .map((c) => c.name)
        .sort(),
    ).toEqual([...SITE_INDEPENDENT].sort());
    // Counted as the incomplete section counts them: the run's own checks (those above its level decide nothing).
    expect(report.diagnoses.reduce((n, d) => n + d.checks, 0)).toBe(
      report.checks.filter((c) => c.inScope && !SITE_INDEPENDENT.has(c.name)).length,
    );
  });

  it('the text report prints each diagnosis once, before the check list, and counts the checks it kept in one line each', () => {
    const text = formatText(report);
    for (const d of report.diagnoses) expect(occurrences(text, `diagnosis: ${d.summary}:`)).toBe(1);
    expect(text.indexOf('diagnosis: ')).toBeLessThan(text.indexOf('v1.status.undocumentedStatus'));
    expect(text).toMatch(/^incomplete: \d+ in-scope checks did not run to a verdict:\n {2}\d+ checks resting on http:\/\/\S+: not run: /m);
    // JUnit: the suite's output holds them, once each.
    const xml = formatJunit(report);
    expectWellFormedXml(xml);
    for (const d of report.diagnoses) expect(occurrences(xml, `diagnosis: ${d.summary}:`)).toBe(1);
  });

  it('the preflight cancelled its jobs: the control bodies it sent were accepted and cancelled', () => {
    const controls = target.log.filter((e) => isStart(e) && e.body.includes('https://example.com'));
    expect(controls.length).toBeGreaterThan(0);
    expect(controls.every((e) => e.status === 200)).toBe(true);
    expect(report.jobs.started).toBe(report.jobs.cancelled);
  });
});

describe('the preflight tells what is the site from what is the target', () => {
  it('a target that accepts the site but cannot reach it: "cannot reach", with the same fix, exit 3', async () => {
    const target = await kitTarget({ token: TOKEN, deviate: unreachableLoopback(await closedPort()) });
    try {
      const report = await runContract(
        target.options({ versions: ['v2'], runs: 1, level: 'service', only: ['v2.status', 'v2.crawl.behaviour.default'] }),
      );
      expect(report.diagnoses.map((d) => d.summary)).toEqual(
        expect.arrayContaining([
          `the target cannot reach ${target.url}/site`,
          expect.stringMatching(/^the target cannot reach http:\/\/crawlspec\.example\.com:\d+$/),
        ]),
      );
      expect(report.diagnoses.find((d) => d.site.includes('crawlspec.example.com'))!.fix).toContain('--site-host NAME');
      expect(
        report.checks
          .filter((c) => c.status === 'inconclusive')
          .map((c) => c.name)
          .sort(),
      ).toEqual(['v2.crawl.behaviour.default', 'v2.status']);
      expect(exitCode(report)).toBe(3);
    } finally {
      await target.close();
    }
  }, 60_000);

  it("a crawlspec serve started without --allow-host: the kit's site is out of its reach, and the fix says how to allow it", async () => {
    const server = await startServerProcess(TOKEN);
    try {
      const run = await runCli(
        [
          'contract',
          '--base-url',
          server.url,
          '--token',
          TOKEN,
          '--version',
          'v2',
          '--runs',
          '1',
          '--only',
          'v2.crawl.behaviour.default',
          '--json',
        ],
        '',
        CLI_TIMEOUT_MS,
      );
      expect({ code: run.code, stderr: run.stderr.split('\n').filter((l) => /^crawlspec:/.test(l)) }).toEqual({ code: 3, stderr: [] });
      const report = JSON.parse(run.stdout) as {
        diagnoses: { summary: string; fix: string }[];
        checks: { name: string; status: string }[];
      };
      expect(report.diagnoses.length).toBeGreaterThan(0);
      for (const diagnosis of report.diagnoses) {
        expect(diagnosis.summary).toMatch(/^the target cannot reach http:\/\/127\.0\.0\.[12]:\d+/);
        expect(diagnosis.fix).toContain('start it with --allow-host 127.0.0.1 --allow-host 127.0.0.2');
      }
      expect(report.checks.find((c) => c.name === 'v2.crawl.behaviour.default')?.status).toBe('inconclusive');
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a target that refuses every start, the control too: no diagnosis, the checks run and fail (exit 1)', async () => {
    const target = await kitTarget({ token: TOKEN, deviate: refuseEveryStart });
    try {
      const report = await runContract(target.options({ versions: ['v2'], runs: 1, only: ['v2.crawl.start.valid'] }));
      expect(report.diagnoses).toEqual([]);
      expect(report.checks.find((c) => c.name === 'v2.crawl.start.valid')).toMatchObject({ status: 'fail' });
      expect(exitCode(report)).toBe(1);
    } finally {
      await target.close();
    }
  }, 60_000);

  it("a target that shows no page of any job, the control's too: no diagnosis, the checks run and judge it themselves", async () => {
    const target = await kitTarget({ token: TOKEN, deviate: noPageRecords });
    try {
      const report = await runContract(target.options({ versions: ['v2'], runs: 1, level: 'service', only: ['v2.status'] }));
      expect(report.diagnoses).toEqual([]);
      const status = report.checks.find((c) => c.name === 'v2.status')!;
      expect(status.requests).toBeGreaterThan(0);
      expect(status.detail ?? '').not.toMatch(/^not run/);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('a refusal that echoes the token: the diagnosis, told as it is found and in the report, holds none of it', async () => {
    const echo: Handler = async (request, next) => {
      const answer = await refuseLoopback(request, next);
      return answer.status === 400
        ? { ...answer, body: JSON.stringify({ success: false, error: `refused for ${request.headers['authorization']}` }) }
        : answer;
    };
    const target = await kitTarget({ token: TOKEN, deviate: echo });
    try {
      const told: unknown[] = [];
      const report = await runContract(target.options({ versions: ['v2'], runs: 1, only: ['v2.status'] }), {
        diagnoses: (d) => told.push(...d),
      });
      expect(told).toHaveLength(1);
      expect(JSON.stringify(told)).toContain('refused for Bearer ***');
      for (const text of [JSON.stringify(told), JSON.stringify(report), formatText(report)]) expect(text).not.toContain(TOKEN);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('--only-no-job: no preflight (it would start jobs)', async () => {
    const target = await kitTarget({ token: TOKEN, deviate: refuseLoopback });
    try {
      const report = await runContract(target.options({ versions: ['v2'], onlyNoJob: true, only: ['json.malformed'] }));
      expect(report.diagnoses).toEqual([]);
      expect(target.log.filter((e) => isStart(e) && e.status === 200)).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe("a target that refuses the run's credentials: one diagnosis, not a failure per check", () => {
  it('crawlspec contract with no token against crawlspec serve --token X: exactly one diagnosis, every check not run but the auth ones (exit 3)', async () => {
    const server = await startServerProcess(TOKEN);
    try {
      const run = await runCli(['contract', '--base-url', server.url, '--no-auth', '--runs', '1', '--json'], '', CLI_TIMEOUT_MS);
      expect({ code: run.code, stderr: run.stderr.split('\n').filter((l) => /^crawlspec:/.test(l)) }).toEqual({ code: 3, stderr: [] });
      const report = JSON.parse(run.stdout) as ContractReport;
      expect(report.diagnoses).toHaveLength(1);
      const [diagnosis] = report.diagnoses;
      expect(diagnosis).toMatchObject({ site: server.url, summary: 'the target refuses requests without a token (401)' });
      expect(diagnosis!.problem).toContain('sent with no Authorization header (--no-auth)');
      expect(diagnosis!.fix).toContain('--token TOKEN or CRAWLSPEC_TOKEN=TOKEN');
      expect(diagnosis!.fix).toContain('--header');
      expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'pass' || c.status === 'differs').map((c) => c.name)).toEqual(
        [],
      );
      const blocked = report.checks.filter((c) => c.status === 'inconclusive' || c.status === 'notJudged');
      for (const check of blocked)
        expect(check.detail, check.name).toBe(`not run: ${diagnosis!.summary} (the diagnosis above says why and what to do)`);
      expect(diagnosis!.checks).toBe(blocked.filter((c) => c.inScope).length);
      // The auth checks need a token: without one they are left out, not blocked.
      expect(report.checks.filter((c) => c.status === 'skipped').map((c) => c.name)).toEqual(
        expect.arrayContaining(['auth.missing', 'auth.wrongToken']),
      );
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a wrong token: the diagnosis quotes the WWW-Authenticate header; the auth checks still run', async () => {
    const challenge: Handler = async (request, next) => {
      const answer = await next(request);
      return answer.status === 401
        ? { ...answer, headers: { ...answer.headers, 'www-authenticate': 'Bearer realm="crawlspec", error="invalid_token"' } }
        : answer;
    };
    const target = await kitTarget({ token: TOKEN, deviate: challenge });
    try {
      const report = await runContract(
        target.options({ token: 'not-the-token', versions: ['v2'], runs: 1, only: ['auth.*', 'v2.crawl.start.*', 'v2.status'] }),
      );
      expect(report.diagnoses.map((d) => d.summary)).toEqual(['the target refuses the token given (401)']);
      expect(report.diagnoses[0]!.problem).toContain('WWW-Authenticate: Bearer realm="crawlspec", error="invalid_token"');
      expect(report.diagnoses[0]!.fix).toContain('the one given is refused');
      for (const check of report.checks.filter((c) => c.status !== 'skipped'))
        if (check.name.startsWith('auth.')) expect(check.requests, check.name).toBeGreaterThan(0);
        else expect(check.detail, check.name).toMatch(/^not run: the target refuses the token given/);
      expect(exitCode(report)).toBe(3);
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('the command against a target that refuses loopback addresses', () => {
  it(
    'prints the diagnosis before the first check line and in the report, naming --site-host and the export route; exit 3',
    async () => {
      const target = await kitTarget({ token: TOKEN, deviate: refuseLoopback });
      try {
        const run = await runCli(['contract', '--base-url', target.url, '--token', TOKEN, '--runs', '1'], '', CLI_TIMEOUT_MS);
        expect(run.code, run.stderr).toBe(3);
        const lines = run.stdout.split('\n');
        const first = lines.findIndex((l) => l.startsWith('diagnosis: the target refuses http://127.0.0.1:'));
        expect(first).toBeGreaterThan(0);
        expect(first).toBeLessThan(lines.findIndex((l) => /^\[\s*[\d.]+s/.test(l)));
        expect(lines[first + 2]).toMatch(
          /^ {2}fix: {2}serve the test site under a name the target accepts: --site-host NAME .*crawlspec site export/,
        );
        expect(lastLine(run)).toBe('incomplete');
      } finally {
        await target.close();
      }
    },
    CLI_TIMEOUT_MS,
  );
});

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

describe('no implicit skips: against a separately started crawlspec serve (loopback, no subdomain)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // As docs/reference-server.md says to start one for the kit: it crawls the test site's loopback addresses.
    server = await startServerProcess(TOKEN, undefined, ['--allow-host', '127.0.0.1', '--allow-host', '127.0.0.2']);
  }, 60_000);
  afterAll(() => server.stop());

  const subdomainChecks = checkNames(['v1', 'v2']).filter((n) => n.endsWith('.crawl.behaviour.allowSubdomains'));

  it(
    'what it cannot run leaves the run incomplete (exit 3), naming the check and how to include it or leave it out',
    async () => {
      const run = await runCli(
        ['contract', '--base-url', server.url, '--token', TOKEN, '--only', 'v*.crawl.behaviour.allowSubdomains'],
        '',
        CLI_TIMEOUT_MS,
      );
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expect(run.stdout).toMatch(/^incomplete: 2 in-scope checks did not run to a verdict:$/m);
      // The checks with the same reason in one line, naming each.
      expect(run.stdout).toContain('  2 checks: the test site has no subdomain here: serve it under a host name (--site-host NAME');
      for (const name of subdomainChecks)
        expect(run.stdout).toMatch(new RegExp(`^  2 checks: the test site has no subdomain.*${name.replace(/\./g, '\\.')}`, 'm'));
      expect(run.stdout).toContain("--skip 'v*.crawl.behaviour.allowSubdomains'");
      expect(lastLine(run)).toBe('incomplete');
    },
    CLI_TIMEOUT_MS,
  );

  it(
    '--skip leaves it out of the run: out of scope, conformant (exit 0)',
    async () => {
      const run = await runCli(
        [
          'contract',
          '--base-url',
          server.url,
          '--token',
          TOKEN,
          '--only',
          'v*.crawl.behaviour.allowSubdomains',
          '--only',
          'json.malformed',
          '--skip',
          'v*.crawl.behaviour.allowSubdomains',
        ],
        '',
        CLI_TIMEOUT_MS,
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      for (const name of subdomainChecks)
        expect(run.stdout).toMatch(
          new RegExp(`SKIP +${name.replace(/\./g, '\\.')} +\\(left out \\(--skip v\\*\\.crawl\\.behaviour\\.allowSubdomains\\)\\)`),
        );
      expect(lastLine(run)).toBe('conformant');
    },
    CLI_TIMEOUT_MS,
  );
});

describe('no implicit skips: a target not on loopback, without a copy of the test site', () => {
  it('its behaviour checks cannot run: skipped in scope, saying how to include them or leave them out; --no-behaviour leaves them out', async () => {
    // An IPv4-mapped address the kit does not take for loopback; nothing listens there (what is judged here is decided before anything is sent).
    const options: ContractOptions = {
      baseUrl: `http://[::ffff:127.0.0.1]:${await closedPort()}`,
      token: TOKEN,
      versions: ['v2'],
      seed: 1,
      runs: 1,
      concurrency: 1,
      only: ['v2.crawl.behaviour.default'],
    };
    const behaviourCheck = (report: ContractReport) => report.checks.find((c) => c.name === 'v2.crawl.behaviour.default');
    expect(behaviourCheck(await runContract(options))).toMatchObject({
      status: 'skipped',
      inScope: true,
      detail: expect.stringMatching(/cannot crawl the test site the kit serves: give a copy .*--behaviour-site URL .*--no-behaviour$/),
    });
    expect(behaviourCheck(await runContract({ ...options, behaviour: false }))).toMatchObject({
      status: 'skipped',
      inScope: false,
      detail: 'crawl behaviour left out (--no-behaviour)',
    });
  });
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

describe('the guard of this test', () => {
  it('refuses exactly the loopback addresses, names the server resolves there included', () => {
    expect(
      [
        'http://127.0.0.1:4000/site',
        'http://localhost/',
        'http://[::1]:80/',
        'http://crawlspec.example.com:4000/',
        'http://sub.crawlspec.example.com:1/',
      ].every(namesLoopback),
    ).toBe(true);
    expect(['https://example.com/', 'http://128.0.0.1/', 'http://crawlspec.example.org/', 'not a url', 42].some(namesLoopback)).toBe(false);
  });
});
