/**
 * What a check expects of an exchange, at each level (expect.ts holds an answer against it): the interface's
 * requirement, when it says anything, and the service's answer. Types only, imported by the modules that build
 * expectations without holding answers (the wire's recording, the baselines, the checks), so that none of them
 * depends on the engine through expect.ts.
 */

export interface InterfaceExpectation {
  /** `accepted`: 200 and a valid start answer; `refused`: a 4xx answer (and so no job). */
  readonly outcome: 'accepted' | 'refused';
  /** Why, in words (what the request is, per the interface). */
  readonly why: string;
  /** The section that says so, e.g. `interface §2.4`. */
  readonly section: string;
  /** A refusal of the credentials (interface §5): a 403 refuses them as well as a 401 does. */
  readonly credentials?: boolean;
}

export interface ServiceExpectation {
  /** The statuses that pass. */
  readonly status: number | readonly number[];
  /** What the service answers, in words; by default the statuses and their bodies' definitions. */
  readonly expected?: string;
}

export interface Expectation {
  /** The interface's requirement; absent where the interface says nothing of this exchange (§4 rule 3). */
  readonly interface?: InterfaceExpectation;
  readonly service: ServiceExpectation;
  /**
   * Nothing else the check judges rests on this answer, so an account-dependent answer to it leaves only
   * its own (service) claim undecided. Otherwise what the check proves is left undecided, at its level.
   */
  readonly standsAlone?: boolean;
}
