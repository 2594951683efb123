/**
 * The job endpoints asked about jobs that do not exist (the interface shows no job endpoint, §4 rule 3, so
 * this is the service's): a well-formed id no job has is 404, "not found"; an id that is not a UUID is 400 on the
 * status read and on every v2 endpoint (the service since 2025-12-02), "not found" on v1 cancel. Any status an
 * operation does not document fails (`undocumentedStatus`).
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
      proves: `Status, errors and cancel of a job that does not exist answer 404 (and for an id that is not a UUID ${version === 'v2' ? '400' : '400 on status, 404 on cancel'}), with documented bodies.`,
      cites: [{ source: 'service', names: ['404 Job not found', '400 Invalid job ID format'] }],
      startsJob: false,
      siteIndependent: true,
      cost: KINDS.length * 5,
    },
    async (attempt) => {
      const absent = absentJobId(attempt.options.seed);
      const malformedCancel = version === 'v2' ? 400 : 404;
      for (const kind of KINDS) {
        const job = (id: string, suffix = '') => attempt.url(version, `${KIND_PATH[kind]}/${id}${suffix}`);
        await attempt.call({ method: 'GET', url: job(absent) }, { service: { status: 404 } });
        await attempt.call({ method: 'GET', url: job(absent, '/errors') }, { service: { status: 404 } });
        await attempt.call({ method: 'DELETE', url: job(absent) }, { service: { status: 404 } });
        await attempt.call({ method: 'GET', url: job(MALFORMED_JOB_ID) }, { service: { status: 400 } });
        await attempt.call({ method: 'DELETE', url: job(MALFORMED_JOB_ID) }, { service: { status: malformedCancel } });
      }
    },
  );
}
