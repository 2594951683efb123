/**
 * The reasons a body breaks a definition, found by reading the definitions as data: the errors the generated Ajv
 * validators (`generated/validators/`) report, built the same way, in the same order, with the same fields, in
 * both modes (`first`: stop at the first problem; `all`: gather every one). Where the Ajv validators cannot be
 * shipped (a browser bundle: they are 1.3 MB of code, the definitions as data about a tenth of it), `validate()`
 * builds its validators here from `generated/reasons/definitions.js`. test/reasons.test.ts proves the errors equal
 * to Ajv's, field by field, on every definition.
 *
 * Written as Ajv 8's code generator writes its code (ajv/dist/compile/validate and the vocabularies), for the
 * keywords the definitions use (the generator refuses any other: scripts/emit/reasonsData.ts):
 *   - a schema's keywords run in Ajv's groups (untyped, number, string, array, object), each keyword in the
 *     group's order; a typed group runs only on data of its type;
 *   - `type` is checked before the groups unless it is one type whose group has keywords here, in which case a
 *     value of another type is reported where that group stands;
 *   - stopping at the first problem, a keyword that fails ends its group, and a group that added a problem ends
 *     the schema; outside a union (`anyOf`, `oneOf`, `not`, `contains`: a "composite" place) the first problem
 *     ends the whole definition (Ajv returns it alone), inside one it is gathered and the union decides;
 *   - a `oneOf` has a `discriminator`, which reads the tag and checks the one branch it names;
 *   - each named definition is a function of its own (Ajv's `inlineRefs: false`): a `$ref` calls it with a fresh
 *     state, its schema paths start at `#`, and its problems are appended to the caller's.
 */
import type { ErrorObject } from 'ajv';
import { pointerSegment } from './place.js';

/** A definition (or part of one), as `generated/reasons/definitions.js` holds it. */
type Schema = Readonly<Record<string, unknown>>;

/** A version's named definitions. */
export type Definitions = Readonly<Record<string, Schema>>;

/** A format implementation as ajv-formats gives it: a function, a regular expression, or `{ validate }`. */
type FormatDefinition = ((value: string) => boolean) | RegExp | { readonly validate: ((value: string) => boolean) | RegExp };

/** A validator as the generated Ajv modules export them. */
export interface ReasonValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

type Group = 'number' | 'string' | 'array' | 'object' | undefined;

/** Ajv's rule groups, in order, with the keywords of each in its order (Ajv2020's RULES, for the keywords used). */
const GROUPS: readonly (readonly [Group, readonly string[]])[] = [
  [undefined, ['$ref', 'type', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf']],
  ['number', ['maximum', 'minimum', 'exclusiveMinimum']],
  ['string', ['maxLength', 'minLength', 'pattern', 'format']],
  ['array', ['maxItems', 'minItems', 'items', 'contains', 'minContains']],
  ['object', ['required', 'additionalProperties', 'properties', 'discriminator']],
];

/** Every keyword the interpreter decides (the others it is given are annotations). */
export const REASON_KEYWORDS: ReadonlySet<string> = new Set(GROUPS.flatMap(([, keywords]) => keywords));

/** Ajv's comparison words and failing tests of the number limits. */
const LIMITS: Readonly<Record<string, readonly [string, (data: number, limit: number) => boolean]>> = {
  maximum: ['<=', (d, l) => d > l],
  minimum: ['>=', (d, l) => d < l],
  exclusiveMinimum: ['>', (d, l) => d <= l],
};

/** JSON Schema types as Ajv checks them (`strictNumbers`: a number is finite). */
function hasType(type: string, data: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof data === 'object' && data !== null && !Array.isArray(data);
    case 'array':
      return Array.isArray(data);
    case 'number':
      return typeof data === 'number' && Number.isFinite(data);
    case 'integer':
      return typeof data === 'number' && Number.isFinite(data) && data % 1 === 0;
    case 'null':
      return data === null;
    default:
      return typeof data === type;
  }
}

const escapeFragment = (key: string) => encodeURIComponent(pointerSegment(key));

/** The definition a `$ref` names (`#/$defs/Name`). */
const refName = (ref: unknown) => String(ref).replace(/^#\/\$defs\//, '');

/** Ajv's way out of a definition at its first problem outside a union: its function returns these errors. */
class Return {
  constructor(readonly errors: ErrorObject[]) {}
}

/** Where a schema is evaluated: the data, its path, the schema's path, and Ajv's mode there. */
interface Place {
  readonly data: unknown;
  readonly instancePath: string;
  readonly schemaPath: string;
  /** Gather every problem (Ajv's `allErrors`; off inside `not`). */
  readonly allErrors: boolean;
  /** Inside a union: a problem is gathered, not returned. */
  readonly composite: boolean;
}

/** The validators of one version's definitions, in one mode. */
export function reasonValidators(
  definitions: Definitions,
  formats: Readonly<Record<string, FormatDefinition>>,
  errors: 'first' | 'all',
): Readonly<Record<string, ReasonValidator>> {
  const allErrors = errors === 'all';
  const patterns = new Map<string, RegExp>();
  const pattern = (source: string) => {
    let compiled = patterns.get(source);
    if (compiled === undefined) patterns.set(source, (compiled = new RegExp(source, 'u')));
    return compiled;
  };
  const formatTest = (name: string): ((value: string) => boolean) => {
    const format = formats[name];
    if (format === undefined) throw new Error(`reasons: unknown format ${name}`);
    const check = typeof format === 'function' || format instanceof RegExp ? format : format.validate;
    return typeof check === 'function' ? check : (value) => check.test(value);
  };

  /** One definition's function: its problems (null when there are none) and whether it holds. */
  function call(name: string, data: unknown, instancePath: string): ErrorObject[] | null {
    const schema = definitions[name];
    if (schema === undefined) throw new Error(`reasons: no definition ${name}`);
    const found: ErrorObject[] = [];
    try {
      evaluate(found, schema, { data, instancePath, schemaPath: '#', allErrors, composite: false });
    } catch (thrown) {
      if (thrown instanceof Return) return thrown.errors;
      throw thrown;
    }
    return found.length === 0 ? null : found;
  }

  function problem(
    at: Place,
    keyword: string,
    params: Record<string, unknown>,
    message: string,
    schemaValue: unknown,
    parentSchema: Schema,
  ): ErrorObject {
    return {
      instancePath: at.instancePath,
      schemaPath: `${at.schemaPath}/${keyword}`,
      keyword,
      params,
      message,
      schema: schemaValue,
      parentSchema,
      data: at.data,
    };
  }

  /** Ajv's `reportError`: gathered in a union or when gathering all, else the definition returns it alone. */
  function report(found: ErrorObject[], at: Place, error: ErrorObject): void {
    if (at.allErrors || at.composite) found.push(error);
    else throw new Return([error]);
  }

  /** Ajv's `reportExtraError` (a union's own error, after its branches'): the definition returns all so far. */
  function reportExtra(found: ErrorObject[], at: Place, error: ErrorObject): void {
    found.push(error);
    if (!(at.allErrors || at.composite)) throw new Return(found);
  }

  function typeProblem(found: ErrorObject[], at: Place, schema: Schema): void {
    const type = schema.type;
    report(found, at, problem(at, 'type', { type }, `must be ${String(type)}`, type, schema));
  }

  /**
   * Ajv's `subschema`: `subschema`, at `schemaSuffix` below the schema at `at`, on `data` (at `dataKey` below `at`'s
   * data, if given), in `mode` where it differs; whether it added no problem.
   */
  function sub(
    found: ErrorObject[],
    at: Place,
    subschema: unknown,
    schemaSuffix: string,
    data: unknown,
    dataKey: string | number | undefined,
    mode?: { composite?: boolean; allErrors?: boolean },
  ): boolean {
    const before = found.length;
    evaluate(found, subschema, {
      data,
      instancePath: dataKey === undefined ? at.instancePath : `${at.instancePath}/${pointerSegment(dataKey)}`,
      schemaPath: `${at.schemaPath}${schemaSuffix}`,
      allErrors: mode?.allErrors ?? at.allErrors,
      composite: mode?.composite ?? at.composite,
    });
    return found.length === before;
  }

  /** Ajv's `subschemaCode`: a schema's checks on `at.data`; its problems are added to `found`. */
  function evaluate(found: ErrorObject[], schema: unknown, at: Place): void {
    if (typeof schema !== 'object' || schema === null) {
      if (schema === true) return;
      throw new Error('reasons: a false or non-object schema is not supported');
    }
    const s = schema as Schema;
    const start = found.length;
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    // Ajv's coerceAndCheckDataType: one type whose group has keywords here is checked where that group stands.
    const typeGroup = types.length === 1 ? GROUPS.find(([group]) => group === types[0]) : undefined;
    const checkedFirst = types.length > 0 && !(typeGroup !== undefined && typeGroup[1].some((k) => s[k] !== undefined));
    if (checkedFirst && !types.some((t) => hasType(t, at.data))) typeProblem(found, at, s);
    for (const [group, keywords] of GROUPS) {
      if (!keywords.some((k) => s[k] !== undefined)) continue;
      if (group !== undefined && !hasType(group, at.data)) {
        if (types.length === 1 && types[0] === group && !checkedFirst) typeProblem(found, at, s);
      } else {
        for (const keyword of keywords) {
          if (s[keyword] === undefined) continue;
          const before = found.length;
          check(found, s, keyword, at);
          // Stopping at the first problem, a failing keyword ends its group.
          if (!at.allErrors && found.length !== before) break;
        }
      }
      if (!at.allErrors && found.length !== start) return;
    }
  }

  /** One keyword of `s` on `at.data` (of its group's type). */
  function check(found: ErrorObject[], s: Schema, keyword: string, at: Place): void {
    const value = s[keyword];
    const data = at.data;
    const fail = (params: Record<string, unknown>, message: string) => report(found, at, problem(at, keyword, params, message, value, s));
    switch (keyword) {
      case '$ref': {
        const errors = call(refName(value), data, at.instancePath);
        // Ajv appends the called definition's problems and goes on (stopping at the first problem, nothing after it runs).
        if (errors !== null) for (const error of errors) found.push(error);
        return;
      }
      case 'type':
        return;
      case 'const':
        if (value !== data) fail({ allowedValue: value }, 'must be equal to constant');
        return;
      case 'enum':
        if (!(value as unknown[]).some((allowed) => allowed === data))
          fail({ allowedValues: value }, 'must be equal to one of the allowed values');
        return;
      case 'not': {
        const holds = sub([], at, value, '/not', data, undefined, { composite: true, allErrors: false });
        if (holds) fail({}, 'must NOT be valid');
        return;
      }
      case 'anyOf': {
        const branches = value as unknown[];
        const before = found.length;
        let holds = false;
        for (let i = 0; i < branches.length && !holds; i++)
          holds = sub(found, at, branches[i], `/anyOf/${i}`, data, undefined, { composite: true });
        // Its branches' problems are taken back when it holds, else its own error follows them.
        if (holds) found.length = before;
        else reportExtra(found, at, problem(at, keyword, {}, 'must match a schema in anyOf', value, s));
        return;
      }
      case 'oneOf':
        // Only with a discriminator (scripts/emit/reasonsData.ts refuses a oneOf without one), which decides in the
        // object group: Ajv's oneOf then writes nothing.
        return;
      case 'allOf': {
        const members = value as unknown[];
        for (let i = 0; i < members.length; i++) {
          const holds = sub(found, at, members[i], `/allOf/${i}`, data, undefined);
          if (!holds && !at.allErrors) return;
        }
        return;
      }
      case 'maximum':
      case 'minimum':
      case 'exclusiveMinimum': {
        const [comparison, fails] = LIMITS[keyword]!;
        if (fails(data as number, value as number) || Number.isNaN(data))
          fail({ comparison, limit: value }, `must be ${comparison} ${String(value)}`);
        return;
      }
      case 'format':
        if (!formatTest(String(value))(data as string)) fail({ format: value }, `must match format "${String(value)}"`);
        return;
      case 'maxLength':
      case 'minLength': {
        const more = keyword === 'maxLength';
        const length = (data as string).length;
        if (more ? length > (value as number) : length < (value as number))
          fail({ limit: value }, `must NOT have ${more ? 'more' : 'fewer'} than ${String(value)} characters`);
        return;
      }
      case 'pattern':
        if (!pattern(String(value)).test(data as string)) fail({ pattern: value }, `must match pattern "${String(value)}"`);
        return;
      case 'maxItems':
      case 'minItems': {
        const more = keyword === 'maxItems';
        const length = (data as unknown[]).length;
        if (more ? length > (value as number) : length < (value as number))
          fail({ limit: value }, `must NOT have ${more ? 'more' : 'fewer'} than ${String(value)} items`);
        return;
      }
      case 'items': {
        const items = data as unknown[];
        for (let i = 0; i < items.length; i++) {
          const holds = sub(found, at, value, '/items', items[i], i);
          if (!holds && !at.allErrors) return;
        }
        return;
      }
      case 'contains':
        return containsCheck(found, s, at);
      case 'minContains':
        return;
      case 'required':
        for (const property of value as string[]) {
          if ((data as Record<string, unknown>)[property] !== undefined) continue;
          fail({ missingProperty: property }, `must have required property '${property}'`);
          if (!at.allErrors) return;
        }
        return;
      case 'additionalProperties':
        return additional(found, s, at);
      case 'properties': {
        const object = data as Record<string, unknown>;
        for (const [property, subschema] of Object.entries(value as Record<string, unknown>)) {
          if (property === '__proto__') continue;
          const member = object[property];
          if (member === undefined) continue;
          const holds = sub(found, at, subschema, `/properties/${escapeFragment(property)}`, member, property);
          if (!holds && !at.allErrors) return;
        }
        return;
      }
      case 'discriminator':
        return discriminated(found, s, at);
      default:
        throw new Error(`reasons: keyword ${keyword} is not supported`);
    }
  }

  function containsCheck(found: ErrorObject[], s: Schema, at: Place): void {
    const min = s.minContains === undefined ? 1 : (s.minContains as number);
    const items = at.data as unknown[];
    const before = found.length;
    let count = 0;
    let holds = false;
    for (let i = 0; i < items.length; i++) {
      if (sub(found, at, s.contains, '/contains', items[i], i, { composite: true }) && ++count >= min) {
        holds = true;
        break;
      }
    }
    if (holds) found.length = before;
    else report(found, at, problem(at, 'contains', { minContains: min }, `must contain at least ${min} valid item(s)`, s.contains, s));
  }

  function additional(found: ErrorObject[], s: Schema, at: Place): void {
    const rule = s.additionalProperties;
    if (rule === true) return;
    const known = new Set(Object.keys((s.properties as Record<string, unknown> | undefined) ?? {}).filter((k) => k !== '__proto__'));
    const object = at.data as Record<string, unknown>;
    for (const key in object) {
      if (known.has(key)) continue;
      if (rule === false) {
        report(
          found,
          at,
          problem(at, 'additionalProperties', { additionalProperty: key }, 'must NOT have additional properties', false, s),
        );
        if (!at.allErrors) return;
        continue;
      }
      const holds = sub(found, at, rule, '/additionalProperties', object[key], key);
      if (!holds && !at.allErrors) return;
    }
  }

  function discriminated(found: ErrorObject[], s: Schema, at: Place): void {
    const { propertyName: tagName } = s.discriminator as { propertyName: string };
    const tag = (at.data as Record<string, unknown>)[tagName];
    const fail = (error: 'tag' | 'mapping', message: string) =>
      report(found, at, problem(at, 'discriminator', { error, tag: tagName, tagValue: tag }, message, s.discriminator, s));
    if (typeof tag !== 'string') return fail('tag', `tag "${tagName}" must be string`);
    const branches = s.oneOf as Schema[];
    const index = branches.findIndex((branch) => tagsOf(branch, tagName).includes(tag));
    if (index < 0) return fail('mapping', `value of tag "${tagName}" must be in oneOf`);
    sub(found, at, branches[index], `/oneOf/${index}`, at.data, undefined);
  }

  /** The tag values a branch of a discriminated `oneOf` stands for (its tag property's `const` or `enum`). */
  function tagsOf(branch: Schema, tagName: string): readonly unknown[] {
    const target = typeof branch.$ref === 'string' ? definitions[refName(branch.$ref)] : branch;
    const tagSchema = (target?.properties as Record<string, Schema> | undefined)?.[tagName];
    if (tagSchema === undefined) return [];
    return tagSchema.const !== undefined ? [tagSchema.const] : ((tagSchema.enum as unknown[] | undefined) ?? []);
  }

  const validators: Record<string, ReasonValidator> = {};
  for (const name of Object.keys(definitions)) {
    const validator: ReasonValidator = (data: unknown) => {
      validator.errors = call(name, data, '');
      return validator.errors === null;
    };
    validators[name] = validator;
  }
  return validators;
}
