/**
 * What there is to cover, computed from the single source (never a hand-kept list): the operations of each version
 * and the statuses each documents (schemas/operations.ts); the fields of each request body and of each answer body,
 * as JSON paths (`$.scrapeOptions.formats`, an array's items as `[]`), and the enum values (every string literal) of
 * each request body, walked from the TypeBox definitions (schemas/registry.ts); the rules of each request body: those
 * the schema marks (`x-crawlspec-rules`, schemas/rule.ts) where it marks them, and those written as code
 * (schemas/codeRules/) where they are placed. Computed once, on first use.
 */
import type { TSchema } from '@sinclair/typebox';
import { RULES } from '../../schemas/annotations.js';
import { CODE_RULES } from '../../schemas/codeRules/index.js';
import { jsonPath } from '../../schemas/issues.js';
import { operations, type OperationSpec } from '../../schemas/operations.js';
import { definitions, VERSIONS, type Version } from '../../schemas/registry.js';
import type { RuleSpec } from '../../schemas/rule.js';
import type { SchemaName } from '../../schemas/validate.js';

/** A place of a rule in a request body: where the schema marks it, or where a code rule is placed. */
export interface RulePlace {
  /** The request definition, e.g. `v2/CrawlRequest`. */
  readonly schema: string;
  /** The object (or value) the rule looks at, as a JSON path with `[]` for any item. */
  readonly at: string;
  /** For a code rule: the fields without which it always keeps (absent: it may break whatever the object holds). */
  readonly triggers?: readonly string[];
}

export interface Universe {
  readonly operations: readonly { readonly version: Version; readonly operation: OperationSpec }[];
  /** Per request definition (`v2/CrawlRequest`), its fields' paths. */
  readonly requestFields: ReadonlyMap<string, readonly string[]>;
  /** Per request definition, each path that holds string literals, and those literals. */
  readonly enumValues: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
  /** Per rule (`v2 waitForWithinTimeout`), where it applies. */
  readonly rules: ReadonlyMap<string, readonly RulePlace[]>;
  /** Per answer definition (`v2/JobStatusResponse`), its fields' paths. */
  readonly answerFields: ReadonlyMap<string, readonly string[]>;
}

/** `["formats", 0, "type"]` → `$.formats[].type`: a path of the spec, any item of an array as `[]`. */
export const pathOf = (segments: readonly (string | number)[]): string =>
  segments.reduce<string>((path, s) => (typeof s === 'number' ? `${path}[]` : `${path}${jsonPath([s]).slice(1)}`), '$');

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How deep the walk goes below a body's root: a recursive definition (none yet) stops there. */
const MAX_DEPTH = 16;

interface Found {
  readonly fields: Set<string>;
  readonly literals: Map<string, Set<string>>;
  readonly rules: Map<string, Set<string>>;
}

/**
 * Every field path, string literal and schema-marked rule of `schema`, by walking its structure: properties, array
 * items, and every branch of a union or intersection. `not`, `contains`, `if`, and pattern properties are not walked:
 * what they hold is a constraint on values, not a field a body may carry.
 */
function walk(schema: TSchema): Found {
  const found: Found = { fields: new Set(), literals: new Map(), rules: new Map() };
  const visit = (node: unknown, segments: readonly (string | number)[], depth: number): void => {
    if (!isNode(node) || depth > MAX_DEPTH) return;
    const here = pathOf(segments);
    for (const rule of (node[RULES] as readonly RuleSpec[] | undefined) ?? []) {
      const places = found.rules.get(rule.id) ?? new Set<string>();
      found.rules.set(rule.id, places.add(here));
    }
    if (typeof node['const'] === 'string') {
      const values = found.literals.get(here) ?? new Set<string>();
      found.literals.set(here, values.add(node['const']));
    }
    for (const key of ['anyOf', 'allOf', 'oneOf'])
      for (const branch of (node[key] as unknown[] | undefined) ?? []) visit(branch, segments, depth + 1);
    if (isNode(node['items'])) visit(node['items'], [...segments, 0], depth + 1);
    if (isNode(node['properties']))
      for (const [name, property] of Object.entries(node['properties'])) {
        found.fields.add(pathOf([...segments, name]));
        visit(property, [...segments, name], depth + 1);
      }
  };
  visit(schema, [], 0);
  return found;
}

const sorted = (values: Iterable<string>) => [...values].sort();

function compute(): Universe {
  const ops = VERSIONS.flatMap((version) => operations(version).map((operation) => ({ version, operation })));
  const requestFields = new Map<string, string[]>();
  const enumValues = new Map<string, Map<string, string[]>>();
  const rules = new Map<string, RulePlace[]>();
  const answerFields = new Map<string, string[]>();
  const addRule = (key: string, place: RulePlace) => rules.set(key, [...(rules.get(key) ?? []), place]);
  for (const version of VERSIONS) {
    const ofVersion = ops.filter((o) => o.version === version).map((o) => o.operation);
    const bodies = new Set(ofVersion.flatMap((o) => (o.requestBody === undefined ? [] : [o.requestBody])));
    for (const body of sorted(bodies)) {
      const name = `${version}/${body}`;
      const found = walk(definitions[version].get(body)!);
      requestFields.set(name, sorted(found.fields));
      enumValues.set(name, new Map(sorted(found.literals.keys()).map((path) => [path, sorted(found.literals.get(path)!)])));
      for (const [id, places] of found.rules) for (const at of sorted(places)) addRule(`${version} ${id}`, { schema: name, at });
      for (const { at, rule } of CODE_RULES[name as SchemaName] ?? [])
        addRule(`${version} ${rule.id}`, {
          schema: name,
          at: jsonPath(at),
          ...(rule.triggers === undefined ? {} : { triggers: rule.triggers }),
        });
    }
    const answers = new Set(ofVersion.flatMap((o) => Object.values(o.responses).map((r) => r.schema)));
    for (const answer of sorted(answers)) answerFields.set(`${version}/${answer}`, sorted(walk(definitions[version].get(answer)!).fields));
  }
  return { operations: ops, requestFields, enumValues, rules: new Map([...rules].sort(([a], [b]) => (a < b ? -1 : 1))), answerFields };
}

let universe: Universe | undefined;

/** What there is to cover (computed on first use). */
export const coverageUniverse = (): Universe => (universe ??= compute());
