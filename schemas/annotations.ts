/**
 * Annotations every definition in `schemas/` carries, and the marker that names a definition.
 *
 * Provenance: each field says where it comes from, so a reader of any generated artefact can tell the
 * interface's own words from gap-filling:
 *   - `x-crawlspec-source: "interface §2.3"`: the interface document states this field (and its values).
 *   - `x-crawlspec-source: "service"`: the interface leaves it "not shown"; the public service's behaviour fills it.
 *   - `x-crawlspec-extension: true`: a field the service accepts but the interface does not list. Real clients
 *     send some of these, so they are accepted, typed and optional.
 *   - `x-crawlspec-default-source: "service"`: the interface gives no default; the service's default is used.
 *   - `x-crawlspec-default-unless: [field, ...]`: the default applies only when none of these sibling fields is
 *     sent. Filling it in beside them would change what the body asks for (v1 `crawlEntireDomain: false` would win
 *     over a sent `allowBackwardLinks`; a `timeout` of 30000 would put a sent `waitFor` over half of it).
 *   - `x-crawlspec-extension-values: [...]`: values of an interface enum that only the service accepts.
 *   - `x-crawlspec-rules: [...]`: the cross-field or value rules a schema stands for (see `rule.ts`), each
 *     with its own source.
 *   - `x-crawlspec-service-since: "YYYY-MM-DD"`: beside `x-crawlspec-source: "service"`, the date of the service's
 *     commit that made the behaviour what this schema states (the service as of 2026-08-21; before that date the
 *     service behaved otherwise, as the description says).
 *   - `x-crawlspec-keyword-sources: {keyword: source}`: where each constraint keyword of the schema comes from
 *     (`minimum`, `maxItems`, `additionalProperties`, ...), so that a field the interface states can carry a
 *     bound only the service applies (v2 `timeout`: `maximum` from interface §2.4, `minimum` from the service).
 *     `required` may name a source per property. Every constraint keyword of a schema whose own source is the
 *     interface is listed (test/provenance.test.ts); a keyword that is not listed comes from the schema's own
 *     source. Types, enum values and defaults come from the schema's own source.
 *   - `x-crawlspec-service-since`: when the service's behaviour this element describes began, per the dated history
 *     of the service's main branch up to 2026-08-21 (service-facts §13). Either a date, for the element as a whole
 *     (a field or format the service added then), or an object naming what changed then: a constraint keyword
 *     (`minimum`, `additionalProperties`, ...), `description` (what the value means changed), or `enum` with a date
 *     per value the service added. A date is `YYYY-MM-DD` (the commit that made the change) or `by 2026-08-21`
 *     (a change §13 lists without a date). Only the service's part is ever dated: a value the interface states
 *     carries no date (test/provenance.test.ts).
 *   - `x-crawlspec-service-default: {value, since, ifNonEmpty?, inFlux?}`: the default the service applies, where
 *     it differs from the default the interface states (which stays the schema's `default`): v1 `maxAge` is 0 in
 *     the interface and one day at the service. `ifNonEmpty: {fields, value}` makes it depend on sibling fields
 *     (`skipTlsVerification` is false when `headers` or `actions` is non-empty); `inFlux` says, in words, where the
 *     service's own history disagrees and the documented value is kept. `withDefaults(name, body, 'service')`
 *     fills these in.
 */
import type { TSchema } from '@sinclair/typebox';

/** The sections of the interface document the package cites (generated/spec/reference.md tells what each defines). */
export const INTERFACE_SECTIONS = ['§1', '§2.1', '§2.2', '§2.3', '§2.4', '§2.5', '§2.6', '§4', '§5', '§6', '§7', '§8', '§9'] as const;

/** Section of the interface document a definition comes from. */
export type InterfaceSection = (typeof INTERFACE_SECTIONS)[number];

export const SOURCE = 'x-crawlspec-source';
export const EXTENSION = 'x-crawlspec-extension';
export const DEFAULT_SOURCE = 'x-crawlspec-default-source';
export const EXTENSION_VALUES = 'x-crawlspec-extension-values';
export const DEFAULT_UNLESS = 'x-crawlspec-default-unless';
/** The `x-` keywords this package adds; validators register them as annotation-only vocabulary. */
export const RULES = 'x-crawlspec-rules';
export const KEYWORD_SOURCES = 'x-crawlspec-keyword-sources';
export const SERVICE_SINCE = 'x-crawlspec-service-since';
export const SERVICE_DEFAULT = 'x-crawlspec-service-default';
export const ANNOTATION_KEYWORDS = [
  SOURCE,
  EXTENSION,
  DEFAULT_SOURCE,
  DEFAULT_UNLESS,
  EXTENSION_VALUES,
  RULES,
  KEYWORD_SOURCES,
  SERVICE_SINCE,
  SERVICE_DEFAULT,
] as const;

/** Where a constraint comes from: a section of the interface document, or the public service. */
export type Source = `interface ${InterfaceSection}` | 'service';

/** The source of each constraint keyword; `required` may give one per property. */
export type KeywordSourceMap = Readonly<Record<string, Source | Readonly<Record<string, Source>>>>;

/** Where the schema's constraint keywords come from (see the module comment). */
export const keywordSources = (sources: KeywordSourceMap) => ({ [KEYWORD_SOURCES]: sources });

/** When a change of the service was made (see the module comment): a commit date, or `by` the state of 2026-08-21. */
export type ServiceDate = `${number}-${number}-${number}` | `by ${number}-${number}-${number}`;
/** The state of the service's main branch that §13 of the service facts describes. */
export const SERVICE_STATE = '2026-08-21';
/** A change §13 lists without a date: in place at the state of 2026-08-21. */
export const BY_SERVICE_STATE: ServiceDate = `by ${SERVICE_STATE}`;

/** What of an element changed at the service, and when: constraint keywords, `description`, or `enum` values. */
export type ServiceSince = ServiceDate | Readonly<Record<string, ServiceDate | Readonly<Record<string, ServiceDate>>>>;

/** The service's behaviour this element describes began then (see the module comment). */
export const serviceSince = (since: ServiceSince) => ({ [SERVICE_SINCE]: since });

/** The default the service applies where it differs from the interface's (see the module comment). */
export interface ServiceLevelDefault {
  readonly value: unknown;
  readonly since: ServiceDate;
  /** The default is `value` here instead when one of `fields` (siblings) is sent non-empty. */
  readonly ifNonEmpty?: { readonly fields: readonly string[]; readonly value: unknown };
  /** Where the service's history disagrees with its documentation, in words; the documented value is kept. */
  readonly inFlux?: string;
}

/** The service's own default, beside the interface's `default` (see the module comment). */
export const serviceLevelDefault = (d: ServiceLevelDefault) => ({ [SERVICE_DEFAULT]: d });

/** An object the service refuses unknown keys in (the interface says nothing of strictness). */
export const strictByService = keywordSources({ additionalProperties: 'service' });

/** The field is stated by the interface, in the given section. */
export const fromInterface = (section: InterfaceSection) => ({ [SOURCE]: `interface ${section}` });

/** The interface leaves this "not shown"; the shape follows the public service. */
export const fromService = () => ({ [SOURCE]: 'service' });

/** The service's behaviour since the commit of `date` (`YYYY-MM-DD`), as the service stood on 2026-08-21. */
export const fromServiceSince = (date: `${number}-${number}-${number}`) => ({ [SOURCE]: 'service', [SERVICE_SINCE]: date });

/** The service accepts this field but the interface does not list it. */
export const extension = () => ({ [SOURCE]: 'service', [EXTENSION]: true });

/** Values of an enum the interface states that only the service accepts (e.g. a newer proxy class). */
export const extensionValues = (values: readonly string[]) => ({ [EXTENSION_VALUES]: [...values] });

/** The interface gives the field but no default; the service's default is used. */
export const serviceDefault = <T>(value: T) => ({ default: value, [DEFAULT_SOURCE]: 'service' });

/**
 * The default applies only when none of `fields` (siblings of the field) is sent; the description says so, for
 * readers of the documents.
 */
export function defaultUnless(description: string, fields: readonly [string, ...string[]]) {
  const named = fields.map((f) => `\`${f}\``);
  const when = named.length === 1 ? `${named[0]} is not sent` : `none of ${named.join(', ')} is sent`;
  return { description: `${description} The default applies only when ${when}.`, [DEFAULT_UNLESS]: [...fields] };
}

const NAME = Symbol.for('crawlspec.definition');

/** What a named definition's mark holds: its name and the definition as declared. */
export interface DefinitionMark {
  readonly name: string;
  readonly definition: TSchema;
}

/**
 * Marks `schema` as the named definition `name` (e.g. `ScrapeOptions`). The generator turns every
 * occurrence of a named definition into a `$ref` to one shared component. The mark is an enumerable
 * symbol, so it survives TypeBox's `Type.Optional` and `use()` (which copy own symbol keys) and never
 * reaches JSON output; it points back at the declared definition, so a use-site copy can be told apart.
 */
export function Named<T extends TSchema>(name: string, schema: T): T {
  const mark: DefinitionMark = { name, definition: schema };
  Object.defineProperty(schema, NAME, { value: mark, enumerable: true });
  return schema;
}

/** The mark of `schema`, if it is (a use of) a named definition. */
export function definitionMark(schema: unknown): DefinitionMark | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  return (schema as Record<symbol, DefinitionMark | undefined>)[NAME];
}

/**
 * A use of a named definition with use-site annotations (description, default, provenance). The copy
 * keeps the mark, so it is emitted as a `$ref` with these annotations beside it.
 */
export function use<T extends TSchema>(schema: T, annotations: Record<string, unknown>): T {
  return { ...schema, ...annotations };
}
