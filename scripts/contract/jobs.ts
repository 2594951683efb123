/**
 * The jobs a run started, so that every one of them is cancelled: by the check that started it, or at the
 * end of the run. Each job holds the budget unit reserved for its cancel.
 */
import type { Version } from '../../schemas/registry.js';
import type { Reservation } from './budget.js';
import { KIND_PATH, type JobKind } from './spec.js';

export type JobState = 'open' | 'cancelled' | 'completed' | 'notCancelled';

export interface Job {
  readonly version: Version;
  readonly kind: JobKind;
  readonly id: string;
  /** The `url` the start answer gave. */
  readonly url: unknown;
  readonly reservation: Reservation;
  state: JobState;
  /** DELETEs sent for it. */
  cancelAttempts: number;
}

export class JobTracker {
  readonly all: Job[] = [];

  constructor(private readonly baseUrl: string) {}

  add(version: Version, kind: JobKind, id: string, url: unknown, reservation: Reservation): Job {
    const job: Job = { version, kind, id, url, reservation, state: 'open', cancelAttempts: 0 };
    this.all.push(job);
    return job;
  }

  /** The job's own address on this target: status (GET) and cancel (DELETE). */
  address(job: Pick<Job, 'version' | 'kind' | 'id'>): string {
    return `${this.baseUrl}/${job.version}${KIND_PATH[job.kind]}/${encodeURIComponent(job.id)}`;
  }

  /** Records what a DELETE answered: 200 cancelled, 409 already completed; anything else leaves it open. */
  settle(job: Job, status: number | undefined): void {
    job.cancelAttempts += 1;
    if (status === 200) job.state = 'cancelled';
    else if (status === 409) job.state = 'completed';
  }

  open(): Job[] {
    return this.all.filter((job) => job.state === 'open');
  }
}
