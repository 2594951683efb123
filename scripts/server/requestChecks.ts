/**
 * The checks a request meets before its operation runs, each an answer that stops it or undefined: the bearer
 * token (401), a start's Content-Type (415); with the headers they read and the id format they hold to (UUID).
 */
import type { AppRequest, AppResponse } from './appInterface.js';
import type { ReferenceAppOptions } from './appOptions.js';
import { failure } from './answers.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A header, by its lower-case name (tolerating other cases from callers that did not lower them). */
export function header(request: AppRequest, name: string): string | undefined {
  const direct = request.headers[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** The token check of these options: a 401 with the envelope, or undefined to go on. */
export function authorizer(auth: ReferenceAppOptions['auth']): (request: AppRequest) => AppResponse | undefined {
  return (request) => {
    if (auth === 'none') return undefined;
    const value = header(request, 'authorization');
    if (value === undefined || value === '') return failure(401, 'Unauthorized');
    const [scheme = '', token, ...rest] = value.trim().split(/\s+/);
    if (token === undefined || token === '') return failure(401, 'Unauthorized: Token missing');
    if (scheme.toLowerCase() !== 'bearer' || rest.length > 0 || token !== auth.token) {
      return failure(401, 'Unauthorized: Invalid token');
    }
    return undefined;
  };
}

/**
 * A start whose body is not declared JSON: 415 with the envelope. Interface §4: the start endpoints take
 * `Content-Type: application/json`. The service reads any other type (or none) as an empty body and answers
 * 400 (`url`/`urls` Required): this server refuses it before reading the body, so that a web page, which may
 * send `text/plain` (or no type) with no CORS preflight, cannot start a job (issue 22, finding 7). A
 * hardening deviation at service level (docs/reference-server.md); the kit sends JSON as JSON.
 */
export function unsupportedType(request: AppRequest): AppResponse | undefined {
  const type = header(request, 'content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  if (type === 'application/json') return undefined;
  const given = type === undefined || type === '' ? 'no Content-Type' : `Content-Type ${JSON.stringify(type.slice(0, 100))}`;
  return failure(415, `Unsupported media type: a start takes a JSON body with Content-Type: application/json, not ${given}`);
}
