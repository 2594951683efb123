/**
 * Rules JSON Schema cannot say (they compare fields, add numbers up, parse text), written as code next to
 * the definitions and applied by `validate()` and the CLI after the schema check. A rule looks at one
 * object of the body and reports problems at paths relative to it; it skips fields of the wrong type,
 * which the schema check reports already.
 */
import type { ServiceDate, Source } from '../annotations.js';

export type Segments = readonly (string | number)[];

export interface RuleProblem {
  /** Where, relative to the object the rule looks at. */
  readonly at: Segments;
  /** What is wrong, in the service's words. */
  readonly message: string;
  /** Where this problem's rule comes from, when it is not the rule's own source (one clause of a rule may be the interface's). */
  readonly source?: Source;
}

export interface CodeRule {
  /** Stable identifier, e.g. `waitForWithinTimeout` (reported as the issue's `rule`). */
  readonly id: string;
  /** What the rule requires, in words: the issue's `expected`, and part of the documents' descriptions. */
  readonly description: string;
  /** Where the rule comes from: the interface section that states it, or `service`. */
  readonly source: Source;
  /** For a rule of the service: when the service began applying it as written (service-facts §13). */
  readonly since?: ServiceDate;
  /** The fields whose descriptions in the documents tell of the rule. */
  readonly fields: readonly string[];
  /**
   * The fields without which the rule always keeps: when the object holds none of them, `keeps` is true. The
   * generated composition (generated/fast/keepers.js) then does not ask it. Absent for a rule that may not keep
   * whatever fields are missing.
   */
  readonly triggers?: readonly string[];
  /** The problems found: `NO_PROBLEMS` (shared, nothing allocated) when there are none. */
  readonly check: (object: Readonly<Record<string, unknown>>) => readonly RuleProblem[];
  /**
   * The common case, cheaply: true only when `check` finds no problem, decided without allocating anything;
   * false when `check` may find one (it then decides). `validate()` asks it of every body the fast path
   * accepts, so a body that keeps every rule builds nothing at all.
   *
   * It may read fields as plain property reads (`object.url`), without asking whether they are the object's own,
   * where a value inherited from a prototype can only make it stricter: `check` ignores such a value, so it finds
   * nothing that `keeps` could miss. A field whose absence means a default (v1 `maxDepth`, `ignoreInvalidURLs`)
   * is different: an inherited value there would stand in for the default, so a value the plain read finds is
   * tested as the object's own before it is trusted (or is trusted only where the default would keep too).
   */
  readonly keeps: (object: Readonly<Record<string, unknown>>) => boolean;
  /**
   * The fields `keepsWith` is given, in this order. The composition (generated/fast/keepers.js) reads them in its
   * one walk over the object's keys (`for...in`) and hands them over, so that the rule reads no field by name: a
   * read by name of a field that many shapes of object lack is a lookup in the engine's one shared cache of
   * property lookups, which a stream of bodies of many shapes overflows (eight such reads on each body of the
   * bench's mixed stream cost 0.2× its parse; the same fields read in a walk over the keys, 0.03×).
   */
  readonly reads?: readonly string[];
  /**
   * `keeps`, given the fields of `reads` as the walk read them (undefined for a field the object does not have),
   * with the same answer as `keeps` on data: a field the walk reads is one a plain read finds, own or inherited.
   * `keeps(object)` is `keepsWith(object, object.<read>...)`.
   */
  readonly keepsWith?: (object: Readonly<Record<string, unknown>>, ...fields: unknown[]) => boolean;
}

/** What a rule answers for an object that keeps it (one frozen array: a body that keeps every rule allocates nothing). */
export const NO_PROBLEMS: readonly RuleProblem[] = Object.freeze([]);

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An own property of a parsed body (never one inherited from Object.prototype). Enumerable or not, as the Ajv
 * validators read a body: `check` runs where they decide (a body the fast path refused), and beside them it must see
 * what they see. Where the fast path decides, a property that is not enumerable is not looked at, by the schema's walks or
 * by the composed cheap answers, which walk an object's keys with `for...in` (a small open object, which the fast
 * path reads by name, aside: docs/hardening.md).
 */
export const field = (object: Readonly<Record<string, unknown>>, key: string): unknown =>
  Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;

/** Arrays up to this long are read index by index whatever they hold; a longer one only when it has no holes. */
export const LONG_ARRAY = 65_536;

/**
 * `value` as an array a rule may read index by index, or undefined. JSON never makes an array with holes, but a
 * caller of the JavaScript API may (`a.length = 2 ** 32 - 1`), and reading every index of that takes minutes: a
 * long array is read only when it holds as many elements as its length says (counting them costs what reading
 * them would). The schema refuses a hole anyway (a hole is no value of any type).
 */
export function denseArray(value: unknown): readonly unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.length <= LONG_ARRAY || Object.keys(value).length === value.length ? value : undefined;
}
