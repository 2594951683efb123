/**
 * No implicit skips: what a target cannot run leaves the contract run incomplete unless `--skip` leaves it out,
 * against a separately started `crawlspec serve` (loopback, no subdomain) and against a target not on loopback,
 * without a copy of the test site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNames, runContract, type ContractOptions, type ContractReport } from '../scripts/contract/index.js';
import { runCli } from './support/runCli.js';
import { startServerProcess, type ServerProcess } from './support/serverProcess.js';
import { closedPort } from './support/siteGuard.js';
import { CLI_TIMEOUT_MS, TOKEN, lastLine } from './support/preflightParts.js';

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
