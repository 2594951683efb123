/**
 * Which levels the mutations of one kind can reach in a request definition, read from the definition itself:
 * a generated invalid-request check is in scope at `interface` level when some mutation of its kind breaks a
 * constraint the interface states (a wrong type on an interface field, a bound of `x-crawlspec-keyword-sources`
 * marked `interface`, a value outside an interface enum, a required field the interface requires), and at
 * `service` level only otherwise. Fields the kit never sends (`dropped`) are left out.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { EXTENSION, KEYWORD_SOURCES, SOURCE } from '../../schemas/annotations.js';
import { objectOf } from '../../schemas/rule.js';
import { levelOf, type Level } from './levels.js';
import type { InvalidKind } from './safeRequests.js';

type Schema = TSchema & Record<string, unknown>;

const RANGE_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];
const TYPED_KINDS = new Set(['String', 'Number', 'Integer', 'Boolean', 'Array', 'Object', 'Record', 'Intersect', 'Null', 'Literal', 'Union']);

/** The source of `keyword` on `schema` (its `x-crawlspec-keyword-sources` entry, else `source`). */
function keywordSource(schema: Schema, keyword: string, source: string, property?: string): string {
  const entry = (schema[KEYWORD_SOURCES] as Record<string, unknown> | undefined)?.[keyword];
  if (typeof entry === 'string') return entry;
  if (typeof entry === 'object' && entry !== null && property !== undefined) {
    const own = (entry as Record<string, unknown>)[property];
    if (typeof own === 'string') return own;
  }
  return source;
}

const isStringLiteralUnion = (schema: Schema) =>
  schema[Kind] === 'Union' && (schema.anyOf as Schema[]).every((b) => b[Kind] === 'Literal' && typeof b.const === 'string');

export function mutationLevels(definition: TSchema, kind: InvalidKind, dropped: ReadonlySet<string>): Set<Level> {
  const found = new Set<Level>();
  if (kind === 'otherVersionField') {
    // A field of the other version is an unknown key here: refusing unknown keys is the service's.
    found.add('service');
    return found;
  }
  const seen = new Set<Schema>();
  const walk = (node: Schema, inherited: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const source = typeof node[SOURCE] === 'string' ? (node[SOURCE] as string) : inherited;
    if (kind === 'wrongType' && TYPED_KINDS.has(String(node[Kind])) && !isStringLiteralUnion(node)) found.add(levelOf(source));
    if (kind === 'outOfRange') for (const k of RANGE_KEYWORDS) if (k in node) found.add(levelOf(keywordSource(node, k, source)));
    if (kind === 'outsideEnum' && (isStringLiteralUnion(node) || (node[Kind] === 'Literal' && typeof node.const === 'string')))
      found.add(levelOf(source));
    const object = node[Kind] === 'Intersect' ? (objectOf(node) as Schema | undefined) : node[Kind] === 'Object' ? node : undefined;
    if (object) {
      const objectSource = typeof object[SOURCE] === 'string' ? (object[SOURCE] as string) : source;
      if (kind === 'unknownKey' && object.additionalProperties === false)
        found.add(levelOf(keywordSource(object, 'additionalProperties', objectSource)));
      for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, Schema>)) {
        if (dropped.has(name) || property[EXTENSION] === true) continue;
        const required = ((object.required as string[] | undefined) ?? []).includes(name);
        if (kind === 'missingRequired' && required) found.add(levelOf(keywordSource(object, 'required', objectSource, name)));
        walk(property, objectSource);
      }
    }
    if (node[Kind] === 'Array') walk(node.items as Schema, source);
    if (node[Kind] === 'Union' && !isStringLiteralUnion(node)) for (const branch of node.anyOf as Schema[]) walk(branch, source);
  };
  walk(definition as Schema, 'service');
  return found;
}
