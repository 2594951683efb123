/**
 * The bearer header (interface §5: every request carries `Authorization: Bearer <token>`; the header is
 * required): a start without it, or with a token the target does not know, is refused (interface); the
 * service answers 401 with the error envelope, on the job endpoints too. Skipped when the run has no token
 * (`--no-auth`).
 */
import type { Version } from '../../../../schemas/registry.js';
import { startRefused } from '../../engine/baseline.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import type { Expectation } from '../../spec/expectation.js';
import type { Auth } from '../../wire/http.js';
import { minimalRequest } from '../../generation/safeRequests.js';

export const WRONG_TOKEN = 'crawlspec-contract-wrong-token';

function authCheck(name: string, auth: Auth, what: string, versions: readonly Version[]): Check {
  const service = { status: 401, expected: `401 with a body valid as ErrorResponse: ${what}` };
  const refused: Expectation = {
    interface: { outcome: 'refused', why: `${what}; every request carries the bearer header`, section: 'interface §5', credentials: true },
    service,
  };
  return simpleCheck(
    {
      name,
      level: 'interface',
      proves: `A start with ${what} is refused and starts no job (interface §5), where the same start with the token is accepted; the service answers 401 with the error envelope, also on GET /crawl/active.`,
      cites: [
        { source: 'interface §5', names: ['Authorization', 'Bearer'] },
        { source: 'service', names: ['401', 'ErrorResponse'] },
      ],
      // Its refusals are held against bases that start jobs (baseline.ts).
      startsJob: true,
      needsAuth: true,
      cost: versions.length * (1 + 2 * START),
    },
    async (attempt) => {
      for (const version of versions) {
        await attempt.call({ method: 'GET', url: attempt.url(version, '/crawl/active'), auth }, { service, standsAlone: true });
        // Refused without the token: evidence only when the same body with it is accepted (baseline.ts).
        const body = minimalRequest('crawl', attempt.options.siteUrl);
        await startRefused(attempt, version, 'crawl', { json: body }, refused, body, auth);
      }
    },
  );
}

export function authChecks(versions: readonly Version[]): Check[] {
  return [
    authCheck('auth.missing', 'none', 'no Authorization header', versions),
    authCheck('auth.wrongToken', { bearer: WRONG_TOKEN }, 'a token the target does not know', versions),
  ];
}
