/**
 * How long a page may be waited for: `waitFor` against `timeout`, and the total of the waits. Both apply
 * to scrape options (a crawl's `scrapeOptions`, a batch's top level).
 */
import { denseArray, field, NO_PROBLEMS, type CodeRule } from './codeRule.js';

const MAX_TOTAL_WAIT = 60000;
/** A wait for an element counts as this long toward the total, as the service counts it. */
const SELECTOR_WAIT = 1000;

export const waitForWithinTimeout: CodeRule = {
  id: 'waitForWithinTimeout',
  source: 'service',
  fields: ['waitFor'],
  triggers: ['waitFor'],
  // The service compares the two only when both are sent (and waitFor is not 0); the interface's default timeout
  // of 30000 ms is not used in its place: `{"waitFor": 20000}` alone is accepted.
  description: 'When both are sent and `waitFor` is not 0, `waitFor` must not exceed half of `timeout`.',
  check: (options) =>
    waitForKept(field(options, 'waitFor'), field(options, 'timeout'))
      ? NO_PROBLEMS
      : [{ at: ['waitFor'], message: 'waitFor must not exceed half of timeout' }],
  keeps: (options) => waitForKept(options.waitFor, options.timeout),
  reads: ['waitFor', 'timeout'],
  keepsWith: (_options, waitFor, timeout) => waitForKept(waitFor, timeout),
};

function waitForKept(waitFor: unknown, timeout: unknown): boolean {
  return !(typeof waitFor === 'number' && typeof timeout === 'number' && waitFor > 0 && waitFor > timeout / 2);
}

/** The milliseconds the wait actions add up to. */
function waitActionsTotal(actions: unknown): number {
  const list = denseArray(actions);
  if (list === undefined) return 0;
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    const action = list[i];
    if (typeof action !== 'object' || action === null || (action as { type?: unknown }).type !== 'wait') continue;
    const { milliseconds, selector } = action as { milliseconds?: unknown; selector?: unknown };
    if (typeof milliseconds === 'number') total += milliseconds;
    else if (typeof selector === 'string') total += SELECTOR_WAIT;
  }
  return total;
}

const TOTAL_WAIT_MESSAGE = 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds';

/** v1 counts `waitFor` into the total; v2 counts the wait actions alone. */
export function totalWaitWithinLimit(version: 'v1' | 'v2'): CodeRule {
  return {
    id: 'totalWaitWithinLimit',
    source: 'service',
    fields: ['actions'],
    triggers: version === 'v1' ? ['waitFor', 'actions'] : ['actions'],
    description:
      version === 'v1'
        ? '`waitFor` plus the wait actions (a wait for an element counts 1000 ms) must not exceed 60000 ms.'
        : 'The wait actions (a wait for an element counts 1000 ms) must not exceed 60000 ms in total.',
    check: (options) =>
      kept(field(options, 'waitFor'), field(options, 'actions')) ? NO_PROBLEMS : [{ at: ['actions'], message: TOTAL_WAIT_MESSAGE }],
    keeps: (options) => kept(options.waitFor, options.actions),
    reads: ['waitFor', 'actions'],
    keepsWith: (_options, waitFor, actions) => kept(waitFor, actions),
  };
  function kept(waitFor: unknown, actions: unknown): boolean {
    const total = waitActionsTotal(actions) + (version === 'v1' && typeof waitFor === 'number' ? waitFor : 0);
    return !(total > MAX_TOTAL_WAIT);
  }
}
