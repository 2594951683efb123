/**
 * How an attempt stops early: `Skip` (its share of the budget is used up, the target is gone), `Inconclusive`
 * (an answer that depends on the account: 402, 403, 429; an answer too long to read; nothing to judge),
 * `Stop` (a failure was recorded and the rest of the attempt is meaningless).
 */
export class Skip extends Error {
  override name = 'Skip';
}
export class Inconclusive extends Error {
  override name = 'Inconclusive';
}
export class Stop extends Error {
  override name = 'Stop';
}
