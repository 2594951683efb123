/**
 * The jobs a run started, so that every one of them is cancelled: by the check that started it, or at the
 * end of the run. Each job holds the budget unit reserved for its cancel (in its check's budget).
 *
 * A job's id comes from the target, so it is used only percent-encoded, and only when it can be: a string
 * of well-formed Unicode (no lone surrogate, which no encoder can put in a URL), not `.` or `..` (which a URL
 * resolves to another path), at most MAX_JOB_ID_LENGTH characters. A job whose id cannot be used is
 * addressed by the start answer's `url` when that is a job endpoint on the target, and is otherwise
 * reported as not cancelled.
 */
import type { Version } from '../../../schemas/registry.js';
import type { Reservation, RequestBudget } from './budget.js';
import { KIND_PATH, locate, type JobKind } from '../spec/operations.js';

export type JobState = 'open' | 'cancelled' | 'completed' | 'notCancelled';

export const MAX_JOB_ID_LENGTH = 1024;

export interface Job {
  readonly version: Version;
  readonly kind: JobKind;
  readonly id: string;
  /** The `url` the start answer gave. */
  readonly url: unknown;
  /** The job's status and cancel address on the target; undefined when neither its id nor its url gives one. */
  readonly address: string | undefined;
  readonly budget: RequestBudget;
  readonly reservation: Reservation;
  state: JobState;
  /** DELETEs sent for it. */
  cancelAttempts: number;
  /**
   * Its id was given to an earlier start of the run too (of the same version and kind), as a mock that answers
   * every start alike does: what is read or done at that id cannot be told to be this job's.
   */
  readonly repeated: boolean;
}

/** Why `id` cannot be put in a URL path, or undefined when it can. */
export function unusableJobId(id: string): string | undefined {
  if (id.length > MAX_JOB_ID_LENGTH) return `it is longer than ${MAX_JOB_ID_LENGTH} characters`;
  if (id === '.' || id === '..') return `"${id}" names another path in a URL`;
  try {
    encodeURIComponent(id); // throws exactly on a lone surrogate
  } catch {
    return 'it holds a lone surrogate, which no URL can carry';
  }
  return undefined;
}

export class JobTracker {
  readonly all: Job[] = [];

  constructor(private readonly baseUrl: string) {}

  /** Records a started job; its address is its own (from the id), else the start answer's `url` if that is one of its endpoints. */
  add(version: Version, kind: JobKind, id: string, url: unknown, budget: RequestBudget, reservation: Reservation): Job {
    const own = unusableJobId(id) === undefined ? this.address({ version, kind, id }) : undefined;
    const given = typeof url === 'string' && locate(this.baseUrl, 'DELETE', url) !== undefined ? url : undefined;
    const repeated = this.all.some((other) => other.version === version && other.kind === kind && other.id === id);
    const job: Job = { version, kind, id, url, address: own ?? given, budget, reservation, state: 'open', cancelAttempts: 0, repeated };
    this.all.push(job);
    return job;
  }

  /** The address of a job of this target (status: GET, cancel: DELETE); its id must be usable. */
  address(job: Pick<Job, 'version' | 'kind' | 'id'>): string {
    return `${this.baseUrl}/${job.version}${KIND_PATH[job.kind]}/${encodeURIComponent(job.id)}`;
  }

  /**
   * Records what a DELETE answered: a 2xx cancelled (the service answers 200; a 202 or 204 cancels as well,
   * and the kit must not cancel twice), 409 already completed; anything else leaves it open.
   */
  settle(job: Job, status: number | undefined): void {
    job.cancelAttempts += 1;
    if (status !== undefined && status >= 200 && status < 300) job.state = 'cancelled';
    else if (status === 409) job.state = 'completed';
  }

  open(): Job[] {
    return this.all.filter((job) => job.state === 'open');
  }
}
