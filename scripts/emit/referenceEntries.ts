/**
 * What the reference tells, gathered from the single source: every named definition of each version (as the JSON
 * Schema the package emits, with its annotations), its fields, the rules it carries (schema rules and code rules)
 * and the operations. Each entry is filed under the citation it carries: a section of the interface, or `service`.
 */
import { DEFAULT_SOURCE, EXTENSION, EXTENSION_VALUES, KEYWORD_SOURCES, RULES, SOURCE } from '../../schemas/annotations.js';
import { CODE_RULES } from '../../schemas/codeRules/index.js';
import { operations } from '../../schemas/operations.js';
import { VERSIONS, type Version } from '../../schemas/registry.js';
import type { SchemaName } from '../../schemas/validate.js';
import { emitDefinitions } from './definitions.js';
import type { JsonSchema } from './jsonSchema.js';

/** `interface §2.4` or `service`. */
export type Citation = string;

export interface Limit {
  /** `maximum 300000`, `items: maxLength 2000`. */
  readonly text: string;
  readonly source: Citation;
}

export interface FieldEntry {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly default?: { readonly value: string; readonly source: Citation };
  readonly limits: readonly Limit[];
  readonly meaning: string;
  readonly source: Citation;
  /** Accepted by the service beyond what the interface lists. */
  readonly extension: boolean;
  /** Enum values only the service accepts. */
  readonly extensionValues: readonly string[];
}

export interface RuleEntry {
  readonly id: string;
  readonly what: string;
  readonly source: Citation;
}

export interface DefinitionEntry {
  /** The versions it is the same in (`v1, v2` for a shared definition). */
  readonly versions: readonly Version[];
  readonly name: string;
  readonly source: Citation;
  readonly meaning: string;
  readonly type: string;
  readonly fields: readonly FieldEntry[];
  /** Constraints on the definition as a whole (`additionalProperties false`, `required type`), each with its source. */
  readonly constraints: readonly Limit[];
  readonly rules: readonly RuleEntry[];
}

export interface OperationEntry {
  readonly version: Version;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
  readonly body?: string;
  readonly source: Citation;
}

const REF = '#/$defs/';
const nameOf = (ref: string): string => ref.slice(REF.length);
const LIMIT_KEYWORDS = [
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
] as const;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const list = (value: unknown): JsonSchema[] => (Array.isArray(value) ? (value as JsonSchema[]) : []);

/** A type in a few words: `string (uri)`, `"skip" | "include"`, `ScrapeOptions`, `string[]`. */
export function typeText(schema: JsonSchema, depth = 0): string {
  if (depth > 3) return '…';
  const ref = str(schema.$ref);
  if (ref !== undefined) return nameOf(ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const branches = list(schema.anyOf).length > 0 ? list(schema.anyOf) : list(schema.oneOf);
  if (branches.length > 0) return [...new Set(branches.map((b) => typeText(b, depth + 1)))].join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' | ');
  if (type === 'array') {
    const items = schema.items;
    const inner = typeof items === 'object' && items !== null ? typeText(items as JsonSchema, depth + 1) : 'any';
    return inner.includes(' ') ? `(${inner})[]` : `${inner}[]`;
  }
  if (type === 'string' && str(schema.format) !== undefined) return `string (${String(schema.format)})`;
  if (typeof type === 'string') return type;
  const whole = list(schema.allOf).find((part) => part.type !== undefined || part.$ref !== undefined);
  return whole === undefined ? 'any' : typeText(whole, depth + 1);
}

/** The object part of a schema: its own properties, or those of an `allOf` branch that has them. */
function objectPart(schema: JsonSchema): JsonSchema | undefined {
  if (typeof schema.properties === 'object') return schema;
  return list(schema.allOf).map(objectPart).find((o) => o !== undefined);
}

const keywordSource = (schema: JsonSchema, keyword: string, fallback: Citation): Citation => {
  const sources = schema[KEYWORD_SOURCES] as Record<string, unknown> | undefined;
  return str(sources?.[keyword]) ?? fallback;
};

function limitsOf(schema: JsonSchema, source: Citation, prefix = ''): Limit[] {
  const own = LIMIT_KEYWORDS.filter((k) => k in schema).map((k) => ({
    text: `${prefix}${k} ${typeof schema[k] === 'string' ? String(schema[k]) : JSON.stringify(schema[k])}`,
    source: keywordSource(schema, k, source),
  }));
  const items = schema.items;
  const nested = prefix === '' && typeof items === 'object' && items !== null && !('$ref' in items) ? limitsOf(items as JsonSchema, source, 'items: ') : [];
  return [...own, ...nested];
}

/** Every rule a definition carries: those marked in its schema (`x-crawlspec-rules`) and its code rules. */
function rulesOf(schema: JsonSchema, qualified: string): RuleEntry[] {
  const found: RuleEntry[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach(visit);
    const record = node as JsonSchema;
    for (const rule of list(record[RULES])) {
      found.push({ id: String(rule.id), what: str(record.description) ?? String(rule.message), source: String(rule.source) });
    }
    for (const [key, value] of Object.entries(record)) if (key !== RULES && key !== '$defs') visit(value);
  };
  visit(schema);
  for (const { rule } of CODE_RULES[qualified as SchemaName] ?? []) found.push({ id: rule.id, what: rule.description, source: rule.source });
  return found;
}

function fieldsOf(schema: JsonSchema, owner: Citation, sourceOfRef: (name: string) => Citation | undefined): FieldEntry[] {
  const object = objectPart(schema);
  if (object === undefined) return [];
  const required = new Set(list(object.required) as unknown as string[]);
  return Object.entries(object.properties as Record<string, JsonSchema>).map(([name, field]) => {
    const ref = str(field.$ref);
    const source = str(field[SOURCE]) ?? (ref === undefined ? undefined : sourceOfRef(nameOf(ref))) ?? owner;
    return {
      name,
      type: typeText(field),
      required: required.has(name),
      ...('default' in field ? { default: { value: JSON.stringify(field.default), source: str(field[DEFAULT_SOURCE]) ?? source } } : {}),
      limits: limitsOf(field, source),
      meaning: str(field.description) ?? '',
      source,
      extension: field[EXTENSION] === true,
      extensionValues: list(field[EXTENSION_VALUES]).map(String),
    };
  });
}

/** The definition's own constraint keywords that `x-crawlspec-keyword-sources` names (`required` per property). */
function constraintsOf(schema: JsonSchema): Limit[] {
  const object = objectPart(schema) ?? schema;
  const sources = (object[KEYWORD_SOURCES] ?? schema[KEYWORD_SOURCES]) as Record<string, unknown> | undefined;
  return Object.entries(sources ?? {}).flatMap(([keyword, source]): Limit[] => {
    const value = object[keyword] ?? schema[keyword];
    if (typeof source === 'string')
      return [{ text: `${keyword} ${Array.isArray(value) ? value.join(', ') : JSON.stringify(value)}`, source }];
    return Object.entries(source as Record<string, string>).map(([property, from]) => ({ text: `${keyword} ${property}`, source: from }));
  });
}

/** Every definition of every version; one entry for a definition that is the same in both. */
export function definitionEntries(): DefinitionEntry[] {
  const byKey = new Map<string, { versions: Version[]; make: () => Omit<DefinitionEntry, 'versions'> }>();
  for (const version of VERSIONS) {
    const defs = emitDefinitions(version, (name) => `${REF}${name}`);
    const sourceOfRef = (name: string) => str(defs.get(name)?.schema[SOURCE]);
    for (const [name, { schema }] of defs) {
      const source = str(schema[SOURCE]) ?? 'service';
      const key = `${name}\n${JSON.stringify(schema)}`;
      const known = byKey.get(key);
      if (known !== undefined) known.versions.push(version);
      else
        byKey.set(key, {
          versions: [version],
          make: () => ({
            name,
            source,
            meaning: str(schema.description) ?? '',
            type: typeText(schema),
            fields: fieldsOf(schema, source, sourceOfRef),
            constraints: constraintsOf(schema),
            rules: rulesOf(schema, `${version}/${name}`),
          }),
        });
    }
  }
  return [...byKey.values()].map(({ versions, make }) => ({ versions, ...make() }));
}

export function operationEntries(): OperationEntry[] {
  return VERSIONS.flatMap((version) =>
    operations(version).map((op) => ({
      version,
      method: op.method.toUpperCase(),
      path: `/${version}${op.path}`,
      summary: op.summary,
      ...(op.requestBody === undefined ? {} : { body: op.requestBody }),
      source: op.source,
    })),
  );
}
