/**
 * Levels of truth. Every expectation the kit holds an answer to comes from one of two places:
 *
 *   - `interface`: the interface document states it (a field, its type, an enum value, a bound, a rule of §4,
 *     the header of §5). Cited by its section, e.g. `interface §2.4`.
 *   - `service`: the interface is silent ("not shown") and the public service's documented behaviour fills
 *     the gap: status codes and the error envelope, strictness about unknown keys, its extra limits, its
 *     extension fields and values, the job endpoints. Cited as `service`.
 *
 * A run is made at one level (`--level`, default `interface`). Failures at that level or below decide the
 * verdict; failures above it are reported apart, as differences from the service, and decide nothing. An
 * implementation that follows the interface to the letter is conformant at `interface` level whatever the
 * 2026 service does.
 *
 * One more source stands beside them: a 5xx answer is a failure of the implementation whatever the request
 * (RFC 9110 §15.6), so it is a failure at `interface` level, cited as HTTP.
 */
export const LEVELS = ['interface', 'service'] as const;
export type Level = (typeof LEVELS)[number];

/** What a 5xx answer is held to. */
export const SERVER_ERROR_CITATION = 'HTTP (RFC 9110 §15.6: a 5xx says the server failed)';

/** The level of a source: `interface §…` is `interface`; everything else (`service`) is `service`. */
export function levelOf(source: string): Level {
  return source.startsWith('interface') || source === SERVER_ERROR_CITATION ? 'interface' : 'service';
}

/** Whether an expectation of `level` decides the verdict of a run at `runLevel`. */
export function decides(level: Level, runLevel: Level): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(runLevel);
}

/** The lower of two levels (a check holding both kinds of expectation is in scope from the lower one). */
export const lowest = (a: Level, b: Level): Level => (LEVELS.indexOf(a) <= LEVELS.indexOf(b) ? a : b);
