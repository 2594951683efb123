/**
 * What the validating proxy (proxy.ts) finds wrong in one exchange, with the package's own validators and rules:
 * the request body of an operation that takes one (a crawl or batch start, a params preview), and the answer
 * (its status among those the operation documents, its body against the definition of that status: start, status
 * pages and their records, cancel, errors, active, error envelopes). Each problem says where, what, what is
 * expected, and its level and section, as the contract kit says them: a problem whose source is the interface is of
 * interface level, one the public service fills in is of service level.
 *
 * The answer is also judged against its request, as the kit judges it (../contract/engine/expect.ts, endpoints.ts):
 *   - a 5xx to any request is a failure of the implementation, of interface level, cited as HTTP (the kit's words);
 *   - an operation answered as by a target that does not have it (405, 501, or a 404 that is not the error body
 *     the operation documents for an unknown job) is not implemented, named by its method and path template;
 *   - a 4xx to a request whose body breaks no rule of the spec at any level is a valid request refused, at the
 *     run's level (not the account's refusals: 401, 402, 403, 429; not a 404, which names an unknown job).
 */
import type { OperationSpec } from '../../schemas/operations.js';
import type { Version } from '../../schemas/registry.js';
import { parseJson } from '../../schemas/parseJson.js';
import type { ValidationIssue } from '../../schemas/issues.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { answeredAsMissing } from '../contract/engine/endpoints.js';
import { ACCOUNT_DEPENDENT } from '../contract/engine/expect.js';
import { levelOf, SERVER_ERROR_CITATION, type Level } from '../contract/spec/levels.js';
import { documentedStatuses, locate, type Method } from '../contract/spec/operations.js';

export interface Violation {
  /** Which half of the exchange breaks the spec. */
  readonly side: 'request' | 'answer';
  readonly method: string;
  /** The path asked for, without the query (which may carry secrets). */
  readonly path: string;
  /** The answer's status, for an answer's problem. */
  readonly status?: number;
  /** Where in the body (a JSON path, `$` for the body itself), or `status`. */
  readonly at: string;
  readonly message: string;
  readonly expected: string;
  readonly level: Level;
  readonly section: string;
}

/** The operation of an exchange, when it is one of the spec's. */
export interface Located {
  readonly version: Version;
  readonly operation: OperationSpec;
}

const METHODS = new Set(['GET', 'POST', 'DELETE']);

/**
 * A problem `validate` reported. An issue that names no source (a bound of the body itself, such as its size) is
 * counted as the service's: the proxy never holds an implementation to what the interface does not say.
 */
function fromIssue(base: Pick<Violation, 'side' | 'method' | 'path' | 'status'>, issue: ValidationIssue): Violation {
  const section = issue.source ?? 'service';
  // `validate` ends what it expects with its source; the violation carries the source apart.
  const expected = issue.expected.endsWith(` [${section}]`) ? issue.expected.slice(0, -` [${section}]`.length) : issue.expected;
  return { ...base, at: issue.path, message: issue.message, expected, level: levelOf(section), section };
}

/** The operation `method` and `url` (absolute, on the target) name, if the spec has it. */
export function operationOf(target: string, method: string, url: string): Located | undefined {
  return METHODS.has(method) ? locate(target, method as Method, url) : undefined;
}

/**
 * The problems of `body` against the definition `schema` of `located`'s version: none, one when it is not JSON
 * (`notJson` says what was expected and where that comes from), else each issue `validate` reports.
 */
function bodyViolations(
  base: Pick<Violation, 'side' | 'method' | 'path' | 'status'>,
  located: Located,
  schema: string,
  body: string,
  notJson: { readonly expected: string; readonly section: string },
): Violation[] {
  const parsed = parseJson(body);
  if (!parsed.ok)
    return [{ ...base, at: '$', message: `the body is not JSON (${parsed.issue.message})`, ...notJson, level: levelOf(notJson.section) }];
  const result = validate(`${located.version}/${schema}` as SchemaName, parsed.value);
  return result.valid ? [] : result.errors.map((issue) => fromIssue(base, issue));
}

/** The problems of a request body sent to `located`. */
export function requestViolations(located: Located, method: string, path: string, body: string): Violation[] {
  const { requestBody } = located.operation;
  if (requestBody === undefined) return [];
  return bodyViolations({ side: 'request', method, path }, located, requestBody, body, {
    expected: 'a JSON body (Content-Type: application/json)',
    section: 'interface §4',
  });
}

/** The problems of an answer of `located` (its body as text; a body that is not JSON is one problem). */
export function answerViolations(located: Located, method: string, path: string, status: number, body: string): Violation[] {
  const { operation } = located;
  const base = { side: 'answer' as const, method, path, status };
  const response = operation.responses[String(status)];
  if (response === undefined) {
    return [
      {
        ...base,
        at: 'status',
        message: `${status} is not a status this operation answers with`,
        expected: `one of ${documentedStatuses(operation).join(', ')}`,
        level: 'service',
        section: 'service',
      },
    ];
  }
  // Of an operation the interface lists, a body that is no JSON breaks the interface; of one the service adds, the service.
  return bodyViolations(base, located, response.schema, body, { expected: `a ${response.schema} body`, section: operation.source });
}

/** `POST /v2/crawl`: an operation's method and path template. */
const template = (located: Located) => `${located.operation.method.toUpperCase()} /${located.version}${located.operation.path}`;

/**
 * Whether `status` (with its body, when it was read and is JSON) is the answer of a target that does not have
 * `located`'s operation: the kit's rule (endpoints.ts), asked with what the proxy saw.
 */
export function answeredAsMissing404(
  located: Located,
  method: string,
  url: string,
  requestBody: string,
  status: number,
  answer: { readonly isJson: boolean; readonly json?: unknown },
): boolean {
  return answeredAsMissing(
    {
      request: { method: method as Method, url, headers: {}, body: requestBody },
      status,
      headers: new Headers(),
      text: '',
      json: answer.json,
      isJson: answer.isJson,
      retried: false,
    },
    located.version,
    located.operation,
  );
}

/** A 5xx: the implementation failed, whatever was asked (the kit's words and level). */
export function serverError(located: Located | undefined, method: string, path: string, status: number): Violation {
  const missing = located !== undefined && status === 501 ? `: ${template(located)} is not implemented` : '';
  const others = located === undefined ? [] : documentedStatuses(located.operation).filter((s) => s < 500);
  return {
    side: 'answer',
    method,
    path,
    status,
    at: 'status',
    message: `${status}: the implementation failed to answer ${method} ${path}${missing}`,
    expected: `an answer that is not a server error${others.length === 0 ? '' : ` (${others.join(' or ')})`}`,
    level: 'interface',
    section: SERVER_ERROR_CITATION,
  };
}

/** An operation the target answered as missing. */
export function notImplemented(located: Located, method: string, path: string, status: number, isJson: boolean): Violation {
  const how = status === 404 ? (isJson ? ', not the error body it documents for an unknown job' : ', not JSON') : '';
  return {
    side: 'answer',
    method,
    path,
    status,
    at: 'status',
    message: `not implemented: ${template(located)} answered ${status}${how}`,
    expected: `${template(located)} as the ${located.operation.source} documents it (${documentedStatuses(located.operation).join(', ')})`,
    level: levelOf(located.operation.source),
    section: located.operation.source,
  };
}

/** A refusal (4xx) of a request whose body breaks nothing the spec states, or undefined when `status` is none such. */
export function validRequestRefused(
  located: Located,
  method: string,
  path: string,
  status: number,
  runLevel: Level,
): Violation | undefined {
  if (status < 400 || status >= 500 || status === 401 || status === 404 || ACCOUNT_DEPENDENT.has(status)) return undefined;
  return {
    side: 'answer',
    method,
    path,
    status,
    at: 'status',
    message: `${status}: a valid request refused (its body breaks no rule of the spec)`,
    expected: `accepted: 200 and a ${located.operation.responses['200']?.schema ?? 'documented'} body`,
    level: runLevel,
    section: runLevel === 'interface' ? 'interface §4' : 'service',
  };
}
