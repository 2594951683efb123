/**
 * The bearer header (interface §5): without it, and with a wrong token, every operation answers 401 with
 * the error envelope. Skipped when the run has no token (`--no-auth`).
 */
import type { Version } from '../../../schemas/registry.js';
import { simpleCheck, type Check } from '../check.js';
import type { Auth } from '../http.js';
import { minimalRequest } from '../safeRequests.js';

export const WRONG_TOKEN = 'crawlspec-contract-wrong-token';

function authCheck(name: string, auth: Auth, what: string, versions: readonly Version[]): Check {
  return simpleCheck(name, { startsJob: false, needsAuth: true }, async (attempt) => {
    const expectation = { status: 401, expected: `401 with a body valid as ErrorResponse: ${what}`, section: 'interface §5' };
    for (const version of versions) {
      await attempt.call({ method: 'GET', url: attempt.url(version, '/crawl/active'), auth }, expectation);
      await attempt.start(version, 'crawl', { json: minimalRequest('crawl', attempt.options.siteUrl) }, expectation, auth);
    }
  });
}

export function authChecks(versions: readonly Version[]): Check[] {
  return [
    authCheck('auth.missing', 'none', 'no Authorization header', versions),
    authCheck('auth.wrongToken', { bearer: WRONG_TOKEN }, 'a token the target does not know', versions),
  ];
}
