/**
 * What a check is, apart from how it runs (check.ts): its name, level, what it proves and where that comes from,
 * what it needs of the run; and what it could leave undecided. Types only, so that what reads checks without
 * running them (the preflight, the engine's context) does not depend on check.ts, which depends on them.
 */
import type { Level } from './levels.js';

/** Something a check could not judge, and the level at which that matters (signals.ts). */
export interface Undecided {
  readonly reason: string;
  readonly level: Level;
  /**
   * Undecided for one attempt's value only (a refusal whose base was refused too, baseline.ts): the check is
   * inconclusive, but its other values are still tried and shrunk (property.ts), so a failure is still found.
   */
  readonly local?: boolean;
  /** The fault it rests on, in the words of the failures it caused (the report groups checks by it). */
  readonly cause?: string;
}

/**
 * Where what a check proves comes from: `interface §2.4` with the fields, values or rules of that section it
 * relies on (test/checkCitations.test.ts proves the section states each), or `service`.
 */
export interface Citation {
  readonly source: string;
  readonly names: readonly string[];
}

export interface CheckInfo {
  /** Stable dotted identifier, e.g. `v2.crawl.start.valid`. */
  readonly name: string;
  /** The lowest level among the expectations the check holds: it decides the verdict from that level on. */
  readonly level: Level;
  /** What a pass proves, in one sentence. */
  readonly proves: string;
  readonly cites: readonly Citation[];
  /** Whether the check starts jobs on a conformant target (`onlyNoJob` leaves these out). */
  readonly startsJob: boolean;
  /** Whether the check needs a token (skipped without one). */
  readonly needsAuth: boolean;
  /** A crawl-behaviour check: it needs the run's behaviour site (and `subdomain`: one with a subdomain). */
  readonly behaviour?: 'site' | 'subdomain';
  /** The check sends nothing that names the run's site: it is judged whatever the target makes of the site (preflight.ts). */
  readonly siteIndependent?: boolean;
  /** A webhook check (checks/webhooks.ts): it needs the run's webhook receiver (and `signature`: the secret the target signs with). */
  readonly webhook?: 'events' | 'signature';
  /**
   * The check draws what it sends from the seed (`--seed`, `--runs`: engine/property.ts): a case it did not meet in
   * one run may just not have been drawn, so not meeting it again is no sign that it is gone.
   */
  readonly drawn?: true;
}
