/**
 * crawlspec.config.json (issue 43): the options of `contract` and `proxy` in a file, validated against the schema the
 * package publishes (generated from the commands' option tables), flags overriding it. The command runs for real
 * (the test run's build) in a scratch folder holding the file; the one run that tests a target tests a reference
 * server started here on 127.0.0.1, narrowed to one check.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIGURABLE, CONTRACT_OPTIONS, type OptionTable } from '../scripts/cli/commandOptions.js';
import { MAX_CONFIG_BYTES } from '../scripts/cli/config.js';
import { configSchema } from '../scripts/cli/configSchema.js';
import { createReferenceApp } from '../scripts/server/app.js';
import { listen } from '../scripts/server/http.js';
import { isSiteAddress } from '../scripts/site/server.js';
import { builtCli } from './support/build.js';
import { ROOT, type CliRun } from './support/runCli.js';

const TIMEOUT_MS = 120_000;
/** The schema as the package publishes it (`crawlspec/config.schema.json`). */
const PUBLISHED = JSON.parse(readFileSync(join(ROOT, 'generated', 'config.schema.json'), 'utf8')) as {
  $id: string;
  properties: Record<string, { properties?: Record<string, { type: string; minimum?: number; maximum?: number }> }>;
};

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'crawlspec-config-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** `crawlspec ...args` in the scratch folder, its crawlspec.config.json holding `config` (none when undefined). */
async function inFolder(config: unknown, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const file = join(folder, 'crawlspec.config.json');
  if (config === undefined) await rm(file, { force: true });
  else await writeFile(file, typeof config === 'string' ? config : JSON.stringify(config));
  const { CRAWLSPEC_TOKEN: _token, ...outside } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtCli(), ...args], {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: TIMEOUT_MS,
      env: { ...outside, NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('the published schema of crawlspec.config.json', () => {
  it('is the one made from the option tables, with its $id', () => {
    expect(PUBLISHED).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://crawlspec.dev/schemas/config.schema.json',
      ...configSchema(),
    });
  });

  it('has a key for every option of contract and proxy that a file may hold, and no other', () => {
    for (const [command, table] of Object.entries(CONFIGURABLE) as [string, OptionTable][]) {
      const keys = Object.keys(PUBLISHED.properties[command]!.properties!);
      const settable = Object.entries(table).filter(([, option]) => option.notInFile === undefined);
      expect(keys.sort(), command).toEqual(settable.map(([name]) => name).sort());
    }
    // The secrets and the actions are not among them.
    expect(Object.keys(PUBLISHED.properties.contract!.properties!)).not.toContain('token');
    expect(Object.keys(PUBLISHED.properties.contract!.properties!)).not.toContain('webhook-secret');
    expect(PUBLISHED.properties.contract!.properties!.runs).toMatchObject({ type: 'integer', minimum: 1, maximum: 100_000 });
  });

  it('takes an option added to a table with no other change', () => {
    const table = { ...CONTRACT_OPTIONS, 'min-coverage': { type: 'string', integer: [0, 100] }, 'step-summary': { type: 'string' } } as const;
    const validate = new Ajv2020({ strict: true }).compile(configSchema({ contract: table }));
    expect(validate({ contract: { 'min-coverage': 80, 'step-summary': 'summary.md' } })).toBe(true);
    expect(validate({ contract: { 'min-coverage': 101 } })).toBe(false);
    expect(new Ajv2020({ strict: true }).compile(configSchema())({ contract: { 'step-summary': 'summary.md' } })).toBe(false);
  });
});

describe('crawlspec contract with crawlspec.config.json', () => {
  const usageError = (line: string) => `crawlspec: ${line} (crawlspec contract --help)\n`;

  it.each([
    [{ contract: { 'bse-url': 'http://127.0.0.1:3002' } }, '"crawlspec.config.json": contract has no option "bse-url"; did you mean "base-url"? expected an option of crawlspec contract --help, without its --'],
    [{ contract: { baseUrl: 'http://127.0.0.1:3002' } }, '"crawlspec.config.json": contract has no option "baseUrl"; did you mean "base-url"? expected an option of crawlspec contract --help, without its --'],
    [{ contrat: {} }, '"crawlspec.config.json" has the key "contrat"; did you mean "contract"? expected contract, proxy or $schema'],
    [{ contract: { runs: 'ten' } }, '"crawlspec.config.json": contract.runs is "ten"; expected a whole number from 1 to 100000'],
    [{ contract: { skip: 'v1.*' } }, '"crawlspec.config.json": contract.skip is "v1.*"; expected a list of strings, e.g. ["a", "b"]'],
    [{ contract: { json: 'yes' } }, '"crawlspec.config.json": contract.json is "yes"; expected true or false'],
    [[], '"crawlspec.config.json" is not a JSON object; expected one of sections contract and proxy, e.g. {"contract": {"base-url": "http://127.0.0.1:3002"}}'],
    [
      { contract: { token: 'fc-secret' } },
      '"crawlspec.config.json": contract.token is a secret, never read from a file (a config file is committed and shown); expected it in the environment as CRAWLSPEC_TOKEN (e.g. a CI secret), or as --token',
    ],
  ])('a wrong file %j exits 2 with one line naming the key', async (config, line) => {
    const run = await inFolder(config, ['contract']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(usageError(line));
    expect(run.stderr).not.toContain('fc-secret');
  });

  it('reads no file past MAX_CONFIG_BYTES', async () => {
    const run = await inFolder(`{"contract": {}}${' '.repeat(MAX_CONFIG_BYTES)}`, ['contract']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(usageError(`"crawlspec.config.json" has ${MAX_CONFIG_BYTES + 16} bytes; expected a config file of at most ${MAX_CONFIG_BYTES} bytes`));
  });

  it('says a value the command refuses came from the file', async () => {
    const run = await inFolder({ contract: { level: 'strict' } }, ['contract']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('crawlspec: --level takes interface or service, not "strict" (contract.level of "crawlspec.config.json"; crawlspec contract --help)\n');
  });

  it('applies the file, and a flag overrides its key', async () => {
    const fromFile = await inFolder({ contract: { version: 'v1' } }, ['contract', '--list-checks']);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toContain('v1.');
    expect(fromFile.stdout).not.toContain('v2.');
    const overridden = await inFolder({ contract: { version: 'v3' } }, ['contract', '--list-checks', '--version', 'v2']);
    expect(overridden.code).toBe(0);
    expect(overridden.stdout).toContain('v2.');
    expect(overridden.stdout).not.toContain('v1.');
  });

  it('reads --config FILE instead, and refuses one that is not there', async () => {
    await writeFile(join(folder, 'ci.json'), JSON.stringify({ contract: { version: 'v2' } }));
    const named = await inFolder({ contract: { version: 'v3' } }, ['contract', '--config', 'ci.json', '--list-checks']);
    expect(named.code).toBe(0);
    expect(named.stdout).not.toContain('v1.');
    const missing = await inFolder(undefined, ['contract', '--config', 'missing.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(usageError('--config "missing.json" cannot be read (ENOENT); expected a JSON file, e.g. crawlspec.config.json'));
  });

  it('is then a whole CI run with nothing else on the command line (the token from CRAWLSPEC_TOKEN)', async () => {
    const token = 'fc-config-run';
    let publicUrl = '';
    // It may fetch the test site the kit serves on loopback (as `crawlspec contract` without --base-url lets it).
    const app = createReferenceApp({ auth: { token }, publicUrl: () => publicUrl, allowFetchHost: isSiteAddress });
    const server = await listen(app);
    publicUrl = server.url;
    try {
      const config = { $schema: PUBLISHED.$id, contract: { 'base-url': server.url, only: ['json.malformed'], version: 'v2', report: 'junit.xml' } };
      const run = await inFolder(config, ['contract'], { CRAWLSPEC_TOKEN: token });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`crawlspec contract: ${server.url} (v2)`);
      expect(readFileSync(join(folder, 'junit.xml'), 'utf8')).toContain('json.malformed');
    } finally {
      await server.close();
      app.close();
    }
  });
});

describe('crawlspec proxy with crawlspec.config.json', () => {
  it('refuses a wrong key and names where a refused value came from', async () => {
    const wrong = await inFolder({ proxy: { targte: 'http://127.0.0.1:3002' } }, ['proxy']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      'crawlspec: "crawlspec.config.json": proxy has no option "targte"; did you mean "target"? expected an option of crawlspec proxy --help, without its -- (crawlspec proxy --help)\n',
    );
    const refused = await inFolder({ proxy: { target: 'ftp://127.0.0.1' } }, ['proxy']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^crawlspec: --target takes an http or https address.*\(proxy\.target of "crawlspec\.config\.json"; crawlspec proxy --help\)\n$/);
  });
});
