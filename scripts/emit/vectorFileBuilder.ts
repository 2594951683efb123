/**
 * The tests of one vector file, derived from one definition's emitted JSON Schema: for every property a valid
 * value, its default, each limit from both sides, a value of the wrong type, the enum, the format; for objects an
 * unknown key, a missing required key, and the fields of the other version; for unions each branch; then the
 * definition's rule cases. Each answer is confirmed by Ajv on the schema and by the code rules (see `vectors.ts`).
 */
import type { ValidateFunction } from 'ajv';
import { field, isRecord } from '../../schemas/codeRules/codeRule.js';
import { CODE_RULES } from '../../schemas/codeRules/index.js';
import { VERSIONS, type Version } from '../../schemas/registry.js';
import type { SchemaName } from '../../schemas/validate.js';
import { RULE_CASES } from '../contract/generation/ruleCases.js';
import type { createAjv } from './ajv.js';
import type { JsonSchema } from './jsonSchema.js';
import { clone, isPlain, num, refName, same, schemaList, SchemaReader, type Plain } from './schemaReader.js';
import { VECTOR_DEFINITIONS, type VectorGroup } from './vectorFile.js';

/** Short JSON for a description. */
function preview(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}

const UNKNOWN_KEY = 'unknownKey';
const NOT_LISTED = 'not-a-listed-value';
const EXTRA_KEY = 'X-Example';
/** How deep into nested objects properties are followed (a definition with its own vector file is not entered). */
const MAX_DEPTH = 3;

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

export class VectorFileBuilder {
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

  /** Every rule case of `scripts/contract/generation/ruleCases.ts` for this definition, both sides. */
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
