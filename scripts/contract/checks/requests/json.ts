/**
 * A start body that is not JSON: refused (interface §4: the endpoints take `application/json`); the service
 * answers 400 with `code: BAD_REQUEST_INVALID_JSON`.
 */
import type { Version } from '../../../../schemas/registry.js';
import { startRefused } from '../../engine/baseline.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import type { JobKind } from '../../spec/operations.js';

/**
 * A body of `kind` on the run's site, cut off before its end: the shape of the endpoint's request, so that
 * an implementation that repaired it (closing the object) would start a job and be caught.
 */
export const malformedJson = (kind: JobKind, siteUrl: string) => {
  const text = JSON.stringify(wellFormed(kind, siteUrl));
  return `${text.slice(0, -1)},`;
};

/** The body `malformedJson` cuts off: what a refusal of it is held against (baseline.ts). */
export const wellFormed = (kind: JobKind, siteUrl: string) => (kind === 'crawl' ? { url: siteUrl, limit: 1 } : { urls: [siteUrl] });

export function malformedJsonCheck(versions: readonly Version[]): Check {
  return simpleCheck(
    {
      name: 'json.malformed',
      level: 'interface',
      proves:
        'A start body that is not JSON is refused and starts no job (interface §4), where the same body whole is accepted; the service answers 400 with code BAD_REQUEST_INVALID_JSON.',
      cites: [
        { source: 'interface §4', names: ['Content-Type: application/json'] },
        { source: 'service', names: ['BAD_REQUEST_INVALID_JSON'] },
      ],
      // Its refusals are held against bases that start jobs (baseline.ts).
      startsJob: true,
      cost: versions.length * 2 * 2 * START,
    },
    async (attempt) => {
      for (const version of versions)
        for (const kind of ['crawl', 'batch'] as JobKind[]) {
          const expected = `400 with a body valid as ${version}/ErrorResponse and code "BAD_REQUEST_INVALID_JSON"`;
          const { siteUrl } = attempt.options;
          const { exchange, ok } = await startRefused(
            attempt,
            version,
            kind,
            { raw: malformedJson(kind, siteUrl) },
            {
              interface: { outcome: 'refused', why: 'the body is not JSON; the endpoints take application/json', section: 'interface §4' },
              service: { status: 400, expected },
            },
            wellFormed(kind, siteUrl),
          );
          const code = (exchange.json as { code?: unknown } | undefined)?.code;
          if (ok && code !== 'BAD_REQUEST_INVALID_JSON')
            attempt.fail({
              kind: 'body',
              level: 'service',
              message: `code is ${JSON.stringify(code)}, not "BAD_REQUEST_INVALID_JSON"`,
              expected,
              section: 'service',
              exchange,
            });
        }
    },
  );
}
