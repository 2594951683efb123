/**
 * How an attempt stops early: `Skip` (its share of the budget is used up, the target is gone), `Inconclusive`
 * (an answer that depends on the account: 402, 403, 429; an answer too long to read; nothing to judge),
 * `Stop` (a failure was recorded and the rest of the attempt is meaningless).
 */
import type { Level } from '../spec/levels.js';

export class Skip extends Error {
  override name = 'Skip';
}

/**
 * What could not be judged, and at which level it matters: an `interface` one leaves every run incomplete;
 * a `service` one only a run at service level (at interface level it is reported as a note and decides
 * nothing, e.g. a 403 where the interface asks only for a refusal and the service for a 401).
 */
export class Inconclusive extends Error {
  override name = 'Inconclusive';
  constructor(
    message: string,
    readonly level: Level,
  ) {
    super(message);
  }
}

export class Stop extends Error {
  override name = 'Stop';
}
