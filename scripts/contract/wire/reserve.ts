/**
 * What a run may send beyond the checks' shares of its budget (budget.ts, run.ts): a request sent once more
 * after its connection was lost, the look for the job a lost start may have started and its cancel
 * (transport.ts), and the re-runs of a failing crawl-behaviour check (`confirm`, confirm.ts). None of these can
 * be planned: they depend on what happens. Without `maxRequests` (the budget is what the checks need), the
 * reserve gives what they take, and the report's budget counts it; under `maxRequests` it is what the shares
 * leave over of the cap (each is rounded down), so the cap holds, and what finds the reserve empty says so.
 */
import { RequestBudget } from './budget.js';

export class Reserve {
  /** Units handed out (whether spent or not). */
  given = 0;

  constructor(private left: number) {}

  /** A budget of `units` from the reserve, or undefined when it has fewer left. */
  take(units: number): RequestBudget | undefined {
    if (units > this.left) return undefined;
    this.left -= units;
    this.given += units;
    return new RequestBudget(units);
  }
}
