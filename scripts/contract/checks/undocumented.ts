/**
 * The job endpoints asked about jobs that do not exist: a well-formed id no job has (404, the documented
 * "no job with this id"), and an id that is not a UUID (v2 documents 400; v1 documents no such answer, so
 * its "not found" is expected). Any status an operation does not document fails (`undocumentedStatus`).
 */
import type { Version } from '../../../schemas/registry.js';
import { simpleCheck, type Check } from '../check.js';
import { KIND_PATH, type JobKind } from '../spec.js';

const KINDS: readonly JobKind[] = ['crawl', 'batch'];

/** A UUID (v4 layout) no job has, fixed by the seed so a run reproduces. */
export function absentJobId(seed: number): string {
  const hex = (seed >>> 0).toString(16).padStart(8, '0');
  return `c0ffee00-0000-4000-8000-0000${hex}`;
}

export const MALFORMED_JOB_ID = 'not-a-job-id';

export function undocumentedStatusCheck(version: Version): Check {
  return simpleCheck(`${version}.status.undocumentedStatus`, { startsJob: false }, async (attempt) => {
    const absent = absentJobId(attempt.options.seed);
    const malformedStatus = version === 'v2' ? 400 : 404;
    for (const kind of KINDS) {
      const job = (id: string, suffix = '') => attempt.url(version, `${KIND_PATH[kind]}/${id}${suffix}`);
      await attempt.call({ method: 'GET', url: job(absent) }, { status: 404 });
      await attempt.call({ method: 'GET', url: job(absent, '/errors') }, { status: 404 });
      await attempt.call({ method: 'DELETE', url: job(absent) }, { status: 404 });
      await attempt.call({ method: 'GET', url: job(MALFORMED_JOB_ID) }, { status: malformedStatus });
      await attempt.call({ method: 'DELETE', url: job(MALFORMED_JOB_ID) }, { status: malformedStatus });
    }
  });
}
