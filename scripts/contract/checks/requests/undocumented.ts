/**
 * The job endpoints asked about jobs that do not exist (the interface shows no job endpoint, §4 rule 3, so
 * this is the service's): a well-formed id no job has is 404, "not found"; an id that is not a UUID is 400 in
 * v2 (the newer service) and "not found" in v1. Any status an operation does not document fails
 * (`undocumentedStatus`).
 */
import type { Version } from '../../../../schemas/registry.js';
import { simpleCheck, type Check } from '../../engine/check.js';
import { KIND_PATH, type JobKind } from '../../spec/operations.js';

const KINDS: readonly JobKind[] = ['crawl', 'batch'];

/** A UUID (v4 layout) no job has, fixed by the seed so a run reproduces. */
export function absentJobId(seed: number): string {
  const hex = (seed >>> 0).toString(16).padStart(8, '0');
  return `c0ffee00-0000-4000-8000-0000${hex}`;
}

export const MALFORMED_JOB_ID = 'not-a-job-id';

export function undocumentedStatusCheck(version: Version): Check {
  return simpleCheck(
    {
      name: `${version}.status.undocumentedStatus`,
      level: 'service',
      proves: `Status, errors and cancel of a job that does not exist answer 404 (and ${version === 'v2' ? '400 for an id that is not a UUID' : '404 for an id that is not a UUID'}), with documented bodies.`,
      cites: [{ source: 'service', names: ['404 Job not found', ...(version === 'v2' ? ['400 Invalid job ID format'] : [])] }],
      startsJob: false,
      siteIndependent: true,
      cost: KINDS.length * 5,
    },
    async (attempt) => {
      const absent = absentJobId(attempt.options.seed);
      const malformedStatus = version === 'v2' ? 400 : 404;
      for (const kind of KINDS) {
        const job = (id: string, suffix = '') => attempt.url(version, `${KIND_PATH[kind]}/${id}${suffix}`);
        await attempt.call({ method: 'GET', url: job(absent) }, { service: { status: 404 } });
        await attempt.call({ method: 'GET', url: job(absent, '/errors') }, { service: { status: 404 } });
        await attempt.call({ method: 'DELETE', url: job(absent) }, { service: { status: 404 } });
        await attempt.call({ method: 'GET', url: job(MALFORMED_JOB_ID) }, { service: { status: malformedStatus } });
        await attempt.call({ method: 'DELETE', url: job(MALFORMED_JOB_ID) }, { service: { status: malformedStatus } });
      }
    },
  );
}
