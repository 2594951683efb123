/**
 * A refusal is evidence only against an accepted baseline. Every check that expects a start body to be refused
 * (a broken body, no token, a body that is not JSON) pairs it with its base: the same body without the breaking
 * change. When the target refuses the broken body, the base is sent too (once per attempt and body), and:
 *
 *   - the base accepted (a 2xx start answer; its job is cancelled at once): the refusal stands, and what the
 *     check holds of it (a 4xx, the service's 400 and envelope) is judged as usual;
 *   - the base answered as by a missing endpoint (endpoints.ts): the check fails, a valid request refused, at
 *     the level of the operation (a start is interface §4's);
 *   - the base refused too (any other answer: a URL rule of the target, an SSRF guard, an account limit): the
 *     refusal shows nothing, and neither does what was held against it (a status other than the service's 400):
 *     those failures are dropped, and the check is inconclusive at the level of its expectation, saying with
 *     what the base was refused.
 *
 * A broken body that was accepted (or answered 5xx) needs no base: that is a failure whatever the base gets.
 */
import type { Version } from '../../../schemas/registry.js';
import type { Attempt } from './context.js';
import { answeredAsMissing } from './endpoints.js';
import type { Expectation } from '../spec/expectation.js';
import type { Auth, Exchange } from '../wire/http.js';
import type { Job } from '../wire/jobs.js';
import { levelOf, lowest } from '../spec/levels.js';
import type { ResolvedOptions } from './options.js';
import { makeSafe, minimalRequest, requestName, requestSchema, type Body } from '../generation/safeRequests.js';
import { validate } from '../../../schemas/validate.js';
import { Stop } from './signals.js';
import { KIND_PATH, locate, serviceOnlyPlaces, type JobKind } from '../spec/operations.js';

/** What the target answered to a base: accepted, or the status and what it said. */
export interface BaseAnswer {
  readonly accepted: boolean;
  readonly status: number;
  /** The answer's `error` text (else the start of its body), for the report. */
  readonly said: string;
  /** The base was answered as by a target without the endpoint. */
  readonly missing: boolean;
  /** The base as sent (`safeBase`). */
  readonly body: unknown;
  readonly exchange: Exchange;
}

/** What a refusal said, in a few words: the envelope's `error`, else the start of the body. */
function saidIn(exchange: Exchange): string {
  const error = (exchange.json as { error?: unknown } | undefined)?.error;
  const text = typeof error === 'string' ? error : exchange.text;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 160 ? line : `${line.slice(0, 160)}...`;
}

/** A body in the report: its JSON, cut. */
function shown(body: unknown): string {
  const text = JSON.stringify(body) ?? String(body);
  return text.length <= 200 ? text : `${text.slice(0, 200)}... ${text.length - 200} more characters`;
}

const isRefusal = (status: number) => status >= 400 && status < 500;

const isBody = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `base` as the kit may send it to a real, paid service (see "Safe against real, paid services"): its addresses
 * on the run's site (an address elsewhere, e.g. a rule case's `https://пример.рф/`, becomes the site's first page:
 * what breaks such a case is its address, so the site's stands for "without the breaking change"), a crawl of one
 * page, a batch of at most two, no webhook, data-retention flag, prompt or actions. Should that leave no valid body (a v1 `maxDepth` below
 * the page's depth), the smallest start on the site stands for it.
 */
export function safeBase(version: Version, kind: JobKind, base: unknown, options: Pick<ResolvedOptions, 'siteUrl' | 'site'>): unknown {
  const { siteUrl, site } = options;
  const minimal = minimalRequest(kind, siteUrl, site.pages[0]);
  if (!isBody(base)) return minimal;
  const onSite = (url: unknown) =>
    typeof url === 'string' && (url === siteUrl || url.startsWith(`${siteUrl}/`) || url.startsWith(`${siteUrl}?`))
      ? url
      : `${siteUrl}${site.pages[0]}`;
  // A batch of at most two pages, as every batch the kit sends.
  const urls =
    kind === 'crawl'
      ? [onSite(base.url)]
      : Array.isArray(base.urls) && base.urls.length > 0
        ? base.urls.slice(0, 2).map(onSite)
        : [onSite(undefined)];
  const body = makeSafe(kind, base, urls);
  return validate(requestSchema(version, kind), body).valid ? body : minimal;
}

/** The base's answer, sent once per attempt and body (its job, if it started one, cancelled at once). */
async function baseAnswer(attempt: Attempt, version: Version, kind: JobKind, unsafe: unknown): Promise<BaseAnswer> {
  const base = safeBase(version, kind, unsafe, attempt.options);
  const key = `${version} ${kind} ${JSON.stringify(base)}`;
  const known = attempt.baselines.get(key);
  if (known !== undefined) return known;
  const { exchange, job } = await attempt.post(version, kind, { json: base });
  if (job !== undefined) await attempt.cancelQuietly(job);
  const located = locate(attempt.options.baseUrl, 'POST', exchange.request.url);
  const answer: BaseAnswer = {
    accepted: exchange.status >= 200 && exchange.status < 300 && job !== undefined,
    status: exchange.status,
    said: saidIn(exchange),
    missing: located !== undefined && answeredAsMissing(exchange, located.version, located.operation),
    body: base,
    exchange,
  };
  attempt.baselines.set(key, answer);
  return answer;
}

/**
 * Starts `broken` (a body, or raw text), which `expectation` says must be refused; when the target refused it,
 * holds the refusal against `base`, the same request without the breaking change (sent with the run's token).
 * Returns what `Attempt.start` returns (`ok` false when the base was refused too: the check is then left
 * undecided for this body, and goes on).
 */
export async function startRefused(
  attempt: Attempt,
  version: Version,
  kind: JobKind,
  broken: { json: unknown } | { raw: string },
  expectation: Expectation,
  base: unknown,
  auth?: Auth,
): Promise<{ exchange: Exchange; ok: boolean; job: Job | undefined }> {
  const before = attempt.failures.length;
  const result = await attempt.start(version, kind, broken, expectation, auth);
  if (!isRefusal(result.exchange.status)) return result;
  const answer = await baseAnswer(attempt, version, kind, base);
  if (answer.accepted) return result;
  // A target that refuses a valid body leaves every refusal of the check unproven: undecided at the check's
  // level when that is lower than the expectation's (a service-only break drawn by an interface-level check).
  // A base that carries what only the service states (an extension field) may be refused by an implementation
  // of the interface: then only a run at service level misses the evidence.
  const serviceBase = serviceOnlyPlaces(version, requestName(kind), answer.body).length > 0;
  const level = serviceBase ? 'service' : lowest(expectation.interface ? 'interface' : 'service', attempt.of.level);
  const where = `POST /${version}${KIND_PATH[kind]}`;
  // Whatever was held against the refusal (a 404 where the service answers 400) rests on it: dropped with it.
  attempt.failures.splice(before);
  if (answer.missing) {
    const section = locate(attempt.options.baseUrl, 'POST', result.exchange.request.url)?.operation.source ?? 'service';
    attempt.fail({
      kind: 'notImplemented',
      level: levelOf(section),
      message: `${where} is not implemented: it answered ${answer.status} to the same body without the breaking change, a valid request, so its refusal of the broken one shows nothing`,
      expected: `${where} implemented: the valid body accepted (200 and a start answer)`,
      section,
      exchange: answer.exchange,
    });
    throw new Stop(`${where} is not implemented`);
  }
  // The check is inconclusive, and goes on with its other bodies.
  attempt.leaveUndecided(
    `the refusal shows nothing: the same body without the breaking change was refused too (${answer.status}: ${answer.said}; the body: ${shown(answer.body)}); ` +
      `make the target accept it (see ${version}.${kind}.start.valid) to judge this check`,
    level,
    true,
  );
  return { ...result, ok: false };
}
