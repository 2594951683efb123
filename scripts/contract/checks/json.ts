/** A start body that is not JSON: 400 with `code: BAD_REQUEST_INVALID_JSON`. */
import type { Version } from '../../../schemas/registry.js';
import { simpleCheck, type Check } from '../check.js';
import type { JobKind } from '../spec.js';

export const MALFORMED_JSON = '{"url": "https://example.com", "limit": 1,';

export function malformedJsonCheck(versions: readonly Version[]): Check {
  return simpleCheck('json.malformed', { startsJob: false }, async (attempt) => {
    for (const version of versions)
      for (const kind of ['crawl', 'batch'] as JobKind[]) {
        const expected = `400 with a body valid as ${version}/ErrorResponse and code "BAD_REQUEST_INVALID_JSON"`;
        const { exchange, ok } = await attempt.start(version, kind, { raw: MALFORMED_JSON }, { status: 400, expected, section: 'service' });
        const code = (exchange.json as { code?: unknown } | undefined)?.code;
        if (ok && code !== 'BAD_REQUEST_INVALID_JSON')
          attempt.fail({
            kind: 'body',
            message: `code is ${JSON.stringify(code)}, not "BAD_REQUEST_INVALID_JSON"`,
            expected,
            section: 'service',
            exchange,
          });
      }
  });
}
