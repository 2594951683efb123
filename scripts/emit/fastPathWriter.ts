/**
 * The writer of the fast path's code: for a schema, statements that return false when a value breaks it, each
 * keyword written as Ajv's generated code decides it (see fastPath.ts); subschemas asked as yes/no questions
 * become helper functions, written once each; patterns and formats become module constants.
 */
import formatsModule from 'ajv-formats/dist/formats.js';
import type { Version } from '../../schemas/registry.js';
import { captureTarget, count, functionName, indent, isObject, literal, member, primitive, Scope, type Lines } from './fastPathCode.js';
import { betweenProperties, foldable, propertiesNamed } from './fastPathFolding.js';
import { ANNOTATIONS, COMPARISON, GUARDS, KEYWORDS, NUMBER_KEYWORDS, typeTest } from './fastPathKeywords.js';
import type { JsonSchema } from './jsonSchema.js';
import { keyDispatch } from './keyDispatch.js';

// CommonJS module: the default import is its `module.exports`.
const { fullFormats } = formatsModule;
/**
 * An open object (no `additionalProperties`) with this many checked or kept properties or fewer is read by name, as
 * Ajv reads it, instead of walked (keyDispatch.ts): an action, a location, a format object. Preparing a `for...in`
 * costs more than three reads, and a function that reads one such definition sees few shapes, so its reads stay
 * cheap on a mixed stream too. Measured (alternated runs, fresh processes): the corpus 0.23-0.24x parse against
 * 0.25 walking every object, the mixed stream some 0.01 slower (0.27-0.29 against 0.26-0.28); no deoptimisation of
 * the fast path. Two fields or fewer measured the same.
 */
const NAMED_READS_UP_TO = 3;

export class Writer {
  /** Helper functions (a subschema asked as a yes/no question), by body, so that equal ones are written once. */
  private readonly helpers = new Map<string, string>();
  private readonly helperCode: string[] = [];
  private readonly patterns = new Map<string, string>();
  private readonly formats = new Map<string, string>();

  /**
   * While the function of a definition in `captures` is written: where its walk over the body's keys keeps the
   * fields the rules' composition reads (ruleKeepers.ts, CAPTURED), until the walk at the top of the body takes it.
   */
  private capture: { readonly target: string; readonly fields: readonly string[] } | undefined;

  constructor(
    private readonly defs: ReadonlyMap<string, JsonSchema>,
    private readonly captures: ReadonlyMap<string, readonly string[]>,
  ) {}

  /** The function deciding the named definition. */
  definition(name: string): string {
    const fields = this.captures.get(name);
    this.capture = fields === undefined ? undefined : { target: captureTarget(name), fields };
    const body = this.statements(this.defs.get(name)!, 'x', new Scope());
    if (this.capture !== undefined)
      throw new Error(`fast path: ${name} keeps fields for the rules, so it must be an object walked at the top`);
    return [`function ${functionName(name)}(x) {`, ...indent(body), '  return true;', '}'].join('\n');
  }

  /** The module constants naming where each captured definition keeps its fields (in keepers.js's `captured`). */
  captureTargets(version: Version): string[] {
    return [...this.captures.keys()].map((name) => `const ${captureTarget(name)} = captured[${literal(`${version}/${name}`)}];`);
  }

  /** Constants the functions use: patterns and formats. */
  constants(): string[] {
    return [
      // The uri format is asked of a plain http(s) address by a pass over it first (plainUri.ts).
      ...[...this.formats].map(([format, name]) =>
        format === 'uri'
          ? `const ${name} = (s) => isPlainUri(s) || formats.fullFormats.uri(s);`
          : `const ${name} = formats.fullFormats[${literal(format)}];`,
      ),
      ...[...this.patterns].map(([source, name]) => `const ${name} = /* @__PURE__ */ new RegExp(${literal(source)}, "u");`),
    ];
  }

  helperFunctions(): string[] {
    return this.helperCode;
  }

  private refTarget(ref: unknown): string {
    const name = typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
    if (name === undefined || !this.defs.has(name)) throw new Error(`fast path: unsupported $ref ${String(ref)}`);
    return name;
  }

  /** An expression that is true when `v` satisfies `schema`. */
  private test(schema: unknown, v: string): string {
    if (schema === true) return 'true';
    if (schema === false) return 'false';
    if (!isObject(schema)) throw new Error(`fast path: a schema must be an object or a boolean, not ${literal(schema)}`);
    const keys = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
    if (keys.length === 0) return 'true';
    if (keys.length === 1 && keys[0] === '$ref') return `${functionName(this.refTarget(schema.$ref))}(${v})`;
    if (typeof schema.type === 'string' && keys.every((k) => k === 'type' || k === 'const' || k === 'enum')) {
      // A literal or a plain type: asked inline.
      const values = 'const' in schema ? [schema.const] : ((schema.enum as unknown[] | undefined) ?? []);
      const one = values.length === 0 ? '' : ` && (${values.map((value) => `${v} === ${primitive(value)}`).join(' || ')})`;
      return `(${typeTest(schema.type, v)}${one})`;
    }
    // A helper's body is its own function: the walk at the top of a captured definition is not in it.
    const capture = this.capture;
    this.capture = undefined;
    const body = this.statements(schema, 'x', new Scope());
    this.capture = capture;
    const code = [...indent(body), '  return true;', '}'].join('\n');
    let name = this.helpers.get(code);
    if (name === undefined) {
      name = `s${this.helpers.size + 1}`;
      this.helpers.set(code, name);
      this.helperCode.push(`function ${name}(x) {\n${code}`);
    }
    return `${name}(${v})`;
  }

  /** Statements that return false when `v` breaks `schema`. */
  private statements(schema: unknown, v: string, scope: Scope): Lines {
    if (schema === true) return [];
    if (schema === false) return ['return false;'];
    if (!isObject(schema)) throw new Error(`fast path: a schema must be an object or a boolean, not ${literal(schema)}`);
    for (const key of Object.keys(schema)) {
      if (!ANNOTATIONS.has(key) && !KEYWORDS.has(key)) throw new Error(`fast path: keyword ${key} is not supported`);
    }
    const out: Lines = [];
    if (schema.$ref !== undefined) out.push(`if (!${functionName(this.refTarget(schema.$ref))}(${v})) return false;`);
    const types = schema.type === undefined ? [] : [schema.type].flat().map(String);
    const typeCondition = types.length === 1 ? typeTest(types[0]!, v) : types.map((t) => `(${typeTest(t, v)})`).join(' || ');
    if (types.length > 0) out.push(`if (!(${typeCondition})) return false;`);
    const only = types.length === 1 ? (types[0] === 'integer' ? 'number' : types[0]) : undefined;
    const guarded = (kind: keyof typeof GUARDS, lines: Lines): Lines =>
      lines.length === 0 ? [] : only === kind ? lines : [`if (${GUARDS[kind](v)}) {`, ...indent(lines), '}'];

    if ('const' in schema) out.push(`if (${v} !== ${primitive(schema.const)}) return false;`);
    if (schema.enum !== undefined) {
      const values = (schema.enum as unknown[]).map(primitive);
      out.push(`if (!(${values.map((value) => `${v} === ${value}`).join(' || ')})) return false;`);
    }
    out.push(...guarded('number', this.numberStatements(schema, v)));
    out.push(...guarded('string', this.stringStatements(schema, v)));
    out.push(...guarded('array', this.arrayStatements(schema, v, scope)));
    // Rules on the properties of an object are checked with the properties themselves (see foldable), and
    // conditions between properties on the values the walk keeps (see betweenProperties).
    const folded: unknown[] = only === 'object' ? foldable(schema) : [];
    const between = only === 'object' ? betweenProperties(schema) : [];
    const watched = new Map<string, string>();
    for (const { branches } of between)
      for (const name of propertiesNamed(branches)) if (!watched.has(name)) watched.set(name, scope.fresh('p'));
    out.push(...guarded('object', this.objectStatements(schema, folded as JsonSchema[], watched, v, scope)));
    for (const { branches } of between) {
      out.push(`if (!(${branches.map((branch) => `(${this.onValues(branch, watched)})`).join(' || ')})) return false;`);
    }
    const decidedBetween = new Set(between.map((b) => b.member));
    for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
      if (!folded.includes(part) && !decidedBetween.has(part)) out.push(...this.statements(part, v, scope));
    }
    if (schema.anyOf !== undefined && !decidedBetween.has(schema)) {
      out.push(`if (!(${(schema.anyOf as unknown[]).map((branch) => this.test(branch, v)).join(' || ')})) return false;`);
    }
    if (schema.oneOf !== undefined) {
      out.push(
        ...(schema.discriminator === undefined ? this.oneOf(schema, v, scope) : guarded('object', this.discriminated(schema, v, scope))),
      );
    } else if (schema.discriminator !== undefined) {
      throw new Error('fast path: a discriminator needs oneOf');
    }
    if (schema.not !== undefined) out.push(`if (${this.test(schema.not, v)}) return false;`);
    return out;
  }

  private numberStatements(schema: JsonSchema, v: string): Lines {
    return NUMBER_KEYWORDS.filter((k) => schema[k] !== undefined).map((k) => {
      const limit = schema[k];
      if (typeof limit !== 'number' || !Number.isFinite(limit)) throw new Error(`fast path: ${k} must be a number`);
      return `if (!(${v} ${COMPARISON[k]} ${literal(limit)})) return false;`;
    });
  }

  private stringStatements(schema: JsonSchema, v: string): Lines {
    const out: Lines = [];
    // Lengths count UTF-16 code units (the validators' `unicode: false`).
    if (schema.minLength !== undefined) out.push(`if (${v}.length < ${count(schema.minLength)}) return false;`);
    if (schema.maxLength !== undefined) out.push(`if (${v}.length > ${count(schema.maxLength)}) return false;`);
    if (schema.pattern !== undefined) out.push(`if (!${this.pattern(String(schema.pattern))}.test(${v})) return false;`);
    if (schema.format !== undefined) out.push(`if (!${this.format(String(schema.format), v)}) return false;`);
    return out;
  }

  private arrayStatements(schema: JsonSchema, v: string, scope: Scope): Lines {
    const out: Lines = [];
    if (schema.minItems !== undefined) out.push(`if (${v}.length < ${count(schema.minItems)}) return false;`);
    if (schema.maxItems !== undefined) out.push(`if (${v}.length > ${count(schema.maxItems)}) return false;`);
    if (schema.items !== undefined) {
      const item = scope.fresh('v');
      const i = scope.fresh('i');
      const body = this.statements(schema.items, item, scope);
      if (body.length > 0)
        out.push(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, `  const ${item} = ${v}[${i}];`, ...indent(body), '}');
    }
    if (schema.contains !== undefined) {
      const min = schema.minContains === undefined ? 1 : count(schema.minContains);
      const max = schema.maxContains === undefined ? undefined : count(schema.maxContains);
      const found = scope.fresh('n');
      const i = scope.fresh('i');
      const matches = this.test(schema.contains, `${v}[${i}]`);
      // Without a maximum, counting stops once the minimum is reached.
      const hit = max === undefined ? `if (++${found} >= ${min}) break;` : `${found}++;`;
      out.push(`let ${found} = 0;`, `for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, `  if (${matches}) {`, `    ${hit}`, '  }', '}');
      out.push(`if (${found} < ${min}) return false;`);
      if (max !== undefined) out.push(`if (${found} > ${max}) return false;`);
    } else if (schema.minContains !== undefined || schema.maxContains !== undefined) {
      throw new Error('fast path: minContains and maxContains need contains');
    }
    return out;
  }

  /**
   * An object's keywords, decided by one walk over the keys the object has (keyDispatch.ts says why), each key
   * dispatched to what its value must be. `undefined` counts as absent, as Ajv's `data.key !== undefined` has
   * it; a required key is counted when present, and the count compared once the walk is done.
   */
  private objectStatements(
    schema: JsonSchema,
    folded: readonly JsonSchema[],
    watched: ReadonlyMap<string, string>,
    v: string,
    scope: Scope,
  ): Lines {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const properties = (schema.properties as Record<string, unknown> | undefined) ?? {};
    // The property schemas, with those of the rules folded in, in order of first mention.
    const checks = new Map<string, unknown[]>();
    const add = (key: string, subschema: unknown) => checks.set(key, [...(checks.get(key) ?? []), subschema]);
    for (const [key, subschema] of Object.entries(properties)) add(key, subschema);
    for (const rule of folded) for (const [key, subschema] of Object.entries(rule.properties as object)) add(key, subschema);
    for (const key of required) if (!checks.has(key)) add(key, true);
    // Every property this object's code reads: checked, or kept for a condition between properties.
    const names = new Set([...checks.keys(), ...watched.keys()]);
    for (const key of names) {
      // A by-name read finds what the prototype holds (`x.constructor`); the walk does not.
      if (key in Object.prototype) throw new Error(`fast path: a property may not be named as a member of Object.prototype (${key})`);
    }
    const additional = schema.additionalProperties;
    const key = scope.fresh('k');
    const value = scope.fresh('v');
    const present = scope.fresh('r');
    // The walk at the top of a captured definition (its object is `x`; a helper's body is written without the capture)
    // keeps the fields the rules read.
    const capture = v === 'x' ? this.capture : undefined;
    if (capture !== undefined) this.capture = undefined;
    const other = additional === undefined || additional === true ? [] : this.statements(additional, value, scope);
    if (other.length === 0 && capture === undefined && names.size <= NAMED_READS_UP_TO)
      return this.namedReads(names, checks, required, watched, v, scope);
    // What each key the walk meets asks: its checks, then `continue` for a key `additionalProperties` knows.
    const cases = new Map<string, Lines>();
    // What the walk keeps of a key's value: for the rules (the capture), and for the conditions between properties.
    const kept = (name: string): Lines => [
      ...(capture?.fields.includes(name) ? [`${capture.target}[${literal(name)}] = ${value};`] : []),
      ...(watched.has(name) ? [`${watched.get(name)!} = ${value};`] : []),
    ];
    for (const [name, subschemas] of checks) {
      const lines = subschemas.flatMap((subschema) => this.statements(subschema, value, scope));
      const counted = required.has(name) ? [`${present}++;`, ...lines] : lines;
      const known = Object.hasOwn(properties, name);
      const keeps = kept(name);
      // A key no check asks about and `additionalProperties` knows needs no case: the walk passes over it.
      if (counted.length === 0 && keeps.length === 0 && (!known || other.length === 0)) continue;
      const body = counted.length === 0 ? [] : [`if (${value} !== undefined) {`, ...indent(counted), '}'];
      cases.set(name, [...keeps, ...body, known ? 'continue;' : 'break;']);
    }
    // A field kept that no check names (the object is open to it): a case that only keeps it.
    for (const name of [...(capture?.fields ?? []), ...watched.keys()]) if (!cases.has(name)) cases.set(name, [...kept(name), 'break;']);
    if (cases.size === 0 && other.length === 0) return [];
    return [
      // Nothing kept from the body before: a field the walk does not meet is absent.
      ...(capture === undefined ? [] : [`${capture.fields.map((name) => `${capture.target}[${literal(name)}]`).join(' = ')} = undefined;`]),
      ...(required.size > 0 ? [`let ${present} = 0;`] : []),
      ...(watched.size > 0 ? [`let ${[...watched.values()].join(', ')};`] : []),
      `for (const ${key} in ${v}) {`,
      ...indent([`const ${value} = ${v}[${key}];`, ...keyDispatch(key, cases), ...other]),
      '}',
      ...(required.size > 0 ? [`if (${present} !== ${required.size}) return false;`] : []),
    ];
  }

  /**
   * A small open object's keywords (NAMED_READS_UP_TO), each property read by name once, as Ajv reads it: a required
   * one must not be `undefined`; a kept one (betweenProperties) is kept whether present or not.
   */
  private namedReads(
    names: ReadonlySet<string>,
    checks: ReadonlyMap<string, unknown[]>,
    required: ReadonlySet<string>,
    watched: ReadonlyMap<string, string>,
    v: string,
    scope: Scope,
  ): Lines {
    const out: Lines = watched.size > 0 ? [`let ${[...watched.values()].join(', ')};`] : [];
    for (const name of names) {
      const value = scope.fresh('v');
      const lines = (checks.get(name) ?? []).flatMap((subschema) => this.statements(subschema, value, scope));
      const keeps = watched.has(name) ? [`${watched.get(name)!} = ${value};`] : [];
      if (lines.length === 0 && keeps.length === 0 && !required.has(name)) continue;
      out.push(`const ${value} = ${member(v, name)};`, ...keeps);
      if (required.has(name)) out.push(`if (${value} === undefined) return false;`, ...lines);
      else if (lines.length > 0) out.push(`if (${value} !== undefined) {`, ...indent(lines), '}');
    }
    return out;
  }

  /**
   * An expression true when the object whose properties' values are in `values` (by name: the local the walk kept
   * each in, `undefined` when absent) satisfies `schema`, a schema that only constrains named properties
   * (betweenProperties): `required` is presence, and a property's schema applies to it when it is present.
   */
  private onValues(schema: unknown, values: ReadonlyMap<string, string>): string {
    if (typeof schema === 'boolean') return String(schema);
    const s = schema as JsonSchema;
    const parts: string[] = [];
    for (const name of (s.required as string[] | undefined) ?? []) parts.push(`${values.get(name)!} !== undefined`);
    for (const [name, subschema] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {})) {
      const value = values.get(name)!;
      const test = this.test(subschema, value);
      if (test !== 'true') parts.push(`(${value} === undefined || ${test})`);
    }
    for (const member of (s.allOf as unknown[] | undefined) ?? []) parts.push(`(${this.onValues(member, values)})`);
    if (s.anyOf !== undefined) parts.push(`(${(s.anyOf as unknown[]).map((branch) => `(${this.onValues(branch, values)})`).join(' || ')})`);
    if (s.not !== undefined) parts.push(`!(${this.onValues(s.not, values)})`);
    return parts.length === 0 ? 'true' : parts.join(' && ');
  }

  /** `oneOf` without a discriminator: exactly one branch. */
  private oneOf(schema: JsonSchema, v: string, scope: Scope): Lines {
    const matches = scope.fresh('n');
    const branches = (schema.oneOf as unknown[]).map((branch) => `(${this.test(branch, v)} ? 1 : 0)`);
    return [`const ${matches} = ${branches.join(' + ')};`, `if (${matches} !== 1) return false;`];
  }

  /**
   * `oneOf` with a `discriminator` (Ajv's option is on): the tag must be a string naming a branch (by the
   * `const` or `enum` of the branch's required tag property), and the value is checked against that branch.
   */
  private discriminated(schema: JsonSchema, v: string, scope: Scope): Lines {
    const tagName = (schema.discriminator as { propertyName?: unknown }).propertyName;
    if (typeof tagName !== 'string') throw new Error('fast path: discriminator without propertyName');
    const tag = scope.fresh('t');
    const cases = (schema.oneOf as unknown[]).flatMap((branch) => {
      const target = isObject(branch) ? this.defs.get(this.refTarget(branch.$ref)) : undefined;
      const tagSchema = (target?.properties as Record<string, JsonSchema> | undefined)?.[tagName];
      const values = tagSchema?.const !== undefined ? [tagSchema.const] : (tagSchema?.enum as unknown[] | undefined);
      if (values === undefined || !((target?.required as string[] | undefined) ?? []).includes(tagName)) {
        throw new Error(`fast path: a discriminated branch needs a required ${tagName} with const or enum`);
      }
      return [
        `  ${values.map((value) => `case ${primitive(value)}:`).join(' ')}`,
        `    if (!${this.test(branch, v)}) return false;`,
        '    break;',
      ];
    });
    return [
      `const ${tag} = ${member(v, tagName)};`,
      `if (typeof ${tag} !== "string") return false;`,
      `switch (${tag}) {`,
      ...cases,
      '  default:',
      '    return false;',
      '}',
    ];
  }

  private pattern(source: string): string {
    let name = this.patterns.get(source);
    if (name === undefined) {
      name = `pattern${this.patterns.size + 1}`;
      this.patterns.set(source, name);
    }
    return name;
  }

  /** A call of the format's ajv-formats implementation, in the form it has (a RegExp, a function, or `{ validate }`). */
  private format(format: string, v: string): string {
    const implementation: unknown = (fullFormats as Record<string, unknown>)[format];
    let name = this.formats.get(format);
    if (name === undefined) {
      name = `format${this.formats.size + 1}`;
      this.formats.set(format, name);
    }
    if (format === 'uri') return `${name}(${v})`;
    if (implementation instanceof RegExp) return `${name}.test(${v})`;
    if (typeof implementation === 'function') return `${name}(${v})`;
    if (isObject(implementation) && typeof implementation.validate === 'function') return `${name}.validate(${v})`;
    if (isObject(implementation) && implementation.validate instanceof RegExp) return `${name}.validate.test(${v})`;
    throw new Error(`fast path: unknown format ${format}`);
  }
}
