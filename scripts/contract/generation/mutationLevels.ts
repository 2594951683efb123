/**
 * Which levels the mutations of one kind can reach in a request definition, read from the definition itself:
 * a generated invalid-request check is in scope at `interface` level when some mutation of its kind breaks a
 * constraint the interface states (a wrong type on an interface field, a bound of `x-crawlspec-keyword-sources`
 * marked `interface`, a value outside an interface enum, a required field the interface requires), and at
 * `service` level only otherwise. Fields the kit never sends (`dropped`) are left out.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { EXTENSION, KEYWORD_SOURCES, SOURCE } from '../../../schemas/annotations.js';
import { objectOf } from '../../../schemas/rule.js';
import { levelOf, type Level } from '../spec/levels.js';
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

/** A property of a request: its name and the section that states it. */
interface Field {
  readonly name: string;
  readonly declared: string;
}

/** Where the mutations of one kind reach: the levels, and per interface section the fields whose constraint they break. */
export interface MutationReach {
  readonly levels: Set<Level>;
  /** `interface §2.3` → `timeout`, `formats`, ...: the interface's constraints a mutation of the kind breaks. */
  readonly interfaceSites: Map<string, Set<string>>;
}

export function mutationLevels(definition: TSchema, kind: InvalidKind, dropped: ReadonlySet<string>): MutationReach {
  const levels = new Set<Level>();
  const interfaceSites = new Map<string, Set<string>>();
  /**
   * A constraint of `source` broken at `field` (undefined: the body itself), which the section `declared` of
   * the field states (a batch's `urls` in §2.2, though each entry is checked as the URL of §2.1).
   */
  const reach = (source: string, at: Field | undefined) => {
    const level = levelOf(source);
    levels.add(level);
    if (level !== 'interface' || at === undefined) return;
    const cite = levelOf(at.declared) === 'interface' ? at.declared : source;
    interfaceSites.set(cite, (interfaceSites.get(cite) ?? new Set()).add(at.name));
  };
  if (kind === 'otherVersionField') {
    // A field of the other version is an unknown key here: refusing unknown keys is the service's.
    levels.add('service');
    return { levels, interfaceSites };
  }
  const seen = new Set<Schema>();
  /** `field`: the property `node` stands for (or stands in, for an item or a branch). */
  const walk = (node: Schema, inherited: string, field: Field | undefined): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const source = typeof node[SOURCE] === 'string' ? (node[SOURCE] as string) : inherited;
    if (kind === 'wrongType' && TYPED_KINDS.has(String(node[Kind])) && !isStringLiteralUnion(node)) reach(source, field);
    if (kind === 'outOfRange') for (const k of RANGE_KEYWORDS) if (k in node) reach(keywordSource(node, k, source), field);
    if (kind === 'outsideEnum' && (isStringLiteralUnion(node) || (node[Kind] === 'Literal' && typeof node.const === 'string'))) reach(source, field);
    const object = node[Kind] === 'Intersect' ? (objectOf(node) as Schema | undefined) : node[Kind] === 'Object' ? node : undefined;
    if (object) {
      const objectSource = typeof object[SOURCE] === 'string' ? (object[SOURCE] as string) : source;
      if (kind === 'unknownKey' && object.additionalProperties === false) reach(keywordSource(object, 'additionalProperties', objectSource), field);
      for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, Schema>)) {
        if (dropped.has(name) || property[EXTENSION] === true) continue;
        const required = ((object.required as string[] | undefined) ?? []).includes(name);
        const at = { name, declared: typeof property[SOURCE] === 'string' ? (property[SOURCE] as string) : objectSource };
        if (kind === 'missingRequired' && required) reach(keywordSource(object, 'required', objectSource, name), at);
        walk(property, objectSource, at);
      }
    }
    if (node[Kind] === 'Array') walk(node.items as Schema, source, field);
    if (node[Kind] === 'Union' && !isStringLiteralUnion(node)) for (const branch of node.anyOf as Schema[]) walk(branch, source, field);
  };
  walk(definition as Schema, 'service', undefined);
  return { levels, interfaceSites };
}
