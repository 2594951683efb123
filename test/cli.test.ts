/**
 * The `crawlspec` command, run for real: `node --import tsx scripts/cli.ts ...` as a child process, with
 * stdin passed explicitly and nothing inherited from the terminal.
 *
 * Each spawn costs half a second to a second of CPU (tsx loads the sources), so the tests run concurrently,
 * with at most MAX_PARALLEL children alive at a time, and several checks share one spawn through `--jsonl`
 * where that does not blur what is being tested. The table of usage errors, which stop at the arguments, runs
 * in one process (test/support/cliMany.ts); the other usage errors below are spawned one by one. The check that every listed schema name is accepted is
 * done in-process with `schemaNames()` / `isSchemaName()` / `validate()`, the same calls the CLI makes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { isSchemaName, schemaNames, validate, type SchemaName, type ValidationIssue } from '../schemas/validate.js';
import { DEFAULTS as CONTRACT_DEFAULTS } from '../scripts/cli/contract.js';
import { schemaSuggestions } from '../scripts/cli/documents.js';
import { DEFAULT_OPTIONS } from '../scripts/contract/engine/options.js';
import { COMMAND_USAGE, USAGE } from '../scripts/cli/usage.js';
import { ROOT, runCli, runScript, type CliRun as Run } from './support/runCli.js';

/** Per spawn; a lone spawn takes 0.5 to 2 s (more with four at once on two cores), so this only trips on a hang. */
const SPAWN_TIMEOUT_MS = 120_000;
/** Per test, a safety net: a test's time counts its wait for a slot among MAX_PARALLEL children on a loaded machine. */
const TEST_TIMEOUT_MS = 300_000;
const MAX_PARALLEL = 4;

// ---------------------------------------------------------------------------
// Running the CLI
// ---------------------------------------------------------------------------

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `task` when fewer than MAX_PARALLEL tasks are running; a finished task hands its slot on directly. */
async function withSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running < MAX_PARALLEL) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await task();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** `crawlspec ...args` with `stdin` as its whole standard input (empty unless given). */
function cli(args: readonly string[], stdin = ''): Promise<Run> {
  return withSlot(() => runCli(args, stdin, SPAWN_TIMEOUT_MS));
}

/** What to compare an exit against: a mismatch then shows the streams, which say why. */
const outcome = (run: Run) => ({ code: run.code, signal: run.signal, stdout: run.stdout, stderr: run.stderr });

const lines = (text: string) => text.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === ''));

/** `  $.limit: must be integer, not string ("ten"). Expected: ...` → its parts. */
const PROBLEM_LINE = /^ {2}(\$\S*): (.+?)\. Expected: (.+)$/;

function problems(stdout: string): Map<string, { message: string; expected: string }> {
  const found = new Map<string, { message: string; expected: string }>();
  for (const line of lines(stdout).slice(1)) {
    const match = PROBLEM_LINE.exec(line);
    if (!match) throw new Error(`not a problem line: ${JSON.stringify(line)}`);
    found.set(match[1]!, { message: match[2]!, expected: match[3]! });
  }
  return found;
}

type JsonlResult = { line: number } & ({ valid: true } | { valid: false; errors: ValidationIssue[] });

function jsonlResults(stdout: string): JsonlResult[] {
  return lines(stdout).map((line) => JSON.parse(line) as JsonlResult);
}

/** The errors of an invalid JSONL result (fails the test if it is valid). */
function errorsOf(result: JsonlResult | undefined): ValidationIssue[] {
  if (result === undefined || result.valid) throw new Error(`expected an invalid result, got ${JSON.stringify(result)}`);
  return result.errors;
}

/** The field names listed by an `additionalProperties` issue's expectation. */
const knownFields = (expected: string) => expected.replace(/^only these fields: /, '').split(', ');

// ---------------------------------------------------------------------------
// Temporary input files
// ---------------------------------------------------------------------------

let dir = '';
let fileCount = 0;

/** The folder of a test file's inputs: made before its tests, removed after them (called once, at the file's top). */
function useTempDir(): void {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crawlspec-cli-'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
}

const tempDir = (): string => dir;

useTempDir();

async function tempFile(content: string): Promise<string> {
  fileCount += 1;
  const path = join(tempDir(), `input-${fileCount}.json`);
  await writeFile(path, content, 'utf8');
  return path;
}

// ---------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------

const V1_CRAWL = {
  url: 'https://example.com/docs',
  maxDepth: 2,
  ignoreSitemap: true,
  scrapeOptions: { formats: ['markdown', 'screenshot@fullPage'], parsePDF: false },
};
const V2_CRAWL = {
  url: 'https://example.com',
  sitemap: 'only',
  prompt: 'docs only',
  scrapeOptions: { formats: ['markdown', { type: 'screenshot', fullPage: true }], parsers: [] },
};
const BATCH = { urls: ['https://example.com/a'] };
const V2_SCRAPE_OPTIONS = {
  formats: ['markdown', { type: 'json', prompt: 'the product name and price' }],
  onlyMainContent: true,
  timeout: 30000,
  proxy: 'auto',
};
const V1_SCRAPE_OPTIONS = { formats: ['markdown', 'links'], onlyMainContent: true, timeout: 30000, proxy: 'stealth' };

const VALID_BODIES: readonly (readonly [SchemaName, unknown])[] = [
  ['v1/CrawlRequest', V1_CRAWL],
  ['v2/CrawlRequest', V2_CRAWL],
  ['v1/BatchScrapeRequest', BATCH],
  ['v2/BatchScrapeRequest', BATCH],
  ['v2/ScrapeOptions', V2_SCRAPE_OPTIONS],
  ['v1/ScrapeOptions', V1_SCRAPE_OPTIONS],
];

const line = (value: unknown) => JSON.stringify(value);

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

describe.concurrent('crawlspec validate: valid bodies', { timeout: TEST_TIMEOUT_MS }, () => {
  it.for(VALID_BODIES)('%s from a file exits 0 and prints "valid <schema>"', async ([schema, body], { expect }) => {
    const file = await tempFile(JSON.stringify(body, null, 2));
    const run = await cli(['validate', schema, file]);
    expect(outcome(run)).toEqual({ code: 0, signal: null, stdout: `valid ${schema}\n`, stderr: '' });
  });

  it('the version-specific example bodies are not interchangeable (so the checks above are not vacuous)', ({ expect }) => {
    expect(validate('v2/CrawlRequest', V1_CRAWL).valid).toBe(false);
    expect(validate('v1/CrawlRequest', V2_CRAWL).valid).toBe(false);
  });

  it('reads stdin when no file is given', async ({ expect }) => {
    const run = await cli(['validate', 'v2/CrawlRequest'], JSON.stringify(V2_CRAWL));
    expect(outcome(run)).toEqual({ code: 0, signal: null, stdout: 'valid v2/CrawlRequest\n', stderr: '' });
  });
});

describe.concurrent('crawlspec validate: invalid bodies', { timeout: TEST_TIMEOUT_MS }, () => {
  it('lists every problem of a v2 crawl request with its path, the problem and what is expected', async ({ expect }) => {
    const body = {
      maxDepth: 2, // v1 only
      limit: 'ten',
      bogus: true,
      scrapeOptions: { timeout: 300001, proxy: 'residential', formats: ['markdown', { type: 'pdfx' }] },
    };
    const run = await cli(['validate', 'v2/CrawlRequest', await tempFile(JSON.stringify(body))]);
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });
    expect(lines(run.stdout)[0]).toBe('invalid v2/CrawlRequest: 7 problems');

    const found = problems(run.stdout);
    expect([...found.keys()].sort()).toEqual(
      [
        '$.url',
        '$.maxDepth',
        '$.bogus',
        '$.limit',
        '$.scrapeOptions.timeout',
        '$.scrapeOptions.proxy',
        '$.scrapeOptions.formats[1].type',
      ].sort(),
    );
    for (const { expected } of found.values()) expect(expected.trim()).not.toBe('');

    expect(found.get('$.url')!.message).toMatch(/required/);
    expect(found.get('$.maxDepth')!.message).toMatch(/^`maxDepth` is v1; v2 cannot limit a crawl by the depth of the URL path/);
    expect(knownFields(found.get('$.maxDepth')!.expected)).toContain('maxDiscoveryDepth');
    expect(knownFields(found.get('$.maxDepth')!.expected)).not.toContain('maxDepth');
    expect(found.get('$.bogus')!.message).toMatch(/not a known field/);
    expect(found.get('$.limit')!.message).toContain('"ten"');
    expect(found.get('$.limit')!.message).toContain('integer');
    expect(found.get('$.scrapeOptions.timeout')!.message).toContain('300000');
    expect(found.get('$.scrapeOptions.timeout')!.message).toContain('300001');
    expect(found.get('$.scrapeOptions.proxy')!.message).toContain('"residential"');
    expect(found.get('$.scrapeOptions.proxy')!.message).toContain('"basic"');
    expect(found.get('$.scrapeOptions.formats[1].type')!.message).toContain('"pdfx"');
  });

  it('rejects v2-only fields and v2 formats in a v1 crawl request', async ({ expect }) => {
    const body = { url: 'https://example.com', sitemap: 'only', scrapeOptions: { formats: ['markdown', 'images'] } };
    const run = await cli(['validate', 'v1/CrawlRequest', await tempFile(JSON.stringify(body))]);
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });
    expect(lines(run.stdout)[0]).toBe('invalid v1/CrawlRequest: 2 problems');
    const found = problems(run.stdout);
    expect([...found.keys()].sort()).toEqual(['$.scrapeOptions.formats[1]', '$.sitemap']);
    expect(found.get('$.sitemap')!.message).toMatch(/not a known field/);
    expect(knownFields(found.get('$.sitemap')!.expected)).toContain('maxDepth');
    expect(knownFields(found.get('$.sitemap')!.expected)).not.toContain('sitemap');
    expect(found.get('$.scrapeOptions.formats[1]')!.message).toContain('"images"');
    expect(found.get('$.scrapeOptions.formats[1]')!.message).toContain('"markdown"');
  });

  it('reads stdin when the file is "-", and says "1 problem" for one', async ({ expect }) => {
    const body = { url: 'https://example.com', scrapeOptions: { timeout: 300001 } };
    const run = await cli(['validate', 'v2/CrawlRequest', '-'], JSON.stringify(body));
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });
    const [header, problem, ...rest] = lines(run.stdout);
    expect(header).toBe('invalid v2/CrawlRequest: 1 problem');
    expect(problem).toMatch(/^ {2}\$\.scrapeOptions\.timeout: must be <= 300000, not 300001\. Expected: \S/);
    expect(rest).toEqual([]);
  });

  it('reports malformed JSON as one problem at $ (exit 1)', async ({ expect }) => {
    const run = await cli(['validate', 'v2/CrawlRequest', await tempFile('{"url": "https://example.com",')]);
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });
    const [header, problem, ...rest] = lines(run.stdout);
    expect(header).toBe('invalid v2/CrawlRequest: 1 problem');
    expect(problem).toMatch(/^ {2}\$: is not valid JSON\b.*\. Expected: a JSON document \[interface §4\]$/);
    expect(rest).toEqual([]);
  });

  it('says where malformed JSON stops being JSON by line and column, not only by offset', async ({ expect }) => {
    // The closing brace after a trailing comma: line 3, column 3, offset 36 of the text.
    const run = await cli(['validate', 'v2/CrawlRequest', await tempFile('{\n  "url": "https://example.com",\n  }\n')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {2}\$: is not valid JSON \(.* at position 36 \(line 3, column 3\)\)\. Expected/m);
    const [crlf, quoted, single] = await Promise.all([
      // Windows line ends: the same place.
      cli(['validate', 'v2/CrawlRequest', await tempFile('{\r\n  "url": "https://example.com",\r\n  }\r\n')]),
      // V8 gives no place for an unexpected token, only a quote of the text: none is made up from what the text says,
      // and the quoted line break shows as \n, so the problem stays on one line.
      cli(['validate', 'v2/CrawlRequest', await tempFile('{"at position 9":\nx}')]),
      cli(['validate', 'v2/CrawlRequest', await tempFile('{"url" 1}')]),
    ]);
    expect(crlf.stdout).toMatch(/ at position 38 \(line 3, column 3\)\)\. Expected/);
    expect(lines(quoted.stdout)).toHaveLength(2);
    expect(quoted.stdout).toContain('\\n');
    expect(quoted.stdout).not.toMatch(/\(line \d/);
    // One line of text: its position is its column already.
    expect(single.stdout).toMatch(/ at position 7\)\. Expected/);
  });

  it('reports empty input as not valid JSON (exit 1)', async ({ expect }) => {
    const run = await cli(['validate', 'v1/BatchScrapeRequest'], '');
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });
    expect(run.stdout).toMatch(/^ {2}\$: is not valid JSON\b/m);
  });
});

describe.concurrent('crawlspec validate --jsonl', { timeout: TEST_TIMEOUT_MS }, () => {
  it('prints one JSON result per non-blank line, in order, and exits 1 when any is invalid (v2)', async ({ expect }) => {
    const input = [
      line(V2_CRAWL),
      line({ url: 'https://example.com', maxDepth: 2 }),
      line({ url: 'https://example.com', limit: 'ten' }),
      '',
      '{"url": "https://example.com",',
      line({ limit: 10 }),
      '   ',
      line({ url: 'https://example.com', scrapeOptions: { proxy: 'residential' } }),
      line({ url: 'https://example.com', scrapeOptions: { timeout: 300001 } }),
      line({ url: 'https://example.com', scrapeOptions: { formats: [{ type: 'pdfx' }] } }),
      line({ url: 'https://example.com', 'foo-bar': 1 }),
      line({ url: 'https://example.com/other' }),
      '',
    ].join('\n');
    const run = await cli(['validate', '--jsonl', 'v2/CrawlRequest', await tempFile(input)]);
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });

    const results = jsonlResults(run.stdout);
    expect(results).toHaveLength(10);
    expect(results.map((r) => r.valid)).toEqual([true, false, false, false, false, false, false, false, false, true]);
    // Each names its line of the input: the blank ones (4, 7, 13) have none.
    expect(results.map((r) => r.line)).toEqual([1, 2, 3, 5, 6, 8, 9, 10, 11, 12]);
    expect(results[0]).toEqual({ line: 1, valid: true });
    expect(results[9]).toEqual({ line: 12, valid: true });

    // Every error has exactly the documented shape, and each line here has exactly one problem.
    for (const result of results.slice(1, 9)) {
      const errors = errorsOf(result);
      expect(errors).toHaveLength(1);
      for (const error of errors) {
        expect(Object.keys(error).sort()).toEqual(['expected', 'message', 'path', 'rule', 'segments', 'source']);
        expect(error).toEqual({
          path: expect.stringMatching(/^\$/),
          segments: expect.any(Array),
          rule: expect.stringMatching(/\S/),
          message: expect.stringMatching(/\S/),
          expected: expect.stringMatching(/\S/),
          source: expect.stringMatching(/^(interface §\d+(\.\d+)?|service)$/),
        });
      }
    }

    const [maxDepth, limit, malformed, missingUrl, proxy, timeout, formatType, quotedKey] = results.slice(1, 9).map((r) => errorsOf(r)[0]!);
    // Unknown keys are refused by the service; the interface says nothing of strictness.
    expect(maxDepth).toMatchObject({ path: '$.maxDepth', segments: ['maxDepth'], rule: 'additionalProperties', source: 'service' });
    expect(maxDepth!.message).toMatch(/^`maxDepth` is v1; v2 /);
    expect(limit).toMatchObject({ path: '$.limit', segments: ['limit'], rule: 'type', source: 'interface §2.1' });
    expect(limit!.message).toContain('"ten"');
    expect(malformed).toMatchObject({ path: '$', segments: [], rule: 'json' });
    expect(malformed!.message).toMatch(/not valid JSON/);
    expect(missingUrl).toMatchObject({ path: '$.url', segments: ['url'], rule: 'required', source: 'interface §2.1' });
    expect(proxy).toMatchObject({ path: '$.scrapeOptions.proxy', segments: ['scrapeOptions', 'proxy'], rule: 'enum' });
    expect(proxy!.message).toContain('"residential"');
    expect(timeout).toMatchObject({
      path: '$.scrapeOptions.timeout',
      segments: ['scrapeOptions', 'timeout'],
      rule: 'maximum',
      source: 'interface §2.4',
    });
    expect(timeout!.message).toContain('300000');
    expect(formatType).toMatchObject({
      path: '$.scrapeOptions.formats[0].type',
      segments: ['scrapeOptions', 'formats', 0, 'type'],
    });
    expect(formatType!.message).toContain('"pdfx"');
    expect(quotedKey).toMatchObject({ path: '$["foo-bar"]', segments: ['foo-bar'], rule: 'additionalProperties' });
  });

  it('checks v1 rules line by line from stdin', async ({ expect }) => {
    const input = [
      line({ url: 'https://example.com', sitemap: 'only' }),
      line(V1_CRAWL),
      line({ url: 'https://example.com', scrapeOptions: { formats: ['images'] } }),
    ].join('\n');
    const run = await cli(['validate', '--jsonl', 'v1/CrawlRequest'], input);
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });
    const results = jsonlResults(run.stdout);
    expect(results.map((r) => r.valid)).toEqual([false, true, false]);
    const [sitemap] = errorsOf(results[0]);
    expect(sitemap).toMatchObject({ path: '$.sitemap', segments: ['sitemap'], rule: 'additionalProperties' });
    const [images, ...more] = errorsOf(results[2]);
    expect(more).toEqual([]);
    expect(images).toMatchObject({ path: '$.scrapeOptions.formats[0]', segments: ['scrapeOptions', 'formats', 0], rule: 'enum' });
    expect(images!.message).toContain('"images"');
  });

  it('exits 0 when every line is valid, skipping blank lines (CRLF line ends too)', async ({ expect }) => {
    const input = ['', line(BATCH), '', line({ urls: ['https://example.com/b', 'https://example.com/c'] }), '  ', ''].join('\r\n');
    const run = await cli(['validate', '--jsonl', 'v2/BatchScrapeRequest', '-'], input);
    expect(outcome(run)).toEqual({ code: 0, signal: null, stdout: '{"line":2,"valid":true}\n{"line":4,"valid":true}\n', stderr: '' });
  });
});

/**
 * A usage error is one line on stderr, `crawlspec: <what is wrong>; <what is expected> (<pointer>)`, exit 2:
 * never the whole usage text, never a stack trace, nothing on stdout. What the line must say is matched.
 */
function expectUsageError(run: Run, said: RegExp, pointer: string, expect: ExpectStatic): void {
  expect(outcome(run)).toMatchObject({ code: 2, signal: null, stdout: '' });
  const [first, ...more] = lines(run.stderr);
  expect(more, run.stderr).toEqual([]);
  expect(first).toMatch(/^crawlspec: /);
  expect(first!.endsWith(` (${pointer})`), first).toBe(true);
  expect(first!.slice(0, -` (${pointer})`.length)).toMatch(said);
  expect(run.stderr).not.toContain('usage:');
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

/** What every option of every subcommand answers when it is wrong: [arguments, what the line says, the pointer]. */
const USAGE_ERRORS: readonly (readonly [readonly string[], RegExp, string])[] = [
  [[], /no command given; expected one of validate, defaults, migrate, examples, docs, proxy, serve, contract, site, webhook-receiver, check-traffic$/, 'crawlspec --help'],
  [['check', 'v2/CrawlRequest'], /unknown command "check"; expected one of validate, .*, or --version$/, 'crawlspec --help'],
  [['validate'], /validate needs a schema name, e.g\. v2\/CrawlRequest$/, 'crawlspec validate --help'],
  [['validate', 'v2/CrawlRequest', 'a.json', 'b.json'], /unexpected argument "b\.json"; validate takes a schema name and at most one file$/, 'crawlspec validate --help'],
  [['validate', '--strict', 'v2/CrawlRequest'], /unknown option "--strict"; validate takes --jsonl, --list$/, 'crawlspec validate --help'],
  [['validate', '--jsonl=yes', 'v2/CrawlRequest'], /--jsonl takes no value$/, 'crawlspec validate --help'],
  [['validate', '--list', 'v2/CrawlRequest'], /--list takes nothing else/, 'crawlspec validate --help'],
  [['defaults'], /defaults needs a schema name/, 'crawlspec defaults --help'],
  [['defaults', '--jsonl', 'v2/CrawlRequest'], /unknown option "--jsonl"; defaults takes no options$/, 'crawlspec defaults --help'],
  [['migrate', 'a.json', 'b.json'], /unexpected argument "b\.json"; migrate takes at most one file$/, 'crawlspec migrate --help'],
  [['examples', 'extra'], /unexpected argument "extra"; examples takes no arguments$/, 'crawlspec examples --help'],
  [['serve', '--port', '99999'], /--port takes a whole number from 0 to 65535, not "99999"$/, 'crawlspec serve --help'],
  [['serve', '--port', 'eighty'], /--port takes a whole number from 0 to 65535, not "eighty"$/, 'crawlspec serve --help'],
  [['serve', '--port'], /--port needs a value$/, 'crawlspec serve --help'],
  [['serve', '--host', 'nosuch.invalid'], /--host "nosuch\.invalid" does not resolve \(\w+\); expected an address of this machine/, 'crawlspec serve --help'],
  [['serve', '--host', ''], /--host is empty; expected an address of this machine/, 'crawlspec serve --help'],
  [['serve', '--token', ''], /--token is empty; expected the token clients must send \(or --no-auth for no authentication\)$/, 'crawlspec serve --help'],
  [['serve', '--token', 'two words'], /--token holds a space, a control character or a character beyond ASCII; expected a bearer token/, 'crawlspec serve --help'],
  [['serve', '--token', 'a', '--no-auth'], /--token and --no-auth exclude each other$/, 'crawlspec serve --help'],
  [['serve', 'extra'], /unexpected argument "extra"; serve takes options only$/, 'crawlspec serve --help'],
  [['contract', '--base-url', 'notaurl', '--no-auth'], /--base-url takes an http or https address, e.g\. http:\/\/127\.0\.0\.1:3002, not "notaurl"$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'ftp://example.com', '--no-auth'], /--base-url takes an http or https address/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:0', '--no-auth'], /--base-url "http:\/\/127\.0\.0\.1:0" has the port 0; expected a port from 1 to 65535, e\.g\. http:\/\/127\.0\.0\.1:3002$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:65536', '--no-auth'], /--base-url "http:\/\/127\.0\.0\.1:65536" has the port 65536; expected a port from 1 to 65535/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:3002/?x=1', '--no-auth'], /--base-url takes an address without a query or fragment, e\.g\. http:\/\/127\.0\.0\.1:3002, not "http:\/\/127\.0\.0\.1:3002\/\?x=1"$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:3002/#top', '--no-auth'], /--base-url takes an address without a query or fragment/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:3002/api/v2/', '--no-auth'], /--base-url "http:\/\/127\.0\.0\.1:3002\/api\/v2\/" ends with the version segment \/v2; expected the base address without it \(the paths add \/v1\/\.\.\. and \/v2\/\.\.\.\), e\.g\. http:\/\/127\.0\.0\.1:3002$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://user:s3cret@127.0.0.1:3002', '--no-auth'], /^(?!.*s3cret).*--base-url holds a user name or password \(before the @\); expected the address alone, e\.g\. http:\/\/127\.0\.0\.1:3002$/, 'crawlspec contract --help'],
  [['docs', '--server-url', 'https://u:s3cret@api.example.com:0/?q', '-o', 'x.html'], /^(?!.*s3cret).*--server-url holds a user name or password/, 'crawlspec docs --help'],
  [['contract', '--header', 'X-A:'], /--header "X-A:" is not Name: value; expected a header name, a colon and its value/, 'crawlspec contract --help'],
  [['contract', '--webhook-url', 'http://127.0.0.1:0/hook'], /--webhook-url "http:\/\/127\.0\.0\.1:0\/hook" has the port 0/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:1'], /a target needs --token T \(or CRAWLSPEC_TOKEN\), or --no-auth/, 'crawlspec contract --help'],
  [['contract', '--token', ''], /--token is empty; expected the API token the target expects/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:1', '--token', 'a\u001bb'], /--token holds a space, a control character/, 'crawlspec contract --help'],
  [['contract', '--version', 'v3'], /--version takes v1, v2 or both, not "v3"$/, 'crawlspec contract --help'],
  [['contract', '--level', 'strict'], /--level takes interface or service, not "strict"$/, 'crawlspec contract --help'],
  [['contract', '--seed', 'x'], /--seed takes a whole number from 0 to 2147483647, not "x"$/, 'crawlspec contract --help'],
  [['contract', '--runs', '0'], /--runs takes a whole number from 1 to 100000, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--max-requests', '-1'], /--max-requests needs a value/, 'crawlspec contract --help'],
  [['contract', '--max-requests=1.5'], /--max-requests takes a whole number from 0 to 1000000000, not "1\.5"$/, 'crawlspec contract --help'],
  [['contract', '--concurrency', '0'], /--concurrency takes a whole number from 1 to 64, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--max-response-bytes', '0'], /--max-response-bytes takes a whole number from 1 to 1073741824, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'http://localhost'], /--site-url "http:\/\/localhost" is not an address a v1 crawl may start at \(URL must have a valid top-level domain or be an IP address\); expected/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'example'], /--site-url takes an http or https address, e\.g\. https:\/\/example\.com, not "example"$/, 'crawlspec contract --help'],
  [['contract', '--site-page', '/a', '--site-page', '/b'], /--site-page describes the site of --site-url \(or the copy of --behaviour-site\); give one too$/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'https://example.com', '--site-page', '/a'], /--site-page names one page; expected at least two/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'https://example.com', '--site-failing', 'reset'], /--site-failing "reset" is not a path of the site; expected one beginning with \/, e\.g\. \/about$/, 'crawlspec contract --help'],
  [['contract', '--timeout', '0'], /--timeout takes a whole number from 1 to 3600, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--webhook-url', 'http://127.0.0.1:6000', '--no-auth'], /--webhook-url http:\/\/127\.0\.0\.1:6000\/ uses port 6000, which a target built on fetch never connects to \(the Fetch standard's bad ports\); use another port$/, 'crawlspec contract --help'],
  [['contract', '--only', 'nothing.matches'], /--only "nothing\.matches" names no check of v1 and v2; expected a name or pattern of crawlspec contract --list-checks$/, 'crawlspec contract --help'],
  [['contract', '--only', ''], /--only is empty/, 'crawlspec contract --help'],
  [['contract', '--behaviour', '--no-behaviour'], /--behaviour and --no-behaviour exclude each other$/, 'crawlspec contract --help'],
  [['contract', '--site-host', 'not a host'], /--site-host takes a host name \(e\.g\. crawlspec\.example\.com\), not "not a host"$/, 'crawlspec contract --help'],
  [['contract', '--behaviour-site', 'https://site.example'], /--behaviour-site and --behaviour-external go together/, 'crawlspec contract --help'],
  [['contract', '--behaviour-site', 'nope', '--behaviour-external', 'https://b.example'], /--behaviour-site takes an http or https address/, 'crawlspec contract --help'],
  [['contract', '--behaviour-subdomain', 'https://sub.site.example'], /--behaviour-subdomain goes with --behaviour-site and --behaviour-external/, 'crawlspec contract --help'],
  [['contract', '--report', '/nonexistent-dir/junit.xml'], /--report "\/nonexistent-dir\/junit\.xml": the directory "\/nonexistent-dir" does not exist/, 'crawlspec contract --help'],
  [['contract', '--report', '.'], /--report "\." is a directory/, 'crawlspec contract --help'],
  [['contract', '--json=1'], /--json takes no value$/, 'crawlspec contract --help'],
  [['contract', '--bogus'], /unknown option "--bogus"; contract takes --base-url <value>, --token <value>, --no-auth, /, 'crawlspec contract --help'],
  [['contract', '--list-checks', '--json'], /--list-checks prints the table of checks as Markdown; --json does not apply to it$/, 'crawlspec contract --help'],
  [['contract', 'extra'], /unexpected argument "extra"; contract takes options, or replay and a recording \(contract replay FILE\)$/, 'crawlspec contract --help'],
  [['contract', '--json', 'extra'], /unexpected argument "extra"; contract takes options only$/, 'crawlspec contract --help'],
  [['contract', '--base-urll', 'http://127.0.0.1:3002'], /unknown option "--base-urll"; did you mean --base-url\?$/, 'crawlspec contract --help'],
  [['site'], /site needs serve or export$/, 'crawlspec site --help'],
  [['site', 'publish'], /site takes serve or export, not "publish"$/, 'crawlspec site --help'],
  [['site', 'serve', '--port', '70000'], /--port takes a whole number from 0 to 65535, not "70000"$/, 'crawlspec site --help'],
  [['site', 'serve', '--host', '127.0.0.1'], /--host takes a host name \(e\.g\. crawlspec\.example\.com\), not an IP address: "127\.0\.0\.1"$/, 'crawlspec site --help'],
  [['contract', '--site-host', '10.0.0.1'], /--site-host takes a host name \(e\.g\. crawlspec\.example\.com\), not an IP address: "10\.0\.0\.1"$/, 'crawlspec contract --help'],
  [['site', 'serve', '--host', 'bad host'], /--host takes a host name \(e\.g\. crawlspec\.example\.com\), not "bad host"$/, 'crawlspec site --help'],
  [['proxy'], /proxy needs --target URL, the service to forward to, e\.g\. --target http:\/\/127\.0\.0\.1:3002$/, 'crawlspec proxy --help'],
  [['proxy', '--target', 'ftp://x.example'], /--target takes an http or https address/, 'crawlspec proxy --help'],
  [['proxy', '--target', 'http://127.0.0.1:0'], /--target "http:\/\/127\.0\.0\.1:0" has the port 0; expected a port from 1 to 65535/, 'crawlspec proxy --help'],
  [['proxy', '--target', 'http://127.0.0.1:3002/v1'], /--target "http:\/\/127\.0\.0\.1:3002\/v1" ends with the version segment \/v1/, 'crawlspec proxy --help'],
  [['docs', '--server-url', 'https://api.example.com/v2', '-o', 'x.html'], /--server-url "https:\/\/api\.example\.com\/v2" ends with the version segment \/v2/, 'crawlspec docs --help'],
  [['serve', '--public-url', 'http://127.0.0.1:3002/base?x=1'], /--public-url takes an address without a query or fragment, e\.g\. https:\/\/crawlspec\.example\.com/, 'crawlspec serve --help'],
  [['proxy', '--target', 'http://127.0.0.1:3002', '--level', 'strict'], /--level takes interface or service, not "strict"$/, 'crawlspec proxy --help'],
  [['docs', '--version', 'v9', '-o', 'x.html'], /--version takes v1 or v2, not "v9"$/, 'crawlspec docs --help'],
  [['docs', '-o=x.html'], /-o=x\.html: a short option takes its value after a space \(-o x\.html\) or as --output=x\.html$/, 'crawlspec docs --help'],
  [['docs', '-o', 'a.html', '-o', 'b.html'], /--output \(-o\) is given twice; expected it once$/, 'crawlspec docs --help'],
  [['serve', '--port', '65536', '--port', '0'], /--port is given twice; expected it once$/, 'crawlspec serve --help'],
  [['docs', '-o', '/proc/crawlspec-page.html'], /-o "\/proc\/crawlspec-page\.html" cannot be written \((ENOENT|no permission)\); expected a file you may write$/, 'crawlspec docs --help'],
  [['docs', '-o', 'package.json/page.html'], /-o "package\.json\/page\.html": ".*package\.json" is a file, not a directory; expected a file in a directory$/, 'crawlspec docs --help'],
  [['site', 'serve', '--bogus'], /unknown option "--bogus"; site serve takes --port <value>, --host <value>$/, 'crawlspec site serve --help'],
  [['site', 'export'], /site export needs a directory to write to/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x'], /site export needs --base-url, the address the site will be served at$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'https://site.example/docs'], /--base-url "https:\/\/site\.example\/docs" has a path; expected an origin \(the site is served at its root\), e\.g\. https:\/\/site\.example$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'https://site.example', '--external-url', 'https://site.example/'], /site export: the sites need addresses of their own; --base-url, --external-url and --subdomain-url give https:\/\/site\.example, https:\/\/site\.example$/, 'crawlspec site --help'],
  [['site', 'export', '', '--base-url', 'http://localhost:8080'], /site export: the directory is empty; expected a directory to write to, e\.g\. \.\/site$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'site.example'], /--base-url takes an http or https address, e\.g\. https:\/\/crawlspec-site\.example\.org, not "site\.example"$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'http://127.0.0.1:8080'], /--base-url http:\/\/127\.0\.0\.1:8080 is an IP address, with no host name to put the other site under \(external\.127\.0\.0\.1\): give --external-url, the address the other site will be served at$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'http://[::1]:8080'], /--base-url http:\/\/\[::1\]:8080 is an IP address, .*give --external-url/, 'crawlspec site --help'],
];

/**
 * What `crawlspec <args>` writes and exits with for each of `lists`, all run in one process (test/support/cliMany.ts):
 * one spawn where each would cost one, for commands that stop at their arguments.
 */
async function cliMany(lists: readonly (readonly string[])[]): Promise<Run[]> {
  const run = await withSlot(() => runScript(join(ROOT, 'test', 'support', 'cliMany.ts'), [], JSON.stringify(lists), SPAWN_TIMEOUT_MS));
  if (run.code !== 0) throw new Error(`test/support/cliMany.ts failed (${run.code ?? run.signal}): ${run.stderr}`);
  const results = JSON.parse(run.stdout) as { code: number | undefined; stdout: string; stderr: string }[];
  return results.map((r) => ({ code: r.code ?? 0, signal: null, stdout: r.stdout, stderr: r.stderr }));
}

describe.concurrent('crawlspec usage errors: one line on stderr, exit 2, before anything starts', { timeout: 60_000 }, () => {
  // Every argument list of the table in one process; the spawns of this block and the next ones show the same lines
  // and exit status from processes of their own.
  let table: Promise<Map<string, Run>>;
  beforeAll(() => {
    const lists = USAGE_ERRORS.map(([args]) => args);
    table = cliMany(lists).then((runs) => new Map(runs.map((run, i) => [JSON.stringify(lists[i]), run])));
    table.catch(() => {}); // awaited by each test below
  });

  it.for(USAGE_ERRORS)('crawlspec %j', async ([args, said, pointer], { expect }) => {
    expectUsageError((await table).get(JSON.stringify(args))!, said, pointer, expect);
  });

  it('an unknown schema name suggests the name meant: another letter case, the version left out, a typo', async ({ expect }) => {
    const [wrongCase, noVersion, typo, nothingClose] = await Promise.all([
      cli(['validate', 'v2/crawlrequest'], line(BATCH)),
      cli(['defaults', 'BatchScrapeRequest'], line(BATCH)),
      cli(['validate', 'v1/CrawlRequst'], line(BATCH)),
      cli(['validate', 'v9/Nothing'], line(BATCH)),
    ]);
    const pointer = 'crawlspec validate --list lists every name';
    expectUsageError(wrongCase, /unknown schema "v2\/crawlrequest"; did you mean v2\/CrawlRequest\?$/, pointer, expect);
    expectUsageError(noVersion, /unknown schema "BatchScrapeRequest"; did you mean v1\/BatchScrapeRequest or v2\/BatchScrapeRequest\?$/, pointer, expect);
    expectUsageError(typo, /unknown schema "v1\/CrawlRequst"; did you mean v1\/CrawlRequest\?$/, pointer, expect);
    expectUsageError(nothingClose, /unknown schema "v9\/Nothing"$/, pointer, expect);
  });

  it('the suggestions for every schema name, misspelt or in another case, name it', ({ expect }) => {
    for (const name of schemaNames()) {
      expect(schemaSuggestions(name.toLowerCase()), name).toEqual([name]);
      expect(schemaSuggestions(name.toUpperCase()), name).toEqual([name]);
      const typo = `${name.slice(0, -2)}${name.at(-1)}`; // one letter left out
      expect(schemaSuggestions(typo), typo).toContain(name);
    }
  });

  it('CRAWLSPEC_TOKEN set but empty (an unset CI secret) is refused, and --no-auth ignores it', async ({ expect }) => {
    const empty = await withSlot(() =>
      runCli(['contract', '--base-url', 'http://127.0.0.1:1'], '', SPAWN_TIMEOUT_MS, { CRAWLSPEC_TOKEN: '' }),
    );
    expectUsageError(empty, /CRAWLSPEC_TOKEN is empty; expected the API token the target expects/, 'crawlspec contract --help', expect);
    const ignored = await withSlot(() =>
      runCli(['contract', '--no-auth', '--list-checks', '--version', 'v2'], '', SPAWN_TIMEOUT_MS, { CRAWLSPEC_TOKEN: 'set' }),
    );
    expect(ignored.code, ignored.stderr).toBe(0);
  });

  it('unreadable file (names the path): one line, exit 2', async ({ expect }) => {
    const missing = join(tempDir(), 'does-not-exist.json');
    const run = await cli(['validate', 'v2/CrawlRequest', missing]);
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(new RegExp(`^crawlspec: cannot read "${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": ENOENT`))]);
  });
});

describe.concurrent('crawlspec serve and site serve: an address that cannot be listened on is one line, exit 2', { timeout: TEST_TIMEOUT_MS }, () => {
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it.for([['serve', '--no-auth'], ['site', 'serve']])('crawlspec %s %s --port <a port in use>', async (command, { expect }) => {
    const run = await cli([...command, '--port', String(port)]);
    expect(outcome(run)).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(lines(run.stderr)).toEqual([
      `crawlspec: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); expected a free --port, or --port 0 for any free one`,
    ]);
  });

  it('crawlspec serve --host <an address of another machine>', async ({ expect }) => {
    const run = await cli(['serve', '--host', '192.0.2.1', '--no-auth']);
    expect(outcome(run)).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^crawlspec: cannot listen on 192\.0\.2\.1:0: "192\.0\.2\.1" is not an address of this machine \(EADDRNOTAVAIL\); expected one/)]);
  });
});

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

describe.concurrent('crawlspec writes no control character to the terminal', { timeout: TEST_TIMEOUT_MS }, () => {
  const ESC = '\u001b';
  const hostile = `${ESC}]0;owned${'\u0007'}${ESC}[2J\r\u009b31m\u202e`;

  it('malformed input quoted by the JSON parser: escaped in the problem line, and in --jsonl', async ({ expect }) => {
    const [text, jsonl] = await Promise.all([
      cli(['validate', 'v2/CrawlRequest'], `${hostile}{`),
      cli(['validate', '--jsonl', 'v2/CrawlRequest'], `{"url": "${hostile}`),
    ]);
    expect(outcome(text)).toMatchObject({ code: 1, stderr: '' });
    expect(text.stdout).toContain(`'\\u001b', "\\u001b]0;owned\\u0007"`);
    expect(jsonl.code).toBe(1);
    for (const out of [text.stdout, jsonl.stdout]) expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    // The JSON lines stay JSON, saying the same.
    expect(JSON.parse(jsonl.stdout)).toMatchObject({ valid: false, errors: [{ rule: 'json' }] });
  });

  it('values sent, printed back: escaped in problem lines; JSON output keeps the same strings', async ({ expect }) => {
    const body = { url: 'https://example.com', limit: hostile };
    const [text, defaults] = await Promise.all([
      cli(['validate', 'v2/CrawlRequest'], line(body)),
      cli(['defaults', 'v2/CrawlRequest'], line({ url: 'https://example.com', scrapeOptions: { headers: { x: hostile } } })),
    ]);
    expect(text.code).toBe(1);
    expect(defaults.code, defaults.stderr).toBe(0);
    for (const out of [text.stdout, defaults.stdout]) expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.parse(defaults.stdout).scrapeOptions.headers.x).toBe(hostile);
  });

  it('arguments and file names in messages', async ({ expect }) => {
    const [schema, file, option] = await Promise.all([
      cli(['validate', `v2/${hostile}`]),
      cli(['validate', 'v2/CrawlRequest', join(tempDir(), hostile)]),
      cli(['serve', `--${hostile}`]),
    ]);
    for (const run of [schema, file, option]) {
      expect(run.code).toBe(2);
      expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      expect(run.stderr).toContain('\\u001b]0;owned');
    }
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

describe.concurrent('crawlspec defaults and migrate', { timeout: TEST_TIMEOUT_MS }, () => {
  it('defaults prints a valid body with the version defaults filled in (exit 0)', async ({ expect }) => {
    const [v1, v2] = await Promise.all([
      cli(['defaults', 'v1/BatchScrapeRequest'], line({ urls: ['https://example.com/a'] })),
      cli(['defaults', 'v2/BatchScrapeRequest'], line({ urls: ['https://example.com/a'] })),
    ]);
    expect(v1.code).toBe(0);
    expect(JSON.parse(v1.stdout)).toMatchObject({ urls: ['https://example.com/a'], ignoreInvalidURLs: false, maxAge: 0, proxy: 'basic' });
    expect(v2.code).toBe(0);
    expect(JSON.parse(v2.stdout)).toMatchObject({ ignoreInvalidURLs: true, maxAge: 172800000, proxy: 'auto', parsers: ['pdf'] });
  });

  it('defaults refuses an invalid body with its problems on stderr (exit 1)', async ({ expect }) => {
    const run = await cli(['defaults', 'v2/CrawlRequest'], line({ url: 'ftp://example.com' }));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('$.url: URL uses unsupported protocol');
  });

  it('migrate prints the v2 request, warnings on stderr (exit 0)', async ({ expect }) => {
    const run = await cli(
      ['migrate'],
      line({ url: 'https://example.com/docs', maxDepth: 3, ignoreSitemap: true, scrapeOptions: { parsePDF: false } }),
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      url: 'https://example.com/docs',
      sitemap: 'skip',
      scrapeOptions: { parsers: [], maxAge: 0, skipTlsVerification: false, proxy: 'basic' },
    });
    expect(run.stderr).toMatch(/^warning: maxDepth: dropped/m);
  });

  it('migrate refuses what is not a v1 crawl or batch request (exit 1), and malformed JSON (exit 1)', async ({ expect }) => {
    const [neither, malformed] = await Promise.all([cli(['migrate'], line({ limit: 3 })), cli(['migrate'], '{')]);
    expect(neither.code).toBe(1);
    expect(neither.stdout).toBe('');
    expect(neither.stderr).toBe('not migrated (the standard input): 1 problem\n  input has neither url (crawl request) nor urls (batch scrape request)\n');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^not migrated \(the standard input\): 1 problem\n {2}\$: is not valid JSON/);
  });
});
