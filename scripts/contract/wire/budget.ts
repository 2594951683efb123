/**
 * The cap on one check's requests: its share of the run's `maxRequests` (run.ts gives each check a share in
 * proportion to what it needs, so no check can starve another). Every request takes one unit; a request
 * that may start a job takes a second one and holds it for that job's cancel, so a started job can always
 * be cancelled without going over the cap. Once a request is refused, no other is allowed (the check stops
 * there), except the cancels already reserved.
 */
export class BudgetExhausted extends Error {
  constructor(max: number) {
    super(`its share of the request budget (${max} requests) was used up`);
    this.name = 'BudgetExhausted';
  }
}

/** One unit held for a future request (a job's cancel). */
export interface Reservation {
  spent: boolean;
}

export class RequestBudget {
  private used = 0;
  private reserved = 0;
  /** Set once a request was refused: from then on only reserved requests go out. */
  exhausted = false;

  constructor(readonly max: number) {}

  get spent(): number {
    return this.used;
  }

  private refuse(): never {
    this.exhausted = true;
    throw new BudgetExhausted(this.max);
  }

  /** One request now. */
  take(): void {
    if (this.exhausted || this.used + this.reserved + 1 > this.max) this.refuse();
    this.used += 1;
  }

  /** One request now, and one held for later (a cancel). */
  takeAndReserve(): Reservation {
    if (this.exhausted || this.used + this.reserved + 2 > this.max) this.refuse();
    this.used += 1;
    this.reserved += 1;
    return { spent: false };
  }

  /** Use a held unit (or, when it was used already, a new one). */
  spend(reservation: Reservation): void {
    if (reservation.spent) return this.take();
    reservation.spent = true;
    this.reserved -= 1;
    this.used += 1;
  }

  /** Give a held unit back (the request started no job). */
  release(reservation: Reservation): void {
    if (reservation.spent) return;
    reservation.spent = true;
    this.reserved -= 1;
  }
}
