/**
 * Breaking-change guard: compares the OpenAPI documents as last released with the current ones, and says of
 * every change whether it breaks someone, judged from the side of whoever is affected:
 *
 *   what clients send (request bodies, parameters): a new required field or parameter, a removed field, a
 *     narrowed type, enum or limit, a new rule, a newly closed object, a removed variant are breaking; a new
 *     optional field, a widened type, enum or limit are not;
 *   what consumers read (answers, and webhook events, which the service sends): a removed field, a field made
 *     optional, a widened type, enum or limit (values a consumer must now handle), a new variant, a changed
 *     type are breaking; a new field, a narrowed enum or limit are not;
 *   operations, status codes, media types: removed ones are breaking, new ones are not.
 * A changed default is listed as not breaking (clients that omit the field get the new one).
 *
 *   node --import tsx scripts/breakingChanges.ts                      since the latest tag, else the first
 *                                                                     commit that has generated/openapi
 *   node --import tsx scripts/breakingChanges.ts --base v0.1.0        since a git ref (its generated/openapi)
 *   node --import tsx scripts/breakingChanges.ts --base old/v2.json   since a document (or a folder of them)
 *   --current <file-or-folder>   the documents to judge (default generated/openapi: v1.json and v2.json; the
 *                                combined openapi.json holds the same operations again)
 *   --fail-on-breaking           exit 1 when a change is breaking
 *
 * Prints one line per change (`BREAKING  v2 POST /v2/crawl request: field scrapeOptions.timeout maximum
 * 300000 → 200000 (narrowed)`), then a summary. Exit status: 0 (a report, whatever it says), 1 breaking
 * changes with --fail-on-breaking, 2 a usage error or a document that cannot be read.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

type Json = Record<string, unknown>;

/** Who is affected by a schema: a client writing it (`request`), or a consumer reading it (`response`). */
export type Direction = 'request' | 'response';

export interface Change {
  readonly breaking: boolean;
  /** The document and place: `v2 POST /v2/crawl request`, `v2 GET /v2/crawl/{id} response 200`, `v2 DELETE /v2/crawl/{id}`. */
  readonly where: string;
  readonly what: string;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOCUMENTS_DIR = 'generated/openapi';
/** The documents compared by default; the combined `openapi.json` repeats their operations. */
const DOCUMENTS = ['v1', 'v2'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asObject = (value: unknown): Json => (isObject(value) ? value : {});
/** A value for a message: JSON, cut short when long (a country-code pattern runs to a thousand characters). */
function shown(value: unknown): string {
  const text = value === undefined ? 'none' : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Keywords that describe without constraining: a change to them is no change to the contract. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  'example',
  '$comment',
  'deprecated',
  'default',
  'discriminator',
  'readOnly',
]);

/** A schema as a string that is the same exactly when the constraints are (keys sorted, annotations dropped). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value) ?? 'undefined';
  const keys = Object.keys(value)
    .filter((k) => !ANNOTATIONS.has(k) && !k.startsWith('x-'))
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}

/** `#/components/schemas/Url` → the value at that place in `doc`. */
function pointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}

interface Resolved {
  readonly schema: Json;
  /** The component the schema was reached through, if any. */
  readonly ref?: string;
}

/** Follows `$ref`s (keeping the keywords beside each, as OpenAPI 3.1 allows); `true` is `{}`, `false` refuses all. */
function resolveSchema(doc: Json, raw: unknown): Resolved {
  if (raw === true || raw === undefined) return { schema: {} };
  if (raw === false) return { schema: { not: {} } };
  let schema = asObject(raw);
  let ref: string | undefined;
  for (let hops = 0; typeof schema['$ref'] === 'string' && hops < 32; hops += 1) {
    const target = pointer(doc, schema['$ref']);
    if (target === undefined) break; // an external or dangling reference: compared as written
    ref = schema['$ref'];
    const { $ref: _ignored, ...siblings } = schema;
    schema = { ...asObject(target === true ? {} : target), ...siblings };
  }
  return ref === undefined ? { schema } : { schema, ref };
}

const componentName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The JSON types a schema allows, or undefined for any. */
function typesOf(schema: Json): string[] | undefined {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.map(String);
  if ('const' in schema) return [jsonType(schema['const'])];
  if (Array.isArray(schema['enum'])) return [...new Set(schema['enum'].map(jsonType))];
  return undefined;
}

/** `integer` is a kind of `number`. */
const covered = (type: string, types: readonly string[]) => types.includes(type) || (type === 'integer' && types.includes('number'));

const unionOf = (schema: Json): unknown[] | undefined =>
  Array.isArray(schema['anyOf']) ? schema['anyOf'] : Array.isArray(schema['oneOf']) ? schema['oneOf'] : undefined;

/** The values a schema is limited to (`const`, `enum`, or a union of those), or undefined. */
function valuesOf(doc: Json, schema: Json): unknown[] | undefined {
  if ('const' in schema) return [schema['const']];
  if (Array.isArray(schema['enum'])) return schema['enum'];
  const union = unionOf(schema);
  if (union === undefined) return undefined;
  const parts = union.map((branch) => valuesOf(doc, resolveSchema(doc, branch).schema));
  return parts.every((p): p is unknown[] => p !== undefined) ? parts.flat() : undefined;
}

/** The JSON types a schema allows, a union of values having the types of its values; undefined for any. */
function typesWithValues(doc: Json, schema: Json): string[] | undefined {
  return (
    typesOf(schema) ??
    valuesOf(doc, schema)
      ?.map(jsonType)
      .filter((t, i, all) => all.indexOf(t) === i)
  );
}

/** A union's branches, unless it only lists values (then it is compared as an enum). */
function branchesOf(doc: Json, schema: Json): unknown[] | undefined {
  const union = unionOf(schema);
  return union === undefined || valuesOf(doc, schema) !== undefined ? undefined : union;
}

const UPPER_LIMITS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const LOWER_LIMITS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
/** Constraints compared as a whole: added narrows, removed widens, changed is both. */
const OPAQUE = [
  'pattern',
  'format',
  'multipleOf',
  'not',
  'contains',
  'minContains',
  'maxContains',
  'if',
  'then',
  'else',
  'prefixItems',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;

/** The rule identifiers (`x-crawlspec-rules`) inside a schema, or its canonical form when it names none. */
function ruleKey(schema: unknown): string {
  const ids: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node)) {
      const rules = node['x-crawlspec-rules'];
      if (Array.isArray(rules)) for (const rule of rules) if (isObject(rule) && typeof rule['id'] === 'string') ids.push(rule['id']);
      Object.values(node).forEach(visit);
    }
  };
  visit(schema);
  return ids.length > 0 ? `rule ${ids.join(' + ')}` : `constraint ${canonical(schema)}`;
}

/** Walks two versions of one schema side by side and records what changed for the given direction. */
class SchemaComparison {
  private readonly seen = new Set<string>();

  constructor(
    private readonly baseDoc: Json,
    private readonly currentDoc: Json,
    private readonly direction: Direction,
    private readonly where: string,
    /** What the schema is: `body`, or `parameter skip (query)`. */
    private readonly root: string,
    private readonly out: Change[],
  ) {}

  private subject(path: string): string {
    if (path === '') return this.root;
    return this.root === 'body' ? `field ${path}` : `${this.root} ${path}`;
  }

  private emit(breaking: boolean, what: string): void {
    this.out.push({ breaking, where: this.where, what });
  }

  /** A change that narrows what is allowed: breaking for what clients send. */
  private narrowed(what: string): void {
    this.emit(this.direction === 'request', `${what} (narrowed)`);
  }

  /** A change that widens what is allowed: breaking for what consumers read. */
  private widened(what: string): void {
    this.emit(this.direction === 'response', `${what} (widened)`);
  }

  compare(baseRaw: unknown, currentRaw: unknown, path = ''): void {
    this.compareResolved(resolveSchema(this.baseDoc, baseRaw), resolveSchema(this.currentDoc, currentRaw), path);
  }

  private compareResolved(base: Resolved, current: Resolved, path: string): void {
    // Each pair of components once per request or answer: recursive schemas end, a shared component is told once.
    if (base.ref !== undefined && current.ref !== undefined) {
      const key = `${base.ref} ${current.ref}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    const b = base.schema;
    const c = current.schema;
    const bBranches = branchesOf(this.baseDoc, b);
    const cBranches = branchesOf(this.currentDoc, c);
    if (bBranches !== undefined || cBranches !== undefined) {
      this.compareUnions(base, current, bBranches, cBranches, path);
      return;
    }
    this.compareTypes(b, c, path);
    this.compareValues(b, c, path);
    this.compareLimits(b, c, path);
    this.compareOpaque(b, c, path);
    this.compareObjects(b, c, path);
    if (b['items'] !== undefined || c['items'] !== undefined) this.compare(b['items'], c['items'], `${path}[]`);
    this.compareRules(b, c, path);
    this.compareAnnotations(b, c, path);
  }

  private compareTypes(b: Json, c: Json, path: string): void {
    const bTypes = typesWithValues(this.baseDoc, b);
    const cTypes = typesWithValues(this.currentDoc, c);
    if (bTypes === undefined && cTypes === undefined) return;
    const removed = cTypes === undefined ? [] : bTypes === undefined ? ['any'] : bTypes.filter((t) => !covered(t, cTypes));
    const added = bTypes === undefined ? [] : cTypes === undefined ? ['any'] : cTypes.filter((t) => !covered(t, bTypes));
    if (removed.length === 0 && added.length === 0) return;
    const text = `${this.subject(path)} type ${bTypes?.join(' | ') ?? 'any'} → ${cTypes?.join(' | ') ?? 'any'}`;
    if (removed.length > 0 && added.length > 0) this.emit(true, `${text} (changed)`);
    else if (removed.length > 0) this.narrowed(text);
    else this.widened(text);
  }

  private compareValues(b: Json, c: Json, path: string): void {
    const bValues = valuesOf(this.baseDoc, b);
    const cValues = valuesOf(this.currentDoc, c);
    const subject = this.subject(path);
    if (bValues === undefined && cValues === undefined) return;
    if (bValues === undefined) return this.narrowed(`${subject} limited to ${cValues!.map(shown).join(', ')}`);
    if (cValues === undefined) return this.widened(`${subject} no longer limited to ${bValues.map(shown).join(', ')}`);
    const has = (values: unknown[], value: unknown) => values.some((v) => canonical(v) === canonical(value));
    const removed = bValues.filter((v) => !has(cValues, v));
    const added = cValues.filter((v) => !has(bValues, v));
    if (removed.length > 0) this.narrowed(`${subject} enum: removed ${removed.map(shown).join(', ')}`);
    if (added.length > 0) this.widened(`${subject} enum: new ${added.map(shown).join(', ')}`);
  }

  private compareLimits(b: Json, c: Json, path: string): void {
    const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
    for (const [keywords, upper] of [
      [UPPER_LIMITS, true],
      [LOWER_LIMITS, false],
    ] as const) {
      for (const keyword of keywords) {
        const before = number(b[keyword]);
        const after = number(c[keyword]);
        if (before === after) continue;
        const text = `${this.subject(path)} ${keyword} ${shown(before)} → ${shown(after)}`;
        // A limit that appears, or moves inwards, narrows; one that goes, or moves outwards, widens.
        const narrows = before === undefined || (after !== undefined && (upper ? after < before : after > before));
        if (narrows) this.narrowed(text);
        else this.widened(text);
      }
    }
    if ((b['uniqueItems'] === true) !== (c['uniqueItems'] === true)) {
      const text = `${this.subject(path)} uniqueItems ${String(b['uniqueItems'] === true)} → ${String(c['uniqueItems'] === true)}`;
      if (c['uniqueItems'] === true) this.narrowed(text);
      else this.widened(text);
    }
  }

  private compareOpaque(b: Json, c: Json, path: string): void {
    for (const keyword of OPAQUE) {
      const before = b[keyword];
      const after = c[keyword];
      if (canonical(before) === canonical(after)) continue;
      const subject = this.subject(path);
      const value = (v: unknown) => (isObject(v) || Array.isArray(v) ? 'a schema' : shown(v));
      if (before === undefined) this.narrowed(`${subject} ${keyword} added: ${value(after)}`);
      else if (after === undefined) this.widened(`${subject} ${keyword} removed: ${value(before)}`);
      else this.emit(true, `${subject} ${keyword} ${value(before)} → ${value(after)} (changed)`);
    }
  }

  private compareObjects(b: Json, c: Json, path: string): void {
    const bProps = asObject(b['properties']);
    const cProps = asObject(c['properties']);
    const bRequired = new Set(Array.isArray(b['required']) ? b['required'].map(String) : []);
    const cRequired = new Set(Array.isArray(c['required']) ? c['required'].map(String) : []);
    const at = (key: string) => (path === '' ? key : `${path}.${key}`);
    const reading = this.direction === 'response';
    for (const key of Object.keys(bProps)) {
      if (!(key in cProps)) this.emit(true, `field ${at(key)} removed`);
    }
    for (const key of Object.keys(cProps)) {
      if (key in bProps) continue;
      if (reading) this.emit(false, `new field ${at(key)}${cRequired.has(key) ? ' (always present)' : ''}`);
      else if (cRequired.has(key)) this.emit(true, `new required field ${at(key)}`);
      else this.emit(false, `new optional field ${at(key)}`);
    }
    for (const key of Object.keys(bProps)) {
      if (!(key in cProps)) continue;
      if (bRequired.has(key) && !cRequired.has(key)) this.emit(reading, `field ${at(key)} made optional`);
      if (!bRequired.has(key) && cRequired.has(key)) this.emit(!reading, `field ${at(key)} made required`);
      this.compare(bProps[key], cProps[key], at(key));
    }
    const objectLike = (s: Json) => s['type'] === 'object' || isObject(s['properties']);
    if (!objectLike(b) && !objectLike(c)) return;
    const bExtra = b['additionalProperties'];
    const cExtra = c['additionalProperties'];
    const subject = path === '' ? this.root : `object ${path}`;
    if (bExtra !== false && cExtra === false) this.emit(!reading, `${subject} newly closed: keys it does not list are refused`);
    else if (bExtra === false && cExtra !== false) this.emit(false, `${subject} opened: keys it does not list are allowed`);
    else if (isObject(bExtra) || isObject(cExtra)) this.compare(bExtra, cExtra, `${path === '' ? '' : `${path}.`}*`);
  }

  /** `allOf` parts, by the rules they stand for: a new rule narrows, a dropped one widens. */
  private compareRules(b: Json, c: Json, path: string): void {
    const parts = (s: Json) => new Map((Array.isArray(s['allOf']) ? s['allOf'] : []).map((part) => [ruleKey(part), canonical(part)]));
    const before = parts(b);
    const after = parts(c);
    const subject = this.subject(path);
    const name = (key: string) => (key.startsWith('rule ') ? key : 'a constraint (allOf)');
    for (const [key, value] of after) {
      if (!before.has(key)) this.narrowed(`${subject}: new ${name(key)}`);
      else if (before.get(key) !== value) this.emit(true, `${subject}: ${name(key)} changed`);
    }
    for (const key of before.keys()) if (!after.has(key)) this.widened(`${subject}: ${name(key)} dropped`);
  }

  private compareAnnotations(b: Json, c: Json, path: string): void {
    if (this.direction === 'request' && canonical(b['default']) !== canonical(c['default']) && b['default'] !== undefined) {
      this.emit(
        false,
        `${this.subject(path)} default ${shown(b['default'])} → ${shown(c['default'])} (clients that omit it get the new one)`,
      );
    }
    if (b['deprecated'] !== true && c['deprecated'] === true) this.emit(false, `${this.subject(path)} deprecated`);
  }

  /** Branches are paired by component name, value or `type` tag, else by JSON type; the rest were added or removed. */
  private compareUnions(
    base: Resolved,
    current: Resolved,
    bBranches: unknown[] | undefined,
    cBranches: unknown[] | undefined,
    path: string,
  ): void {
    const entries = (doc: Json, whole: Resolved, branches: unknown[] | undefined) => {
      const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = whole.schema;
      const counts = new Map<string, number>();
      // A schema that is not a union is the one branch of itself.
      return (branches ?? [whole]).map((raw) => {
        const resolved = branches === undefined ? whole : resolveSchema(doc, raw);
        // The union's own keywords (`type`, ...) apply to every branch.
        const schema = branches === undefined ? resolved.schema : { ...outer, ...resolved.schema };
        const tag = asObject(asObject(schema['properties'])['type'])['const'];
        const kind = typesWithValues(doc, schema)?.join(' | ') ?? 'any';
        let key =
          resolved.ref !== undefined
            ? componentName(resolved.ref)
            : 'const' in schema
              ? shown(schema['const'])
              : tag !== undefined
                ? `type ${shown(tag)}`
                : kind;
        const seen = (counts.get(key) ?? 0) + 1;
        counts.set(key, seen);
        if (seen > 1) key = `${key} #${seen}`;
        return { key, kind, resolved: resolved.ref === undefined ? { schema } : { schema, ref: resolved.ref } };
      });
    };
    const before = entries(this.baseDoc, base, bBranches);
    const after = entries(this.currentDoc, current, cBranches);
    const pairs: [(typeof before)[number], (typeof after)[number]][] = [];
    const leftAfter = new Set(after);
    const leftBefore = before.filter((entry) => {
      const match = after.find((candidate) => candidate.key === entry.key && leftAfter.has(candidate));
      if (match === undefined) return true;
      pairs.push([entry, match]);
      leftAfter.delete(match);
      return false;
    });
    // The one unpaired branch of a JSON type on each side (a renamed component, an inline branch made a component).
    for (const entry of [...leftBefore]) {
      const sameKind = [...leftAfter].filter((candidate) => candidate.kind === entry.kind);
      if (sameKind.length === 1 && leftBefore.filter((other) => other.kind === entry.kind).length === 1) {
        pairs.push([entry, sameKind[0]!]);
        leftAfter.delete(sameKind[0]!);
        leftBefore.splice(leftBefore.indexOf(entry), 1);
      }
    }
    const subject = this.subject(path);
    for (const entry of leftBefore) {
      if (this.direction === 'request') this.emit(true, `${subject} no longer accepts ${entry.key} (variant removed)`);
      else this.emit(false, `${subject} no longer holds ${entry.key} (variant removed)`);
    }
    for (const entry of leftAfter) {
      if (this.direction === 'request') this.emit(false, `${subject} also accepts ${entry.key} (variant added)`);
      else this.emit(true, `${subject} may now hold ${entry.key} (new variant consumers must handle)`);
    }
    const many = before.length > 1 || after.length > 1;
    for (const [entry, match] of pairs) this.compareResolved(entry.resolved, match.resolved, many ? `${path}(${match.key})` : path);
  }
}

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operation: Json;
  readonly parameters: Json[];
}

/** `/v2/crawl/{id}` and `/v2/crawl/{jobId}` are the same path. */
const pathShape = (path: string) => path.replace(/\{[^{}]*\}/g, '{}');

function operationsOf(doc: Json, where: 'paths' | 'webhooks'): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const [path, rawItem] of Object.entries(asObject(doc[where]))) {
    const item = resolveSchema(doc, rawItem).schema;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const byKey = new Map<string, Json>();
      for (const raw of [
        ...(Array.isArray(item['parameters']) ? item['parameters'] : []),
        ...(Array.isArray(operation['parameters']) ? operation['parameters'] : []),
      ]) {
        const parameter = resolveSchema(doc, raw).schema;
        byKey.set(`${String(parameter['in'])} ${String(parameter['name'])}`, parameter);
      }
      const key = where === 'paths' ? `${method} ${pathShape(path)}` : `${method} ${path}`;
      found.set(key, { method, path, operation, parameters: [...byKey.values()] });
    }
  }
  return found;
}

/** Path parameters by position (their names may change with the template); the others by place and name. */
function parameterKeys(parameters: Json[], path: string): Map<string, Json> {
  const names = [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
  return new Map(
    parameters.map((p) => [
      p['in'] === 'path' ? `path #${names.indexOf(String(p['name']))}` : `${String(p['in'])} ${String(p['name'])}`,
      p,
    ]),
  );
}

function securityNames(doc: Json, operation: Json): string[] | 'anonymous' {
  const security = Array.isArray(operation['security']) ? operation['security'] : Array.isArray(doc['security']) ? doc['security'] : [];
  if (security.length === 0 || security.some((s) => isObject(s) && Object.keys(s).length === 0)) return 'anonymous';
  return security.map((s) => Object.keys(asObject(s)).sort().join(' + ')).sort();
}

function compareContent(
  base: Json,
  current: Json,
  docs: { base: Json; current: Json },
  direction: Direction,
  where: string,
  out: Change[],
): void {
  const bContent = asObject(base['content']);
  const cContent = asObject(current['content']);
  for (const type of Object.keys(bContent))
    if (!(type in cContent)) out.push({ breaking: true, where, what: `media type ${type} removed` });
  for (const type of Object.keys(cContent)) {
    if (!(type in bContent)) {
      out.push({ breaking: false, where, what: `media type ${type} added` });
      continue;
    }
    const comparison = new SchemaComparison(docs.base, docs.current, direction, where, 'body', out);
    comparison.compare(asObject(bContent[type])['schema'], asObject(cContent[type])['schema']);
  }
}

function compareOperation(
  base: Operation,
  current: Operation,
  docs: { base: Json; current: Json },
  where: string,
  webhook: boolean,
  out: Change[],
): void {
  const b = base.operation;
  const c = current.operation;
  // A webhook's request is what the service sends and the receiver reads; its answer is what the receiver writes.
  const sent: Direction = webhook ? 'response' : 'request';
  const answered: Direction = webhook ? 'request' : 'response';
  const requestWhere = `${where} ${webhook ? 'event' : 'request'}`;
  if (b['deprecated'] !== true && c['deprecated'] === true) out.push({ breaking: false, where, what: 'operation deprecated' });

  if (!webhook) {
    const before = securityNames(docs.base, b);
    const after = securityNames(docs.current, c);
    if (canonical(before) !== canonical(after)) {
      const text = (s: string[] | 'anonymous') => (s === 'anonymous' ? 'none' : s.join(' or '));
      if (after === 'anonymous') out.push({ breaking: false, where, what: `no longer requires authentication (was ${text(before)})` });
      else out.push({ breaking: true, where, what: `authentication ${text(before)} → ${text(after)}` });
    }
  }

  const bParams = parameterKeys(base.parameters, base.path);
  const cParams = parameterKeys(current.parameters, current.path);
  const label = (p: Json) => `parameter ${String(p['name'])} (${String(p['in'])})`;
  for (const [key, p] of bParams) if (!cParams.has(key)) out.push({ breaking: true, where: requestWhere, what: `${label(p)} removed` });
  for (const [key, p] of cParams) {
    const before = bParams.get(key);
    if (before === undefined) {
      const required = p['required'] === true;
      out.push({ breaking: required, where: requestWhere, what: `new ${required ? 'required' : 'optional'} ${label(p)}` });
      continue;
    }
    if (before['required'] !== true && p['required'] === true)
      out.push({ breaking: true, where: requestWhere, what: `${label(p)} made required` });
    if (before['required'] === true && p['required'] !== true)
      out.push({ breaking: false, where: requestWhere, what: `${label(p)} made optional` });
    new SchemaComparison(docs.base, docs.current, sent, requestWhere, label(p), out).compare(before['schema'], p['schema']);
  }

  const bBody = b['requestBody'] === undefined ? undefined : resolveSchema(docs.base, b['requestBody']).schema;
  const cBody = c['requestBody'] === undefined ? undefined : resolveSchema(docs.current, c['requestBody']).schema;
  if (bBody !== undefined && cBody === undefined) out.push({ breaking: true, where: requestWhere, what: 'body removed' });
  else if (bBody === undefined && cBody !== undefined) {
    out.push({
      breaking: cBody['required'] === true,
      where: requestWhere,
      what: `${cBody['required'] === true ? 'required' : 'optional'} body added`,
    });
  } else if (bBody !== undefined && cBody !== undefined) {
    if (bBody['required'] !== true && cBody['required'] === true)
      out.push({ breaking: true, where: requestWhere, what: 'body made required' });
    if (bBody['required'] === true && cBody['required'] !== true)
      out.push({ breaking: false, where: requestWhere, what: 'body made optional' });
    compareContent(bBody, cBody, docs, sent, requestWhere, out);
  }

  const bResponses = asObject(b['responses']);
  const cResponses = asObject(c['responses']);
  for (const status of Object.keys(bResponses)) {
    if (!(status in cResponses)) out.push({ breaking: true, where, what: `status ${status} removed` });
  }
  for (const status of Object.keys(cResponses)) {
    if (!(status in bResponses)) {
      out.push({ breaking: false, where, what: `status ${status} added` });
      continue;
    }
    const responseWhere = `${where} ${webhook ? 'reply' : 'response'} ${status}`;
    const before = resolveSchema(docs.base, bResponses[status]).schema;
    const after = resolveSchema(docs.current, cResponses[status]).schema;
    compareContent(before, after, docs, answered, responseWhere, out);
  }
}

/** Every change from `base` to `current`, in document order; `label` names the document (`v2`). */
export function compareDocuments(base: Json, current: Json, label: string): Change[] {
  const out: Change[] = [];
  const docs = { base, current };
  for (const where of ['paths', 'webhooks'] as const) {
    const webhook = where === 'webhooks';
    const before = operationsOf(base, where);
    const after = operationsOf(current, where);
    const name = (op: Operation) => `${label} ${webhook ? `webhook ${op.path}` : `${op.method.toUpperCase()} ${op.path}`}`;
    for (const [key, op] of before) {
      const match = after.get(key);
      if (match === undefined) out.push({ breaking: true, where: name(op), what: `${webhook ? 'webhook' : 'operation'} removed` });
      else compareOperation(op, match, docs, name(match), webhook, out);
    }
    for (const [key, op] of after) {
      if (!before.has(key)) out.push({ breaking: false, where: name(op), what: `${webhook ? 'webhook' : 'operation'} added` });
    }
  }
  return out;
}

export const formatChange = (change: Change): string => `${change.breaking ? 'BREAKING' : 'ok      '}  ${change.where}: ${change.what}`;

export function summary(changes: readonly Change[], since: string): string {
  if (changes.length === 0) return `no changes since ${since}`;
  const breaking = changes.filter((c) => c.breaking).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(changes.length, 'change')} since ${since}: ${breaking} breaking, ${changes.length - breaking} not breaking`;
}

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

class UsageError extends Error {}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    }).trim();
  } catch {
    return undefined;
  }
}

/** The latest tag; else the first commit that has generated/openapi (the package is not released yet). */
function defaultBase(): { ref: string; label: string } {
  const tag = git(['describe', '--tags', '--abbrev=0']);
  if (tag) return { ref: tag, label: `tag ${tag}` };
  const first = git(['rev-list', '--reverse', 'HEAD', '--', DOCUMENTS_DIR])?.split('\n')[0];
  if (first) return { ref: first, label: `${first.slice(0, 7)} (no tag yet: the first commit with ${DOCUMENTS_DIR})` };
  throw new UsageError(`no tag, and no commit with ${DOCUMENTS_DIR}: name the base with --base <file-or-ref>`);
}

function parseDocument(text: string, from: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${from}: not JSON (${(error as Error).message})`);
  }
  if (!isObject(value) || (typeof value['openapi'] !== 'string' && typeof value['swagger'] !== 'string')) {
    throw new UsageError(`${from}: not an OpenAPI document`);
  }
  return value;
}

const readDocument = (file: string) => parseDocument(readFileSync(file, 'utf8'), file);
const readOptional = (file: string) => (existsSync(file) ? readDocument(file) : undefined);

/** Where documents come from: a file, a folder of `v1.json`/`v2.json`, or a git ref's generated/openapi. */
type Source = { kind: 'file'; file: string } | { kind: 'dir'; dir: string } | { kind: 'ref'; ref: string };

function source(arg: string): Source {
  if (existsSync(arg)) return statSync(arg).isDirectory() ? { kind: 'dir', dir: arg } : { kind: 'file', file: arg };
  if (git(['rev-parse', '--verify', '--quiet', `${arg}^{commit}`]) !== undefined) return { kind: 'ref', ref: arg };
  throw new UsageError(`--base ${arg}: neither a file, a folder, nor a git ref`);
}

function documentAt(from: Source, name: string): Json | undefined {
  switch (from.kind) {
    case 'file':
      return readDocument(from.file);
    case 'dir':
      return readOptional(join(from.dir, `${name}.json`));
    case 'ref': {
      const text = git(['show', `${from.ref}:${DOCUMENTS_DIR}/${name}.json`]);
      return text === undefined ? undefined : parseDocument(text, `${from.ref}:${DOCUMENTS_DIR}/${name}.json`);
    }
  }
}

const EMPTY: Json = { openapi: '3.1.0', paths: {} };

export function main(argv: string[]): number {
  const usage = 'usage: breakingChanges [--base <file-or-folder-or-ref>] [--current <file-or-folder>] [--fail-on-breaking]';
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        base: { type: 'string' },
        current: { type: 'string' },
        'fail-on-breaking': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      console.log(usage);
      return 0;
    }
    const given = values.base === undefined ? undefined : source(values.base);
    const fallback = given === undefined ? defaultBase() : undefined;
    const base: Source = given ?? { kind: 'ref', ref: fallback!.ref };
    const since = fallback?.label ?? values.base!;
    const currentArg = values.current ?? join(ROOT, DOCUMENTS_DIR);
    if (!existsSync(currentArg)) throw new UsageError(`--current ${currentArg}: no such file or folder`);
    const currentIsDir = statSync(currentArg).isDirectory();
    const names = !currentIsDir ? [basename(currentArg, '.json')] : base.kind === 'file' ? [basename(base.file, '.json')] : [...DOCUMENTS];
    const changes: Change[] = [];
    for (const name of names) {
      const current = currentIsDir ? readOptional(join(currentArg, `${name}.json`)) : readDocument(currentArg);
      if (currentIsDir && current === undefined && base.kind === 'file') {
        throw new UsageError(
          `--base ${base.file}: ${relative(process.cwd(), join(currentArg, `${name}.json`))} does not exist to compare with`,
        );
      }
      const before = documentAt(base, name);
      if (before === undefined && current === undefined) continue;
      changes.push(...compareDocuments(before ?? EMPTY, current ?? EMPTY, name));
    }
    for (const change of changes) console.log(formatChange(change));
    console.log(summary(changes, since));
    return values['fail-on-breaking'] && changes.some((c) => c.breaking) ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`breakingChanges: ${(error as Error).message}\n${usage}`);
      return 2;
    }
    throw error;
  }
}

const invoked = process.argv[1] === undefined ? undefined : resolve(process.argv[1]);
if (invoked !== undefined && existsSync(invoked) && realpathSync(invoked) === realpathSync(fileURLToPath(import.meta.url))) {
  process.exitCode = main(process.argv.slice(2));
}
