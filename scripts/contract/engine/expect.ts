/**
 * What an answer is held to, at two levels (levels.ts):
 *
 *   - `interface`: what the interface requires of this exchange, when it says anything: a start request it
 *     accepts is answered 200 with a start answer (§4); one it refuses (a wrong type, a value outside an enum,
 *     a bound it states, a missing required field, no token, a body that is not JSON) is refused: a 4xx
 *     answer, and no job. How exactly it is refused is not the interface's to say.
 *   - `service`: what the public service answers: the exact statuses, each with the body its operation
 *     documents (`schemas/operations.ts`): e.g. 400 with the error envelope.
 *
 * Order: an account-dependent answer (402, 403, 429) nobody expects leaves undecided what it was to show (a
 * 403 to bad credentials is the refusal the interface asks for: only the service's 401 is undecided); a 5xx is a
 * failure at interface level whatever was sent; then the interface part; then the service part: a status
 * the operation does not document, a status other than the ones expected, and the body, each of whose
 * problems is reported at the level of the constraint it breaks (a start answer's `id` is the interface's,
 * a status page's `expiresAt` the service's).
 */
import type { Version } from '../../../schemas/registry.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import type { Attempt } from './context.js';
import { answeredAsMissing } from './endpoints.js';
import { Inconclusive } from './signals.js';
import type { Exchange } from '../wire/http.js';
import { levelOf, SERVER_ERROR_CITATION, type Level } from '../spec/levels.js';
import { bodyProblems, documentedStatuses, locate, type OperationSpec } from '../spec/operations.js';
import type { Expectation, InterfaceExpectation, ServiceExpectation } from '../spec/expectation.js';

/** Answers that depend on the account (credits, plan, rate limits), not on the implementation. */
export const ACCOUNT_DEPENDENT = new Set([402, 403, 429]);

const statusList = (e: ServiceExpectation): readonly number[] => (typeof e.status === 'number' ? [e.status] : e.status);

/** `200 with a body valid as v2/CrawlStartResponse, or 409 ...`. */
export function describeStatuses(version: Version, operation: OperationSpec, statuses: readonly number[]): string {
  return statuses
    .map((s) => {
      const response = operation.responses[String(s)];
      return response ? `${s} with a body valid as ${version}/${response.schema}` : `${s}`;
    })
    .join(', or ');
}

const interfaceWords = (e: InterfaceExpectation) =>
  e.outcome === 'accepted' ? `accepted: 200 and a start answer (${e.why})` : `refused: a 4xx answer and no job (${e.why})`;

/** Holds `exchange` against `expectation`, recording failures in `attempt`; true when everything held. */
export function holdAnswer(attempt: Attempt, exchange: Exchange, expectation: Expectation): boolean {
  const { request, status } = exchange;
  const wanted = statusList(expectation.service);
  const path = new URL(request.url).pathname;
  const spec = expectation.interface;
  if (ACCOUNT_DEPENDENT.has(status) && !wanted.includes(status)) {
    const reason = `${status} from ${request.method} ${path}: depends on the account`;
    // A 403 to bad credentials refuses them, as the interface asks; only the service's exact answer is unjudged.
    // A 402 or 429 (and a 403 to anything else) says nothing of the request itself.
    if (spec?.outcome === 'refused' && spec.credentials === true && status === 403) {
      attempt.leaveUndecided(reason, 'service');
      return false;
    }
    if (!spec && expectation.standsAlone === true) {
      attempt.leaveUndecided(reason, 'service');
      return false;
    }
    // Otherwise what the check proves rests on the answer: undecided at the interface's level when the
    // interface says what it must be, else at the check's (a behaviour check cannot judge a crawl whose
    // status it could not read).
    throw new Inconclusive(reason, spec ? 'interface' : attempt.of.level);
  }
  const located = locate(attempt.options.baseUrl, request.method, request.url);
  // Said of a wrong status when the answer is a missing endpoint's (endpoints.ts), so one reads why.
  const missing =
    located !== undefined && answeredAsMissing(exchange, located.version, located.operation)
      ? `: ${request.method} ${path} is not implemented`
      : '';
  if (status >= 500 && !wanted.includes(status)) {
    attempt.fail({
      kind: 'serverError',
      level: 'interface',
      message: `${status}: the implementation failed to answer ${request.method} ${path}${missing}`,
      expected: spec ? interfaceWords(spec) : `an answer that is not a server error (${wanted.join(' or ')})`,
      section: SERVER_ERROR_CITATION,
      exchange,
      // One fault however many checks meet it: the operation that fails, by its template (not the request's address).
      cause: `${request.method} ${located === undefined ? path : `/${located.version}${located.operation.path}`} answers ${status} (a server error)`,
    });
    return false;
  }
  if (spec) {
    const held = spec.outcome === 'accepted' ? status === 200 : status >= 400 && status < 500;
    if (!held) {
      attempt.fail({
        kind: 'status',
        level: 'interface',
        message:
          spec.outcome === 'accepted'
            ? `${status} where the interface accepts the request${missing}`
            : `${status}: the request was not refused, although the interface refuses it`,
        expected: interfaceWords(spec),
        section: spec.section,
        exchange,
      });
      return false;
    }
  }
  if (!located) {
    attempt.fail({
      kind: 'unknownOperation',
      level: 'service',
      message: `${request.method} ${request.url} is not an operation of the interface`,
      expected: 'an address of a documented operation (schemas/operations.ts)',
      section: 'service',
      exchange,
    });
    return false;
  }
  const { version, operation } = located;
  const described = expectation.service.expected ?? describeStatuses(version, operation, wanted);
  if (!(String(status) in operation.responses)) {
    attempt.fail({
      kind: 'undocumentedStatus',
      level: 'service',
      message: `${status} is not a status ${operation.operationId} documents (${documentedStatuses(operation).join(', ')})${missing}`,
      expected: described,
      section: 'service',
      exchange,
    });
    return false;
  }
  if (!wanted.includes(status)) {
    attempt.fail({
      kind: 'status',
      level: 'service',
      message: `${status} where ${wanted.join(' or ')} was expected${missing}`,
      expected: described,
      section: 'service',
      exchange,
    });
    return false;
  }
  const schema = operation.responses[String(status)]!.schema;
  // A start answer is the interface's (§4: "JSON: success, id, url"); every other answer the service's.
  const bodyLevel: Level = spec?.outcome === 'accepted' ? 'interface' : 'service';
  if (!exchange.isJson) {
    attempt.fail({
      kind: 'body',
      level: bodyLevel,
      message: `the ${status} body is not JSON${missing}`,
      expected: described,
      section: bodyLevel === 'interface' ? spec!.section : 'service',
      exchange,
    });
    return false;
  }
  const problems = bodyProblems(version, schema, exchange.json);
  for (const level of ['interface', 'service'] as const) {
    const { first: found, count } = problems.group(level);
    if (count === 0) continue;
    const more = count - found.length;
    attempt.fail({
      kind: 'body',
      level,
      message: `the ${status} body is not a valid ${version}/${schema}: ${found
        .map((p) => `${p.path} (${p.schema}): ${p.message}`)
        .join('; ')}${more > 0 ? `; and ${more} more ${more === 1 ? 'problem' : 'problems'} of this answer` : ''}`,
      expected: described,
      section: found[0]!.section,
      exchange,
    });
  }
  return problems.all().length === 0;
}

/** The statuses a start request is answered with when the service accepts it. */
const ACCEPTED = { status: 200 } as const;

/**
 * What a request the run holds valid must get: at `interface` level (a body made of interface fields and
 * values only) the interface requires it to be accepted; at `service` level (a body with the service's
 * extension fields or values) only the service accepts it.
 */
export function acceptance(level: Level, why: string, section: string): Expectation {
  return level === 'interface'
    ? { interface: { outcome: 'accepted', why, section }, service: ACCEPTED }
    : { service: { ...ACCEPTED, expected: `200 with a start answer (${why})` } };
}

/**
 * What an invalid request body must get, from what `validate` says is wrong with it: when any of its problems
 * breaks a constraint the interface states, the interface requires it refused (cited by that problem's
 * source); the service answers 400 with the error envelope either way.
 */
export function refusal(version: Version, name: SchemaName, body: unknown, what: string): Expectation {
  const result = validate(name, body);
  const issues = result.valid ? [] : result.errors;
  const stated = issues.find((i) => i.source !== undefined && levelOf(i.source) === 'interface');
  const words = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  const service: ServiceExpectation = {
    status: 400,
    expected: `400 with a body valid as ${version}/ErrorResponse (success: false): ${what}${words ? `; ${words}` : ''}`,
  };
  return stated === undefined
    ? { service }
    : { interface: { outcome: 'refused', why: `${what}: ${stated.path}: ${stated.message}`, section: stated.source! }, service };
}

/** The level an expectation decides from: `interface` when the interface says anything of it. */
export const expectationLevel = (expectation: Expectation): Level => (expectation.interface ? 'interface' : 'service');
