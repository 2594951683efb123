/**
 * `--max-duration SECONDS`: the whole run's time limit. Every request may take up to `--timeout`, so a target
 * that answers each just before it would make a default run of thousands of requests last half a day (13 h with
 * the default 30 s). Once the limit is reached, counted from when the run begins (after `--wait-for-target`'s
 * wait, which has a limit of its own), the kit sends nothing more but the cancels of the jobs it started (each
 * reserved when its job was started, budget.ts); the requests on their way are waited for (each at most
 * `--timeout`), and what they bring is judged. Every check that has not ended is not judged: in scope
 * `inconclusive`, above the run's level `notJudged`, with TimeLimit.detail as its reason, and the run is
 * `incomplete` (exit 3) unless a failure was found before. The report is written as usual.
 *
 * The default, an hour, is what a conformant target does not come near: a default run takes under a minute
 * against the built-in server (some 2,400 requests, 50 jobs followed to their end); against a hosted service
 * answering every request in a second, its jobs each running the kit's whole polling schedule (35 s), about 35
 * minutes (two checks at a time).
 */

/** The default limit: an hour (see above). */
export const DEFAULT_MAX_DURATION_MS = 3_600_000;

/** A request refused because the run's time limit was reached (the request was not sent). */
export class OutOfTime extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'OutOfTime';
  }
}

/** The run's clock: started when the run begins, reached once `ms` have passed. */
export class TimeLimit {
  private endsAt = Number.POSITIVE_INFINITY;

  constructor(readonly ms: number) {}

  start(now = performance.now()): void {
    this.endsAt = now + this.ms;
  }

  get reached(): boolean {
    return performance.now() >= this.endsAt;
  }

  /** Why a check the limit cut short is not judged, and the fix: the same words for each (reporters/text.ts groups them). */
  get detail(): string {
    return timeLimitDetail(this.ms);
  }
}

/** The reason of a check the time limit left unfinished. */
export const timeLimitDetail = (ms: number): string =>
  `the run reached its time limit (--max-duration ${ms / 1000} s) before the check ended, so it is not judged: raise --max-duration, or narrow the run with --only`;

/** The limit, in seconds, that `detail` says left its check unfinished; undefined for any other detail. */
export function timeLimitOf(detail: string | undefined): number | undefined {
  const found = /^the run reached its time limit \(--max-duration ([\d.]+) s\) before the check ended/.exec(detail ?? '');
  return found === null ? undefined : Number(found[1]);
}
