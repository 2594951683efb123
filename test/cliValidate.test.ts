/**
 * `crawlspec validate`, run for real (test/support/cliRuns.ts): valid bodies of every request exit 0; invalid ones
 * exit 1 with each problem on a line of its own (path, rule, what is expected); `--jsonl` answers one result per
 * line, and several checks share one spawn through it where that does not blur what is being tested.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { validate, type SchemaName, type ValidationIssue } from '../schemas/validate.js';
import { BATCH, TEST_TIMEOUT_MS, cli, line, lines, outcome, tempDir, useTempDir } from './support/cliRuns.js';

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

let fileCount = 0;

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
