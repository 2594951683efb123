/**
 * The work is bounded by the body's size, not by the number of problems its sender put in it: a body of more than
 * REPORT_LIMIT values gets its first schema problem and a `firstProblemOnly` issue; at most MAX_ISSUES issues are
 * listed, then a `moreProblems` issue with the count of the others. Batches of 10^5 URLs go through `validate()`,
 * the raw validators, `partitionBatch` and the error envelope in time linear in their size.
 */
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import * as v1 from '#generated/validators/v1.js';
import * as v1AllErrors from '#generated/validators/v1.all-errors.js';
import * as v2AllErrors from '#generated/validators/v2.all-errors.js';
import { partitionBatch } from '../schemas/batchPartition.js';
import { withDefaults } from '../schemas/defaults.js';
import { validationErrorBody } from '../schemas/errorEnvelope.js';
import { toIssues, type BranchValidator, type DefinitionLookup } from '../schemas/issues.js';
import { migrateToV2 } from '../schemas/migrate.js';
import { MAX_ISSUES, REPORT_LIMIT, validate } from '../schemas/validate.js';
import { deepFreeze } from './support/hostileValues.js';
import {
  FIRST_ONLY,
  URL_COUNT,
  brief,
  cyclic,
  hook,
  issuesOf,
  scaled,
  throwingGetter,
  throwingProxy,
  url,
} from './support/hostileInputs.js';

/** The v2 validators that gather every problem, by definition name (what validate() looks union branches up in). */
const v2AllErrorsLookup: DefinitionLookup = (name) => (v2AllErrors as unknown as Record<string, BranchValidator | undefined>)[name];

// ---------------------------------------------------------------------------------------------------------
// 10^5 URLs

describe('the bounds on the work', () => {
  /** `{ urls: [...] }` holding `count` values in all: the object, the array and its entries (numbers: each a problem). */
  const urlsOfValues = (count: number) => ({ urls: Array.from({ length: count - 2 }, (_, i) => i) });
  const typeIssue = (i: number) => ({ path: `$.urls[${i}]`, rule: 'type', message: `must be string, not integer (${i})` });

  it(`a body of ${REPORT_LIMIT} values gets every problem looked for (the first ${MAX_ISSUES} listed, then a count); one more value, only the first`, () => {
    const atLimit = brief(validate('v1/BatchScrapeRequest', urlsOfValues(REPORT_LIMIT)));
    const problems = REPORT_LIMIT - 2;
    expect(atLimit.slice(0, MAX_ISSUES)).toEqual(Array.from({ length: MAX_ISSUES }, (_, i) => typeIssue(i)));
    expect(atLimit.slice(MAX_ISSUES)).toEqual([
      {
        path: '$',
        rule: 'moreProblems',
        message: `${problems - MAX_ISSUES} more problems were found and not listed (at most ${MAX_ISSUES} are listed)`,
      },
    ]);
    expect(brief(validate('v1/BatchScrapeRequest', urlsOfValues(REPORT_LIMIT + 1)))).toEqual([typeIssue(0), FIRST_ONLY]);
  });

  it(`${MAX_ISSUES} problems are all listed; one more is counted, in the singular`, () => {
    expect(brief(validate('v1/BatchScrapeRequest', urlsOfValues(MAX_ISSUES + 2)))).toEqual(
      Array.from({ length: MAX_ISSUES }, (_, i) => typeIssue(i)),
    );
    expect(brief(validate('v1/BatchScrapeRequest', urlsOfValues(MAX_ISSUES + 3))).slice(MAX_ISSUES)).toEqual([
      { path: '$', rule: 'moreProblems', message: `1 more problem was found and not listed (at most ${MAX_ISSUES} are listed)` },
    ]);
  });

  it('schema problems come first and rule problems fill the room left; the count covers both', () => {
    // 60 entries of the wrong type (schema) and 60 invalid URLs (rule).
    const urls = [...Array.from({ length: 60 }, (_, i) => i), ...Array.from({ length: 60 }, (_, i) => `host${i}`)];
    const issues = brief(validate('v1/BatchScrapeRequest', { urls }));
    expect(issues.slice(0, 60).every((issue) => issue.rule === 'type')).toBe(true);
    expect(issues.slice(60, MAX_ISSUES).map((issue) => [issue.path, issue.rule])).toEqual(
      Array.from({ length: MAX_ISSUES - 60 }, (_, i) => [`$.urls[${60 + i}]`, 'batchUrls']),
    );
    expect(issues.slice(MAX_ISSUES)).toEqual([
      {
        path: '$',
        rule: 'moreProblems',
        message: `${120 - MAX_ISSUES} more problems were found and not listed (at most ${MAX_ISSUES} are listed)`,
      },
    ]);
  });

  it('counting the values runs no code of the body and counts an object once: a cycle, a getter, a Proxy do not change the answer', () => {
    const limitOf = (value: unknown) => brief(validate('v2/CrawlRequest', { url, limit: value }));
    const notInteger = [{ path: '$.limit', rule: 'type', message: 'must be integer, not object (an object)' }];
    expect(limitOf(cyclic())).toEqual(notInteger);
    expect(limitOf(throwingGetter())).toEqual(notInteger);
    expect(limitOf(throwingProxy())).toEqual(notInteger);
    // One object of 100 members, 10 times: counted once it is a small body (every problem looked for);
    // counted each time it would hold over REPORT_LIMIT values (first problem only).
    const shared = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    expect(10 * 101).toBeGreaterThan(REPORT_LIMIT);
    expect(limitOf(Array.from({ length: 10 }, () => shared))).toEqual([
      { path: '$.limit', rule: 'type', message: 'must be integer, not array (an array of 10)' },
    ]);
  });
});

describe(`batches of ${URL_COUNT} URLs`, () => {
  const good = Array.from({ length: URL_COUNT }, (_, i) => `${url}/${i}`);
  const bad = 77_777;
  const oneBad = good.map((u, i) => (i === bad ? 'not a url' : u));
  deepFreeze(good);
  deepFreeze(oneBad);

  it(
    'valid, or one bad entry reported at its index (v1, and v2 not ignoring); v2 ignoring keeps the others',
    scaled(() => {
      for (const version of ['v1', 'v2'] as const) {
        expect(validate(`${version}/BatchScrapeRequest`, { urls: good })).toEqual({ valid: true });
        expect(brief(validate(`${version}/BatchScrapeRequest`, { urls: oneBad, ignoreInvalidURLs: false }))).toEqual([
          { path: `$.urls[${bad}]`, rule: 'batchUrls', message: 'Invalid URL' },
        ]);
      }
      expect(validate('v2/BatchScrapeRequest', { urls: oneBad })).toEqual({ valid: true });
      const partition = partitionBatch('v2', { urls: oneBad });
      expect(partition.outcome === 'accepted' && [partition.valid.length, partition.invalidURLs]).toEqual([URL_COUNT - 1, ['not a url']]);
    }),
  );

  it(
    'all invalid: the first MAX_ISSUES in order and a count of the others (v1), or "No valid URLs provided" once (v2 ignoring); and the error body',
    scaled(() => {
      const hosts = good.map((_, i) => `host${i}`);
      const result = validate('v1/BatchScrapeRequest', { urls: hosts });
      const issues = issuesOf(result);
      const listed = issues.slice(0, MAX_ISSUES);
      expect(listed.every((issue, i) => issue.path === `$.urls[${i}]` && issue.rule === 'batchUrls')).toBe(true);
      expect(listed[0]?.message).toBe('URL must have a valid top-level domain or be an IP address');
      expect(brief(result).slice(MAX_ISSUES)).toEqual([
        {
          path: '$',
          rule: 'moreProblems',
          message: `${URL_COUNT - MAX_ISSUES} more problems were found and not listed (at most ${MAX_ISSUES} are listed)`,
        },
      ]);
      expect(validationErrorBody('v1', issues).details?.length).toBe(MAX_ISSUES + 1);
      expect(brief(validate('v2/BatchScrapeRequest', { urls: hosts }))).toEqual([
        { path: '$.urls', rule: 'batchUrls', message: 'No valid URLs provided' },
      ]);
    }),
  );

  it(
    'entries that are not strings, 10^6 of them: the first, from the schema (the URL rule does not say it again), and no other is looked for',
    scaled(() => {
      const numbers = Array.from({ length: 10 * URL_COUNT }, (_, i) => i);
      expect(brief(validate('v1/BatchScrapeRequest', { urls: numbers }))).toEqual([
        { path: '$.urls[0]', rule: 'type', message: 'must be string, not integer (0)' },
        FIRST_ONLY,
      ]);
      // The validators validate() checks with stop at the first problem.
      expect(v1.BatchScrapeRequest({ urls: numbers })).toBe(false);
      expect(v1.BatchScrapeRequest.errors?.map((e) => e.instancePath)).toEqual(['/urls/0']);
    }),
  );

  it(
    'the all-errors validators gather one error per entry for 10^5 entries in linear time (Ajv gathers with a quadratic Array.concat, rewritten at generation)',
    scaled(() => {
      const numbers = Array.from({ length: URL_COUNT }, (_, i) => i);
      expect(v1AllErrors.BatchScrapeRequest({ urls: numbers })).toBe(false);
      const errors = v1AllErrors.BatchScrapeRequest.errors ?? [];
      expect(errors.length).toBe(URL_COUNT);
      expect(errors.every((e, i) => e.instancePath === `/urls/${i}` && e.keyword === 'type')).toBe(true);
    }),
  );

  it(
    'unknown keys by the 10^5 in a branch of a union (the webhook object): validate reports the first; all of them become issues, none lost or thrown',
    scaled(() => {
      // 2 x 10^5: spreading that many errors into push() exceeds the engine's limit on arguments.
      const count = 2 * URL_COUNT;
      const webhook = { url: hook, ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 1])) };
      const body = { url, webhook };
      expect(brief(validate('v2/CrawlRequest', body))).toEqual([
        { path: '$.webhook.k0', rule: 'additionalProperties', message: 'is not a known field here' },
        FIRST_ONLY,
      ]);
      expect(v2AllErrors.CrawlRequest(body)).toBe(false);
      const issues = toIssues(body, v2AllErrors.CrawlRequest.errors, v2AllErrorsLookup);
      expect(issues.length).toBe(count);
      expect(issues.every((issue, i) => issue.path === `$.webhook.k${i}` && issue.rule === 'additionalProperties')).toBe(true);
    }),
  );

  it(
    'withDefaults and migrateToV2 copy them',
    scaled(() => {
      const filled = withDefaults('v1/BatchScrapeRequest', { urls: good }) as { urls: string[] };
      expect(filled.urls).not.toBe(good);
      expect(filled.urls).toEqual(good);
      const migrated = migrateToV2({ urls: oneBad });
      expect(migrated.kind).toBe('batch');
      expect(migrated.warnings[0]).toContain(`first: $.urls[${bad}]: Invalid URL`);
      expect((migrated.request as { urls: string[] }).urls).toEqual(oneBad);
    }),
  );

  it(
    'turning the validator errors of 10^5 broken actions into issues is linear (a rule replaces only the errors just before it)',
    scaled(() => {
      // The validator's own errors for one action that breaks a rule, repeated at each index: what Ajv would
      // report for 10^5 such actions, if the 50-action limit did not stop the body first.
      const action = { type: 'wait' };
      expect(v2AllErrors.BatchScrapeRequest({ urls: [url], actions: [action] })).toBe(false);
      const one = (v2AllErrors.BatchScrapeRequest.errors ?? []).filter((e) => e.instancePath.startsWith('/actions/0'));
      expect(one.length).toBeGreaterThan(0);
      const errors: ErrorObject[] = [];
      for (let i = 0; i < URL_COUNT; i++) {
        for (const e of one) errors.push({ ...e, instancePath: e.instancePath.replace('/actions/0', `/actions/${i}`) });
      }
      const issues = toIssues({ urls: [url], actions: Array.from({ length: URL_COUNT }, () => action) }, errors, v2AllErrorsLookup);
      expect(issues.length).toBe(URL_COUNT);
      expect(issues.every((issue, i) => issue.path === `$.actions[${i}]` && issue.rule === 'waitNeedsOneTarget')).toBe(true);
    }),
  );
});
