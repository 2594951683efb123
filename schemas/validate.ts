/**
 * Validating a body against a named definition, with the precompiled validators in `generated/validators/`.
 *
 *   validate('v2/CrawlRequest', body) → { valid: true } | { valid: false, errors: ValidationIssue[] }
 *
 * A valid result also carries the body as `value`, typed as the definition (the generated type, generated/types/):
 * `if (result.valid) result.value.url` narrows as the precompiled validators do. `value` is read through the
 * result's prototype, so the result still prints, compares (`toEqual({ valid: true })`) and serialises as
 * `{ valid: true }`, as it did before it carried the value.
 *
 * Never throws for any input value; an unknown schema name is a programming error and throws a RangeError.
 * A value that cannot be checked (reading it runs a getter or a Proxy trap that throws; or a check meets an
 * engine limit, such as a `format: uri` string of 8 Mi characters overflowing the regular expression's
 * stack) is invalid, with one issue at `$` that says why. How often and in which order a field is read is not part of
 * the contract (docs/hardening.md): a getter or Proxy that answers differently from one read to the next, or throws
 * on some reads only, may be decided differently by another release; plain data reads the same however often.
 *
 * The schema is decided first by the fast path (`generated/fast/<version>.js`), which answers yes or no and
 * builds nothing on the way; a body it accepts only has the rules written as code left to keep. Only a body it
 * refuses goes to the validators below, for the reasons (and so does one it cannot read: they say what throws).
 * A browser bundle has no fast path and no Ajv validators (generated/load/): every body goes that way, to
 * validators built from the definitions as data (reasons.ts), which decide and say why as the Ajv ones do.
 *
 * The work is bounded by the body's size, whatever it holds (the sender chooses how many problems it has):
 *   - the schema is checked by validators that stop at the first problem (`<version>.js`);
 *   - only a body of at most REPORT_LIMIT values that breaks the schema is checked again, by the validators
 *     that gather every problem (`<version>.all-errors.js`); a bigger one gets its first problem and an
 *     issue (`firstProblemOnly`) saying that the others were not looked for;
 *   - at most MAX_ISSUES issues are listed, then one (`moreProblems`) that says how many more there are.
 * Ajv advises against gathering every error of untrusted input for this reason: their number is unbounded.
 */
import type * as v1 from '#generated/validators/v1.js';
import type * as v2 from '#generated/validators/v2.js';
import type { Validator } from '#generated/validators/v1.js';
import { fastPath, reasonData, validators as loadValidators } from '#generated/load/validators.js';
import { captured, ruleKeepers } from '#generated/fast/keepers.js';
import { CODE_RULES, type PlacedRule } from './codeRules/index.js';
import { keysTo, rootPlace, type Place } from './place.js';
import { field, isRecord, LONG_ARRAY, NO_PROBLEMS } from './codeRules/codeRule.js';
import { formatIssue, jsonPath, toIssues, type DefinitionLookup, type ValidationIssue } from './issues.js';
import { reasonValidators } from './reasons.js';
import { VERSIONS, type Version } from './versions.js';

export type { ValidationIssue };
export { formatIssue };

/** Without a fast path (a browser bundle: see generated/load/), every body takes the way that finds reasons. */
const undecided = () => false;

/** At most this many issues are listed; one more issue then says how many were left out. */
export const MAX_ISSUES = 100;
/**
 * A body that breaks the schema is checked for every problem only when it holds at most this many values
 * (objects, arrays, strings, numbers, booleans and nulls, at any depth); gathering them in a bigger body would
 * cost time and memory in proportion to problems its sender chose.
 */
export const REPORT_LIMIT = 500;

/** `v1/CrawlRequest`, `v2/ScrapeOptions`, ...: every named definition of both versions. */
export type SchemaName = { [V in Version]: `${V}/${keyof { v1: typeof v1; v2: typeof v2 }[V] & string}` }[Version];

/** The type of the data `name` describes (`SchemaType<'v2/CrawlRequest'>` is the generated v2 `CrawlRequest`). */
export type SchemaType<N extends SchemaName> = N extends `v1/${infer D extends keyof typeof v1}`
  ? ValidatedBy<(typeof v1)[D]>
  : N extends `v2/${infer D extends keyof typeof v2}`
    ? ValidatedBy<(typeof v2)[D]>
    : never;
type ValidatedBy<V> = V extends Validator<infer T> ? T : never;

/** `T` the type of a valid value; `ValidationResult` alone (`unknown`) is what any result is assignable to. */
export type ValidationResult<T = unknown> = { readonly valid: true; readonly value: T } | Invalid;

type Invalid = { readonly valid: false; readonly errors: ValidationIssue[] };

/** A valid result: `valid` is its own (and only enumerable) field, `value` a getter of its class (see the module comment). */
class Valid<T> {
  readonly valid = true as const;
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  get value(): T {
    return this.#value;
  }
}

/** Every schema name, sorted. */
export function schemaNames(): SchemaName[] {
  return ([...ENTRIES.keys()] as SchemaName[]).sort();
}

export function isSchemaName(name: string): name is SchemaName {
  return ENTRIES.has(name);
}

/** The precompiled validator of `name` (it stops at the first problem). */
export function validatorFor(name: SchemaName): Validator<unknown> {
  return validatorsOf(entryOf(name)).check;
}

interface Entry {
  readonly version: Version;
  readonly definition: string;
  /** The fast path: whether the schema holds, nothing more. */
  readonly decide: (data: unknown) => boolean;
  readonly rules: readonly PlacedRule[];
  /**
   * Cheaply (no allocation), the index of the first rule whose `keeps` says no, or -1 when the body keeps every
   * rule (checking them would then find nothing). Asked only right after `decide` said yes of the same data: for
   * a request definition it reads the fields at the top of the body that `decide` kept as it walked them
   * (generated/fast/keepers.js, `captured`; a getter of the body that validates another body of the same kind while
   * it is read leaves what the outer walk kept incomplete, which is not plain data: docs/hardening.md).
   */
  readonly keeps: (data: unknown) => number;
}

/** The rules of each definition composed by the generator (generated/fast/keepers.js): each place read once. */
const KEEPERS = ruleKeepers(CODE_RULES, isRecord);

/**
 * The composition of `name` asked right after its fast path said yes: a request definition's reads the fields at
 * the top of the body that the fast path kept as it walked them (`captured`), not by a second walk over its keys.
 */
function keepsAfterFastPath(name: string): ((data: unknown) => number) | undefined {
  const keeps = KEEPERS[name];
  const kept = captured[name];
  return keeps === undefined || kept === undefined ? keeps : (data) => keeps(data, kept);
}
const keepsAll = () => -1;

/** The Ajv validators of a definition, which say why a body breaks the schema. */
interface Validators {
  /** Stops at the first problem. */
  readonly check: Validator<unknown>;
  /** Gathers every problem. */
  readonly report: Validator<unknown>;
  /** The validators of the same version that gather every problem, by definition name (for the branches of a union). */
  readonly lookup: DefinitionLookup;
  /** The same, stopping at the first problem (for a body too big to look for every problem in). */
  readonly firstLookup: DefinitionLookup;
}

/**
 * Everything `validate` needs per name, looked up once (validation sits on servers' hot path). The names are the
 * fast path's; the validators are not loaded here (see `validatorsOf`).
 */
const ENTRIES: ReadonlyMap<string, Entry> = new Map(
  VERSIONS.flatMap((version) => {
    const decisions = fastPath(version);
    const names = Object.keys(decisions ?? reasonData(version)!.definitions);
    return names.map((definition) => {
      const name = `${version}/${definition}` as SchemaName;
      const rules = CODE_RULES[name] ?? [];
      const keeps = (decisions === undefined ? KEEPERS[name] : keepsAfterFastPath(name)) ?? keepsAll;
      return [name, { version, definition, decide: decisions?.[definition] ?? undecided, rules, keeps }];
    });
  }),
);

function entryOf(name: SchemaName): Entry {
  const entry = ENTRIES.get(name);
  if (entry === undefined) throw new RangeError(`unknown schema "${String(name)}"; see schemaNames() for the list`);
  return entry;
}

/**
 * A version's validators of both kinds, by definition name, loaded on first use: only a body the fast path
 * refuses needs them. Where Node can `require()` an ES module, the loader (generated/load/validators*.js,
 * picked by package.json's `imports`) loads them then, synchronously; elsewhere they were imported with this module.
 */
const loaded = new Map<
  Version,
  { readonly first: ByName; readonly all: ByName; readonly lookup: DefinitionLookup; readonly firstLookup: DefinitionLookup }
>();

/** A plain copy of a module's exports (a module namespace object is slower to query). */
type ByName = ReadonlyMap<string, Validator<unknown>>;

function validatorsOf({ version, definition }: Entry): Validators {
  let modules = loaded.get(version);
  if (modules === undefined) {
    const first: ByName = new Map(Object.entries(shipped(version, 'first')));
    const all: ByName = new Map(Object.entries(shipped(version, 'all')));
    modules = { first, all, lookup: (name) => all.get(name), firstLookup: (name) => first.get(name) };
    loaded.set(version, modules);
  }
  return {
    check: modules.first.get(definition)!,
    report: modules.all.get(definition)!,
    lookup: modules.lookup,
    firstLookup: modules.firstLookup,
  };
}

/**
 * A version's validators of one kind: the Ajv module, or where it is not shipped (a browser bundle: see
 * generated/load/), validators built from the definitions as data (reasons.ts), which report the same errors.
 */
function shipped(version: Version, errors: 'first' | 'all'): Readonly<Record<string, Validator<unknown>>> {
  const compiled = loadValidators(version, errors);
  if (compiled !== undefined) return compiled;
  const data = reasonData(version)!;
  return reasonValidators(data.definitions, data.formats as Parameters<typeof reasonValidators>[1], errors) as Readonly<
    Record<string, Validator<unknown>>
  >;
}

/** Issues listed, and how many more were found but not listed. */
interface Listed {
  readonly issues: readonly ValidationIssue[];
  readonly omitted: number;
}

const NOTHING: Listed = Object.freeze({ issues: Object.freeze([]), omitted: 0 });

/**
 * The problems the code rules find in `data` (see codeRules/): at most `room` issues, and a count of the rest.
 * With `notKept` (only for data the fast path accepted): the index of the first rule whose `keeps` said no; the
 * rules before it kept, and of those after it, one whose `keeps` says yes is not checked.
 */
function ruleIssues(rules: readonly PlacedRule[], data: unknown, room: number, notKept?: number): Listed {
  let issues: ValidationIssue[] | undefined;
  let omitted = 0;
  for (let r = notKept ?? 0; r < rules.length; r++) {
    const { at, rule } = rules[r]!;
    let object: unknown = data;
    for (let k = 0; k < at.length; k++) object = isRecord(object) ? field(object, String(at[k])) : undefined;
    if (!isRecord(object)) continue;
    // On data the fast path accepted, a rule whose cheap answer is yes finds nothing: its check is not run.
    if (notKept !== undefined && r > notKept && rule.keeps(object)) continue;
    const problems = rule.check(object);
    if (problems === NO_PROBLEMS) continue;
    for (const problem of problems) {
      if ((issues?.length ?? 0) >= room) {
        omitted += 1;
        continue;
      }
      const segments = [...at, ...problem.at];
      const source = problem.source ?? rule.source;
      (issues ??= []).push({
        path: jsonPath(segments),
        segments,
        rule: rule.id,
        message: problem.message,
        expected: `${rule.description} [${source}]`,
        source,
      });
    }
  }
  return issues === undefined && omitted === 0 ? NOTHING : { issues: issues ?? [], omitted };
}

/**
 * The keys of a plain object or an array (an array's are its indexes, not listed: its length says how many),
 * read without running a getter; undefined for anything else, and for a Proxy whose traps throw.
 */
function keysOf(value: object): readonly string[] | number | undefined {
  try {
    if (Array.isArray(value)) return value.length;
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null ? Object.keys(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `data` holds at most `limit` values, itself included: the members of plain objects and arrays,
 * each object once (so a cycle is finite). Anything else (a Proxy, a class instance) counts as one value and
 * is not looked into, and members are read as data (no getter runs). Without recursion; a container's size
 * is added before its members are read, so the work stops soon past the limit, however big the container.
 */
function holdsAtMost(data: unknown, limit: number): boolean {
  let count = 1;
  const seen = new Set<object>();
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const keys = keysOf(value);
    if (keys === undefined) continue;
    count += typeof keys === 'number' ? keys : keys.length;
    if (count > limit) return false;
    const read = (key: string | number) => Object.getOwnPropertyDescriptor(value, key)?.value;
    if (typeof keys === 'number') for (let i = 0; i < keys; i++) stack.push(read(i));
    else for (const key of keys) stack.push(read(key));
  }
  return true;
}

/**
 * The place of an array in `data` that is longer than LONG_ARRAY and has holes (`a.length = 2 ** 32 - 1`), if
 * there is one. JSON never makes one; a caller of the JavaScript API may, and a validator reading it index by
 * index would take minutes. Walked like `holdsAtMost`; a long array's elements are counted (`Object.keys`),
 * never its holes.
 */
function longSparseArray(data: unknown): { path: string; length: number; elements: number } | undefined {
  const seen = new Set<object>();
  const stack: Place[] = [rootPlace(data)];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { value } = place;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const keys = keysOf(value);
    if (keys === undefined) continue;
    const read = (key: string | number) => Object.getOwnPropertyDescriptor(value, key)?.value;
    if (typeof keys === 'number') {
      if (keys > LONG_ARRAY) {
        const elements = Object.keys(value).length;
        if (elements !== keys) return { path: jsonPath(keysTo(place)), length: keys, elements };
      }
      for (let i = 0; i < keys; i++) stack.push({ value: read(i), parent: place, key: i });
    } else for (const key of keys) stack.push({ value: read(key), parent: place, key });
  }
  return undefined;
}

/** An issue about the body as a whole (at `$`). */
const bodyIssue = (rule: string, message: string, expected: string): ValidationIssue => ({
  path: '$',
  segments: [],
  rule,
  message,
  expected,
});

/** The schema's problems in `data`, which broke it: every one in a body of bounded size, else the first. */
function schemaIssues({ check, report, lookup, firstLookup }: Validators, data: unknown): ValidationIssue[] {
  if (holdsAtMost(data, REPORT_LIMIT)) {
    report(data);
    return toIssues(data, report.errors, lookup);
  }
  return [
    ...toIssues(data, check.errors, firstLookup),
    bodyIssue(
      'firstProblemOnly',
      `only the first problem is reported: the body holds more than ${REPORT_LIMIT} values, too many to look for every problem in`,
      `every problem is listed for a body of at most ${REPORT_LIMIT} values; fix the problem listed and validate again`,
    ),
  ];
}

/** The result listing the `schema` issues, then the `rules` ones, at most MAX_ISSUES, then a count of the others. */
function invalid(schema: readonly ValidationIssue[], rules: Listed): Invalid {
  const listed = schema.slice(0, MAX_ISSUES);
  const omitted = schema.length - listed.length + rules.omitted;
  const more = bodyIssue(
    'moreProblems',
    `${omitted} more ${omitted === 1 ? 'problem was' : 'problems were'} found and not listed (at most ${MAX_ISSUES} are listed)`,
    'fix the problems listed and validate again to see the others',
  );
  return { valid: false, errors: [...listed, ...rules.issues, ...(omitted > 0 ? [more] : [])] };
}

/** What was thrown, in words; the thrown value is not trusted (it may itself be a Proxy that throws). */
function thrownMessage(thrown: unknown): string {
  try {
    return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch {
    return 'a value that cannot be printed';
  }
}

/** The one issue of a value that could not be checked. */
const uncheckable = (thrown: unknown): ValidationIssue =>
  bodyIssue(
    'readable',
    `could not be checked: reading or checking it threw ${thrownMessage(thrown)}`,
    'plain JSON data: values that can be read without running code that throws, of a size the checks can handle',
  );

/**
 * The fast path's answer; false when reading `data` throws, so that the validators, which read it in their own
 * order, say what throws (and an answer never depends on which of two throwing reads comes first).
 */
function decided(entry: Entry, data: unknown): boolean {
  try {
    return entry.decide(data);
  } catch {
    return false;
  }
}

/** Checks `data` against the definition `name`: its schema, then the rules written as code. */
export function validate<N extends SchemaName>(name: N, data: unknown): ValidationResult<SchemaType<N>> {
  const entry = entryOf(name);
  // One try around everything that reads `data` (no cost, and nothing allocated, while nothing throws).
  try {
    if (decided(entry, data)) {
      // The common case: every rule kept, decided building nothing but the result.
      const first = entry.keeps(data);
      if (first < 0) return new Valid(data as SchemaType<N>);
      // Some rule's cheap answer is no: the rules are checked from it on, each only if its cheap answer is not yes.
      const rules = ruleIssues(entry.rules, data, MAX_ISSUES, first);
      return rules === NOTHING ? new Valid(data as SchemaType<N>) : invalid([], rules);
    }
    // Refused by the fast path: before the validators read it index by index, no array with holes.
    const sparse = longSparseArray(data);
    if (sparse !== undefined)
      return {
        valid: false,
        errors: [
          bodyIssue(
            'readable',
            `could not be checked: the array at ${sparse.path} has holes (length ${sparse.length}, ${sparse.elements} element${sparse.elements === 1 ? '' : 's'}), which JSON data never has`,
            'plain JSON data: arrays without holes',
          ),
        ],
      };
    const validators = validatorsOf(entry);
    if (validators.check(data)) {
      const rules = ruleIssues(entry.rules, data, MAX_ISSUES);
      return rules === NOTHING ? new Valid(data as SchemaType<N>) : invalid([], rules);
    }
    const schema = schemaIssues(validators, data);
    return invalid(schema, ruleIssues(entry.rules, data, MAX_ISSUES - Math.min(schema.length, MAX_ISSUES)));
  } catch (thrown) {
    return { valid: false, errors: [uncheckable(thrown)] };
  }
}
