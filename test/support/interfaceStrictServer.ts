/**
 * An implementation that follows the interface to the letter: the reference server, but every start whose body
 * holds something the interface does not list (a service extension field or value, a form the service fills in,
 * a key of an object the definitions do not list, at any depth: spec/operations.ts `serviceOnlyPlaces`) is refused with 400
 * and the error envelope. At interface level nothing it does is a deviation; at service level it refuses what the
 * service accepts.
 */
import { parseRequestBody } from '../../schemas/errorEnvelope.js';
import { requestName } from '../../scripts/contract/generation/safeRequests.js';
import { serviceOnlyPlaces } from '../../scripts/contract/spec/operations.js';
import type { ReferenceApp } from '../../scripts/server/app.js';
import { around, isObject, pathOf } from './appWrap.js';

const START = /^\/(v1|v2)\/(crawl|batch\/scrape)$/;

export function interfaceStrict(app: ReferenceApp): ReferenceApp {
  return around(app, (request, next) => {
    const start = request.method.toUpperCase() === 'POST' ? START.exec(pathOf(request)) : null;
    const parsed = start ? parseRequestBody(request.body) : undefined;
    if (!start || !parsed?.ok || !isObject(parsed.value)) return next(request);
    const version = start[1] as 'v1' | 'v2';
    const unlisted = serviceOnlyPlaces(version, requestName(start[2] === 'crawl' ? 'crawl' : 'batch'), parsed.value);
    if (unlisted.length === 0) return next(request);
    return Promise.resolve({
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ success: false, code: 'BAD_REQUEST', error: `Not in the interface: ${unlisted.join(', ')}` }),
    });
  });
}
