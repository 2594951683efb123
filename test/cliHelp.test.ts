/**
 * The `crawlspec` command's help, run for real (test/support/cliRuns.ts): `--help`, `<command> --help` and
 * `--version` exit 0 on stdout, and `validate --list` and `validate --help` list what may be validated. The check
 * that every listed schema name is accepted is done in-process with `schemaNames()` / `isSchemaName()` /
 * `validate()`, the same calls the CLI makes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { isSchemaName, schemaNames, validate } from '../schemas/validate.js';
import { DEFAULTS as CONTRACT_DEFAULTS } from '../scripts/cli/contract.js';
import { DEFAULT_OPTIONS } from '../scripts/contract/engine/options.js';
import { COMMAND_USAGE, USAGE } from '../scripts/cli/usage.js';
import { ROOT } from './support/runCli.js';
import { TEST_TIMEOUT_MS, cli, lines, outcome } from './support/cliRuns.js';

describe.concurrent('crawlspec --help, <command> --help and --version exit 0 on stdout', { timeout: TEST_TIMEOUT_MS }, () => {
  it.for([
    [['--help'], USAGE],
    [['-h'], USAGE],
    [['help', 'contract'], COMMAND_USAGE.contract],
    [['validate', '--help'], COMMAND_USAGE.validate],
    [['validate', 'v2/CrawlRequest', '-h'], COMMAND_USAGE.validate],
    [['defaults', '--help'], COMMAND_USAGE.defaults],
    [['migrate', '--help'], COMMAND_USAGE.migrate],
    [['examples', '--help'], COMMAND_USAGE.examples],
    [['serve', '--help'], COMMAND_USAGE.serve],
    [['serve', '--port', '99999', '--help'], COMMAND_USAGE.serve],
    [['contract', '--help'], COMMAND_USAGE.contract],
    [['contract', '--base-url', 'notaurl', '--help'], COMMAND_USAGE.contract],
    [['site', '--help'], COMMAND_USAGE.site],
    [['site', 'serve', '--help'], COMMAND_USAGE.site],
    [['site', 'export', '--help'], COMMAND_USAGE.site],
    [['webhook-receiver', '--help'], COMMAND_USAGE['webhook-receiver']],
  ] as const)('crawlspec %j', async ([args, usage], { expect }) => {
    const run = await cli(args);
    expect(outcome(run)).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(run.stdout.startsWith(usage), run.stdout).toBe(true);
  });

  it("contract's defaults, said before the kit is loaded, are the kit's", ({ expect }) => {
    expect(CONTRACT_DEFAULTS).toEqual({
      version: 'both',
      level: DEFAULT_OPTIONS.level,
      runs: DEFAULT_OPTIONS.runs,
      concurrency: DEFAULT_OPTIONS.concurrency,
      siteUrl: DEFAULT_OPTIONS.siteUrl,
      maxResponseBytes: DEFAULT_OPTIONS.maxResponseBytes,
    });
    for (const [option, value] of Object.entries({ runs: 10, concurrency: 2, 'max-response-bytes': 16777216 }))
      expect(COMMAND_USAGE.contract).toMatch(new RegExp(`--${option} .*\\(default ${value}\\)`));
  });

  it('every subcommand usage names each option its parser takes', ({ expect }) => {
    for (const option of ['--base-url', '--token', '--no-auth', '--version', '--level', '--seed', '--runs', '--max-requests', '--concurrency', '--site-url', '--site-page', '--site-failing', '--timeout', '--max-response-bytes', '--only-no-job', '--only', '--skip', '--list-checks', '--behaviour', '--no-behaviour', '--site-host', '--site-port', '--behaviour-site', '--behaviour-external', '--behaviour-subdomain', '--report', '--record', '--json', '--webhook-url', '--webhook-secret'])
      expect(COMMAND_USAGE.contract).toContain(option);
    for (const option of ['--port', '--host', '--token', '--no-auth', '--allow-host', '--public-url', '--webhook-secret']) expect(COMMAND_USAGE.serve).toContain(option);
    for (const option of ['--port', '--host']) expect(COMMAND_USAGE['webhook-receiver']).toContain(option);
    for (const option of ['--port', '--host', '--base-url', '--external-url', '--subdomain-url']) expect(COMMAND_USAGE.site).toContain(option);
  });

  it('--version prints the version of package.json', async ({ expect }) => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const [long, short] = await Promise.all([cli(['--version']), cli(['-V'])]);
    for (const run of [long, short]) expect(outcome(run)).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
  });
});

describe.concurrent('crawlspec validate --list and --help', { timeout: TEST_TIMEOUT_MS }, () => {
  it('--list prints schemaNames(), one per line, sorted, exit 0', async ({ expect }) => {
    const run = await cli(['validate', '--list']);
    expect(outcome(run)).toMatchObject({ code: 0, signal: null, stderr: '' });
    const listed = lines(run.stdout);
    expect(listed).toEqual(schemaNames());
    expect(listed).toEqual([...listed].sort());
    expect(new Set(listed).size).toBe(listed.length);
    for (const name of listed) expect(name).toMatch(/^v[12]\/[A-Z][A-Za-z0-9]*$/);
    expect(listed).toEqual(
      expect.arrayContaining([
        'v1/CrawlRequest',
        'v2/CrawlRequest',
        'v1/BatchScrapeRequest',
        'v2/BatchScrapeRequest',
        'v1/ScrapeOptions',
        'v2/ScrapeOptions',
        'v2/Location',
        'v1/WebhookEvent',
        'v2/ErrorResponse',
      ]),
    );
  });

  it('every listed name is accepted by validate (never a usage error, never a throw)', ({ expect }) => {
    const names = schemaNames();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      // The CLI's gate for "unknown schema" (exit 2):
      expect(isSchemaName(name), name).toBe(true);
      // ... and validating anything then yields valid / invalid (exit 0 / 1):
      for (const value of [{}, null, 'x', []]) {
        const result = validate(name, value);
        expect(typeof result.valid, name).toBe('boolean');
        if (!result.valid) expect(result.errors.length, name).toBeGreaterThan(0);
      }
    }
  });

  it('the usage --help and validate --help print names --list', ({ expect }) => {
    // That they print it, exit 0 and nothing on stderr, is shown above by spawning them.
    expect(USAGE.startsWith('usage: crawlspec <command> [options]'), USAGE).toBe(true);
    for (const usage of [USAGE, COMMAND_USAGE.validate]) {
      expect(usage).toContain('usage:');
      expect(usage).toContain('crawlspec validate --list');
    }
    // Every command's help ends with its exit statuses, 4 (a bug of crawlspec) among them, as the whole usage does.
    for (const usage of [USAGE, ...Object.values(COMMAND_USAGE)]) {
      expect(usage).toMatch(/^exit status: 0 .*(\n {13}.*)*\n {13}4 the command failed: a bug of crawlspec \(the message says so\)$/m);
      expect(usage.endsWith('4 the command failed: a bug of crawlspec (the message says so)'), usage).toBe(true);
    }
  });
});
