/**
 * Spec coverage: what a run of the contract kit, or a recording of a client's traffic, exercised of the spec. It is
 * fed exchanges (`add`: method, address, request body, status, answer body, whether the answer was checked) and
 * counts, against what there is to cover (universe.ts, computed from the single source):
 *
 *   - per operation, the requests it got and the answers seen, by status, and how many of each had their body checked;
 *   - per field of a request body, the bodies that sent it valid, and those that sent it invalid: a field is sent
 *     invalid when validate() (schemas/validate.ts) reports a problem at it or inside it;
 *   - per enum value (every string literal of a request body: formats, parsers, action types, sitemap modes, proxy
 *     classes, webhook events, ...), the bodies that sent it where it belongs;
 *   - per rule (schema-marked and code), the bodies that broke it (an issue with its id) and those that kept it
 *     where it applies (the place it looks at is in the body, holding one of the code rule's triggering fields);
 *   - per field of an answer body, the answers that held it.
 *
 * Memory is bounded by what there is to cover, whatever is fed: only the spec's paths are counted. Work is linear in
 * what is fed (each body is parsed once and walked once, MAX_DEPTH levels deep at most).
 */
import { parseJson } from '../../schemas/parseJson.js';
import type { OperationSpec } from '../../schemas/operations.js';
import type { Version } from '../../schemas/registry.js';
import { validate, type SchemaName, type ValidationIssue } from '../../schemas/validate.js';
import { documentedStatuses, locate, type Method } from '../contract/spec/operations.js';
import { MEASURES, type Coverage, type Measure, type MeasureName } from './schema.js';
import { coverageUniverse, pathOf, type RulePlace, type Universe } from './universe.js';

/** One exchange, as the coverage reads it. */
export interface CoverageExchange {
  readonly method: string;
  /** The absolute address asked for. */
  readonly url: string;
  readonly requestBody?: string;
  /** Absent when no answer came. */
  readonly status?: number;
  /** The answer's body, when it was read. */
  readonly answerBody?: string;
  /** The answer's body was checked against the definition of its status. */
  readonly answerChecked: boolean;
}

/** Levels of a body walked for its fields; deeper values are not counted (the spec's paths are shallower). */
const MAX_DEPTH = 16;

/** Each path of `value` (array items as `[]`) and what is there, once per path and string value. */
function pathsOf(value: unknown): { paths: Set<string>; strings: Set<string> } {
  const paths = new Set<string>();
  const strings = new Set<string>();
  const stack: [unknown, (string | number)[]][] = [[value, []]];
  while (stack.length > 0) {
    const [node, segments] = stack.pop()!;
    if (segments.length > 0) {
      const path = pathOf(segments);
      paths.add(path);
      if (typeof node === 'string') strings.add(`${path}\u0000${node}`);
    }
    if (segments.length >= MAX_DEPTH || typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) for (const item of node) stack.push([item, [...segments, 0]]);
    else for (const [key, item] of Object.entries(node)) stack.push([item, [...segments, key]]);
  }
  return { paths, strings };
}

/** Whether `body` holds a value at `at` (a path of universe.ts, `[]` any item) that keeps `test`. */
function holds(body: unknown, at: string, test: (value: unknown) => boolean): boolean {
  const steps = at === '$' ? [] : (at.slice(1).match(/\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\]|\[\]/g) ?? []);
  const visit = (value: unknown, i: number): boolean => {
    if (i === steps.length) return test(value);
    const step = steps[i]!;
    if (step === '[]') return Array.isArray(value) && value.some((item) => visit(item, i + 1));
    const key = step.startsWith('.') ? step.slice(1) : (JSON.parse(step.slice(1, -1)) as string);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
      ? visit((value as Record<string, unknown>)[key], i + 1)
      : false;
  };
  return visit(body, 0);
}

/** Whether `place` applies to `body`: it holds the place, and (for a code rule) one of the fields that trigger it. */
const applies = (body: unknown, place: RulePlace) =>
  holds(
    body,
    place.at,
    (value) =>
      place.triggers === undefined ||
      (typeof value === 'object' && value !== null && place.triggers.some((field) => Object.hasOwn(value, field))),
  );

const percent = (covered: number, total: number) => (total === 0 ? 100 : Math.floor((covered / total) * 1000) / 10);
const measure = (covered: number, total: number): Measure => ({ covered, total, percent: percent(covered, total) });

/** `GET /v2/crawl/{id}`. */
const named = (version: Version, operation: OperationSpec) => `${operation.method.toUpperCase()} /${version}${operation.path}`;

/** The base address of the API an address is under: its origin and the path before its first `/v1/` or `/v2/`. */
export function apiBase(url: string): string | undefined {
  try {
    const address = new URL(url);
    const prefix = /^(.*?)\/v[12](?:\/|$)/.exec(address.pathname)?.[1];
    return prefix === undefined ? undefined : `${address.origin}${prefix}/`;
  } catch {
    return undefined;
  }
}

/** Where an address lands: under `target`, or when none is known, under its own base (`apiBase`). */
function located(target: string | undefined, method: string, url: string) {
  const base = target ?? apiBase(url);
  return base === undefined || !['GET', 'POST', 'DELETE'].includes(method) ? undefined : locate(base, method as Method, url);
}

export class CoverageModel {
  private readonly universe: Universe = coverageUniverse();
  private exchanges = 0;
  private outsideSpec = 0;
  /** By operation name: requests, and per status [seen, checked]. */
  private readonly ops = new Map<string, { requests: number; statuses: Map<number, [number, number]> }>();
  /** By `schema path`: [valid, invalid]. */
  private readonly fields = new Map<string, [number, number]>();
  /** By `schema path \0 value`. */
  private readonly enums = new Map<string, number>();
  /** By rule key (`v2 waitForWithinTimeout`): [satisfied, broken]. */
  private readonly rules = new Map<string, [number, number]>();
  /** By `schema path`. */
  private readonly answers = new Map<string, number>();

  /** `target`: the base address the API is under; without it, each address's own prefix before `/v1/` or `/v2/`. */
  constructor(private readonly target?: string) {}

  add(exchange: CoverageExchange): void {
    this.exchanges += 1;
    const where = located(this.target, exchange.method.toUpperCase(), exchange.url);
    if (where === undefined) {
      this.outsideSpec += 1;
      return;
    }
    const { version, operation } = where;
    const op = this.ops.get(named(version, operation)) ?? { requests: 0, statuses: new Map() };
    this.ops.set(named(version, operation), op);
    op.requests += 1;
    if (exchange.status !== undefined) {
      const counts = op.statuses.get(exchange.status) ?? [0, 0];
      counts[0] += 1;
      if (exchange.answerChecked) counts[1] += 1;
      op.statuses.set(exchange.status, counts);
      const schema = operation.responses[String(exchange.status)]?.schema;
      if (schema !== undefined && exchange.answerBody !== undefined) this.answer(`${version}/${schema}`, exchange.answerBody);
    }
    if (operation.requestBody !== undefined && exchange.requestBody !== undefined)
      this.request(version, `${version}/${operation.requestBody}`, exchange.requestBody);
  }

  private answer(schema: string, text: string): void {
    const known = this.universe.answerFields.get(schema);
    const parsed = parseJson(text);
    if (known === undefined || !parsed.ok) return;
    const { paths } = pathsOf(parsed.value);
    for (const path of known) if (paths.has(path)) this.answers.set(`${schema} ${path}`, (this.answers.get(`${schema} ${path}`) ?? 0) + 1);
  }

  private request(version: Version, schema: string, text: string): void {
    const parsed = parseJson(text);
    if (!parsed.ok) return;
    const result = validate(schema as SchemaName, parsed.value);
    const issues: readonly ValidationIssue[] = result.valid ? [] : result.errors;
    const at = issues.map((issue) => pathOf(issue.segments));
    const { paths, strings } = pathsOf(parsed.value);
    for (const path of this.universe.requestFields.get(schema) ?? []) {
      if (!paths.has(path)) continue;
      const invalid = at.some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`));
      const counts = this.fields.get(`${schema} ${path}`) ?? [0, 0];
      counts[invalid ? 1 : 0] += 1;
      this.fields.set(`${schema} ${path}`, counts);
    }
    for (const [path, values] of this.universe.enumValues.get(schema) ?? [])
      for (const value of values)
        if (strings.has(`${path}\u0000${value}`)) {
          const key = `${schema} ${path}\u0000${value}`;
          this.enums.set(key, (this.enums.get(key) ?? 0) + 1);
        }
    // Past MAX_ISSUES or REPORT_LIMIT, validate() lists some problems only: a rule it does not name may be broken too.
    const partial = issues.some((issue) => issue.rule === 'firstProblemOnly' || issue.rule === 'moreProblems');
    const broken = new Set(issues.map((issue) => issue.rule));
    for (const [key, places] of this.universe.rules) {
      if (!key.startsWith(`${version} `)) continue;
      const mine = places.filter((place) => place.schema === schema);
      if (mine.length === 0) continue;
      const id = key.slice(version.length + 1);
      const counts = this.rules.get(key) ?? [0, 0];
      if (broken.has(id)) counts[1] += 1;
      else if (!partial && mine.some((place) => applies(parsed.value, place))) counts[0] += 1;
      this.rules.set(key, counts);
    }
  }

  /** The coverage so far, in its JSON form (schema.ts). */
  result(): Coverage {
    const u = this.universe;
    const untouched = Object.fromEntries(MEASURES.map((m) => [m, [] as string[]])) as Record<MeasureName, string[]>;
    const operations = u.operations.map(({ version, operation }) => {
      const name = named(version, operation);
      const seen = this.ops.get(name);
      if (seen === undefined) untouched.operations.push(name);
      const documented = documentedStatuses(operation);
      const statuses = [...new Set([...documented, ...[...(seen?.statuses.keys() ?? [])].sort((a, b) => a - b)])].map((status) => {
        const [count, checked] = seen?.statuses.get(status) ?? [0, 0];
        const isDocumented = documented.includes(status);
        if (isDocumented && count === 0) untouched.statuses.push(`${name} ${status}`);
        if (isDocumented && checked === 0) untouched.checkedAnswers.push(`${name} ${status}`);
        return { status, documented: isDocumented, seen: count, checked };
      });
      return { operation: name, operationId: operation.operationId, exchanges: seen?.requests ?? 0, statuses };
    });
    const requestFields = [...u.requestFields].flatMap(([schema, paths]) =>
      paths.map((path) => {
        const [valid, invalid] = this.fields.get(`${schema} ${path}`) ?? [0, 0];
        if (valid === 0) untouched.requestFields.push(`${schema} ${path}`);
        if (invalid === 0) untouched.invalidFields.push(`${schema} ${path}`);
        return { schema, path, valid, invalid };
      }),
    );
    const enumValues = [...u.enumValues].flatMap(([schema, byPath]) =>
      [...byPath].flatMap(([path, values]) =>
        values.map((value) => {
          const sent = this.enums.get(`${schema} ${path}\u0000${value}`) ?? 0;
          if (sent === 0) untouched.enumValues.push(`${schema} ${path} = ${JSON.stringify(value)}`);
          return { schema, path, value, sent };
        }),
      ),
    );
    const rules = [...u.rules.keys()].map((key) => {
      const [version, rule] = key.split(' ') as [Version, string];
      const [satisfied, broken] = this.rules.get(key) ?? [0, 0];
      if (satisfied === 0 || broken === 0)
        untouched.rules.push(`${key}${satisfied > 0 ? ' (never broken)' : broken > 0 ? ' (never kept)' : ''}`);
      return { rule, version, satisfied, broken };
    });
    const answerFields = [...u.answerFields].flatMap(([schema, paths]) =>
      paths.map((path) => {
        const observed = this.answers.get(`${schema} ${path}`) ?? 0;
        if (observed === 0) untouched.answerFields.push(`${schema} ${path}`);
        return { schema, path, observed };
      }),
    );
    const documented = operations.flatMap((o) => o.statuses.filter((s) => s.documented));
    const measures: Record<MeasureName, Measure> = {
      operations: measure(operations.filter((o) => o.exchanges > 0).length, operations.length),
      statuses: measure(documented.filter((s) => s.seen > 0).length, documented.length),
      checkedAnswers: measure(documented.filter((s) => s.checked > 0).length, documented.length),
      requestFields: measure(requestFields.filter((f) => f.valid > 0).length, requestFields.length),
      invalidFields: measure(requestFields.filter((f) => f.invalid > 0).length, requestFields.length),
      enumValues: measure(enumValues.filter((e) => e.sent > 0).length, enumValues.length),
      rules: measure(rules.filter((r) => r.satisfied > 0 && r.broken > 0).length, rules.length),
      answerFields: measure(answerFields.filter((f) => f.observed > 0).length, answerFields.length),
    };
    const counted = MEASURES.filter((m) => measures[m].total > 0);
    const overall = counted.length === 0 ? 100 : Math.floor((counted.reduce((sum, m) => sum + measures[m].percent, 0) / counted.length) * 10) / 10;
    return {
      exchanges: this.exchanges,
      outsideSpec: this.outsideSpec,
      overall,
      measures,
      operations,
      requestFields,
      enumValues,
      rules,
      answerFields,
      untouched,
    };
  }
}
