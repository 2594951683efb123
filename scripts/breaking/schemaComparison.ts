/**
 * Comparing two versions of one schema (breakingChanges.ts): types, values, limits, other constraints, fields, rules,
 * defaults and union variants, each change judged breaking or not for who writes or reads the schema.
 */
import type { Change, Direction } from './change.js';
import {
  asObject,
  branchesOf,
  canonical,
  componentName,
  covered,
  isObject,
  resolveSchema,
  typesWithValues,
  valuesOf,
  type Json,
  type Resolved,
} from './schemaReading.js';

/** A value for a message: JSON, cut short when long (a country-code pattern runs to a thousand characters). */
function shown(value: unknown): string {
  const text = value === undefined ? 'none' : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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
export class SchemaComparison {
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
