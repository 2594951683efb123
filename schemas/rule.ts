/**
 * Cross-field and value rules that JSON Schema can express, written in TypeBox so that TypeBox's checker
 * and every generated artefact carry them. Each rule is marked with `x-crawlspec-rules`: its identifier,
 * the JSON Schema keyword whose failure means "this rule is broken", and the message the service gives,
 * so a failure is reported as the rule rather than as a bare keyword.
 */
import { Type, type TIntersect, type TObject, type TSchema, type TUnknown } from '@sinclair/typebox';
import { RULES, type ServiceDate, type Source } from './annotations.js';

export interface RuleSpec {
  /** Stable identifier, e.g. `changeTrackingNeedsMarkdown`. */
  readonly id: string;
  /** The keyword of the marked schema that fails when the rule is broken. */
  readonly keyword: string;
  /** What the service answers when the rule is broken. */
  readonly message: string;
  /** Where the rule comes from: the interface section that states it, or `service`. */
  readonly source: Source;
  /** For a rule the interface states: the names its section states it with (a citation names them). */
  readonly stated?: readonly string[];
  /** For a rule of the service: when the service began applying it (service-facts §13). */
  readonly since?: ServiceDate;
}

/** Marks `schema` with rules that its `keyword` failures stand for. */
export const ruleMarks = (...rules: RuleSpec[]) => ({ [RULES]: rules });

/**
 * A rule as a schema. Rules constrain values, not their static shape, so the TypeScript type is
 * `unknown`; at run time it is the schema given (TypeBox checks it).
 */
export function SchemaRule(rule: RuleSpec, schema: TSchema, description: string): TUnknown {
  return { ...schema, ...ruleMarks(rule), description } as unknown as TUnknown;
}

/** A rule on one field of an object, checked when the field is given. */
export function FieldRule(field: string, rule: TUnknown): TUnknown {
  return Type.Object({ [field]: Type.Optional(rule) }) as unknown as TUnknown;
}

/**
 * An object that must also satisfy `rules`. Generated JSON Schema carries it as the object's own keywords
 * plus `allOf: [rules]`; its static type is the object's.
 */
export function WithRules<T extends TObject>(object: T, rules: TUnknown[]): TIntersect<[T, ...TUnknown[]]> {
  return Type.Intersect([object, ...rules]) as TIntersect<[T, ...TUnknown[]]>;
}

/** The object part of a definition that may carry rules. */
export function objectOf(schema: TSchema): TObject | undefined {
  const s = schema as TSchema & { allOf?: TSchema[]; type?: unknown };
  if (s.type === 'object' && 'properties' in s) return s as TObject;
  return s.allOf?.map(objectOf).find((o) => o !== undefined);
}
