/**
 * What the contract kit writes for a CI to act on: repeated failures of one check collapse into one entry with a
 * count and the smallest request, as long as they are of one class (the same field, the same answer). Hand-built
 * reports.
 */
import { describe, expect, it } from 'vitest';
import { collapse } from '../scripts/contract/report/collapse.js';
import { formatText } from '../scripts/contract/index.js';
import { check, report } from './support/reportFixtures.js';
import { failure } from './support/contractOutputParts.js';

describe('repeated failures of one check collapse', () => {
  it('the same 500 to 22 requests differing in numbers, addresses and ids is one entry × 22 with the smallest request; another answer stays apart; a generated class is kept', () => {
    const same = Array.from({ length: 22 }, (_, i) =>
      failure({
        expected: `accepted: 200 and a start answer (limit: ${22 - i} alone)`,
        request: `curl -X POST 'http://127.0.0.1:4000/v2/crawl' --data-raw '{"url":"http://127.0.0.1:4000/site/${i}","limit":${'1'.repeat(30 - i)}}'`,
        got: { status: 500, body: `{"error":"Internal error","requestId":"6f1c2a9e-0b7d-4c1e-9a55-${String(i).padStart(12, '0')}"}` },
      }),
    );
    const other = failure({
      kind: 'status',
      message: '400 where the interface accepts the request',
      got: { status: 400, body: '{"error":"maxDepth refused"}' },
    });
    const generated = [0, 1].map((n) => failure({ counterexample: { seed: 7, path: String(n), shrinks: 3 } }));
    const out = collapse([...same.slice(0, 10), other, ...same.slice(10), ...generated]);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({ count: 22, message: same[0]!.message });
    // The smallest request is the last one built (its value has the fewest digits), shown with its own expectation.
    expect(out[0]!.request).toBe(same[21]!.request);
    expect(out[0]!.expected).toBe('accepted: 200 and a start answer (limit: 1 alone)');
    expect(out[1]).toBe(other);
    expect(out[1]!.count).toBeUndefined();
    expect(out.slice(2)).toEqual(generated);
  });

  it('three fields accepted with a fraction are three entries; the same field met again with other numbers, addresses and ids is one × 2', () => {
    // Issue 40: `limit: 2.5`, `maxDepth: 1.5` and `maxDiscoveryDepth: 1.5` accepted were one line `limit: 2.5 × 3`.
    const accepted = (field: string, value: number, id: string) =>
      failure({
        check: 'v2.crawl.start.invalid.fraction',
        kind: 'status',
        message: '200: the request was not refused, although the interface refuses it',
        expected: `refused: a 4xx answer and no job (${field}: ${value} is not an integer: /${field}: must be integer)`,
        section: 'interface §2.1',
        request: `curl -X POST 'http://127.0.0.1:4000/v2/crawl' --data-raw '{"url":"http://127.0.0.1:4000/site","${field}":${value}}'`,
        got: { status: 200, body: `{"success":true,"id":"${id}","url":"http://127.0.0.1:4000/v2/crawl/${id}"}` },
      });
    const out = collapse([
      accepted('limit', 2.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000001'),
      accepted('maxDepth', 1.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000002'),
      accepted('maxDiscoveryDepth', 1.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000003'),
      accepted('limit', 12.5, '6f1c2a9e-0b7d-4c1e-9a55-000000000004'),
    ]);
    expect(out.map((f) => [f.expected, f.count])).toEqual([
      ['refused: a 4xx answer and no job (limit: 2.5 is not an integer: /limit: must be integer)', 2],
      ['refused: a 4xx answer and no job (maxDepth: 1.5 is not an integer: /maxDepth: must be integer)', undefined],
      ['refused: a 4xx answer and no job (maxDiscoveryDepth: 1.5 is not an integer: /maxDiscoveryDepth: must be integer)', undefined],
    ]);
    const text = formatText(report({ checks: [check('v2.crawl.start.invalid.fraction', { status: 'fail', failures: out })] }));
    for (const field of ['limit', 'maxDepth', 'maxDiscoveryDepth']) expect(text).toContain(`(${field}: `);
    expect(text).toContain('(4 failures)');
  });

  it("a field whose name ends in a digit is not another field's number: field1 and field2 are two classes", () => {
    const alone = (field: string) => failure({ expected: `accepted: 200 and a start answer (${field} alone)` });
    expect(collapse([alone('field1'), alone('field2'), alone('field1')]).map((f) => [f.expected, f.count])).toEqual([
      ['accepted: 200 and a start answer (field1 alone)', 2],
      ['accepted: 200 and a start answer (field2 alone)', undefined],
    ]);
  });

  it('a 400 naming another field is another class', () => {
    const refused = (field: string) =>
      failure({
        kind: 'status',
        message: '400 where the interface accepts the request',
        got: { status: 400, body: `{"error":"${field} refused"}` },
      });
    expect(collapse([refused('maxDepth'), refused('sitemap'), refused('maxDepth')]).map((f) => [f.got!.body, f.count])).toEqual([
      ['{"error":"maxDepth refused"}', 2],
      ['{"error":"sitemap refused"}', undefined],
    ]);
  });
});
