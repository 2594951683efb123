/**
 * Deterministic checks beside the generated ones, so that one refused field cannot hide behind another:
 *
 *   - `vN.<kind>.start.fieldAlone`: each field the interface states (of the request, and of the scrape
 *     options), sent alone with a typical value other than its default, is accepted;
 *   - `vN.<kind>.start.enumValue`: each value of each enum the interface states (a crawl's `sitemap`, `proxy`,
 *     each format, each action kind, ...), sent alone, is accepted;
 *   - `vN.<kind>.start.invalid.fraction`: each integer field the interface states, sent with a fraction, is
 *     refused (the interface says integer).
 *
 * A body that holds what only the service states (an action kind the interface names, with the field the service
 * gives it: a `write` action's `text`) is held to the service's acceptance only: an implementation of the interface
 * may refuse it. Values come from the schema (typicalValues.ts). A value that a rule pairs with another field (the v1 `json`
 * format with `jsonOptions`, `changeTracking` with `markdown`) is sent with the companion a rule case shows.
 * Fields that are never sent: `url`/`urls` (always there), `webhook` (delivers elsewhere), `zeroDataRetention`
 * (depends on the account), `prompt` (asks a language model); `scrapeOptions` is sent field by field.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { isDeepStrictEqual } from 'node:util';
import { EXTENSION, SOURCE } from '../../../../schemas/annotations.js';
import { definitions, type Version } from '../../../../schemas/registry.js';
import { objectOf } from '../../../../schemas/rule.js';
import { validate } from '../../../../schemas/validate.js';
import { startRefused } from '../../engine/baseline.js';
import { START, simpleCheck, type Check } from '../../engine/check.js';
import type { Attempt } from '../../engine/context.js';
import { acceptance, refusal } from '../../engine/expect.js';
import type { Level } from '../../spec/levels.js';
import type { ResolvedOptions } from '../../engine/options.js';
import { RULE_CASES } from '../../generation/ruleCases.js';
import { minimalRequest, requestName, requestSchema, type Body } from '../../generation/safeRequests.js';
import { serviceOnlyPlaces, type JobKind } from '../../spec/operations.js';
import { typicalValues } from '../../generation/typicalValues.js';
import { checkInvalidUrls } from '../../engine/follow.js';
import { expectedInvalidUrls } from '../../../../schemas/batchPartition.js';

type Schema = TSchema & Record<string, unknown>;

/** Request fields never sent alone (see the module comment). */
export const UNSENT_FIELDS = new Set(['url', 'urls', 'webhook', 'zeroDataRetention', 'prompt', 'scrapeOptions']);

export interface FieldBody {
  /** `limit`, `scrapeOptions.proxy`, ... */
  readonly field: string;
  readonly value: unknown;
  readonly body: Body;
  /** For a body that must be refused: the valid body it was broken from (baseline.ts). */
  readonly base?: Body;
  /**
   * `interface` for a body of what the interface states only; `service` for one that also holds what only the
   * service states (an action kind the interface names with the field the service gives it, `text` of a `write`):
   * an implementation of the interface may refuse such a body, so its acceptance is the service's to judge.
   */
  readonly level: Level;
}

export interface FieldPlan {
  /** One body per field: the field alone, with a value other than its default. */
  readonly alone: readonly FieldBody[];
  /** One body per enum value. */
  readonly enumValues: readonly FieldBody[];
  /** One body per integer field, with a fraction. */
  readonly fractions: readonly FieldBody[];
  /**
   * What no valid body could be made for on the site: fields (for `alone`), enum values (for `enumValues`).
   * Empty on the kit's sites (test/contractPieces.test.ts); a check reports what it could not send as undecided.
   */
  readonly unsent: { readonly alone: readonly string[]; readonly enumValues: readonly string[] };
}

const statedByInterface = (schema: Schema) =>
  schema[EXTENSION] !== true && typeof schema[SOURCE] === 'string' && (schema[SOURCE] as string).startsWith('interface');

/** Whether a field's values are drawn from enums (literals): each of its typical values is an enum value then. */
function holdsLiterals(schema: Schema): boolean {
  const text = JSON.stringify(schema, (key, value: unknown) => (key === 'default' || key === 'examples' ? undefined : value));
  return text.includes('"const"');
}

/** The interface's fields of a request of `kind`, each with where it stands (`scrapeOptions` for a crawl's options). */
function interfaceFields(version: Version, kind: JobKind): { field: string; at: string[]; schema: Schema }[] {
  const request = objectOf(definitions[version].get(requestName(kind))!)!;
  const own = Object.entries(request.properties as Record<string, Schema>)
    .filter(([name, schema]) => !UNSENT_FIELDS.has(name) && statedByInterface(schema))
    .map(([name, schema]) => ({ field: name, at: [name], schema }));
  if (kind === 'batch') return own;
  const options = objectOf(definitions[version].get('ScrapeOptions')!)!;
  return [
    ...own,
    ...Object.entries(options.properties as Record<string, Schema>)
      .filter(([, schema]) => statedByInterface(schema))
      .map(([name, schema]) => ({ field: `scrapeOptions.${name}`, at: ['scrapeOptions', name], schema })),
  ];
}

/** `base` with `value` at `at` (one or two levels deep). */
function placed(base: Body, at: readonly string[], value: unknown): Body {
  const body = structuredClone(base);
  if (at.length === 1) body[at[0]!] = value;
  else body[at[0]!] = { ...((body[at[0]!] as Body | undefined) ?? {}), [at[1]!]: value };
  return body;
}

/** Whether `container` holds `value` (equal, or an array with it, or an object whose `type` is it). */
const holds = (container: unknown, value: unknown): boolean =>
  isDeepStrictEqual(container, value) ||
  (Array.isArray(container) && Array.isArray(value) && value.every((v) => container.some((c) => isDeepStrictEqual(c, v))));

/**
 * A valid body carrying `value` at `at`: alone, or with the companion a rule case's valid scrape options show
 * for the rule the lone value breaks.
 */
function validBody(version: Version, kind: JobKind, base: Body, at: readonly string[], value: unknown): Body | undefined {
  const schema = requestSchema(version, kind);
  const alone = placed(base, at, value);
  const result = validate(schema, alone);
  if (result.valid) return alone;
  const rules = new Set(result.errors.map((e) => e.rule));
  const name = at[at.length - 1]!;
  const optionsAt = kind === 'crawl' ? ['scrapeOptions'] : [];
  for (const c of RULE_CASES) {
    if (c.version !== version || c.schema !== 'ScrapeOptions' || !c.issues.some((i) => rules.has(i.rule))) continue;
    const options = c.valid as Body;
    if (!(name in options) || (kind === 'crawl' && at[0] !== 'scrapeOptions')) continue;
    const candidates = [{ ...options, [name]: value }, ...(holds(options[name], value) ? [options] : [])];
    for (const candidate of candidates) {
      const body = optionsAt.length === 0 ? { ...base, ...candidate } : { ...base, scrapeOptions: candidate };
      if (validate(schema, body).valid) return body;
    }
  }
  return undefined;
}

/** What the deterministic checks of `version` and `kind` send, on the run's site. */
export function fieldPlan(version: Version, kind: JobKind, options: Pick<ResolvedOptions, 'siteUrl' | 'site'>): FieldPlan {
  const base = minimalRequest(kind, options.siteUrl, options.site.pages[0]);
  const alone: FieldBody[] = [];
  const enumValues: FieldBody[] = [];
  const fractions: FieldBody[] = [];
  const unsent = { alone: [] as string[], enumValues: [] as string[] };
  const bodyLevel = (body: Body): Level => (serviceOnlyPlaces(version, requestName(kind), body).length > 0 ? 'service' : 'interface');
  for (const { field, at, schema } of interfaceFields(version, kind)) {
    const values = typicalValues(schema);
    const bodies = values.map((value) => {
      const body = validBody(version, kind, base, at, value);
      return { value, body, level: body === undefined ? 'interface' : bodyLevel(body) };
    });
    // Other than its default, and other than what the minimal body already says (a crawl's `limit` of 1); those of
    // interface values only first (a json format with the schema the interface names, before one with a prompt).
    const sendable = bodies
      .filter(
        (b): b is { value: unknown; body: Body; level: Level } =>
          b.body !== undefined && !isDeepStrictEqual(b.value, schema.default) && !isDeepStrictEqual(b.value, base[at[at.length - 1]!]),
      )
      .sort((a, b) => Number(a.level === 'service') - Number(b.level === 'service'));
    const first = sendable[0];
    // An object is sent once per optional member the interface states (each stands alone inside it).
    const isObject = schema[Kind] === 'Object' || schema[Kind] === 'Intersect';
    for (const b of isObject ? sendable : sendable.slice(0, 1)) alone.push({ field, value: b.value, body: b.body, level: b.level });
    if (!first) unsent.alone.push(`${field} (no value other than its default makes a valid body)`);
    if (holdsLiterals(schema))
      for (const { value, body, level } of bodies) {
        if (body) enumValues.push({ field, value, body, level });
        else unsent.enumValues.push(`${field}: ${JSON.stringify(value)}`);
      }
    if (schema.type === 'integer' && first !== undefined) {
      const fraction = (first.value as number) + 0.5;
      fractions.push({ field, value: fraction, body: placed(first.body, at, fraction), base: first.body, level: first.level });
    }
  }
  return { alone, enumValues, fractions, unsent };
}

const describe = (b: FieldBody) => `${b.field}: ${JSON.stringify(b.value)}`;
const optionsSection = (version: Version) => (version === 'v1' ? 'interface §2.3' : 'interface §2.4');
const requestSection = (kind: JobKind) => (kind === 'crawl' ? 'interface §2.1' : 'interface §2.2');
const sectionOf = (version: Version, kind: JobKind, field: string) =>
  field.startsWith('scrapeOptions.') || (kind === 'batch' && !['maxConcurrency', 'ignoreInvalidURLs'].includes(field))
    ? optionsSection(version)
    : requestSection(kind);

/**
 * Starts each body of `plan[which]`, which must be accepted (interface), and cancels its job. A field or
 * value no valid body could be made for on the run's site is left undecided, by name.
 */
async function acceptEach(attempt: Attempt, version: Version, kind: JobKind, plan: FieldPlan, which: 'alone' | 'enumValues') {
  const unsent = plan.unsent[which];
  if (unsent.length > 0) attempt.leaveUndecided(`not sent, no valid body on ${attempt.options.siteUrl}: ${unsent.join('; ')}`);
  for (const b of plan[which]) {
    const { exchange, ok, job } = await attempt.start(
      version,
      kind,
      { json: b.body },
      acceptance(
        b.level,
        b.level === 'interface'
          ? `${describe(b)} is a value the interface states`
          : `${describe(b)}: the interface states ${b.field}, the service what else the body holds (${serviceOnlyPlaces(version, requestName(kind), b.body).join(', ')})`,
        sectionOf(version, kind, b.field),
      ),
    );
    if (ok && kind === 'batch') checkInvalidUrls(attempt, expectedInvalidUrls(version, b.body), exchange, 'interface');
    if (job) await attempt.cancel(job);
  }
}

export function fieldChecks(version: Version): Check[] {
  return (['crawl', 'batch'] as const).flatMap((kind): Check[] => {
    // One plan per run (its options), shared by the three checks and their costs: making it validates every
    // candidate body, a tenth of a second that each of the six asked for again.
    const plans = new WeakMap<ResolvedOptions, FieldPlan>();
    const plan = (options: ResolvedOptions): FieldPlan => {
      let made = plans.get(options);
      if (made === undefined) plans.set(options, (made = fieldPlan(version, kind, options)));
      return made;
    };
    const cites = [
      { source: requestSection(kind), names: [kind === 'crawl' ? 'url' : 'urls', 'maxConcurrency'] },
      { source: optionsSection(version), names: ['formats', 'proxy', 'timeout'] },
    ];
    return [
      simpleCheck(
        {
          name: `${version}.${kind}.start.fieldAlone`,
          level: 'interface',
          proves: `Each field the interface states for a ${version} ${kind} (its own and the scrape options), sent alone with a value other than its default, is accepted.`,
          cites,
          startsJob: true,
          cost: (options) => plan(options).alone.length * START,
        },
        (attempt) => acceptEach(attempt, version, kind, plan(attempt.options), 'alone'),
      ),
      simpleCheck(
        {
          name: `${version}.${kind}.start.enumValue`,
          level: 'interface',
          proves: `Each value of each enum the interface states for a ${version} ${kind} (formats, proxy, action kinds${version === 'v2' && kind === 'crawl' ? ', sitemap' : ''}, ...), sent alone, is accepted.`,
          cites,
          startsJob: true,
          cost: (options) => plan(options).enumValues.length * START,
        },
        (attempt) => acceptEach(attempt, version, kind, plan(attempt.options), 'enumValues'),
      ),
      simpleCheck(
        {
          name: `${version}.${kind}.start.invalid.fraction`,
          level: 'interface',
          proves: `Each integer field the interface states for a ${version} ${kind}, sent with a fraction, is refused and starts no job, where the same body with the whole number is accepted.`,
          cites: [
            { source: requestSection(kind), names: kind === 'crawl' ? ['limit', 'maxConcurrency'] : ['maxConcurrency'] },
            { source: optionsSection(version), names: ['timeout', 'waitFor', 'maxAge'] },
          ],
          // Its refusals are held against bases that start jobs (baseline.ts).
          startsJob: true,
          cost: (options) => plan(options).fractions.length * 2 * START,
        },
        async (attempt) => {
          for (const b of plan(attempt.options).fractions) {
            const expectation = refusal(version, requestSchema(version, kind), b.body, `${describe(b)} is not an integer`);
            await startRefused(attempt, version, kind, { json: b.body }, expectation, b.base);
          }
        },
      ),
    ];
  });
}
