/**
 * The preflight's diagnosis of credentials the target refuses: the small crawl and batch of the run's site and the
 * same bodies on the control site (preflight.ts) were all refused with 401 or 403, so the target refuses the
 * requests themselves, whatever they address: no token (`--no-auth`), or the token given is not one it knows.
 * Every check resting on an accepted request would fail for that alone, one failure each; instead they are not
 * run, and this one diagnosis says what the target answered, what it asks for (its `WWW-Authenticate` header,
 * RFC 9110 §11.6.1) and the flags that give it what it wants. The auth checks (checks/auth.ts) still run: they
 * send their own credentials.
 */
import type { Version } from '../../../schemas/registry.js';
import type { ResolvedOptions } from './options.js';
import type { Diagnosis } from '../report/report.js';
import type { JobKind } from '../spec/operations.js';

/** A start the target refused for its credentials: 401 or 403, what it said, and its `WWW-Authenticate` header if any. */
export interface CredentialsRefusal {
  readonly kind: JobKind;
  readonly status: number;
  readonly said: string;
  readonly authenticate: string | undefined;
}

/** Statuses that refuse a request's credentials (RFC 9110 §15.5.2, §15.5.4). */
export const refusesCredentials = (status: number): boolean => status === 401 || status === 403;

/** The longest `WWW-Authenticate` value quoted: enough for a scheme and its realm, not an answer's worth. */
const AUTHENTICATE_SHOWN = 200;

const KIND_WORD: Record<JobKind, string> = { crawl: 'crawl', batch: 'batch scrape' };

/** What the requests carried: no token, or the run's, and the names of the run's own headers. */
function carried(options: Pick<ResolvedOptions, 'token' | 'headers'>): string {
  const names = Object.keys(options.headers);
  const headers =
    names.length === 0 ? '' : ` and the header${names.length === 1 ? '' : 's'} given (${names.map((n) => `--header ${n}`).join(', ')})`;
  return options.token === undefined
    ? `no Authorization header (--no-auth)${headers}`
    : `the token given (Authorization: Bearer ***, from --token or CRAWLSPEC_TOKEN)${headers}`;
}

/** The diagnosis for `refused` (the site's starts, each refused for its credentials, the control's too). */
export function credentialsDiagnosis(
  options: Pick<ResolvedOptions, 'baseUrl' | 'token' | 'headers'>,
  version: Version,
  control: string,
  refused: readonly CredentialsRefusal[],
): Omit<Diagnosis, 'checks'> {
  const statuses = [...new Set(refused.map((r) => r.status))].join('/');
  const what = refused.map((r) => `a ${version} ${KIND_WORD[r.kind]} (${r.status} ${JSON.stringify(r.said)})`).join(' and ');
  const asked = refused.find((r) => r.authenticate !== undefined)?.authenticate;
  const quoted = asked === undefined ? undefined : asked.length <= AUTHENTICATE_SHOWN ? asked : `${asked.slice(0, AUTHENTICATE_SHOWN)}...`;
  const asks =
    quoted === undefined ? 'it sent no WWW-Authenticate header saying what it wants' : `it asks for it with WWW-Authenticate: ${quoted}`;
  const give =
    "--token TOKEN or CRAWLSPEC_TOKEN=TOKEN (sent as Authorization: Bearer TOKEN), or a header of its own with --header 'NAME: VALUE' (an API gateway's key, say)";
  return {
    site: options.baseUrl,
    summary:
      options.token === undefined
        ? `the target refuses requests without a token (${statuses})`
        : `the target refuses the token given (${statuses})`,
    problem: `it refused ${what}, sent with ${carried(options)}, and the same bodies with ${control} in place of the site: it refuses the requests themselves, whatever they address, so every check resting on an accepted request would fail for that alone; ${asks}`,
    fix:
      options.token === undefined
        ? `give the credentials the target expects: ${give}`
        : `give the token the target knows (the one given is refused): ${give}`,
  };
}
