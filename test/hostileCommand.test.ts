/**
 * The `crawlspec` command gets hostile files and never crashes or hangs: nesting 10^4 levels deep, strings of
 * megabytes, batches of 10^5 URLs and `__proto__` keys; each answer is the command's own (its exit code and a
 * message that says what is wrong and where), not a stack trace.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../schemas/defaults.js';
import { type ValidationResult } from '../schemas/validate.js';
import { depthOf, nestedObjectsText, sameJson } from './support/hostileValues.js';
import { runCli, type CliRun } from './support/runCli.js';
import { DEPTH, MB, type Obj, URL_COUNT, url } from './support/hostileInputs.js';

// ---------------------------------------------------------------------------------------------------------
// The command

describe('the crawlspec command', () => {
  /** Per spawn: a spawn takes about a second; this only trips on a hang. */
  const SPAWN_TIMEOUT = 120_000;
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crawlspec-hostile-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const expectClean = (run: CliRun, code: number) => {
    expect({ code: run.code, signal: run.signal }).toEqual({ code, signal: null });
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toMatch(/Error:/);
  };

  const deepSchema = nestedObjectsText(DEPTH);
  const bigHeader = 'h'.repeat(3 * MB);

  it.concurrent(
    `defaults, from a file: a body nested ${DEPTH} deep and several MB, printed whole (indented 100 levels deep)`,
    async () => {
      // Deep in an open object: a v1 JSON Schema that deep is too large to compile.
      const text = `{"url":"${url}","scrapeOptions":{"formats":["json"],"jsonOptions":{"schema":{"type":"object"}},"location":{"country":"DE","extra":${deepSchema}},"headers":{"x-big":"${bigHeader}"}}}`;
      const file = join(dir, 'deep.json');
      await writeFile(file, text);
      const run = await runCli(['defaults', 'v1/CrawlRequest', file], '', SPAWN_TIMEOUT);
      expectClean(run, 0);
      expect(run.stderr).toBe('');
      expect(run.stdout.startsWith(`{\n  "url": "${url}",\n  "scrapeOptions": {\n    "formats": [\n      "json"\n    ],\n`)).toBe(true);
      expect(run.stdout).toContain(`\n${' '.repeat(200)}"a": {"a":{"a":`);
      // Indenting every level would print 10^8 spaces.
      expect(run.stdout.length).toBeLessThan(text.length + 100_000);
      expect(sameJson(JSON.parse(run.stdout), withDefaults('v1/CrawlRequest', JSON.parse(text)))).toBe(true);
    },
    SPAWN_TIMEOUT,
  );

  it.concurrent(
    `validate, from stdin: ${URL_COUNT} URLs with one bad one (several MB): exit 1, the one problem at its index`,
    async () => {
      const urls = Array.from({ length: URL_COUNT }, (_, i) => (i === 77_777 ? 'not a url' : `${url}/${i}`));
      const run = await runCli(['validate', 'v1/BatchScrapeRequest'], JSON.stringify({ urls }), SPAWN_TIMEOUT);
      expectClean(run, 1);
      expect(run.stderr).toBe('');
      const [headline, problem, ...rest] = run.stdout.split('\n');
      expect([headline, problem?.startsWith('  $.urls[77777]: Invalid URL. Expected: Each entry must be a valid crawl URL'), rest]).toEqual(
        ['invalid v1/BatchScrapeRequest: 1 problem', true, ['']],
      );
    },
    SPAWN_TIMEOUT,
  );

  it.concurrent(
    '--jsonl: a huge line, deep lines valid and invalid, deep malformed JSON: one result per line, exit 1',
    async () => {
      const lines = [
        `{"url":"${url}","scrapeOptions":{"headers":{"x-big":"${bigHeader}"}}}`,
        deepSchema,
        `{"url":"${url}","scrapeOptions":{"formats":[{"type":"json","schema":${deepSchema}}]}}`,
        deepSchema.slice(0, -1),
        `{"url":"${url}","scrapeOptions":{"actions":[{"type":${deepSchema}}]}}`,
      ];
      const run = await runCli(['validate', '--jsonl', 'v2/CrawlRequest'], lines.join('\n'), SPAWN_TIMEOUT);
      expectClean(run, 1);
      expect(run.stderr).toBe('');
      const results = run.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as ValidationResult);
      expect(results.map((result) => (result.valid ? 'valid' : result.errors.map((issue) => `${issue.path} ${issue.rule}`)))).toEqual([
        'valid',
        ['$.url required', '$ firstProblemOnly'],
        'valid',
        ['$ json'],
        ['$.scrapeOptions.actions[0].type discriminator', '$ firstProblemOnly'],
      ]);
    },
    SPAWN_TIMEOUT,
  );

  it.concurrent(
    `migrate, from stdin: a v1 body nested ${DEPTH} deep and several MB: the v2 request, warnings on stderr, exit 0`,
    async () => {
      const text = `{"url":"${url}","maxDepth":3,"scrapeOptions":{"formats":["json"],"jsonOptions":{"schema":${deepSchema}},"headers":{"x-big":"${bigHeader}"}}}`;
      const run = await runCli(['migrate'], text, SPAWN_TIMEOUT);
      expectClean(run, 0);
      // The v1 body is invalid (its schema too large to compile), and migrated as far as possible.
      expect(run.stderr).toMatch(
        /^warning: input is not a valid v1 crawl request \(1 problem, first: \$\.scrapeOptions\.jsonOptions\.schema: The JSON Schema is too large/,
      );
      expect(run.stderr).toMatch(/\nwarning: maxDepth: dropped \(was 3\)/);
      const request = JSON.parse(run.stdout) as { scrapeOptions: { formats: { type: string; schema: unknown }[]; headers: Obj } };
      expect(request.scrapeOptions.formats[0]?.type).toBe('json');
      expect(depthOf(request.scrapeOptions.formats[0]?.schema)).toBe(DEPTH);
      expect(request.scrapeOptions.headers['x-big']).toBe(bigHeader);
    },
    SPAWN_TIMEOUT,
  );
});
