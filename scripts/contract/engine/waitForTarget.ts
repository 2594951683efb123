/**
 * `--wait-for-target SECONDS`: before anything else is sent, the kit waits for a target that is starting (a
 * server started beside the kit in CI) until it gives any HTTP answer, whatever its status. It sends a GET of
 * the base address (without the token, with the run's `--header`s, which a gateway may need to pass it on),
 * again and again, the pause between two tries growing from FIRST_PAUSE_MS by half each time up to
 * LONGEST_PAUSE_MS, so that the wait ends at most that long after the target is up. A refused or lost
 * connection, or a try with no answer in time (FIRST_TRY_MS, then twice as long each time, up to `--timeout`),
 * means "not yet". When the time given has passed
 * without an answer, the target is unreachable (exit 2), and the reason says how long the kit waited and what
 * the last try ran into.
 */
import { sleep } from '../wire/http.js';
import type { ResolvedOptions } from './options.js';
import { Wire } from '../wire/wire.js';

export const FIRST_PAUSE_MS = 100;
export const LONGEST_PAUSE_MS = 1000;
/**
 * How long the first try waits for its answer; each next one twice as long, up to `--timeout`. Short at first:
 * a target that is starting may accept a connection and not answer on it.
 */
export const FIRST_TRY_MS = 2000;

/** The deepest message of `error`'s causes, with its code (e.g. `connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)`). */
function lastCause(error: unknown): string {
  let deepest: unknown = error;
  while (deepest instanceof Error && deepest.cause !== undefined) deepest = deepest.cause;
  const code = (deepest as { code?: unknown } | null)?.code;
  const message = deepest instanceof Error ? deepest.message : String(deepest);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * Waits for the target of `options` to answer, up to `waitForTargetMs` (not at all when 0). Undefined once it
 * answered; else why it is taken as unreachable.
 */
export async function waitForTarget(
  options: Pick<ResolvedOptions, 'baseUrl' | 'headers' | 'timeoutMs' | 'waitForTargetMs'>,
): Promise<string | undefined> {
  if (options.waitForTargetMs === 0) return undefined;
  const deadline = performance.now() + options.waitForTargetMs;
  let patience = FIRST_TRY_MS;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 1.5, LONGEST_PAUSE_MS), patience *= 2) {
    const wait = Math.max(1, Math.round(Math.min(options.timeoutMs, patience, deadline - performance.now())));
    let last: string;
    // A connection of its own each time: one accepted by a target not yet ready is not used again.
    const wire = new Wire(1);
    try {
      // The head is the answer; its body is not read (at most 0 bytes).
      await wire.send({ method: 'GET', url: `${options.baseUrl}/`, headers: options.headers }, wait, 0);
      return undefined;
    } catch (error) {
      last = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${(wait / 1000).toFixed(1)} s` : lastCause(error);
    } finally {
      wire.close();
    }
    // No try is made that the time left could not wait for.
    if (performance.now() + pause >= deadline)
      return `no HTTP answer after waiting ${options.waitForTargetMs / 1000} s (--wait-for-target); the last try: ${last}`;
    await sleep(pause);
  }
}
