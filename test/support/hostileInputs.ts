/**
 * What the hostile-input test files (test/hostile*.test.ts) share: the sizes they go to (nesting 10^4 levels deep,
 * strings of megabytes, batches of 10^5 URLs), the number of fast-check runs (FC_RUNS, default 200), the valid
 * bodies the hostile values go into and the places in them, the values that throw when read, and how every answer
 * is checked (the issue's path, rule and message, not only the absence of an exception).
 */
import { expect } from 'vitest';
import { jsonPath } from '../../schemas/issues.js';
import { REPORT_LIMIT, type ValidationIssue, type ValidationResult } from '../../schemas/validate.js';
import { withCpuMs } from './cpuTime.js';
import { expectEqual, expectTrue } from './hotExpect.js';

export const DEPTH = 10_000;
export const MB = 1 << 20;
export const URL_COUNT = 100_000;
/**
 * For a case that handles 10^4..10^5 of something: a hang or a quadratic walk blows well past it. CPU time, not the
 * clock, so that a loaded machine does not fail it (test/support/cpuTime.ts).
 */
const SCALE_CPU_MS = 20_000;
export const scaled = (body: () => void) => () => {
  const [, ms] = withCpuMs(body);
  expect(ms, 'CPU milliseconds').toBeLessThan(SCALE_CPU_MS);
};

export const url = 'https://example.com';
export const hook = 'https://hooks.example.com/crawl';
export type Obj = Record<string, unknown>;
export type Version = 'v1' | 'v2';
export type Request = 'v1/CrawlRequest' | 'v2/CrawlRequest' | 'v1/BatchScrapeRequest' | 'v2/BatchScrapeRequest';
export const REQUESTS: readonly Request[] = ['v1/CrawlRequest', 'v2/CrawlRequest', 'v1/BatchScrapeRequest', 'v2/BatchScrapeRequest'];

// ---------------------------------------------------------------------------------------------------------
// What every answer must be

/** An issue a person can act on: where (`path` agreeing with `segments`), which rule, what, what is expected. */
function expectClearIssue(issue: ValidationIssue): void {
  expectTrue(issue.path.startsWith('$'), issue.path);
  expectEqual(issue.path, jsonPath(issue.segments));
  for (const text of [issue.rule, issue.message, issue.expected])
    expectTrue(typeof text === 'string' && text.length > 0, () => `rule, message and expected of ${JSON.stringify(issue)}`);
}

/** A result, with clear issues; `readable` issues only where reading the value can throw. */
export function expectAnswer(result: ValidationResult, { readable = false } = {}): void {
  if (result.valid) {
    expectEqual(result, { valid: true });
    return;
  }
  expectTrue(result.errors.length > 0, 'an invalid result lists its errors');
  result.errors.forEach(expectClearIssue);
  if (!readable)
    expectEqual(
      result.errors.filter((issue) => issue.rule === 'readable'),
      [],
    );
}

/** The issues, or a failure naming the unexpected valid result. */
export function issuesOf(result: ValidationResult): ValidationIssue[] {
  if (result.valid) throw new Error('expected an invalid result');
  return result.errors;
}

/** `{ path, rule, message }` of each issue: what the representative cases compare. */
export const brief = (result: ValidationResult) => issuesOf(result).map(({ path, rule, message }) => ({ path, rule, message }));

/** The one issue of a value that could not be read or checked. */
export const unreadable = (thrown: string) => [
  { path: '$', rule: 'readable', message: `could not be checked: reading or checking it threw ${thrown}` },
];

/** The issue saying that, the body being big, only its first schema problem was looked for. */
export const FIRST_ONLY = { path: '$', rule: 'firstProblemOnly', message: expect.stringContaining(`more than ${REPORT_LIMIT} values`) as string };

/** One of `a`, `b` is a prefix of the other: an issue at or around the place a value was put. */
export const related = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
  a.slice(0, Math.min(a.length, b.length)).every((segment, i) => segment === b[i]);

// ---------------------------------------------------------------------------------------------------------
// Valid bodies, and places in them to put a hostile value

export const V1_CRAWL = {
  url,
  scrapeOptions: {
    formats: ['markdown', 'json'],
    jsonOptions: { schema: { type: 'object' }, prompt: 'the title' },
    headers: { 'x-a': 'b' },
    location: { country: 'US' },
    actions: [{ type: 'wait', milliseconds: 10 }],
  },
  webhook: { url: hook, metadata: { m: 'v' } },
};
export const V2_CRAWL = {
  url,
  scrapeOptions: {
    formats: ['markdown', { type: 'json', schema: { type: 'object' }, prompt: 'the title' }],
    headers: { 'x-a': 'b' },
    location: { country: 'US' },
    actions: [{ type: 'wait', milliseconds: 10 }],
  },
  webhook: { url: hook, metadata: { m: 'v' } },
};
const batchOf = (crawl: typeof V1_CRAWL | typeof V2_CRAWL) => ({
  urls: [url, `${url}/b`],
  ...crawl.scrapeOptions,
  webhook: crawl.webhook,
});
export const BASES: Record<Request, Obj> = {
  'v1/CrawlRequest': V1_CRAWL,
  'v2/CrawlRequest': V2_CRAWL,
  'v1/BatchScrapeRequest': batchOf(V1_CRAWL),
  'v2/BatchScrapeRequest': batchOf(V2_CRAWL),
};

export type Segments = readonly (string | number)[];

export const throwingGetter = () =>
  Object.defineProperty({}, 'formats', {
    enumerable: true,
    get() {
      throw new Error('getter boom');
    },
  });
export const throwingProxy = () =>
  new Proxy(
    {},
    Object.fromEntries(
      ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'defineProperty'].map((trap) => [
        trap,
        () => {
          throw new Error(`${trap} trap`);
        },
      ]),
    ),
  );

export const cyclic = () => {
  const a: Obj = { formats: ['markdown'] };
  a['self'] = a;
  return a;
};

/** `validate`'s answer in the form of the table. */
export function outcome(result: ValidationResult, at: string): unknown {
  if (result.valid) return 'valid';
  const [issue, ...rest] = result.errors;
  if (issue === undefined || rest.length > 0) return brief(result);
  if (issue.rule === 'readable') return { readable: issue.message.replace('could not be checked: reading or checking it threw ', '') };
  return issue.path === at ? issue.message : { path: issue.path, message: issue.message };
}
