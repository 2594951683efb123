/**
 * The contract kit's work on an answer is bounded by what it shows, not by what the target put in it: an answer
 * of up to `--max-response-bytes` may hold millions of broken records, a crawl's answer tens of thousands of
 * pages of another site. Their problems are grouped by a tally (scripts/contract/spec/tally.ts) that keeps the first
 * few of each group, counts the rest and never makes them; a status answer's records are validated one by one
 * and only the problems listed are kept (spec/operations.ts `bodyProblems`); a crawl's problems are grouped in linear time
 * (checks/behaviour.ts). No clock is raced: the tests count the members made and check what is reported.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyProblems, LISTED_PROBLEMS } from '../scripts/contract/spec/operations.js';
import { Tally } from '../scripts/contract/spec/tally.js';
import { formatText, runContract, type ContractReport } from '../scripts/contract/index.js';
import { kitTarget, type Handler, type KitTarget } from './support/kitTarget.js';

describe('a tally keeps the first members of each group and counts the rest', () => {
  it('for any keys added: each group holds its first `keep` members in order and counts all; a member past them is never made', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 60 }), fc.integer({ min: 0, max: 5 }), (keys, keep) => {
        const tally = new Tally<number>(keep);
        let made = 0;
        keys.forEach((key, i) =>
          tally.add(key, () => {
            made += 1;
            return i;
          }),
        );
        const order = [...new Set(keys)];
        expect(tally.all().map((g) => g.key)).toEqual(order);
        for (const key of order) {
          const indexes = keys.flatMap((k, i) => (k === key ? [i] : []));
          expect(tally.group(key)).toEqual({ key, first: indexes.slice(0, keep), count: indexes.length });
        }
        expect(made).toBe(order.reduce((n, key) => n + Math.min(keep, keys.filter((k) => k === key).length), 0));
      }),
    );
  });

  it('80,000 members of one group: 12 made and kept, 80,000 counted (the work of a crawl answer with 80,000 pages of another site)', () => {
    const tally = new Tally<string>(12);
    let made = 0;
    for (let i = 0; i < 80_000; i += 1)
      tally.add('interface|extra|interface §2.1', () => {
        made += 1;
        return `http://f.example/${i}`;
      });
    expect(made).toBe(12);
    expect(tally.group('interface|extra|interface §2.1')).toEqual({
      key: 'interface|extra|interface §2.1',
      first: Array.from({ length: 12 }, (_, i) => `http://f.example/${i}`),
      count: 80_000,
    });
  });
});

/** A v2 status answer, valid but for `records`. */
const statusWith = (records: unknown[]) => ({
  success: true,
  status: 'completed',
  completed: 1,
  total: 1,
  creditsUsed: 1,
  expiresAt: '2030-01-01T00:00:00.000Z',
  data: records,
});

describe('the problems of an answer: the first listed at each level, the others counted', () => {
  it(`a status answer of 200,000 records that are no Document: ${LISTED_PROBLEMS} listed (the first records), 200,000 counted, all at service level`, () => {
    const problems = bodyProblems('v2', 'JobStatusResponse', statusWith(new Array<number>(200_000).fill(0)));
    expect(problems.group('service').count).toBe(200_000);
    expect(problems.group('service').first.map((p) => `${p.path} ${p.schema}: ${p.message}`)).toEqual([
      '$.data[0] v2/Document: must be object, not integer (0)',
      '$.data[1] v2/Document: must be object, not integer (0)',
      '$.data[2] v2/Document: must be object, not integer (0)',
    ]);
    expect(problems.group('interface').count).toBe(0);
  });

  it('a start answer breaking the interface: its problems at interface level, listed and counted apart from the service', () => {
    // Interface §4: a start answer is success, id, url; every key broken here is the interface's.
    const problems = bodyProblems('v2', 'CrawlStartResponse', { success: 'yes', id: 7, url: false });
    expect(problems.group('interface').count).toBe(3);
    expect(problems.group('interface').first.map((p) => p.path)).toEqual(['$.success', '$.id', '$.url']);
    expect(problems.group('interface').first.every((p) => p.section.startsWith('interface'))).toBe(true);
  });

  it('a valid answer has no problem', () => {
    expect(bodyProblems('v2', 'JobStatusResponse', statusWith([])).all()).toEqual([]);
  });
});

const STATUS = /^\/v2\/(?:crawl|batch\/scrape)\/[0-9a-f-]{36}$/;

/** Every 200 status answer of a v2 job with its records edited by `edit`. */
const editedRecords =
  (edit: (data: unknown[]) => unknown[]): Handler =>
  async (request, next) => {
    const answer = await next(request);
    if (request.method !== 'GET' || !STATUS.test(request.url.split('?')[0]!) || answer.status !== 200) return answer;
    const body = JSON.parse(answer.body) as { data: unknown[] };
    return { ...answer, body: JSON.stringify({ ...body, data: edit(body.data) }) };
  };

describe('against a target whose answers hold too many records', () => {
  let zeros: KitTarget;
  let foreign: KitTarget;
  let statusReport: ContractReport;
  let crawlReport: ContractReport;
  const RECORDS = 5000;
  const FOREIGN = 80_000;
  const pagesElsewhere = Array.from({ length: FOREIGN }, (_, i) => ({ metadata: { url: `http://f.example/${i}` } }));

  beforeAll(async () => {
    [zeros, foreign] = await Promise.all([
      kitTarget({ deviate: editedRecords(() => new Array<number>(RECORDS).fill(0)) }),
      kitTarget({ deviate: editedRecords((data) => [...data, ...pagesElsewhere]) }),
    ]);
    [statusReport, crawlReport] = await Promise.all([
      runContract(zeros.options({ versions: ['v2'], level: 'service', only: ['v2.status'], behaviour: false })),
      runContract(foreign.options({ versions: ['v2'], only: ['v2.crawl.behaviour.default'] })),
    ]);
    // Two narrow runs, each following its jobs to their end.
  }, 240_000);
  afterAll(() => Promise.all([zeros.close(), foreign.close()]));

  it(`a status page of ${RECORDS} records that are no Document: ${LISTED_PROBLEMS} problems named, the other ${RECORDS - LISTED_PROBLEMS} counted`, () => {
    const check = statusReport.checks.find((c) => c.name === 'v2.status')!;
    expect(check.status, formatText(statusReport)).toBe('fail');
    expect(check.failures.map((f) => f.message)).toContain(
      'the 200 body is not a valid v2/JobStatusResponse: ' +
        '$.data[0] (v2/Document): must be object, not integer (0); $.data[1] (v2/Document): must be object, not integer (0); ' +
        `$.data[2] (v2/Document): must be object, not integer (0); and ${RECORDS - LISTED_PROBLEMS} more problems of this answer`,
    );
  });

  it(`a crawl answer with ${FOREIGN} pages of another site: one failure naming the first 12 and counting the others`, () => {
    const check = crawlReport.checks.find((c) => c.name === 'v2.crawl.behaviour.default')!;
    expect(check.status, formatText(crawlReport)).toBe('fail');
    const listed = Array.from({ length: 12 }, (_, i) => `http://f.example/${i} is no page of the site, nor reachable from the start page`);
    expect(check.failures.map((f) => [f.level, f.kind, f.section, f.message])).toEqual([
      ['interface', 'crawl', 'interface §2.1', `the whole site: ${listed.join('; ')}; and ${FOREIGN - 12} more`],
    ]);
  });
});
