/**
 * The JSON Schemas a request gives for structured extraction: v1 `jsonOptions.schema`, `extract.schema` and
 * `changeTrackingOptions.schema`; v2 the `schema` of a `json` or `changeTracking` format object.
 *
 *   - `jsonSchemaCompiles` (v1): the service compiles each with Ajv and refuses one that does not compile
 *     (`Invalid JSON schema.`). Its Ajv is the `ajv` package's default class, draft-07: a schema that names
 *     another dialect in `$schema` (2020-12) does not compile there either. Strict mode is off here: keywords
 *     and formats Ajv does not know are ignored, not refused (the service's Ajv, in its default strict mode,
 *     refuses them; docs/fidelity.md says why this package does not). The service's v2 formats are not
 *     compiled (its facts: not in the mid-2025 code, and the newer code adds only the rule below), so neither
 *     are they here.
 *   - `jsonSchemaNotFreeForm` (v1 and v2, the newer service): no object schema anywhere inside may allow any
 *     property (`"additionalProperties": true`) without naming some (`properties` or `patternProperties`): the
 *     language model that extracts the data cannot fill a free-form map. v2 leaves a schema holding `$ref` (and
 *     what is inside it) alone, as the service does; v1 does not.
 *
 * Bounded work. Ajv generates code for a schema and compiles it, 70 to 300 µs a property on the machine this was
 * measured on, a thousand times what parsing the schema's JSON costs; with its default options the code nests
 * one block per property, which makes compiling quadratic (2000 properties took 1.3 s) and overflows the stack
 * near 3500. So:
 *   - the schemas of a request are measured before they are compiled, and compiled in order only while together
 *     they hold at most MAX_SCHEMA_VALUES values to compile (a `$ref` counting what it points to),
 *     MAX_SCHEMA_CHARACTERS characters of keys and strings and MAX_SCHEMA_PATTERNS patterns and references
 *     (jsonSchemaSize.ts: this package's bounds, not the service's; each measure stops as soon as it is past a
 *     bound); a schema past them is refused unread. 500 values are some 165 properties with a type and a
 *     description, several times the largest extraction schemas clients send, and compile in tens of milliseconds;
 *   - compiling gathers every error, skips Ajv's code optimisation (the code is never run) and compiles what a
 *     `$ref` points to once, as a function of its own, instead of inlining it at every reference
 *     (`inlineRefs: false`), which keeps it linear; none of these changes which schemas compile
 *     (test/jsonSchemas.test.ts compares the verdicts with Ajv's defaults). A schema nested deeper than the
 *     compiler's stack allows (a few hundred levels, depending on the stack Node was given) is refused as not
 *     compiling, as the service's compiler refuses it;
 *   - verdicts on schemas seen before are kept, as pathPatterns.ts keeps pattern verdicts, so a client sending one
 *     schema with every request compiles it once; and the schemas that compiled last are recognised by their data
 *     (`compiledBefore`), so such a request is not even serialised. A kept verdict is the one compiling afresh
 *     gives: the compiler keeps nothing a schema registers (`compileProblem`).
 * Compiling never runs a `pattern` (Ajv builds the RegExp; nothing is matched), so a pattern that backtracks costs
 * nothing here. Kept out of the generated fast path: code rules run after it; their cheap answers (`keeps`) walk
 * a schema once without allocating.
 */
import type { Ajv } from 'ajv';
import { ajv as ajvPackage } from '#generated/load/dependencies.js';
import { denseArray, field, isRecord, NO_PROBLEMS, type CodeRule, type RuleProblem, type Segments } from './codeRule.js';
import { VerdictCache } from './verdictCache.js';
import { exactData, sameAs, type Known } from './knownData.js';
import { freeFormMessage, freeFormObject, noFreeForm } from './freeFormObjects.js';
import {
  MAX_SCHEMA_CHARACTERS,
  MAX_SCHEMA_PATTERNS,
  MAX_SCHEMA_VALUES,
  nothingSpent,
  schemaSize,
  spend,
  type SchemaSize,
  type Spent,
} from './jsonSchemaSize.js';

export const INVALID_JSON_SCHEMA = 'Invalid JSON schema.';
export { MAX_SCHEMA_CHARACTERS, MAX_SCHEMA_PATTERNS, MAX_SCHEMA_VALUES };

/**
 * One Ajv for every compile, as the service has, made on first use (the package is loaded then, through
 * `#generated/load/dependencies.js`, not with the main entry);
 * `addUsedSchema: false` keeps a schema's `$id` from being registered (a second request with the same `$id`
 * would otherwise fail), and what a compile leaves in the instance is taken out after it (`compileProblem`), so
 * that it holds nothing per request and no request's verdict depends on an earlier one.
 */
let ajv: Ajv | undefined;

/**
 * Verdicts (`null`: compiles) by the schema's JSON text, for schemas of at most CACHED_LENGTH characters; and by
 * the schema object itself, with the data it held (the verdict stands only while the object holds that data: a
 * caller of the JavaScript API may change it between two requests), so that the two rules looking at one body's
 * schema compile it once (held weakly: nothing is kept past the object).
 */
const CACHED_SCHEMAS = 256;
const verdicts = new VerdictCache<string | null>(CACHED_SCHEMAS);
const CACHED_LENGTH = 4096;
const byObject = new WeakMap<object, { readonly known: Known; readonly verdict: string | null; readonly size: SchemaSize }>();
/**
 * The schemas that compiled most recently, most recent first, each as a copy of its data (see `Known`): `keeps`
 * compares a body's schema with them value by value, without making its text. A client sends the same few schemas
 * again and again; past RECENT_SCHEMAS the oldest is forgotten (its next sender pays `check`, whose verdicts by
 * text are kept longer), and all are forgotten when the verdicts by text are.
 */
const recent: Recent[] = [];
const RECENT_SCHEMAS = 16;

/**
 * A schema that compiled recently: its data, its size (what it costs a request's bounds), and whether v1's walk
 * (into `$ref`s too) finds no free-form object in it.
 */
interface Recent {
  readonly known: Known;
  readonly size: SchemaSize;
  readonly noFreeForm: boolean;
}

/**
 * The schema `compiledBefore` last recognised, and whether its data holds no free-form object (`Recent.noFreeForm`):
 * v1's free-form rule, placed right after the compile rule wherever both apply (test/jsonSchemas.test.ts checks it),
 * takes this answer for the same schema object instead of walking it again. `compiledBefore` clears it before it
 * compares, and the compile rule's cheap answer (or its check) asks `compiledBefore` before the free-form rule is
 * asked, so the answer taken is one given for this object in this request.
 */
let recognised: object | undefined;
let recognisedNoFreeForm = false;

/** Why `schema` does not compile (draft-07, strict off), or undefined. */
function compileProblem(schema: Readonly<Record<string, unknown>>): string | undefined {
  const compiler = (ajv ??= new (ajvPackage().Ajv)({
    strict: false,
    logger: false,
    addUsedSchema: false,
    allErrors: true,
    inlineRefs: false,
    code: { optimize: false },
  }));
  // What the compile leaves in the instance: its entry in Ajv's cache of compiled schemas, and the references its
  // nested `$id`s add (Ajv registers them on the instance even with addUsedSchema off), which would let a later
  // schema's `$ref` resolve to this request's. Not `removeSchema(schema)`: it also deletes whatever is registered
  // under the schema's own `$id`, and a schema whose `$id` names draft-07's meta-schema would remove the
  // meta-schema, after which nothing compiles. (Ajv is pinned; `_cache` is its private Map by schema object.)
  const internals = compiler as unknown as { readonly _cache: Map<unknown, unknown>; readonly refs: Record<string, unknown> };
  const refsBefore = new Set(Object.keys(internals.refs));
  try {
    compiler.compile(schema);
    return undefined;
  } catch {
    return INVALID_JSON_SCHEMA;
  } finally {
    internals._cache.delete(schema);
    for (const ref of Object.keys(internals.refs)) if (!refsBefore.has(ref)) delete internals.refs[ref];
  }
}

/** The schema's JSON text, or undefined for a value JSON cannot carry (a bigint, from a caller of the JavaScript API). */
function textOf(schema: unknown): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

/**
 * Why `schema` is not compiled or does not compile, from a cache when it can be; `spent`: what the request's
 * schemas before it cost (this one's cost is added when it is compiled).
 */
function compiledVerdict(schema: Readonly<Record<string, unknown>>, spent: Spent): string | undefined {
  // The verdict on this very object, if it still holds the data it was given for (a caller of the JavaScript API may
  // change a schema between two requests).
  const seen = byObject.get(schema);
  const kept = seen !== undefined && sameAs(schema, seen.known, 0) ? seen : undefined;
  const size = kept?.size ?? schemaSize(schema);
  if (typeof size === 'string') return size;
  // Within the request's bounds, or not compiled, whatever any cache holds: a verdict never depends on one.
  const pastBounds = spend(spent, size);
  if (pastBounds !== undefined) return pastBounds;
  if (kept !== undefined) return kept.verdict ?? undefined;
  // A verdict is kept only for a schema that is exactly the data of its text: `1e400` parses to Infinity, which
  // JSON.stringify writes as null, and `"minimum": Infinity` compiles where `"minimum": null` does not.
  const text = textOf(schema);
  const exact = text !== undefined ? exactData(schema, text) : undefined;
  const cached = exact !== undefined && text!.length <= CACHED_LENGTH;
  const known = cached ? verdicts.get(text!) : undefined;
  let verdict: string | undefined;
  if (known !== undefined) verdict = known ?? undefined;
  else {
    verdict = compileProblem(schema);
    if (cached) {
      if (verdicts.size >= CACHED_SCHEMAS) {
        // What `recent` remembers is what `verdicts` holds: both forget at once.
        verdicts.clear();
        recent.length = 0;
      }
      verdicts.set(text!, verdict ?? null);
    }
  }
  // A schema recognised in `recent` then has the text whose verdict `verdicts` holds: the answer `check` gives.
  if (verdict === undefined && cached && compiledBefore(schema) === undefined) {
    recent.unshift({ known: exact!, size, noFreeForm: noFreeForm(JSON.parse(text!), false, 0) });
    if (recent.length > RECENT_SCHEMAS) recent.pop();
  }
  if (exact !== undefined) byObject.set(schema, { known: exact, verdict: verdict ?? null, size });
  return verdict;
}

/**
 * Cheaply: the schema that compiled recently whose data `schema` holds (keys in the same order); undefined when
 * it cannot tell.
 */
function compiledBefore(schema: unknown): Recent | undefined {
  recognised = undefined;
  for (let i = 0; i < recent.length; i++) {
    const entry = recent[i]!;
    if (sameAs(schema, entry.known, 0)) {
      recognised = schema as object;
      recognisedNoFreeForm = entry.noFreeForm;
      return entry;
    }
  }
  return undefined;
}

/**
 * What the schemas the compile rule's cheap answer recognised cost together, in the request it is asked of: a
 * request of schemas that each compiled before may still be past the bounds together, and then `check` says so.
 */
let recognisedSpent: Spent = nothingSpent();

/** The schema taken from `recognised` by the v1 free-form rule's cheap answer being asked, and its verdict. */
let taken: object | undefined;
let takenNoFreeForm = false;

/** Cheaply, v1: true only when no object schema inside `schema` allows any property without naming one. */
const keptFreeFormV1 = (schema: unknown) => !isRecord(schema) || (schema === taken ? takenNoFreeForm : noFreeForm(schema, false, 0));

type Version = 'v1' | 'v2';

/** The v1 scrape options that hold a `schema`. */
const V1_SCHEMA_HOLDERS = ['jsonOptions', 'extract', 'changeTrackingOptions'] as const;

/** Where the schemas stand in a set of scrape options, and each schema. */
function schemasOf(version: Version, options: Readonly<Record<string, unknown>>): [Segments, unknown][] {
  const found: [Segments, unknown][] = [];
  if (version === 'v1') {
    for (const key of V1_SCHEMA_HOLDERS) {
      const holder = field(options, key);
      if (isRecord(holder) && field(holder, 'schema') !== undefined) found.push([[key, 'schema'], field(holder, 'schema')]);
    }
    return found;
  }
  const formats = denseArray(field(options, 'formats')) ?? [];
  for (let i = 0; i < formats.length; i++) {
    const format = formats[i];
    if (!isRecord(format)) continue;
    const type = field(format, 'type');
    if ((type === 'json' || type === 'changeTracking') && field(format, 'schema') !== undefined)
      found.push([['formats', i, 'schema'], field(format, 'schema')]);
  }
  return found;
}

/**
 * Whether `kept` says yes of every schema v2 scrape options' `formats` gives (as `schemasOf` finds them, without
 * gathering them).
 */
function formatsKept(given: unknown, kept: (schema: unknown) => boolean): boolean {
  // Plain reads (see CodeRule.keeps): a schema inherited from a prototype is one more to keep, never one less.
  const formats = denseArray(given);
  if (formats === undefined) return true;
  for (let i = 0; i < formats.length; i++) {
    const format = formats[i];
    if (!isRecord(format)) continue;
    const type = format.type;
    if ((type === 'json' || type === 'changeTracking') && !kept(format.schema)) return false;
  }
  return true;
}

/** Whether the schema of a v1 holder (`jsonOptions`, ...) is kept; true when there is no holder. */
const keptIn = (holder: unknown, kept: (schema: unknown) => boolean) => !isRecord(holder) || kept(holder.schema);

/**
 * What is wrong with one schema, in the order the service checks: it compiles (v1), then no free-form object;
 * `spent`: what the request's schemas before it cost to compile.
 */
function schemaProblem(version: Version, schema: unknown, spent: Spent): { rule: 'compile' | 'freeForm'; message: string } | undefined {
  // Not an object: the schema check says so.
  if (!isRecord(schema)) return undefined;
  if (version === 'v1') {
    const problem = compiledVerdict(schema, spent);
    if (problem !== undefined) return { rule: 'compile', message: problem };
  }
  const where = freeFormObject(schema, version === 'v2');
  return where === undefined ? undefined : { rule: 'freeForm', message: freeFormMessage(where) };
}

/**
 * The two rules for one version, looking either at a set of scrape options (`options`) or at an object holding
 * one `schema` (`holder`: v1 JsonOptions and ChangeTrackingOptions, v2 JsonFormat and ChangeTrackingFormat).
 */
export function jsonSchemaRules(version: Version, place: 'options' | 'holder'): CodeRule[] {
  const schemas = (object: Readonly<Record<string, unknown>>): [Segments, unknown][] =>
    place === 'options' ? schemasOf(version, object) : [[['schema'], field(object, 'schema')]];
  const fields = place === 'holder' ? ['schema'] : version === 'v1' ? [...V1_SCHEMA_HOLDERS] : ['formats'];
  // A schema that is no object is the schema check's to report: neither rule finds anything in it.
  const kept = {
    // Recognised, and within the bounds with the request's other schemas recognised so far.
    compile: (schema: unknown) => {
      if (!isRecord(schema)) return true;
      const entry = compiledBefore(schema);
      return entry !== undefined && spend(recognisedSpent, entry.size) === undefined;
    },
    freeForm: version === 'v1' ? keptFreeFormV1 : (schema: unknown) => !isRecord(schema) || noFreeForm(schema, true, 0),
  };
  /** v1's free-form answer takes what the compile answer just recognised (see `recognised`). */
  const take = () => {
    taken = recognised;
    takenNoFreeForm = recognisedNoFreeForm;
  };
  const rule = (kind: 'compile' | 'freeForm', id: string, description: string): CodeRule => {
    // Which schemas, and which cheap answer, are chosen here once: `keeps` then reads no key that varies by rule.
    // The fields are `fields` (CodeRule.reads): a holder's `schema`; v1 options' three holders; v2 options' `formats`.
    const keptSchema = kept[kind];
    const keptFields: (first: unknown, second?: unknown, third?: unknown) => boolean =
      place === 'holder'
        ? keptSchema
        : version === 'v1'
          ? (jsonOptions, extract, changeTrackingOptions) =>
              keptIn(jsonOptions, keptSchema) && keptIn(extract, keptSchema) && keptIn(changeTrackingOptions, keptSchema)
          : (formats) => formatsKept(formats, keptSchema);
    // What the compile answer recognises is for v1's free-form answer, asked next (see `recognised`).
    const before =
      kind === 'freeForm' && version === 'v1' ? take : kind === 'compile' ? () => (recognisedSpent = nothingSpent()) : undefined;
    const keepsWith =
      before === undefined
        ? (_object: unknown, first: unknown, second?: unknown, third?: unknown) => keptFields(first, second, third)
        : (_object: unknown, first: unknown, second?: unknown, third?: unknown) => {
            before();
            return keptFields(first, second, third);
          };
    // Plain reads (see CodeRule.keeps), the fields in the order of `fields`.
    const keeps =
      place === 'holder'
        ? (object: Readonly<Record<string, unknown>>) => keepsWith(object, object.schema)
        : version === 'v1'
          ? (object: Readonly<Record<string, unknown>>) =>
              keepsWith(object, object.jsonOptions, object.extract, object.changeTrackingOptions)
          : (object: Readonly<Record<string, unknown>>) => keepsWith(object, object.formats);
    return {
      id,
      source: 'service',
      fields,
      triggers: fields,
      description,
      check(object) {
        let problems: RuleProblem[] | undefined;
        const spent = nothingSpent();
        for (const [at, schema] of schemas(object)) {
          const problem = schemaProblem(version, schema, spent);
          if (problem?.rule === kind) (problems ??= []).push({ at, message: problem.message });
        }
        return problems ?? NO_PROBLEMS;
      },
      // Bodies without a schema (nearly all) keep it for sure; a schema keeps it when a walk that allocates nothing
      // finds no free-form object, or (compiling) when it is one that compiled before.
      keeps,
      reads: fields,
      keepsWith,
    };
  };
  const freeForm = rule(
    'freeForm',
    'jsonSchemaNotFreeForm',
    `No object in a given JSON Schema may allow any property (\`"additionalProperties": true\`) without naming some (\`properties\` or \`patternProperties\`)${version === 'v2' ? '; a schema holding `$ref` is left as it is' : ''}.`,
  );
  if (version === 'v2') return [freeForm];
  return [
    rule(
      'compile',
      'jsonSchemaCompiles',
      `A given JSON Schema must compile as a draft-07 schema (Ajv, unknown keywords and formats ignored); the schemas of one request are compiled while together they hold at most ${MAX_SCHEMA_VALUES} values (a $ref counting what it points to), ${MAX_SCHEMA_CHARACTERS} characters of keys and strings, and ${MAX_SCHEMA_PATTERNS} patterns and references.`,
    ),
    freeForm,
  ];
}
