/**
 * The validating proxy's exchanges, each from its request to its verdict: the problems found in it (reported as
 * they are found), or why its answer could not be checked; then one record of it (`onRecord`: the CLI's `--log`),
 * and the totals (exchanges, problems by level, unchecked). Everything an exchange reports is cleaned of its
 * request's token first (`redact`). An exchange still open when the proxy stops is named unchecked, so that the
 * totals add up.
 */
import type { Level } from '../contract/spec/levels.js';
import { redact, redactor } from '../contract/wire/redact.js';
import type { Violation } from './exchangeChecks.js';

/** One exchange, ended. */
export interface ExchangeRecord {
  /** When its request came, and how long until it ended, in milliseconds. */
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly method: string;
  /** The path asked for, without the query. */
  readonly path: string;
  /** The status the client got (the target's, or the proxy's own); absent when none was sent. */
  readonly status?: number;
  /** `problems`: it broke the spec (at any level); `unchecked`: nothing found, and something not judged (`why`); else `passed`. */
  readonly verdict: 'passed' | 'problems' | 'unchecked';
  readonly problems: readonly Violation[];
  /** Why its answer was not judged (whole or at all). */
  readonly why?: string;
  /** The proxy answered the request itself (`errors`), instead of forwarding it. */
  readonly refused: boolean;
  readonly requestBody?: string;
  /** The answer's body, when it was read for checking. */
  readonly answerBody?: string;
}

export interface Totals {
  readonly exchanges: number;
  readonly problems: Readonly<Record<Level, number>>;
  readonly unchecked: number;
}

export interface ExchangeEvents {
  /** Each problem as it is found; `refused`: the proxy answers the request itself. */
  readonly onViolation: (violation: Violation, refused: boolean) => void;
  readonly onRecord?: (record: ExchangeRecord) => void;
}

/** An exchange under way. */
export class OpenExchange {
  private readonly found: Violation[] = [];
  private refused = false;
  private requestBody: string | undefined;
  private ended = false;
  private readonly startedAt = new Date();

  constructor(
    private readonly owner: Exchanges,
    readonly method: string,
    readonly path: string,
    /** Cleans a text of the request's token. */
    readonly clean: (text: string) => string,
    private readonly secrets: readonly (string | undefined)[],
  ) {}

  request(body: string): void {
    this.requestBody = body;
  }

  /** Problems found; `refused`: the proxy answers the request itself. */
  report(found: readonly Violation[], refused = false): void {
    this.refused ||= refused;
    for (const v of found) {
      const clean = redact(v, { secrets: this.secrets });
      this.found.push(clean);
      this.owner.counted(clean, refused);
    }
  }

  /** The exchange has ended; `why`: what of its answer was not judged; `answerBody`: what was. */
  end(status: number | undefined, ending: { readonly why?: string; readonly answerBody?: string } = {}): void {
    if (this.ended) return;
    this.ended = true;
    const verdict = this.found.length > 0 ? 'problems' : ending.why === undefined ? 'passed' : 'unchecked';
    const clean = this.clean;
    this.owner.closed(this, {
      startedAt: this.startedAt,
      durationMs: Date.now() - this.startedAt.getTime(),
      method: this.method,
      path: clean(this.path),
      ...(status === undefined ? {} : { status }),
      verdict,
      problems: this.found,
      ...(ending.why === undefined ? {} : { why: clean(ending.why) }),
      refused: this.refused,
      ...(this.requestBody === undefined || this.requestBody === '' ? {} : { requestBody: clean(this.requestBody) }),
      ...(ending.answerBody === undefined ? {} : { answerBody: clean(ending.answerBody) }),
    });
  }
}

export class Exchanges {
  private readonly open = new Set<OpenExchange>();
  private exchanges = 0;
  private unchecked = 0;
  private readonly problems: Record<Level, number> = { interface: 0, service: 0 };

  constructor(private readonly events: ExchangeEvents) {}

  begin(method: string, path: string, token: string | undefined): OpenExchange {
    const exchange = new OpenExchange(this, method, path, redactor({ secrets: [token] }), [token]);
    this.exchanges += 1;
    this.open.add(exchange);
    return exchange;
  }

  /** @internal A problem of an exchange, cleaned. */
  counted(violation: Violation, refused: boolean): void {
    this.problems[violation.level] += 1;
    this.events.onViolation(violation, refused);
  }

  /** @internal An exchange's record. */
  closed(exchange: OpenExchange, record: ExchangeRecord): void {
    this.open.delete(exchange);
    if (record.verdict === 'unchecked') this.unchecked += 1;
    this.events.onRecord?.(record);
  }

  /** Ends every exchange still open (the proxy stops): each named unchecked. */
  endAll(): void {
    for (const exchange of [...this.open]) exchange.end(undefined, { why: 'the proxy stopped before the exchange ended' });
  }

  totals(): Totals {
    return { exchanges: this.exchanges, problems: { ...this.problems }, unchecked: this.unchecked };
  }
}
