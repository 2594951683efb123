/**
 * The `crawlspec` command, run for real: `node --import tsx scripts/cli.ts ...` as a child process, with
 * stdin passed explicitly and nothing inherited from the terminal.
 *
 * Each spawn costs about half a second of CPU (tsx compiles on the fly), so the tests run concurrently,
 * with at most MAX_PARALLEL children alive at a time, and several checks share one spawn through `--jsonl`
 * where that does not blur what is being tested. The check that every listed schema name is accepted is
 * done in-process with `schemaNames()` / `isSchemaName()` / `validate()`, the same calls the CLI makes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { isSchemaName, schemaNames, validate, type SchemaName, type ValidationIssue } from '../schemas/validate.js';
import { runCli, type CliRun as Run } from './support/runCli.js';

/** Per spawn; a lone spawn takes ~0.4 s, so this only trips on a hang. */
const SPAWN_TIMEOUT_MS = 8_000;
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

type JsonlResult = { valid: true } | { valid: false; errors: ValidationIssue[] };

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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawlspec-cli-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function tempFile(content: string): Promise<string> {
  fileCount += 1;
  const path = join(dir, `input-${fileCount}.json`);
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

describe.concurrent('crawlspec validate: valid bodies', { timeout: 30_000 }, () => {
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

describe.concurrent('crawlspec validate: invalid bodies', { timeout: 30_000 }, () => {
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
    expect(found.get('$.maxDepth')!.message).toMatch(/not a known field/);
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

  it('reports empty input as not valid JSON (exit 1)', async ({ expect }) => {
    const run = await cli(['validate', 'v1/BatchScrapeRequest'], '');
    expect(outcome(run)).toMatchObject({ code: 1, signal: null, stderr: '' });
    expect(run.stdout).toMatch(/^ {2}\$: is not valid JSON\b/m);
  });
});

describe.concurrent('crawlspec validate --jsonl', { timeout: 30_000 }, () => {
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
    expect(results[0]).toEqual({ valid: true });
    expect(results[9]).toEqual({ valid: true });

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
    expect(maxDepth!.message).toMatch(/not a known field/);
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
    expect(outcome(run)).toEqual({ code: 0, signal: null, stdout: '{"valid":true}\n{"valid":true}\n', stderr: '' });
  });
});

describe.concurrent('crawlspec usage errors exit 2 with a message on stderr', { timeout: 30_000 }, () => {
  it('no command', async ({ expect }) => {
    const run = await cli([]);
    expect(run.code).toBe(2);
    // A usage error belongs on stderr, like every other usage error below; stdout stays clean.
    expect(run.stderr).toContain('usage:');
    expect(run.stdout).toBe('');
  });

  it('unknown command', async ({ expect }) => {
    const run = await cli(['check', 'v2/CrawlRequest']);
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain('unknown command "check"');
    expect(run.stderr).toContain('usage:');
  });

  it('validate without a schema', async ({ expect }) => {
    const run = await cli(['validate'], line(BATCH));
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/needs a schema name/);
    expect(run.stderr).toContain('usage:');
  });

  it('unknown schema name (suggests --list)', async ({ expect }) => {
    const run = await cli(['validate', 'v2/crawlRequest'], line(BATCH));
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain('unknown schema "v2/crawlRequest"');
    expect(run.stderr).toContain('--list');
  });

  it('extra positional arguments', async ({ expect }) => {
    const run = await cli(['validate', 'v2/CrawlRequest', 'a.json', 'b.json']);
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/unexpected argument.*b\.json/);
    expect(run.stderr).toContain('usage:');
  });

  it('unknown flag', async ({ expect }) => {
    const run = await cli(['validate', '--strict', 'v2/CrawlRequest'], line(V2_CRAWL));
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain('--strict');
    expect(run.stderr).toContain('usage:');
  });

  it('unreadable file (names the path)', async ({ expect }) => {
    const missing = join(dir, 'does-not-exist.json');
    const run = await cli(['validate', 'v2/CrawlRequest', missing]);
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(`cannot read ${missing}`);
  });
});

describe.concurrent('crawlspec validate --list and --help', { timeout: 30_000 }, () => {
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

  it('--help exits 0 with the usage on stdout', async ({ expect }) => {
    const [top, sub] = await Promise.all([cli(['--help']), cli(['validate', '--help'])]);
    for (const run of [top, sub]) {
      expect(outcome(run)).toMatchObject({ code: 0, signal: null, stderr: '' });
      expect(run.stdout).toContain('usage:');
      expect(run.stdout).toContain('crawlspec validate --list');
    }
  });
});

describe.concurrent('crawlspec defaults and migrate', { timeout: 30_000 }, () => {
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
    expect(neither.stderr).toMatch(/^warning: /m);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('is not valid JSON');
  });
});
