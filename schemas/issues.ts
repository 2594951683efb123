/**
 * Turns a validator's raw errors into issues a person can act on: where (a JSON path such as
 * `$.scrapeOptions.formats[0]`), what is wrong (with the value that was sent), and what the interface
 * expects there (the field's description and where the rule comes from).
 *
 * Unions are reported through the branch the value was aiming at: when a value fails every branch of an
 * `anyOf`, the problems found inside a branch that matched its shape are kept, and a bare "no branch
 * matched" is reported only when no branch came close.
 */
import type { ErrorObject } from 'ajv';
import { KEYWORD_SOURCES, RULES, SOURCE, type Source } from './annotations.js';
import type { RuleSpec } from './rule.js';
import { v1FieldMessage } from './v1Fields.js';

export interface ValidationIssue {
  /** JSON path of the offending value, e.g. `$.scrapeOptions.timeout` (`$` is the whole body). */
  readonly path: string;
  /** The same location as a list of keys and array indexes, e.g. `["scrapeOptions", "timeout"]`. */
  readonly segments: readonly (string | number)[];
  /** The rule that failed: a JSON Schema keyword (`maximum`, `required`, ...). */
  readonly rule: string;
  /** What is wrong, including the value that was sent where that helps. */
  readonly message: string;
  /** What the interface expects at this place. */
  readonly expected: string;
  /**
   * Where the broken constraint comes from: `interface §2.4` when the interface states it, `service` when the
   * public service's behaviour fills a gap (e.g. v2 `timeout`: its maximum is `interface §2.4`, its minimum
   * `service`). Absent on the issues that are notes rather than problems (`firstProblemOnly`, `moreProblems`)
   * and on a value that could not be read at all (`readable`).
   */
  readonly source?: Source;
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The keys and indexes of a JSON Pointer into `root`. A pointer cannot tell the key "0" from the index 0,
 * so the data decides: a segment is an index where the value it steps into is an array.
 */
function segmentsOf(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '') return [];
  let node = root;
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      const segment = Array.isArray(node) && /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
      node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[segment] : undefined;
      return segment;
    });
}

/** `["scrapeOptions", "formats", 0]` → `$.scrapeOptions.formats[0]`. Keys that are not identifiers are quoted. */
export function jsonPath(segments: readonly (string | number)[]): string {
  return segments.reduce<string>(
    (path, s) =>
      typeof s === 'number' ? `${path}[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `${path}.${s}` : `${path}[${JSON.stringify(s)}]`,
    '$',
  );
}

/** A short rendering of a sent value for a message. A function is not printed (its text could be anything). */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

/** The JSON type of a sent value; NaN and the infinities, which JSON cannot carry, are no JSON number. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'number' : 'non-finite number';
  return typeof value;
}

/**
 * Where `keyword` of `schema` comes from: its entry in `x-crawlspec-keyword-sources` (for `required`, the
 * entry of the missing `property` when the sources are given per property), else the schema's own source.
 */
function keywordSource(schema: unknown, keyword: string, property?: string): Source {
  if (!isSchema(schema)) return 'service';
  const own = typeof schema[SOURCE] === 'string' ? (schema[SOURCE] as Source) : 'service';
  const sources = schema[KEYWORD_SOURCES];
  const entry = isSchema(sources) ? sources[keyword] : undefined;
  if (typeof entry === 'string') return entry as Source;
  if (isSchema(entry) && property !== undefined && typeof entry[property] === 'string') return entry[property] as Source;
  return own;
}

/** How a schema describes itself: its description and where the constraint comes from (`source`, else its own). */
function expectation(schema: unknown, fallback: string, ruleSource?: Source): string {
  if (!isSchema(schema)) return fallback;
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const named = ruleSource ?? schema[SOURCE];
  const source = typeof named === 'string' ? ` [${named}]` : '';
  const title = typeof schema.title === 'string' ? `${schema.title}: ` : '';
  if (description) return `${title}${description}${source}`;
  if (typeof schema.$ref === 'string') return `${schema.$ref.replace(/^.*\//, '')}${source}`;
  return `${fallback}${source}`;
}

/** One branch of a union, named for a message: a definition name, a type, or a literal. */
function branchName(branch: unknown): string {
  if (!isSchema(branch)) return 'a value';
  if (typeof branch.$ref === 'string') return branch.$ref.replace(/^.*\//, '');
  if ('const' in branch) return JSON.stringify(branch.const);
  if (Array.isArray(branch.enum)) return `one of ${branch.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (typeof branch.type === 'string') return typeof branch.format === 'string' ? `${branch.type} (${branch.format})` : branch.type;
  return 'a value';
}

/** The rule a failing keyword stands for, if its schema is marked with one. */
function ruleOf(error: ErrorObject): RuleSpec | undefined {
  const rules = isSchema(error.parentSchema) ? error.parentSchema[RULES] : undefined;
  return Array.isArray(rules) ? (rules as RuleSpec[]).find((r) => r.keyword === error.keyword) : undefined;
}

interface Described {
  readonly message: string;
  readonly expected: string;
  readonly at?: string;
  readonly rule?: string;
}

function describe(error: ErrorObject): Described & { readonly source: Source } {
  const rule = ruleOf(error);
  const source = rule?.source ?? keywordSource(error.parentSchema, error.keyword, (error.params as { missingProperty?: string }).missingProperty);
  return { ...describeKeyword(error, rule, source), source };
}

function describeKeyword(error: ErrorObject, rule: RuleSpec | undefined, source: Source): Described {
  const { params, parentSchema, data } = error;
  const here = expectation(parentSchema, 'a valid value', source);
  if (rule) return { message: rule.message, expected: here, rule: rule.id };
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      const properties = isSchema(parentSchema) && isSchema(parentSchema.properties) ? parentSchema.properties : {};
      return { at: field, message: 'is required but missing', expected: expectation(properties[field], `the field ${field}`, source) };
    }
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const known = isSchema(parentSchema) && isSchema(parentSchema.properties) ? Object.keys(parentSchema.properties) : [];
      return {
        at: field,
        // A v1 field in a v2 object: what v2 uses instead (the table migrateToV2 converts by).
        message: (isSchema(parentSchema) ? v1FieldMessage(parentSchema.title, field) : undefined) ?? 'is not a known field here',
        expected: `${known.length > 0 ? `only these fields: ${known.join(', ')}` : 'no fields'} [${source}]`,
      };
    }
    case 'type':
      return { message: `must be ${[params.type].flat().join(' or ')}, not ${typeName(data)} (${shown(data)})`, expected: here };
    case 'enum':
      return {
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, not ${shown(data)}`,
        expected: here,
      };
    case 'const':
      return { message: `must be ${JSON.stringify(params.allowedValue)}, not ${shown(data)}`, expected: here };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { message: `must be ${String(params.comparison)} ${String(params.limit)}, not ${shown(data)}`, expected: here };
    case 'minLength':
    case 'maxLength':
      return {
        message: `must have ${error.keyword === 'minLength' ? 'at least' : 'at most'} ${String(params.limit)} characters, not ${typeof data === 'string' ? data.length : '?'}`,
        expected: here,
      };
    case 'minItems':
    case 'maxItems':
      return {
        message: `must have ${error.keyword === 'minItems' ? 'at least' : 'at most'} ${String(params.limit)} items, not ${Array.isArray(data) ? data.length : '?'}`,
        expected: here,
      };
    case 'format':
      return { message: `must be a valid ${String(params.format)}, not ${shown(data)}`, expected: here };
    case 'pattern':
      return { message: `does not have the required form (${String(params.pattern)}): ${shown(data)}`, expected: here };
    case 'discriminator':
      return params.error === 'mapping'
        ? { at: String(params.tag), message: `${shown(params.tagValue)} is not a known kind`, expected: here }
        : { at: String(params.tag), message: `is required and must be a string`, expected: here };
    case 'anyOf':
    case 'oneOf': {
      const branches =
        isSchema(parentSchema) && Array.isArray(parentSchema[error.keyword]) ? (parentSchema[error.keyword] as unknown[]) : [];
      return { message: `must be ${branches.map(branchName).join(' or ')}, not ${shown(data)}`, expected: here };
    }
    default:
      return { message: error.message ?? `breaks the rule ${error.keyword}`, expected: here };
  }
}

function toIssue(error: ErrorObject, root: unknown): ValidationIssue {
  const { message, expected, at, rule, source } = describe(error);
  const segments = [...segmentsOf(error.instancePath, root), ...(at === undefined ? [] : [at])];
  return { path: jsonPath(segments), segments, rule: rule ?? error.keyword, message, expected, source };
}

/** A precompiled validator, as the generated modules export them. */
export interface BranchValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Finds the validator of a named definition of the same version (for the branches of a union). */
export type DefinitionLookup = (name: string) => BranchValidator | undefined;

const within = (error: ErrorObject, pointer: string) => error.instancePath === pointer || error.instancePath.startsWith(`${pointer}/`);

/** Errors that only say the value is not of this branch's kind: another JSON type, literal or `type` tag. */
const isKindMismatch = (error: ErrorObject, pointer: string) =>
  (error.instancePath === pointer && ['type', 'const'].includes(error.keyword)) ||
  (error.instancePath === `${pointer}/type` && ['enum', 'const'].includes(error.keyword));

/**
 * Says each problem once: a value of the wrong type breaks everything else said about that place too
 * (its `enum`, the rules on it), so only the type error stays; and the same error found twice (by an
 * object and by a rule on it) is kept once, from the schema that describes itself best.
 */
function withoutEchoes(errors: readonly ErrorObject[]): ErrorObject[] {
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const best = new Map<string, ErrorObject>();
  // A discriminator's `tagValue` is the value sent (of any size or shape: a bigint, a cycle, 10^5 levels
  // deep), and the same at the same place: it is left out of the key rather than serialised.
  const keys = errors.map(({ instancePath, keyword, params: { tagValue: _sent, ...params } }) =>
    JSON.stringify([instancePath, keyword, params]),
  );
  errors.forEach((e, i) => {
    const known = best.get(keys[i]!);
    if (!known || !isSchema(known.parentSchema) || typeof known.parentSchema.description !== 'string') best.set(keys[i]!, e);
  });
  return errors.filter((e, i) => (e.keyword === 'type' || !wrongType.has(e.instancePath)) && best.get(keys[i]!) === e);
}

const rebase = (error: ErrorObject, pointer: string): ErrorObject => ({ ...error, instancePath: `${pointer}${error.instancePath}` });

/**
 * The problems of each branch of a failed `anyOf`. A named branch is checked again on its own (its own
 * validator), so its errors are exactly its own; an inline branch (a plain type or literal) takes the
 * errors Ajv reported under its schema path.
 */
function branchErrors(anyOf: ErrorObject, run: readonly ErrorObject[], lookup: DefinitionLookup): ErrorObject[][] {
  const branches = isSchema(anyOf.parentSchema) && Array.isArray(anyOf.parentSchema.anyOf) ? (anyOf.parentSchema.anyOf as unknown[]) : [];
  return branches.map((branch, i) => {
    const ref = isSchema(branch) && typeof branch.$ref === 'string' ? branch.$ref : undefined;
    const check = ref === undefined ? undefined : lookup(ref.replace(/^.*\//, ''));
    if (check === undefined) return run.filter((e) => e.schemaPath.startsWith(`${anyOf.schemaPath}/${i}/`));
    return check(anyOf.data) ? [] : (check.errors ?? []).map((e) => rebase(e, anyOf.instancePath));
  });
}

/**
 * An object whose `type` matches no branch of a union of tagged objects: one error at its `type`,
 * listing the tags the union accepts (rather than "matches no branch" at the object).
 */
function unknownTag(anyOf: ErrorObject, branches: readonly ErrorObject[][]): ErrorObject | undefined {
  if (!isSchema(anyOf.data)) return undefined;
  const tagPath = `${anyOf.instancePath}/type`;
  const tags = branches.flat().filter((e) => e.instancePath === tagPath && (e.keyword === 'const' || e.keyword === 'enum'));
  if (tags.length === 0) return undefined;
  const allowedValues = tags.flatMap((e) => (e.keyword === 'const' ? [e.params.allowedValue] : (e.params.allowedValues as unknown[])));
  return { ...anyOf, keyword: 'enum', instancePath: tagPath, params: { allowedValues }, data: anyOf.data.type };
}

/**
 * Ajv reports an `anyOf` after the errors of all its branches. Replace that run by what matters: the
 * problems of the branches that are of the value's kind, or else the one `anyOf` error.
 */
function collapseUnions(errors: readonly ErrorObject[], lookup: DefinitionLookup): ErrorObject[] {
  const out: ErrorObject[] = [];
  for (const error of errors) {
    const rule = ruleOf(error) !== undefined;
    if (!rule && error.keyword !== 'anyOf') {
      out.push(error);
      continue;
    }
    // Ajv reports what it found at a place, and below it, together and just before the keyword that
    // failed there: that run is all a rule or a union can replace (looking further back is quadratic).
    let start = out.length;
    while (start > 0 && within(out[start - 1]!, error.instancePath)) start -= 1;
    const run = out.splice(start);

    if (rule) {
      // A broken rule is the one problem here; what its inner schemas found on the way is noise.
      const inside = `${error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/'))}/`;
      for (const e of run) if (!e.schemaPath.startsWith(inside)) out.push(e);
      out.push(error);
      continue;
    }
    const branches = branchErrors(error, run, lookup);
    const relevant = branches
      .filter((branch) => branch.length > 0 && !branch.some((e) => isKindMismatch(e, error.instancePath)))
      .flatMap((branch) => collapseUnions(branch, lookup));
    // One by one: spreading 10^5 errors into push() would exceed the engine's limit on arguments.
    for (const e of relevant.length > 0 ? relevant : [unknownTag(error, branches) ?? error]) out.push(e);
  }
  return out;
}

/** The issues of `data`, from the errors its validator reported. */
export function toIssues(data: unknown, errors: readonly ErrorObject[] | null | undefined, lookup: DefinitionLookup): ValidationIssue[] {
  return withoutEchoes(collapseUnions(errors ?? [], lookup)).map((e) => toIssue(e, data));
}

/** One line per issue: `$.limit: must be integer, not string ("ten"). Expected: ...`. */
export function formatIssue(issue: ValidationIssue): string {
  return `${issue.path}: ${issue.message.replace(/\.$/, '')}. Expected: ${issue.expected}`;
}
