/**
 * How test/interfaceTables.test.ts checks one oracle row (test/support/interfaceTableFacts.ts) against the generated
 * OpenAPI documents `generated/openapi/v1.json` and `generated/openapi/v2.json`: the documents, a small `$ref`
 * resolver, the place of a field under its owner, and the checks of its type, enum values, default and source.
 *
 * Conventions used by the checks:
 * - `$ref` is followed; keywords written beside a `$ref` (description,
 *   default, x-crawlspec-source, ...) win over the referenced definition.
 * - A field's JSON type must be among the types its schema allows (for a
 *   union, among the branches). "integer" fields must say `integer`;
 *   "string (URI)" fields only need a string schema.
 * - Defaults are compared with `toEqual`. A "-" default in the interface is
 *   not checked; "team's concurrency limit" means no fixed default value.
 * - Enums may carry values beyond the interface's, but each extra value must
 *   be listed in that schema's `x-crawlspec-extension-values`, and every
 *   interface value must be present.
 * - Every interface-stated field carries `x-crawlspec-source: "interface §..."`
 *   (on the property, beside its `$ref`, or on the referenced definition).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Row, TEAM_LIMIT, type TypeFact, type Version, rowName, typeLabel } from './interfaceTableFacts.js';

export type Schema = { [key: string]: unknown };

function loadDoc(version: Version): Schema {
  const text = readFileSync(new URL(`../../generated/openapi/${version}.json`, import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (!isObj(parsed)) throw new Error(`${version}.json is not a JSON object`);
  return parsed;
}

export const DOCS: Record<Version, Schema> = { v1: loadDoc('v1'), v2: loadDoc('v2') };

export function isObj(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const COMPONENT = '#/components/schemas/';

/** Follow a local JSON pointer (`#/...`) inside `doc`. */
function lookup(doc: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $ref is supported, got ${ref}`);
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(cur) || !(key in cur)) throw new Error(`dangling $ref ${ref}`);
    cur = cur[key];
  }
  if (!isObj(cur)) throw new Error(`$ref ${ref} does not point at a schema`);
  return cur;
}

interface Resolved {
  /** The schema with every `$ref` replaced; keywords beside a `$ref` win. */
  schema: Schema;
  /** The `$ref`s followed, outermost first. */
  refs: string[];
}

function resolve(doc: Schema, schema: Schema): Resolved {
  let cur = schema;
  const refs: string[] = [];
  while (typeof cur.$ref === 'string') {
    const ref = cur.$ref;
    if (refs.includes(ref)) throw new Error(`$ref cycle through ${ref}`);
    refs.push(ref);
    const { $ref: _ignored, ...beside } = cur;
    cur = { ...lookup(doc, ref), ...beside };
  }
  return { schema: cur, refs };
}

/** The alternatives of a schema: union members (anyOf/oneOf, flattened, resolved) or the schema itself. */
function branches(doc: Schema, schema: Schema): Schema[] {
  const members = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (!members) return [schema];
  return members.flatMap((m) => {
    if (!isObj(m)) throw new Error('union member is not a schema');
    return branches(doc, resolve(doc, m).schema);
  });
}

/** JSON types a schema admits, across union branches. */
function typesOf(doc: Schema, schema: Schema): Set<string> {
  const out = new Set<string>();
  for (const b of branches(doc, schema)) {
    if (typeof b.type === 'string') out.add(b.type);
    else if (Array.isArray(b.type)) for (const t of b.type) out.add(String(t));
  }
  return out;
}

/** String values a (resolved, non-union) schema names through `const` or `enum`. */
function namedValues(schema: Schema): string[] | undefined {
  if (typeof schema.const === 'string') return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  return undefined;
}

function extensionValues(schema: Schema): string[] {
  const ext = schema['x-crawlspec-extension-values'];
  return Array.isArray(ext) ? ext.map(String) : [];
}

/** The value(s) of the `type` discriminator property of an object branch. */
function discriminatorValues(doc: Schema, branch: Schema): { values: string[]; holder: Schema } | undefined {
  const props = branch.properties;
  if (!isObj(props) || !isObj(props.type)) return undefined;
  const holder = resolve(doc, props.type).schema;
  const values = namedValues(holder);
  return values ? { values, holder } : undefined;
}

interface Located {
  node: Schema;
  refs: string[];
  /** The object schema that holds the last property on the path, if the path ends in a property. */
  parent?: Schema;
  key?: string;
}

/**
 * Walk `Owner.prop.prop[].<kind>.prop` from a component:
 *   `name`   a property;  `name[]` that property's array items;
 *   `<kind>` the union member whose `type` property is (preferably `const`) that value.
 */
function locate(doc: Schema, path: string): Located {
  const [owner, ...steps] = path.split('.');
  if (!owner) throw new Error(`empty path`);
  let here: Located = resolveRef(doc, { $ref: COMPONENT + owner });
  let walked = owner;
  for (const step of steps) {
    const kind = /^<(.+)>$/.exec(step);
    if (kind) {
      const wanted = kind[1] ?? '';
      const candidates = branches(doc, here.node).filter((b) => discriminatorValues(doc, b)?.values.includes(wanted));
      const exact = candidates.find((b) => discriminatorValues(doc, b)?.values.length === 1) ?? candidates[0];
      if (!exact) throw new Error(`${walked} has no member with type "${wanted}"`);
      here = { node: exact, refs: [] };
      walked += `.${step}`;
      continue;
    }
    const items = step.endsWith('[]');
    const key = items ? step.slice(0, -2) : step;
    const props = here.node.properties;
    const raw = isObj(props) ? props[key] : undefined;
    if (!isObj(raw)) throw new Error(`${walked} has no property "${key}"`);
    const parent = here.node;
    here = { ...resolveRef(doc, raw), parent, key };
    walked += `.${key}`;
    if (items) {
      const arrayBranch = branches(doc, here.node).find((b) => b.type === 'array');
      if (!arrayBranch || !isObj(arrayBranch.items)) throw new Error(`${walked} is not an array with items`);
      here = resolveRef(doc, arrayBranch.items);
      walked += '[]';
    }
  }
  return here;
}

function resolveRef(doc: Schema, schema: Schema): Located {
  const { schema: node, refs } = resolve(doc, schema);
  return { node, refs };
}

export function hasProperty(doc: Schema, path: string, key: string): boolean {
  const { node } = locate(doc, path);
  return isObj(node.properties) && key in node.properties;
}

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

function checkType(doc: Schema, node: Schema, t: TypeFact, at: string): void {
  const types = typesOf(doc, node);
  if (typeof t === 'string') {
    const want = t === 'uri' ? 'string' : t;
    expect([...types], `${at}: JSON type should include "${want}"`).toContain(want);
    return;
  }
  if ('array' in t) {
    const arrayBranch = branches(doc, node).find((b) => b.type === 'array');
    expect(arrayBranch, `${at}: should be an array`).toBeDefined();
    if (!arrayBranch || t.array === 'any') return;
    expect(isObj(arrayBranch.items), `${at}: array should declare its items`).toBe(true);
    if (isObj(arrayBranch.items)) checkType(doc, resolve(doc, arrayBranch.items).schema, t.array, `${at}[]`);
    return;
  }
  if ('enum' in t) {
    expect([...types], `${at}: enum should be of type string`).toContain('string');
    checkEnum(node, t.enum, at);
    return;
  }
  if ('constant' in t) {
    expect([...types], `${at}: should be a string`).toContain('string');
    expect(namedValues(node), `${at}: fixed value`).toEqual([t.constant]);
    return;
  }
  if ('accepts' in t) {
    const ok = branches(doc, node).some((b) => {
      if (b.type !== 'string') return false;
      const values = namedValues(b);
      return values === undefined || values.includes(t.accepts);
    });
    expect(ok, `${at}: should accept the string "${t.accepts}"`).toBe(true);
    return;
  }
  if ('either' in t) {
    for (const alt of t.either) checkType(doc, node, alt, `${at} (${typeLabel(alt)} alternative)`);
    return;
  }
  if ('formatNames' in t) {
    const named = branches(doc, node).filter((b) => b.type === 'string' && namedValues(b) !== undefined);
    expect(named.length, `${at}: should admit a format name string`).toBeGreaterThan(0);
    const all = named.flatMap((b) => namedValues(b) ?? []);
    expect(all, `${at}: format names`).toEqual(expect.arrayContaining([...t.formatNames]));
    for (const b of named) checkExtras(b, t.formatNames, `${at} (format name enum)`);
    return;
  }
  if ('formatObjects' in t) {
    const objects = branches(doc, node).filter((b) => b.type === 'object');
    const found = objects.flatMap((b) => discriminatorValues(doc, b)?.values ?? []);
    expect(found, `${at}: object format types`).toEqual(expect.arrayContaining([...t.formatObjects]));
    for (const b of objects) {
      const d = discriminatorValues(doc, b);
      if (d && Array.isArray(d.holder.enum))
        checkExtras(d.holder, t.formatObjects, `${at} (${String(b.title ?? 'format object')}.type enum)`);
    }
    return;
  }
  const kinds = branches(doc, node).flatMap((b) => discriminatorValues(doc, b)?.values ?? []);
  expect(kinds, `${at}: kinds`).toEqual(expect.arrayContaining([...t.kinds]));
}

function checkEnum(node: Schema, expected: readonly string[], at: string): void {
  const values = namedValues(node);
  expect(values, `${at}: should be an enum`).toBeDefined();
  expect(values, `${at}: enum values`).toEqual(expect.arrayContaining([...expected]));
  checkExtras(node, expected, at);
}

/** Values beyond the interface's must be declared as extensions, and extensions must not shadow interface values. */
function checkExtras(node: Schema, expected: readonly string[], at: string): void {
  const values = namedValues(node) ?? [];
  const extras = values.filter((v) => !expected.includes(v));
  const declared = extensionValues(node);
  expect(declared, `${at}: values beyond the interface's must be listed in x-crawlspec-extension-values`).toEqual(
    expect.arrayContaining(extras),
  );
  expect(
    declared.filter((v) => expected.includes(v)),
    `${at}: x-crawlspec-extension-values must not list interface values`,
  ).toEqual([]);
}

function checkRow(r: Row): void {
  const doc = DOCS[r.v];
  const at = `${r.v} ${r.path}`;
  const { node, refs, parent, key } = locate(doc, r.path);

  if (r.type !== undefined) checkType(doc, node, r.type, at);

  if (r.required !== undefined) {
    expect(parent && key, `${at}: required-ness needs a property`).toBeTruthy();
    const required = Array.isArray(parent?.required) ? parent.required : [];
    expect(required.includes(key), `${at}: ${r.required ? 'must' : 'must not'} be in "required"`).toBe(r.required);
  }

  if ('def' in r) {
    if (r.def === TEAM_LIMIT) expect(node.default, `${at}: no fixed default (team concurrency limit)`).toBeUndefined();
    else expect(node.default, `${at}: default`).toEqual(r.def);
  }

  if (r.max !== undefined) expect(node.maximum, `${at}: maximum`).toBe(r.max);

  if (r.deprecated) expect(node.deprecated, `${at}: deprecated`).toBe(true);

  if (r.ref !== undefined) expect(refs, `${at}: should resolve to ${r.ref}`).toContain(COMPONENT + r.ref);

  expect(node['x-crawlspec-source'], `${at}: x-crawlspec-source`).toMatch(/^interface §/);
}

export function suite(title: string, list: readonly Row[]): void {
  describe(title, () => {
    for (const r of list) it(rowName(r), () => checkRow(r));
  });
}
