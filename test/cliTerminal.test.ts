/**
 * The `crawlspec` command writes no control character to the terminal, run for real (test/support/cliRuns.ts):
 * what a user gave it (a file name, a body) is shown with its control characters escaped.
 */
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { TEST_TIMEOUT_MS, cli, line, outcome, tempDir, useTempDir } from './support/cliRuns.js';

useTempDir();

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
