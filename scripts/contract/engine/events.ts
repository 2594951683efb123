/**
 * What a run tells as it goes: the run's events, and the listeners that consume them. The engine knows no output
 * format; every output (the progress lines, the text summary, the JSON, JUnit, HTML and Markdown reports, the HAR
 * recording) is a listener in reporters/, given to the run by whoever starts it (the command, a test, a program
 * importing `crawlspec/contract`). Adding an output is writing one listener; no file of the engine changes.
 *
 * The events, in the order a run tells them:
 *
 *   - `runStarted`: the options resolved (target, level, versions, the site), before anything is sent (awaited: a
 *     listener that cannot start, such as a recording whose file cannot be opened, stops the run there);
 *   - `diagnoses`: the sites the target cannot use (preflight.ts), whose checks will not run;
 *   - per check, `checkStarted`, then an `exchange` for every request it sent and a `judged` for every answer it
 *     held against an expectation and found failing, then `checkEnded` with its verdict;
 *   - an `exchange` outside any check (`check` null): the run's own requests (the preflight, the cancels at its end);
 *   - `causeFound` for each fault of the target behind the verdict (report/causes.ts), once every check has ended;
 *   - `runEnded` with the report, or with nothing when the run failed (its error is the one thrown).
 *
 * Everything told is cleaned of the token and the `--header` values (wire/redact.ts) but the exchanges, which are
 * told as they went over the wire: a listener writing one out cleans it itself (reporters/recording.ts does).
 *
 * Several checks run at once, so the events of different checks interleave; those of one check come in order.
 * Listeners are called in the order they were given. `runEnded` is awaited, listener by listener: each runs even
 * when one before it threw, and the first error is thrown once all have run (a report file that cannot be
 * written loses no other output).
 */
import type { Cause, CheckResult, ContractReport, Diagnosis, Failure } from '../report/report.js';
import type { Expectation } from '../spec/expectation.js';
import type { Exchange, ExchangeRecord } from '../wire/http.js';
import { redact, type Redaction } from '../wire/redact.js';
import type { ResolvedOptions } from './options.js';

/** How far the run is: the `done`-th of the `total` checks the run selected (`--only` leaves the others out of both). */
export interface Progress {
  readonly done: number;
  readonly total: number;
}

/** A consumer of a run's events; every method is optional. */
export interface RunListener {
  /** The run's options resolved, before anything is sent; awaited (a listener that cannot start stops the run). */
  runStarted?(options: ResolvedOptions): void | Promise<void>;
  /** Before any check runs: the sites the target cannot use (preflight.ts), whose checks will not run. */
  diagnoses?(diagnoses: readonly Omit<Diagnosis, 'checks'>[]): void;
  /** A check is about to run (a check the run leaves out is told only as it ends). */
  checkStarted?(check: string): void;
  /** A request went out and was answered or not (`record.response` undefined): by `check`, or by the run itself (null). */
  exchange?(record: ExchangeRecord, check: string | null): void;
  /** `check` held the answer of `exchange` against `expectation` and found `failures`. */
  judged?(exchange: Exchange, expectation: Expectation, failures: readonly Failure[], check: string): void;
  /** A check has ended, with its verdict; `progress` is absent for a check `--only` left out. */
  checkEnded?(result: CheckResult, progress: Progress | undefined): void;
  /** A fault of the target behind the verdict, and the checks it shows in. */
  causeFound?(cause: Cause): void;
  /** The run has ended with `report`, or failed (`undefined`; its error is the one the run throws). */
  runEnded?(report: ContractReport | undefined): void | Promise<void>;
}

/** The run's side of its listeners: each event told to every listener, in order, cleaned of `redaction`'s secrets. */
export class RunEvents {
  private readonly listeners: readonly RunListener[];

  constructor(
    listeners: RunListener | readonly RunListener[],
    private readonly redaction: Redaction,
  ) {
    this.listeners = Array.isArray(listeners) ? listeners : [listeners as RunListener];
  }

  private clean<T>(value: T): T {
    return redact(value, this.redaction);
  }

  async runStarted(options: ResolvedOptions): Promise<void> {
    for (const l of this.listeners) await l.runStarted?.(options);
  }

  diagnoses(diagnoses: readonly Omit<Diagnosis, 'checks'>[]): void {
    const cleaned = this.clean(diagnoses);
    for (const l of this.listeners) l.diagnoses?.(cleaned);
  }

  checkStarted(check: string): void {
    for (const l of this.listeners) l.checkStarted?.(check);
  }

  exchange(record: ExchangeRecord, check: string | null): void {
    for (const l of this.listeners) l.exchange?.(record, check);
  }

  judged(exchange: Exchange, expectation: Expectation, failures: readonly Failure[], check: string): void {
    if (!this.listeners.some((l) => l.judged !== undefined)) return;
    const cleaned = this.clean(failures);
    for (const l of this.listeners) l.judged?.(exchange, expectation, cleaned, check);
  }

  checkEnded(result: CheckResult, progress: Progress | undefined): void {
    const cleaned = this.clean(result);
    for (const l of this.listeners) l.checkEnded?.(cleaned, progress);
  }

  causeFound(cause: Cause): void {
    const cleaned = this.clean(cause);
    for (const l of this.listeners) l.causeFound?.(cleaned);
  }

  /** Tells every listener, each awaited in turn; throws the first error once all have run. */
  async runEnded(report: ContractReport | undefined): Promise<void> {
    const errors: unknown[] = [];
    const cleaned = this.clean(report);
    for (const l of this.listeners) {
      try {
        await l.runEnded?.(cleaned);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}
