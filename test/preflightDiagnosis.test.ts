/**
 * The preflight of a contract run (scripts/contract/engine/preflight.ts): it tells a target that refuses the site,
 * or cannot reach it, from one that refuses valid bodies whatever their site; what rests on a site the target
 * cannot use is inconclusive under one diagnosis, and so is a run whose credentials the target refuses; the same
 * through the command; and the guard these tests put in front of a target refuses exactly the loopback addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecks, exitCode, formatJunit, formatText, runContract, type ContractReport } from '../scripts/contract/index.js';
import { isStart, kitTarget, type Handler, type KitTarget } from './support/kitTarget.js';
import { runCli } from './support/runCli.js';
import { expectWellFormedXml } from './support/wellFormedXml.js';
import { startServerProcess } from './support/serverProcess.js';
import { closedPort, namesLoopback, noPageRecords, refuseEveryStart, refuseLoopback, unreachableLoopback } from './support/siteGuard.js';
import { CLI_TIMEOUT_MS, TOKEN, lastLine } from './support/preflightParts.js';

/** Every site-independent check (the ones a diagnosis does not stop). */
const SITE_INDEPENDENT = new Set(
  contractChecks(['v1', 'v2'])
    .filter((c) => c.siteIndependent === true)
    .map((c) => c.name),
);

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
