/**
 * What `includeTags` / `excludeTags` selectors the reference server runs (scripts/server/selectorLimits.ts,
 * issue 41, findings 3, 4 and 12): decided on the selector as parsed, whatever its spelling, when the job
 * starts; a start that breaks a limit is a 400 with the error envelope naming the field. What the attack stage
 * replays against a whole server (41-3, 41-4: scripts/load/attacks/selectors.ts) is here in the small.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../schemas/validate.js';
import { createReferenceApp, type InMemoryReferenceApp } from '../scripts/server/app.js';
import { SIBLING_CHAIN } from '../scripts/load/attacks/selectors.js';
import {
  jobSelectors,
  MAX_COMBINATORS,
  MAX_DESCENDANTS,
  MAX_NESTING,
  MAX_SELECTOR_CHARS,
  MAX_SELECTORS,
} from '../scripts/server/selectorLimits.js';

const apps: InMemoryReferenceApp[] = [];
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
});

/** Starts a job of `version` / `path` with `body`: the answer's status and body. */
async function start(version: 'v1' | 'v2', path: string, body: unknown): Promise<{ status: number; body: any }> {
  const app = createReferenceApp({ auth: 'none', publicUrl: () => 'http://127.0.0.1:9', pageIntervalMs: 5 });
  apps.push(app);
  const answer = await app.handle({
    method: 'POST',
    url: `/${version}/${path}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: JSON.parse(answer.body) };
}

/** The messages of the issues `scrapeOptions` are refused with (none: runnable). */
function refusals(scrapeOptions: Record<string, unknown>): string[] {
  const selectors = jobSelectors(scrapeOptions, []);
  return 'issues' in selectors ? selectors.issues.map((issue) => issue.message) : [];
}

describe('a start whose selectors the reference server does not run: 400 with the envelope naming the field', () => {
  it("finding 3: the finding's chain of twelve ~, a v2 batch", async () => {
    const answer = await start('v2', 'batch/scrape', { urls: ['https://example.com/a'], includeTags: ['h1', SIBLING_CHAIN] });
    expect(answer.status).toBe(400);
    expect(validate('v2/ErrorResponse', answer.body).valid).toBe(true);
    expect(answer.body.details).toEqual([
      {
        code: 'custom',
        path: ['includeTags', 1],
        message: expect.stringMatching(
          /^\$\.includeTags\[1\]: the selector "i ~ \* ~ .*" has 12 steps that each scan a part of the page growing with it \(~, ~, .*\); the reference server runs a selector with at most one of ~, :has\(\), .* \(nested, their costs on each element multiply\) \(the interface takes any string here: this is a limit of the reference server\)$/,
        ),
      },
    ]);
    expect(answer.body.error).toBe(answer.body.details[0].message);
  });

  it('finding 12: an escaped :has( is a :has( (a v1 crawl, its scrapeOptions)', async () => {
    const answer = await start('v1', 'crawl', { url: 'https://example.com/', scrapeOptions: { excludeTags: ['div:h\\61s(p:has(span))'] } });
    expect(answer.status).toBe(400);
    expect(validate('v1/ErrorResponse', answer.body).valid).toBe(true);
    expect(answer.body.details[0].path).toEqual(['scrapeOptions', 'excludeTags', 0]);
    expect(answer.body.details[0].message).toContain(
      '$.scrapeOptions.excludeTags[0]: the selector "div:h\\\\61s(p:has(span))" has 2 steps',
    );
    expect(answer.body.details[0].message).toContain('(:has(), :has())');
  });

  it(`finding 4: more than ${MAX_SELECTOR_CHARS} characters or ${MAX_SELECTORS} selectors in a list, before any is parsed`, async () => {
    const huge = Array.from({ length: 100_000 }, (_, i) => `.c${i}`);
    const answer = await start('v2', 'crawl', { url: 'https://example.com/', scrapeOptions: { includeTags: huge } });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([
      {
        code: 'custom',
        path: ['scrapeOptions', 'includeTags'],
        message: `$.scrapeOptions.includeTags: the includeTags selectors are 100000 strings of ${huge.join('').length} characters in all; the reference server runs at most ${MAX_SELECTORS} selectors of at most ${MAX_SELECTOR_CHARS} characters in all (the interface takes any string here: this is a limit of the reference server)`,
      },
    ]);
    expect(refusals({ excludeTags: ['a'.repeat(MAX_SELECTOR_CHARS + 1)] })[0]).toMatch(
      /^\$\.excludeTags: the excludeTags selectors are 1 strings of 10001 characters/,
    );
    expect(refusals({ excludeTags: ['a'.repeat(MAX_SELECTOR_CHARS)] })).toEqual([]);
    // Counted as parsed: one string of 101 selectors.
    expect(refusals({ includeTags: [Array.from({ length: MAX_SELECTORS + 1 }, () => 'p').join(', ')] })[0]).toMatch(
      /^\$\.includeTags: the includeTags selectors are 101 selectors \(a comma separates two, and those inside :is\(\), :not\(\), :has\(\) count\)/,
    );
    // Those nested count too: 34 of three.
    expect(refusals({ excludeTags: Array.from({ length: 34 }, () => ':is(a, b)') })[0]).toMatch(
      /^\$\.excludeTags: the excludeTags selectors are 102 selectors/,
    );
    expect(refusals({ includeTags: Array.from({ length: MAX_SELECTORS }, () => 'p') })).toEqual([]);
  });
});

describe('the limits, on the parsed selector', () => {
  it('runs the selectors pages are scraped with: one scan of the page, descendant chains, alternatives', () => {
    const selectors = [
      'h1',
      '.main-content',
      '#key',
      'article p',
      'html body div.content p',
      'ul > li:nth-child(2n+1)',
      'h2 ~ p',
      'h1 + p + ul > li',
      'div:has(> img)',
      ':is(a ~ b, c ~ d)',
      ':not(:first-of-type)',
      'li:nth-child(2 of .x)',
      ':checked',
      '  ',
    ];
    expect(refusals({ includeTags: selectors, excludeTags: selectors })).toEqual([]);
    expect(jobSelectors({ includeTags: selectors }, [])).toEqual({ include: expect.any(Function), exclude: undefined });
  });

  it.each([
    ['a ~ b ~ c', 'has 2 steps that each scan a part of the page growing with it (~, ~)'],
    ['p:nth-child(2) ~ p', '(:nth-child(), ~)'],
    [':has(~ p)', '(:has(), ~)'],
    ['div:not(:has(p)) ~ a', '(:has(), ~)'],
    ['li:nth-child(2n of :has(i))', '(:nth-child(), :has())'],
    ['p:contains(x):only-child', '(:contains(), :only-child())'],
    ['a < b ~ c', '(<, ~)'],
    ['p:NTH-LAST-CHILD(2) ~ p', '(:nth-last-child(), ~)'],
    [
      'a b c d e f',
      `has 5 descendant combinators (a space), each walking the ancestors of the element; the reference server runs at most ${MAX_DESCENDANTS}`,
    ],
    ['a>b>c>d>e>f>g>h>i>j', `has 9 combinators; the reference server runs at most ${MAX_COMBINATORS}`],
    [':is(:is(:is(:is(:is(a)))))', `nests selectors in pseudo-classes more than ${MAX_NESTING} deep`],
  ])('%s: refused', (selector, why) => {
    const [message, ...more] = refusals({ includeTags: ['', selector] });
    expect(more).toEqual([]);
    expect(message).toContain(`$.includeTags[1]: the selector ${JSON.stringify(selector)} ${why.startsWith('(') ? 'has 2 steps' : why}`);
    expect(message).toContain(why);
  });

  it('leaves a selector css-what cannot parse, or css-select cannot run, to the pages: each is an error naming it', () => {
    expect(refusals({ includeTags: ['p['], excludeTags: ['p::before'] })).toEqual([]);
    expect(jobSelectors({ includeTags: ['p['] }, [])).toEqual({
      unrunnable: expect.stringMatching(/^the includeTags selector "p\[" is not a CSS selector the reference server can run \(.+\)$/),
    });
    expect(jobSelectors({ excludeTags: ['p::before'] }, [])).toEqual({
      unrunnable:
        'the excludeTags selector "p::before" is not a CSS selector the reference server can run (Pseudo-elements are not supported by css-select)',
    });
  });
});
