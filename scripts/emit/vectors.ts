/**
 * Language-agnostic conformance vectors, `generated/vectors/`, in the form the JSON Schema Test Suite uses:
 *
 *   vectors/<version>/<Name>.json   an array of groups `{ description, schema, schemaFile, tests }`, each test
 *                                   `{ description, data, valid, rule?, format? }`
 *   vectors/rules.json              the rules written as code (`schemas/codeRules/`): id, where each applies
 *   vectors/vector.schema.json      a meta-schema (draft 2020-12) of a vector file (and of rules.json)
 *
 * `schema` names a definition (`v2/CrawlRequest`); `schemaFile` is its JSON Schema, relative to the vector
 * file. A runner in another language needs a JSON parser and a JSON Schema validator: a test without `rule`
 * is decided by the JSON Schema alone; a test with `rule` also needs that code rule (see rules.json), and a
 * runner without it can skip it. A test with `format` needs format assertion (`uri`, `date-time`, `uuid`),
 * which draft 2020-12 validators treat as an annotation unless told otherwise.
 *
 * Nothing is written per field. The tests are derived from the definitions (the JSON Schemas that
 * `jsonSchemaFiles` emits): for every property, a valid value, its default, each limit from both sides, a
 * value of the wrong type, each enum value and a value outside the enum, a value that breaks its format; for
 * objects, an unknown key, a missing required key, and (requests) each field of the other version; for
 * unions, each branch. Then every cross-field rule case of `scripts/contract/ruleCases.ts`, both sides.
 *
 * Generation checks itself: each derived answer is confirmed by a plain JSON Schema validator (Ajv on the
 * emitted schema) and by the code rules; where a derived valid value is refused only because a cross-field
 * schema rule needs a companion field (`jsonOptions` needs the `json` format), the context of a valid rule
 * case supplies it; where a code rule refuses it, the test says so with `rule`. Any other disagreement
 * throws, so a definition the derivation does not understand fails generation instead of yielding a wrong
 * vector.
 */
import type { ValidateFunction } from 'ajv';
import { CODE_RULES } from '../../schemas/codeRules/index.js';
import { field, isRecord } from '../../schemas/codeRules/codeRule.js';
import { VERSIONS, type Version } from '../../schemas/registry.js';
import type { SchemaName } from '../../schemas/validate.js';
import { RULE_CASES } from '../contract/ruleCases.js';
import { createAjv, FORMATS } from './ajv.js';
import type { JsonSchema } from './jsonSchema.js';
import { DIALECT, jsonSchemaFiles } from './jsonSchemaFiles.js';
import { pointerSegment } from '../../schemas/place.js';

/** The request definitions: every property of each is covered. */
export const REQUEST_DEFINITIONS = ['CrawlRequest', 'BatchScrapeRequest', 'ScrapeOptions'] as const;
/** Every definition with a vector file, in each version. */
export const VECTOR_DEFINITIONS = [
  ...REQUEST_DEFINITIONS,
  'Location',
  'Webhook',
  'Action',
  'CrawlStartResponse',
  'BatchScrapeStartResponse',
  'JobStatusResponse',
] as const;

export const VECTOR_SCHEMA_ID = 'https://crawlspec.dev/vectors/vector.schema.json';

export interface VectorTest {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
  /** The code rule (rules.json) the answer depends on; a plain JSON Schema validator accepts `data`. */
  readonly rule?: string;
  /** The format whose assertion the answer depends on. */
  readonly format?: string;
}

export interface VectorGroup {
  readonly description: string;
  /** `v2/CrawlRequest`. */
  readonly schema: string;
  /** The JSON Schema file of `schema`, relative to the vector file. */
  readonly schemaFile: string;
  readonly tests: VectorTest[];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every vector file, by path relative to `generated/`. */
export function vectorFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const descriptions = new Set<string>();
  const unique = (description: string) => {
    if (descriptions.has(description)) throw new Error(`vectors: description "${description}" is used twice`);
    descriptions.add(description);
  };
  const ajv = createAjv();
  const schemas = Object.fromEntries(VERSIONS.map((v) => [v, jsonSchemaFiles(v)])) as Record<Version, Map<string, JsonSchema>>;
  for (const version of VERSIONS) {
    for (const name of VECTOR_DEFINITIONS) {
      const groups = new VectorFileBuilder(ajv, schemas, version, name).build();
      for (const group of groups) {
        unique(group.description);
        group.tests.forEach((t) => unique(t.description));
      }
      files.set(`vectors/${version}/${name}.json`, json(groups));
    }
  }
  files.set('vectors/rules.json', json(rulesDocument()));
  files.set('vectors/vector.schema.json', json(vectorMetaSchema()));
  return files;
}

// ---------------------------------------------------------------------------------------------------------
// rules.json and the meta-schema

interface RuleUse {
  readonly schema: SchemaName;
  /** JSON Pointer of the object the rule looks at, inside a body of `schema` ('' for the body itself). */
  readonly at: string;
  readonly fields: readonly string[];
  readonly description: string;
}

const pointer = (segments: readonly (string | number)[]) => segments.map((s) => `/${pointerSegment(s)}`).join('');

function codeRuleUses(): Map<string, RuleUse[]> {
  const byId = new Map<string, RuleUse[]>();
  const names = (Object.keys(CODE_RULES) as SchemaName[]).sort();
  for (const schema of names) {
    for (const { at, rule } of CODE_RULES[schema] ?? []) {
      const uses = byId.get(rule.id) ?? [];
      uses.push({ schema, at: pointer(at), fields: [...rule.fields], description: rule.description });
      byId.set(rule.id, uses);
    }
  }
  return new Map([...byId].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function rulesDocument() {
  return {
    description:
      'The rules written as code (schemas/codeRules): JSON Schema cannot say them. A vector test with `rule` is decided by the JSON Schema and that rule; a runner with only a JSON Schema validator skips it (the validator accepts its data). Each use says the definition, the object inside its body the rule looks at (a JSON Pointer), the fields it concerns and what it requires there.',
    rules: [...codeRuleUses()].map(([id, appliesTo]) => ({ id, appliesTo })),
  };
}

export function codeRuleIds(): string[] {
  return [...codeRuleUses().keys()];
}

function vectorMetaSchema(): JsonSchema {
  const text = { type: 'string', minLength: 1 };
  return {
    $schema: DIALECT,
    $id: VECTOR_SCHEMA_ID,
    title: 'crawlspec conformance vector file',
    description:
      'A file of generated/vectors/<version>/: an array of groups in the form of the JSON Schema Test Suite. Descriptions are unique across all files.',
    type: 'array',
    minItems: 1,
    items: { $ref: '#/$defs/group' },
    $defs: {
      group: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'schema', 'schemaFile', 'tests'],
        properties: {
          description: text,
          schema: {
            description: 'The definition the tests are checked against, e.g. `v2/CrawlRequest`.',
            type: 'string',
            pattern: '^v[0-9]+/[A-Za-z]+$',
          },
          schemaFile: {
            description: "The definition's JSON Schema file, relative to the vector file.",
            type: 'string',
            pattern: '^\\.\\./\\.\\./schemas/v[0-9]+/[A-Za-z]+\\.json$',
          },
          tests: { type: 'array', minItems: 1, items: { $ref: '#/$defs/test' } },
        },
      },
      test: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'data', 'valid'],
        properties: {
          description: text,
          data: { description: 'The body (or value) to check.' },
          valid: { description: 'Whether the interface accepts `data`.', type: 'boolean' },
          rule: {
            description: 'The code rule (rules.json) the answer depends on: a plain JSON Schema validator accepts `data`.',
            enum: codeRuleIds(),
          },
          format: { description: 'The format the answer depends on: the validator must assert formats.', enum: [...FORMATS] },
        },
      },
      rulesFile: {
        description: 'generated/vectors/rules.json.',
        type: 'object',
        additionalProperties: false,
        required: ['description', 'rules'],
        properties: {
          description: text,
          rules: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'appliesTo'],
              properties: {
                id: text,
                appliesTo: {
                  type: 'array',
                  minItems: 1,
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['schema', 'at', 'fields', 'description'],
                    properties: {
                      schema: { type: 'string', pattern: '^v[0-9]+/[A-Za-z]+$' },
                      at: { type: 'string' },
                      fields: { type: 'array', items: text },
                      description: text,
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Schema helpers (on emitted JSON Schema files: `$ref`s are `#/$defs/Name`)

type Plain = Record<string, unknown>;
type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);
const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const schemaList = (value: unknown): JsonSchema[] => (Array.isArray(value) ? value.filter(isPlain) : []);
const refName = (schema: JsonSchema): string | undefined =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/') ? schema.$ref.slice('#/$defs/'.length) : undefined;

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** Short JSON for a description. */
function preview(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}

const WRONG_VALUES: readonly unknown[] = ['wrong', 12.5, true, null, [], {}];
const UNKNOWN_KEY = 'unknownKey';
const NOT_LISTED = 'not-a-listed-value';
const EXTRA_KEY = 'X-Example';
/** How deep into nested objects properties are followed (a definition with its own vector file is not entered). */
const MAX_DEPTH = 3;
const SAMPLE_FORMATS: Record<string, string> = {
  uri: 'https://example.com',
  'date-time': '2025-01-01T00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
};

interface Node {
  /** The schema at this place, as written (may be a `$ref`). */
  readonly schema: JsonSchema;
  /** `formats[]<ScreenshotFormat>.quality`; '' for the body. */
  readonly label: string;
  /** The whole body with `value` at this place. */
  readonly place: (value: unknown) => unknown;
  /** A valid value here. */
  readonly base: unknown;
  readonly depth: number;
  /** A branch of a union: values of the wrong type may be another branch's. */
  readonly inUnion: boolean;
  readonly group: VectorGroup;
}

/** Reading one emitted JSON Schema file: `$ref`s, types, minimal values. */
class SchemaReader {
  readonly qualified: string;
  constructor(
    readonly root: JsonSchema,
    private readonly name: string,
    version: Version,
  ) {
    this.qualified = `${version}/${name}`;
  }

  deref(schema: JsonSchema): JsonSchema {
    let current = schema;
    const seen = new Set<string>();
    for (let name = refName(current); name !== undefined; name = refName(current)) {
      if (seen.has(name)) throw new Error(`vectors: $ref cycle through ${name}`);
      seen.add(name);
      const defs = this.root.$defs as Record<string, JsonSchema> | undefined;
      const target = name === this.name ? this.root : defs?.[name];
      if (target === undefined) throw new Error(`vectors: ${this.qualified} has no $defs/${name}`);
      const { $ref: _ref, ...beside } = current;
      current = { ...target, ...beside };
    }
    return current;
  }

  /** The JSON types `schema` admits; undefined for any. */
  typesOf(schema: JsonSchema): Set<JsonType> | undefined {
    const s = this.deref(schema);
    if ('const' in s) return new Set([jsonTypeOf(s.const)]);
    if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonTypeOf));
    if (typeof s.type === 'string') return new Set([s.type as JsonType]);
    const branches = schemaList(s.oneOf ?? s.anyOf);
    if (branches.length === 0) return undefined;
    const all = new Set<JsonType>();
    for (const branch of branches) {
      const types = this.typesOf(branch);
      if (types === undefined) return undefined;
      types.forEach((t) => all.add(t));
    }
    return all;
  }

  /** Values `schema` refuses for their type, each with what it is. */
  wrongValues(schema: JsonSchema): [unknown, string][] {
    const types = this.typesOf(schema);
    if (types === undefined) return [];
    const accepts = (value: unknown) => {
      const type = jsonTypeOf(value);
      return types.has(type) || (type === 'integer' && types.has('number'));
    };
    // One of another type; and, for an integer, a number that is not one.
    const first = WRONG_VALUES.find((v) => !accepts(v) && (typeof v !== 'number' || !types.has('integer')));
    const out: [unknown, string][] = first === undefined ? [] : [[first, 'wrong type']];
    if (types.has('integer') && !types.has('number')) out.push([12.5, 'not an integer']);
    return out;
  }

  /**
   * Keys an object must have: its own `required`, and those of one branch of each alternative (the one that
   * requires `wanted`, else the least demanding).
   */
  requiredKeys(s: JsonSchema, wanted?: string): string[] {
    const keys = Array.isArray(s.required) ? s.required.map(String) : [];
    for (const part of schemaList(s.allOf)) keys.push(...this.requiredKeys(this.deref(part), wanted));
    const branches = schemaList(s.anyOf ?? s.oneOf).map((b) => this.requiredKeys(this.deref(b), wanted));
    if (branches.length > 0) {
      const chosen = branches.find((b) => wanted !== undefined && b.includes(wanted));
      keys.push(...(chosen ?? branches.reduce((a, b) => (b.length < a.length ? b : a))));
    }
    return [...new Set(keys)];
  }

  /** A valid value of `schema`: objects with their required keys only; other values from `examples` where given. */
  minimal(schema: JsonSchema, depth = 0, wanted?: string): unknown {
    if (depth > 16) throw new Error(`vectors: ${this.qualified}: no finite minimal value`);
    const s = this.deref(schema);
    if ('const' in s) return clone(s.const);
    const branches = schemaList(s.oneOf ?? s.anyOf);
    if (branches.length > 0 && !isPlain(s.properties)) return this.minimal(branches[0]!, depth + 1);
    if (s.type === 'object') {
      const properties = (isPlain(s.properties) ? s.properties : {}) as Record<string, JsonSchema>;
      const out: Plain = {};
      for (const key of this.requiredKeys(s, wanted)) out[key] = this.minimal(properties[key] ?? {}, depth + 1);
      return out;
    }
    if (Array.isArray(s.examples) && s.examples.length > 0) return clone(s.examples[0] as unknown);
    if (Array.isArray(s.enum) && s.enum.length > 0) return clone(s.enum[0] as unknown);
    if ('default' in s) return clone(s.default);
    switch (s.type) {
      case 'array': {
        const item = isPlain(s.items) ? this.minimal(s.items, depth + 1) : null;
        return Array.from({ length: num(s.minItems) ?? 0 }, () => clone(item));
      }
      case 'string': {
        if (typeof s.format === 'string' && s.format in SAMPLE_FORMATS) return SAMPLE_FORMATS[s.format];
        if (s.pattern !== undefined) throw new Error(`vectors: ${this.qualified}: a string with a pattern needs examples`);
        return 'x'.repeat(Math.max(1, num(s.minLength) ?? 1));
      }
      case 'integer':
      case 'number': {
        const [min, exMin, max] = [num(s.minimum), num(s.exclusiveMinimum), num(s.maximum)];
        const low = min ?? (exMin !== undefined ? exMin + 1 : 0);
        return max !== undefined && low > max ? (exMin !== undefined ? (exMin + max) / 2 : max) : low;
      }
      case 'boolean':
        return false;
      case 'null':
        return null;
      default:
        return null;
    }
  }
}

class VectorFileBuilder {
  private readonly root: JsonSchema;
  private readonly read: SchemaReader;
  private readonly check: ValidateFunction;
  private readonly qualified: SchemaName;
  /** Definitions with their own vector file (and the branches of theirs): used, not entered. */
  private readonly ownFiles: Set<string>;
  /** Valid bodies of this definition's schema rule cases: contexts for values a cross-field rule needs a companion for. */
  private readonly contexts: unknown[];
  private readonly groups: VectorGroup[] = [];

  constructor(
    ajv: ReturnType<typeof createAjv>,
    private readonly schemas: Record<Version, Map<string, JsonSchema>>,
    private readonly version: Version,
    private readonly name: string,
  ) {
    const root = schemas[version].get(name);
    if (root === undefined) throw new Error(`vectors: ${version} has no definition ${name}`);
    this.root = root;
    this.read = new SchemaReader(root, name, version);
    this.qualified = `${version}/${name}` as SchemaName;
    this.check = ajv.getSchema(String(root.$id)) ?? ajv.compile(root);
    this.ownFiles = new Set<string>();
    for (const own of VECTOR_DEFINITIONS) {
      this.ownFiles.add(own);
      const file = schemas[version].get(own);
      if (file !== undefined) for (const branch of schemaList(file.oneOf ?? file.anyOf)) this.ownFiles.add(refName(branch) ?? '');
    }
    this.contexts = RULE_CASES.filter((c) => c.kind === 'schema' && c.version === version && c.schema === name).map((c) => c.valid);
  }

  build(): VectorGroup[] {
    const body = this.group('the body');
    const rootBase = this.read.minimal(this.root);
    this.walk({ schema: this.root, label: '', place: (v) => v, base: rootBase, depth: 0, inUnion: false, group: body });
    this.otherVersionFields(rootBase);
    this.ruleCases();
    return this.groups.filter((g) => g.tests.length > 0);
  }

  // -------------------------------------------------------------------------------------------------------
  // Emitting tests

  private group(what: string): VectorGroup {
    const group: VectorGroup = {
      description: `${this.qualified} ${what}`,
      schema: this.qualified,
      schemaFile: `../../schemas/${this.version}/${this.name}.json`,
      tests: [],
    };
    this.groups.push(group);
    return group;
  }

  /** The code rule `data` breaks, if any. */
  private codeRuleBroken(data: unknown): string | undefined {
    for (const { at, rule } of CODE_RULES[this.qualified] ?? []) {
      let object: unknown = data;
      for (const key of at) object = isRecord(object) ? field(object, String(key)) : undefined;
      if (isRecord(object) && rule.check(object).length > 0) return rule.id;
    }
    return undefined;
  }

  /** `data` within a valid rule case's body (arrays joined, objects merged, `data` winning). */
  private static within(context: unknown, data: unknown): unknown {
    if (Array.isArray(context) && Array.isArray(data)) return [...clone(context), ...data.filter((d) => !context.some((c) => same(c, d)))];
    if (isPlain(context) && isPlain(data)) {
      const out: Plain = clone(context);
      for (const [key, value] of Object.entries(data)) out[key] = key in out ? VectorFileBuilder.within(out[key], value) : value;
      return out;
    }
    return data;
  }

  /** `data` as it is, or within the first rule case context that makes the schema accept it (and that context). */
  private accepted(data: unknown): { data: unknown; context?: unknown } | undefined {
    if (this.check(data)) return { data };
    for (const context of this.contexts) {
      const candidate = VectorFileBuilder.within(context, data);
      if (this.check(candidate)) return { data: candidate, context };
    }
    return undefined;
  }

  /** Emits a test; `spare`: left out when a test of the group already has the same data (a plain valid value). */
  private emit(node: Node, what: string, value: unknown, valid: boolean, format?: string, spare = false): void {
    const description = `${this.qualified} ${node.label === '' ? '(body)' : node.label}: ${what}`;
    let data = clone(node.place(value));
    if (!valid) {
      if (this.check(data)) throw new Error(`vectors: ${description}: the JSON Schema accepts ${preview(data)}`);
      node.group.tests.push({ description, data, valid, ...(format !== undefined ? { format } : {}) });
      return;
    }
    const accepted = this.accepted(data);
    if (accepted === undefined) throw new Error(`vectors: ${description}: the JSON Schema refuses ${preview(data)}`);
    data = accepted.data;
    const rule = this.codeRuleBroken(data);
    if (rule === undefined) {
      if (!(spare && node.group.tests.some((t) => same(t.data, data)))) node.group.tests.push({ description, data, valid });
      return;
    }
    // Valid by the schema, refused by a rule written as code: say so.
    node.group.tests.push({ description, data, valid: false, rule });
  }

  private walk(input: Node): void {
    const s = this.read.deref(input.schema);
    const name = refName(input.schema);
    // A place where the bare value needs a companion (a cross-field rule): every test here gets that context.
    const baseBody = clone(input.place(input.base));
    const found = this.accepted(baseBody);
    if (found === undefined) throw new Error(`vectors: ${this.qualified} ${input.label}: the JSON Schema refuses ${preview(baseBody)}`);
    const { context } = found;
    const node: Node = context === undefined ? input : { ...input, place: (v) => VectorFileBuilder.within(context, input.place(v)) };
    const base = node.base;

    // The specific tests first: a plain valid value equal to one of them is not repeated.
    if ('default' in s) this.emit(node, `the default ${preview(s.default)}`, clone(s.default), true);
    if (!node.inUnion)
      for (const [wrong, what] of this.read.wrongValues(input.schema)) this.emit(node, `${what} ${preview(wrong)}`, wrong, false);
    const entered = node.depth === 0 || name === undefined || !this.ownFiles.has(name); // else covered by its own vector file
    if (entered) {
      this.enumTests(node, s);
      this.limitTests(node, s, base);
      if (typeof s.format === 'string' && s.type === 'string') {
        this.emit(node, `format ${s.format}: "not a ${s.format}"`, `not a ${s.format}`, false, s.format);
      }
    }
    this.emit(node, `a valid value ${preview(base)}`, base, true, undefined, true);
    if (!entered) return;

    const branches = schemaList(s.oneOf ?? s.anyOf);
    if (branches.length > 0 && !isPlain(s.properties)) {
      branches.forEach((branch, i) => {
        const b = this.read.deref(branch);
        const label = refName(branch) ?? ('const' in b ? JSON.stringify(b.const) : typeof b.type === 'string' ? b.type : `#${i}`);
        const group = node.label === '' ? this.group(`<${label}>`) : node.group;
        this.walk({ ...node, schema: branch, label: `${node.label}<${label}>`, base: this.read.minimal(branch), inUnion: true, group });
      });
      return;
    }
    if (s.type === 'object' && isPlain(base)) this.objectTests(node, s, base);
    if (s.type === 'array' && Array.isArray(base) && isPlain(s.items)) {
      const item = base.length > 0 ? base[0] : this.read.minimal(s.items);
      this.walk({ ...node, schema: s.items, label: `${node.label}[]`, place: (v) => node.place([v]), base: item, inUnion: false });
    }
  }

  private enumTests(node: Node, s: JsonSchema): void {
    if (Array.isArray(s.enum)) for (const member of s.enum) this.emit(node, `enum value ${preview(member)}`, member, true);
    const strings = 'const' in s ? typeof s.const === 'string' : Array.isArray(s.enum) && s.enum.every((m) => typeof m === 'string');
    if (strings && ('const' in s || Array.isArray(s.enum)))
      this.emit(node, `not one of the allowed values: "${NOT_LISTED}"`, NOT_LISTED, false);
    if ('const' in s && typeof s.const === 'boolean')
      this.emit(node, `not the constant ${String(s.const)}: ${String(!s.const)}`, !s.const, false);
  }

  private limitTests(node: Node, s: JsonSchema, base: unknown): void {
    const bound = (keyword: string, value: unknown, valid: boolean, what: string) => this.emit(node, `${keyword} ${what}`, value, valid);
    if (s.type === 'integer' || s.type === 'number') {
      const step = s.type === 'integer' ? 1 : 0.5;
      const [min, max, exMin, exMax] = [num(s.minimum), num(s.maximum), num(s.exclusiveMinimum), num(s.exclusiveMaximum)];
      if (min !== undefined) {
        bound('minimum', min, true, `${min}: the bound`);
        bound('minimum', min - step, false, `${min}: ${min - step} is below`);
      }
      if (max !== undefined) {
        bound('maximum', max, true, `${max}: the bound`);
        bound('maximum', max + step, false, `${max}: ${max + step} is above`);
      }
      if (exMin !== undefined) {
        bound('exclusiveMinimum', exMin, false, `${exMin}: the bound itself is excluded`);
        bound('exclusiveMinimum', exMin + step, true, `${exMin}: ${exMin + step} is above`);
      }
      if (exMax !== undefined) {
        bound('exclusiveMaximum', exMax, false, `${exMax}: the bound itself is excluded`);
        bound('exclusiveMaximum', exMax - step, true, `${exMax}: ${exMax - step} is below`);
      }
    }
    if (s.type === 'string') {
      const text = typeof base === 'string' ? base : 'x';
      const ofLength = (n: number) => (text.length >= n ? text.slice(0, n) : text + 'x'.repeat(n - text.length));
      const [min, max] = [num(s.minLength), num(s.maxLength)];
      if (min !== undefined) {
        bound('minLength', ofLength(min), true, `${min}: ${min} characters`);
        if (min > 0) bound('minLength', ofLength(min - 1), false, `${min}: ${min - 1} characters`);
      }
      if (max !== undefined) {
        bound('maxLength', ofLength(max), true, `${max}: ${max} characters`);
        bound('maxLength', ofLength(max + 1), false, `${max}: ${max + 1} characters`);
      }
    }
    if (s.type === 'array' && isPlain(s.items)) {
      const item = Array.isArray(base) && base.length > 0 ? base[0] : this.read.minimal(s.items);
      const items = (n: number) => Array.from({ length: n }, () => clone(item));
      const [min, max] = [num(s.minItems), num(s.maxItems)];
      if (min !== undefined) {
        bound('minItems', items(min), true, `${min}: ${min} items`);
        if (min > 0) bound('minItems', items(min - 1), false, `${min}: ${min - 1} items`);
      }
      if (max !== undefined) {
        bound('maxItems', items(max), true, `${max}: ${max} items`);
        bound('maxItems', items(max + 1), false, `${max}: ${max + 1} items`);
      }
    }
  }

  private objectTests(node: Node, s: JsonSchema, base: Plain): void {
    if (s.additionalProperties === false) this.emit(node, `unknown key "${UNKNOWN_KEY}"`, { ...base, [UNKNOWN_KEY]: 1 }, false);
    if (isPlain(s.additionalProperties)) {
      const values = s.additionalProperties;
      this.emit(node, `any key, e.g. "${EXTRA_KEY}", with a valid value`, { ...base, [EXTRA_KEY]: this.read.minimal(values) }, true);
      for (const [wrong, what] of this.read.wrongValues(values))
        this.emit(node, `any key with a value of the ${what} ${preview(wrong)}`, { ...base, [EXTRA_KEY]: wrong }, false);
    }
    for (const key of Array.isArray(s.required) ? s.required.map(String) : []) {
      if (!(key in base)) continue;
      const { [key]: _removed, ...rest } = base;
      this.emit(node, `required "${key}" missing`, rest, false);
    }
    if (node.depth >= MAX_DEPTH || !isPlain(s.properties)) return;
    for (const [key, property] of Object.entries(s.properties as Record<string, JsonSchema>)) {
      const label = node.label === '' ? key : `${node.label}.${key}`;
      const group = node.label === '' ? this.group(key) : node.group;
      // A key that one alternative of the object requires (a wait's `selector`) goes with that alternative.
      const own = key in base ? base[key] : this.read.minimal(property);
      const alternative = this.read.minimal(s, 0, key) as Plain;
      const around =
        key in base || this.accepted(node.place({ ...base, [key]: own })) !== undefined || !(key in alternative) ? base : alternative;
      const value = key in around ? around[key] : own;
      this.walk({
        schema: property,
        label,
        place: (v) => node.place({ ...around, [key]: v }),
        base: value,
        depth: node.depth + 1,
        inUnion: false,
        group,
      });
    }
  }

  /** Each field the same definition has in the other version only: an unknown key here. */
  private otherVersionFields(rootBase: unknown): void {
    if (this.root.additionalProperties !== false || !isPlain(rootBase)) return;
    const own = isPlain(this.root.properties) ? this.root.properties : {};
    for (const other of VERSIONS.filter((v) => v !== this.version)) {
      const theirs = this.schemas[other].get(this.name);
      if (theirs === undefined || !isPlain(theirs.properties)) continue;
      const reader = new SchemaReader(theirs, this.name, other);
      const group = this.group(`fields of ${other}`);
      for (const [key, property] of Object.entries(theirs.properties as Record<string, JsonSchema>)) {
        if (key in own) continue;
        const node: Node = {
          schema: property,
          label: key,
          place: (v) => ({ ...rootBase, [key]: v }),
          base: undefined,
          depth: 1,
          inUnion: false,
          group,
        };
        this.emit(node, `the ${other} field "${key}" is unknown in ${this.version}`, reader.minimal(property), false);
      }
    }
  }

  /** Every rule case of `scripts/contract/ruleCases.ts` for this definition, both sides. */
  private ruleCases(): void {
    const seen = new Map<string, number>();
    for (const c of RULE_CASES) {
      if (c.version !== this.version || c.schema !== this.name) continue;
      const count = (seen.get(c.title) ?? 0) + 1;
      seen.set(c.title, count);
      const title = count === 1 ? c.title : `${c.title} (${count})`;
      const rule = c.kind === 'code' ? c.issues[0]?.rule : undefined;
      const group = this.group(`rule ${title}`);
      const marked = rule !== undefined ? { rule } : {};
      group.tests.push({ description: `${group.description}: valid side`, data: clone(c.valid), valid: true, ...marked });
      group.tests.push({ description: `${group.description}: invalid side`, data: clone(c.invalid), valid: false, ...marked });
    }
  }
}
