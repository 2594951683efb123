/**
 * The definitions as data for `schemas/reasons.ts` (`generated/reasons/definitions.js`): each named definition's
 * JSON Schema, as the validators are compiled from, with only what the reasons need: the keywords that decide
 * validity, and the annotations the issues quote (`title`, `description`, where a constraint comes from, the
 * rules a keyword stands for). Examples, defaults and the other annotations are left out: a browser bundle
 * carries this module where it cannot carry the Ajv validators. A keyword the interpreter does not know fails
 * generation, as do a `const` or `enum` holding an object (it compares with `===`) and a `oneOf` without a
 * `discriminator`.
 */
import { ANNOTATION_KEYWORDS, KEYWORD_SOURCES, RULES, SOURCE } from '../../schemas/annotations.js';
import type { Version } from '../../schemas/registry.js';
import { REASON_KEYWORDS } from '../../schemas/reasons.js';
import { emitDefinitions } from './definitions.js';
import type { JsonSchema } from './jsonSchema.js';

/** Annotations the issues read from an error's schema (schemas/issues.ts). */
const QUOTED = new Set<string>(['title', 'description', SOURCE, KEYWORD_SOURCES, RULES]);
/** Annotations nothing reads from an error: left out. */
export const LEFT_OUT = new Set<string>([
  'examples',
  'default',
  'deprecated',
  '$schema',
  '$id',
  ...ANNOTATION_KEYWORDS.filter((k) => !QUOTED.has(k)),
]);

/** Keywords whose value is a schema, and those whose value is a list or map of schemas. */
const SUBSCHEMA = new Set(['not', 'items', 'contains', 'additionalProperties']);
const SUBSCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf']);

/** `schema` with only what the reasons need (see the module's comment). */
function reasonSchema(schema: unknown, where = '#'): unknown {
  if (typeof schema === 'boolean') return schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`reasons: ${where} is not a schema`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = `${where}/${key}`;
    if (LEFT_OUT.has(key)) continue;
    if (QUOTED.has(key)) out[key] = value;
    else if (!REASON_KEYWORDS.has(key)) throw new Error(`reasons: keyword ${key} at ${at} is not supported by schemas/reasons.ts`);
    else if (SUBSCHEMA.has(key)) out[key] = reasonSchema(value, at);
    else if (key === 'oneOf' && (schema as Record<string, unknown>).discriminator === undefined)
      throw new Error(`reasons: the oneOf at ${at} has no discriminator, which schemas/reasons.ts needs`);
    else if (SUBSCHEMA_LIST.has(key)) out[key] = (value as unknown[]).map((member, i) => reasonSchema(member, `${at}/${i}`));
    else if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, member]) => [name, reasonSchema(member, `${at}/${name}`)]),
      );
    else {
      const members = key === 'enum' ? (value as unknown[]) : key === 'const' ? [value] : [];
      if (members.some((member) => typeof member === 'object' && member !== null))
        throw new Error(`reasons: ${at} holds an object, which schemas/reasons.ts does not compare`);
      out[key] = value;
    }
  }
  return out;
}

/** A version's definitions as data, by name. */
function reasonDefinitions(version: Version): Record<string, unknown> {
  return Object.fromEntries(
    [...emitDefinitions(version, (name) => `#/$defs/${name}`)].map(([name, { schema }]) => [
      name,
      reasonSchema(schema as JsonSchema, `#/$defs/${name}`),
    ]),
  );
}

/** The file, in `generated/reasons/`, of every version's definitions as data. */
export const REASONS_FILE = 'definitions.js';

/** Subtrees and strings at least this long (as JSON) that occur more than once are written once, as a constant. */
const SHARED_LENGTH = 6;
/** Keys at least this long that occur at least SHARED_KEY_COUNT times are written once too (`{ [k0]: ... }`). */
const SHARED_KEY_LENGTH = 5;
const SHARED_KEY_COUNT = 3;

/**
 * JavaScript for `value`, where each object, array or string of at least SHARED_LENGTH characters of JSON met more
 * than once is a constant (`c0`, `c1`, ... in `constants`, each written before its first use), and so is each
 * frequent key (`k0`, ...): the batch requests repeat the scrape options, v2 repeats much of v1, and every schema
 * says where it comes from. A minifier then names each constant in a character or two. Sharing changes nothing the
 * reasons read (they never compare schemas by identity, and never change one).
 */
export function sharedLiteral(value: unknown): { constants: string[]; expression: string } {
  const counts = new Map<string, number>();
  const keyCounts = new Map<string, number>();
  const count = (v: unknown) => {
    const text = JSON.stringify(v);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    if (typeof v !== 'object' || v === null) return;
    if (!Array.isArray(v)) for (const key of Object.keys(v)) keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1);
    for (const member of Object.values(v)) count(member);
  };
  count(value);
  const constants: string[] = [];
  const keyNames = new Map<string, string>();
  for (const [key, n] of [...keyCounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (key.length < SHARED_KEY_LENGTH || n < SHARED_KEY_COUNT) continue;
    const name = `k${keyNames.size}`;
    keyNames.set(key, name);
    constants.push(`const ${name} = ${JSON.stringify(key)};`);
  }
  // A computed key makes an own property, also of `__proto__`, which as a plain key would set the prototype.
  const keyOf = (key: string) =>
    keyNames.has(key) ? `[${keyNames.get(key)!}]` : key === '__proto__' ? '["__proto__"]' : JSON.stringify(key);
  const names = new Map<string, string>();
  const write = (v: unknown): string => {
    const text = JSON.stringify(v);
    const shared = text.length >= SHARED_LENGTH && counts.get(text)! > 1;
    if (shared && names.has(text)) return names.get(text)!;
    let expression: string;
    if (Array.isArray(v)) expression = `[${v.map(write).join(',')}]`;
    else if (typeof v === 'object' && v !== null)
      expression = `{${Object.entries(v)
        .map(([key, member]) => `${keyOf(key)}:${write(member)}`)
        .join(',')}}`;
    else expression = text;
    if (!shared) return expression;
    const name = `c${names.size}`;
    names.set(text, name);
    constants.push(`const ${name} = ${expression};`);
    return name;
  };
  const expression = write(value);
  return { constants, expression };
}

export function reasonsModule(versions: readonly Version[]): { js: string; dts: string } {
  const header = '// Generated by scripts/generate.ts from schemas/: do not edit.\n';
  const doc = '/** Per version, the named definitions as the reasons read them (scripts/emit/reasonsData.ts). */';
  const { constants, expression } = sharedLiteral(Object.fromEntries(versions.map((version) => [version, reasonDefinitions(version)])));
  return {
    js: [header, '// Parts met more than once, written once.', ...constants, '', doc, `export const definitions = ${expression};`, ''].join(
      '\n',
    ),
    dts: [
      header,
      doc,
      `export declare const definitions: Readonly<Record<${versions.map((v) => JSON.stringify(v)).join(' | ')}, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>;`,
      '',
    ].join('\n'),
  };
}
