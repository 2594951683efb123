/**
 * What both stages of `npm run load` share: the token the servers are started with, the figures and checks a
 * stage reports, small helpers, autocannon as the stages drive it, and the text report.
 */
import autocannon from 'autocannon';
import { validate, type SchemaName } from '../../schemas/validate.js';

export const TOKEN = 'load-token';
export const CONNECTIONS = 32;

/** Fresh header objects each time: autocannon writes `Content-Length` into the headers it is given. */
export const authHeaders = (): Record<string, string> => ({ authorization: `Bearer ${TOKEN}` });
export const jsonHeaders = (): Record<string, string> => ({ ...authHeaders(), 'content-type': 'application/json' });

export interface Figures {
  readonly requests: number;
  readonly perSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly statuses: Record<string, number>;
  readonly errors: number;
  readonly timeouts: number;
}

export interface Check {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

export interface ScenarioReport {
  readonly name: string;
  readonly figures: Figures | undefined;
  readonly notes: Record<string, number | string>;
  readonly checks: Check[];
}

/** One check fed one observation at a time; it passes when there was at least one and none was wrong. */
export class Expectation {
  #seen = 0;
  #wrong = 0;
  readonly #examples: string[] = [];

  constructor(readonly name: string) {}

  observe(ok: boolean, what: () => string): void {
    this.#seen += 1;
    if (ok) return;
    this.#wrong += 1;
    if (this.#examples.length < 3) this.#examples.push(what());
  }

  check(): Check {
    const pass = this.#seen > 0 && this.#wrong === 0;
    const detail = pass ? `${this.#seen} of ${this.#seen}` : `${this.#wrong} of ${this.#seen} wrong; ${this.#examples.join(' | ')}`;
    return { name: this.name, pass, detail };
  }
}

export const check = (name: string, pass: boolean, detail: string): Check => ({ name, pass, detail });
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const parsed = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
export const valid = (name: SchemaName, value: unknown): boolean => value !== undefined && validate(name, value).valid;
export const short = (text: string): string => (text.length > 160 ? `${text.slice(0, 160)}…` : text);

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs autocannon with `requests` for `duration` s; statuses are counted as answers arrive. */
export function cannon(url: string, duration: number, requests: autocannon.Request[]): Promise<Figures> {
  const statuses: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration, timeout: 10, requests }, (error, result) => {
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      resolve({
        requests: result.requests.total,
        perSecond: Math.round(result.requests.average),
        latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        statuses,
        errors: result.errors,
        timeouts: result.timeouts,
      });
    });
    instance.on('response', (_client, status) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}

/** Figures of requests made with fetch: `latencies` in ms, over `elapsedMs`. */
export function fetchFigures(latencies: number[], statuses: Record<string, number>, elapsedMs: number, errors: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: Math.round(latencies.length / (elapsedMs / 1000)),
    latencyMs: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? 0) },
    statuses,
    errors,
    timeouts: 0,
  };
}

export const noErrors = (figures: Figures): Check =>
  check(
    'no connection errors or timeouts',
    figures.errors === 0 && figures.timeouts === 0,
    `${figures.errors} errors, ${figures.timeouts} timeouts`,
  );

export function printText(header: Record<string, string | number>, scenarios: readonly ScenarioReport[]): void {
  console.log(
    Object.entries(header)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  );
  for (const scenario of scenarios) {
    console.log(`\n== ${scenario.name}`);
    const f = scenario.figures;
    if (f !== undefined) {
      const non2xx = Object.entries(f.statuses).filter(([status]) => !status.startsWith('2'));
      console.log(
        `   ${f.requests} requests, ${f.perSecond} req/s, latency p50 ${f.latencyMs.p50} ms, p99 ${f.latencyMs.p99} ms, max ${f.latencyMs.max} ms`,
      );
      console.log(
        `   non-2xx: ${non2xx.length === 0 ? 'none' : non2xx.map(([s, n]) => `${s} × ${n}`).join(', ')}; errors ${f.errors}, timeouts ${f.timeouts}`,
      );
    }
    for (const [name, value] of Object.entries(scenario.notes)) console.log(`   ${name}: ${value}`);
    for (const c of scenario.checks) console.log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name} (${c.detail})`);
  }
}
