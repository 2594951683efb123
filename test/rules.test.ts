/**
 * Every rule of the spec from both sides (scripts/contract/generation/ruleCases.ts): the minimal valid body is valid, and
 * the minimal invalid body gets exactly the expected issues (path, rule id, the service's message) and no
 * others. Rules expressed in JSON Schema are decided alike by all four forms of the spec; rules written as
 * code are invisible to the schema forms (they accept the invalid body) and seen by `validate` only.
 *
 * Then the batch partition (`partitionBatch`, `expectedInvalidUrls`) by table, and properties: `validate`
 * and `partitionBatch` never throw, and `validate` always says something usable. Runs: FC_RUNS (default 200).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedInvalidUrls, partitionBatch, type BatchPartition } from '../schemas/batchPartition.js';
import { jsonPath } from '../schemas/issues.js';
import type { Version } from '../schemas/registry.js';
import { schemaNames, validate, type SchemaName } from '../schemas/validate.js';
import { checkersFor, decisions, everyForm } from './support/forms.js';
import { expectEqual, expectTrue } from './support/hotExpect.js';
import { RULE_CASES, type RuleCase } from '../scripts/contract/generation/ruleCases.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);

const ALL_ACCEPT = everyForm(true);
const ALL_REJECT = everyForm(false);

const nameOf = (c: RuleCase) => `${c.version}/${c.schema}` as SchemaName;
const shown = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

describe('rules from both sides', () => {
  for (const c of RULE_CASES) {
    const name = nameOf(c);
    const ids = c.issues.map((i) => i.rule).join(', ');

    describe(`${name} ${c.title}`, () => {
      it(`valid: ${shown(c.valid)}`, () => {
        expect(validate(name, c.valid)).toEqual({ valid: true });
      });

      it(`invalid (${ids} at ${c.issues.map((i) => i.path).join(', ')}): ${shown(c.invalid)}`, () => {
        const result = validate(name, c.invalid);
        expect(result.valid).toBe(false);
        const errors = result.valid ? [] : result.errors;
        for (const want of c.issues) {
          const here = errors.filter((e) => e.path === want.path);
          expect(here, `one issue at ${want.path}`).toHaveLength(1);
          const [issue] = here;
          expect({ rule: issue?.rule, message: issue?.message }, `the issue at ${want.path}`).toEqual({
            rule: want.rule,
            message: want.message,
          });
          expect(issue?.expected.trim().length, `expected text of the issue at ${want.path}`).toBeGreaterThan(0);
          expect(jsonPath(issue?.segments ?? []), 'segments agree with path').toBe(want.path);
        }
        // Nothing else: the rule's message is not drowned in noise.
        expect(
          errors.map((e) => ({ path: e.path, rule: e.rule, message: e.message })),
          'no other issue',
        ).toEqual(c.issues.map((i) => ({ path: i.path, rule: i.rule, message: i.message })));
      });

      if (c.kind === 'schema') {
        it('every form of the spec decides both bodies alike (schema rule)', () => {
          const checkers = checkersFor(c.version, c.schema);
          expect(decisions(checkers, c.valid), 'valid body').toEqual(ALL_ACCEPT);
          expect(decisions(checkers, c.invalid), 'invalid body').toEqual(ALL_REJECT);
        });
      } else {
        it('the schema forms accept the invalid body; only validate() rejects it (code rule)', () => {
          const checkers = checkersFor(c.version, c.schema);
          expect(decisions(checkers, c.valid), 'valid body').toEqual(ALL_ACCEPT);
          expect(decisions(checkers, c.invalid), 'invalid body, schema alone').toEqual(ALL_ACCEPT);
          expect(validate(name, c.invalid).valid, 'invalid body, validate').toBe(false);
        });
      }
    });
  }

  it('v1 has no timeout maximum: 300001 is a valid v1 timeout (the v2 limit is v2 only)', () => {
    expect(validate('v1/ScrapeOptions', { timeout: 300001 })).toEqual({ valid: true });
    expect(validate('v1/CrawlRequest', { url: 'https://example.com', scrapeOptions: { timeout: 300001 } })).toEqual({ valid: true });
  });
});

// ---------------------------------------------------------------------------------------------------------
// The batch partition

const MIXED = ['https://example.com/a', 'ftp://example.com', 'example.com/b', 'http://localhost', 42] as const;
const PROTOCOL = 'URL uses unsupported protocol';
const HOST = 'URL must have a valid top-level domain or be an IP address';
const NOT_STRING = 'Expected string';
const MIXED_INVALID = [
  { index: 1, url: 'ftp://example.com', problem: PROTOCOL },
  { index: 3, url: 'http://localhost', problem: HOST },
  { index: 4, url: 42, problem: NOT_STRING },
];
const MIXED_ACCEPTED: BatchPartition = {
  outcome: 'accepted',
  valid: ['https://example.com/a', 'example.com/b'],
  invalidURLs: ['ftp://example.com', 'http://localhost', 42],
};
const MIXED_REJECTED: BatchPartition = { outcome: 'rejected', reason: 'invalid URLs', invalid: MIXED_INVALID };

type Ignore = boolean | 'omitted';
interface PartitionCase {
  readonly title: string;
  readonly version: Version;
  readonly ignore: Ignore;
  readonly urls: readonly unknown[];
  readonly outcome: BatchPartition;
}

const ALL_VALID = ['https://example.com/b', 'https://example.com/a'];
const ALL_INVALID = ['not a url', 'ftp://example.com'];
const ALL_INVALID_LIST = [
  { index: 0, url: 'not a url', problem: 'Invalid URL' },
  { index: 1, url: 'ftp://example.com', problem: PROTOCOL },
];

/** Whether a version ignores invalid URLs for each setting. */
const ignoring = (version: Version, ignore: Ignore) => (ignore === 'omitted' ? version === 'v2' : ignore);

const PARTITION_CASES: PartitionCase[] = (['v1', 'v2'] as const).flatMap((version) =>
  ([true, false, 'omitted'] as const).flatMap((ignore): PartitionCase[] => {
    const ignores = ignoring(version, ignore);
    return [
      { title: 'mixed valid and invalid entries', version, ignore, urls: MIXED, outcome: ignores ? MIXED_ACCEPTED : MIXED_REJECTED },
      {
        title: 'all valid (order and original strings kept)',
        version,
        ignore,
        urls: ALL_VALID,
        outcome: { outcome: 'accepted', valid: ALL_VALID, invalidURLs: ignores ? [] : undefined },
      },
      {
        title: 'all invalid',
        version,
        ignore,
        urls: ALL_INVALID,
        outcome: { outcome: 'rejected', reason: ignores ? 'no valid URLs' : 'invalid URLs', invalid: ALL_INVALID_LIST },
      },
      {
        title: 'empty list (the schema rejects it: minItems 1)',
        version,
        ignore,
        urls: [],
        outcome: { outcome: 'accepted', valid: [], invalidURLs: ignores ? [] : undefined },
      },
    ];
  }),
);

describe('partitionBatch and expectedInvalidUrls', () => {
  for (const c of PARTITION_CASES) {
    const request = c.ignore === 'omitted' ? { urls: c.urls } : { urls: c.urls, ignoreInvalidURLs: c.ignore };
    it(`${c.version}, ignoreInvalidURLs ${String(c.ignore)}: ${c.title}`, () => {
      expect(partitionBatch(c.version, request)).toEqual(c.outcome);
      expect(expectedInvalidUrls(c.version, request)).toEqual(c.outcome.outcome === 'accepted' ? c.outcome.invalidURLs : undefined);
    });
  }

  it('invalidURLs are the entries as sent, in request order, not normalised', () => {
    const urls = [' https://example.com/x', 'HTTPS://EXAMPLE.COM', 'mailto:a@example.com', 'example', 'https://example.com/y'];
    const partition = partitionBatch('v2', { urls });
    expect(partition).toEqual({
      outcome: 'accepted',
      valid: [' https://example.com/x', 'HTTPS://EXAMPLE.COM', 'https://example.com/y'],
      invalidURLs: ['mailto:a@example.com', 'example'],
    });
  });

  it('a request that is not an object, or has no urls array, gives an accepted empty batch', () => {
    for (const request of [undefined, null, 'urls', [], {}, { urls: 'https://example.com' }]) {
      expect(partitionBatch('v1', request)).toEqual({ outcome: 'accepted', valid: [], invalidURLs: undefined });
      expect(partitionBatch('v2', request)).toEqual({ outcome: 'accepted', valid: [], invalidURLs: [] });
    }
  });

  it('an ignoreInvalidURLs that is not a boolean falls back to the version default', () => {
    expect(partitionBatch('v1', { urls: MIXED, ignoreInvalidURLs: 'yes' })).toEqual(MIXED_REJECTED);
    expect(partitionBatch('v2', { urls: MIXED, ignoreInvalidURLs: 0 })).toEqual(MIXED_ACCEPTED);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Properties

function expectUsable(result: ReturnType<typeof validate>): void {
  if (result.valid) {
    expectEqual(result, { valid: true });
    return;
  }
  expectTrue(result.errors.length > 0, 'an invalid result lists its errors');
  for (const issue of result.errors) {
    expectTrue(typeof issue.path === 'string' && issue.path.length > 0, () => `path of ${JSON.stringify(issue)}`);
    expectTrue(typeof issue.message === 'string' && issue.message.length > 0, () => `message of ${JSON.stringify(issue)}`);
    expectTrue(typeof issue.expected === 'string' && issue.expected.length > 0, () => `expected of ${JSON.stringify(issue)}`);
  }
}

describe('validate never throws and always says something usable', () => {
  for (const name of schemaNames()) {
    it(`${name}: fc.anything()`, () => {
      fc.assert(
        fc.property(fc.anything(), (value) => expectUsable(validate(name, value))),
        { numRuns },
      );
    });
    it(`${name}: fc.jsonValue()`, () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => expectUsable(validate(name, value))),
        { numRuns },
      );
    });
  }
});

describe('partitionBatch never throws', () => {
  const requestLike = fc.record(
    { urls: fc.oneof(fc.array(fc.oneof(fc.webUrl(), fc.string(), fc.anything())), fc.anything()), ignoreInvalidURLs: fc.anything() },
    { requiredKeys: [] },
  );
  for (const version of ['v1', 'v2'] as const) {
    it(`${version}: fc.anything()`, () => {
      fc.assert(
        fc.property(fc.anything(), (value) => {
          partitionBatch(version, value);
          expectedInvalidUrls(version, value);
        }),
        { numRuns },
      );
    });
    it(`${version}: request-like objects; the partition covers every entry once, in order`, () => {
      fc.assert(
        fc.property(requestLike, (request) => {
          const partition = partitionBatch(version, request);
          const urls = Array.isArray(request.urls) ? (request.urls as unknown[]) : [];
          if (partition.outcome === 'accepted') {
            expect(partition.valid.length + (partition.invalidURLs?.length ?? 0)).toBe(urls.length);
          } else {
            expect(partition.invalid.map((i) => i.index)).toEqual([...partition.invalid.map((i) => i.index)].sort((a, b) => a - b));
            expect(partition.invalid.every((i) => Object.is(urls[i.index], i.url))).toBe(true);
          }
        }),
        { numRuns },
      );
    });
  }
});
