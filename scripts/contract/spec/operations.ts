/**
 * What the spec says about an answer: which operation a URL addresses (schemas/operations.ts), which
 * statuses it documents and with which body, and where a schema element comes from (`x-crawlspec-source`).
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { SOURCE } from '../../../schemas/annotations.js';
import { operations, type OperationSpec } from '../../../schemas/operations.js';
import { definitions, type Version } from '../../../schemas/registry.js';
import { objectOf } from '../../../schemas/rule.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import { levelOf } from './levels.js';
import { Tally } from './tally.js';

export type { OperationSpec };
export type JobKind = 'crawl' | 'batch';
export type Method = 'GET' | 'POST' | 'DELETE';

export const KIND_PATH: Record<JobKind, string> = { crawl: '/crawl', batch: '/batch/scrape' };

const OPERATIONS: Record<Version, readonly OperationSpec[]> = { v1: operations('v1'), v2: operations('v2') };

/** The operation that answers `method` on `path` (below the version segment); literal paths win over `{id}`. */
export function operationAt(version: Version, method: Method, path: string): OperationSpec | undefined {
  const candidates = OPERATIONS[version].filter((op) => op.method === method.toLowerCase());
  const exact = candidates.find((op) => op.path === path);
  if (exact) return exact;
  return candidates.find((op) => {
    const pattern = new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^{}]+\}/g, '[^/]+')}$`);
    return op.path.includes('{') && pattern.test(path);
  });
}

/** The operation named by its id, e.g. `startCrawlV2`. */
export function operationById(version: Version, operationId: string): OperationSpec {
  const found = OPERATIONS[version].find((op) => op.operationId === operationId);
  if (!found) throw new RangeError(`no operation ${operationId} in ${version}`);
  return found;
}

/** Where `url` lands: the version and the operation, when it addresses this target's API. */
/** Whether two addresses share an origin (false when either is not a URL). */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

export function locate(baseUrl: string, method: Method, url: string): { version: Version; operation: OperationSpec } | undefined {
  let target: URL;
  let base: URL;
  try {
    target = new URL(url);
    base = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (target.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/(?<!\/)\/+$/, '');
  if (!target.pathname.startsWith(`${prefix}/`)) return undefined;
  const match = /^\/(v1|v2)(\/.*)$/.exec(target.pathname.slice(prefix.length));
  if (!match) return undefined;
  const version = match[1] as Version;
  const operation = operationAt(version, method, match[2]!);
  return operation ? { version, operation } : undefined;
}

/** The documented statuses of an operation, as numbers, sorted. */
export const documentedStatuses = (operation: OperationSpec): number[] =>
  Object.keys(operation.responses)
    .map(Number)
    .sort((a, b) => a - b);

type Schema = TSchema & Record<string | symbol, unknown>;

/** The schema one step below `node` (a property, an item, a union branch holding it). */
function child(node: Schema, segment: string | number): Schema | undefined {
  const object = (node[Kind] === 'Intersect' ? objectOf(node) : node) as unknown as Schema | undefined;
  if (!object) return undefined;
  switch (object[Kind]) {
    case 'Object':
      return (object.properties as Record<string, Schema> | undefined)?.[String(segment)];
    case 'Array':
      return object.items as Schema;
    case 'Record':
      return Object.values(object.patternProperties as Record<string, Schema>)[0];
    case 'Union':
      for (const branch of object.anyOf as Schema[]) {
        const found = child(branch, segment);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The section a place in a definition comes from: the `x-crawlspec-source` of the deepest schema on the
 * path that carries one (`interface §2.4`, or `service`); given the `value` there, a union's literal equal to it
 * counts as deeper.
 */
export function sourceAt(version: Version, name: string, segments: readonly (string | number)[] = [], value?: unknown): string {
  let node = definitions[version].get(name) as Schema | undefined;
  if (!node) return 'service';
  const own = (s: Schema) => (typeof s[SOURCE] === 'string' ? (s[SOURCE] as string) : undefined);
  let found = own(node) ?? (node[Kind] === 'Intersect' ? own(objectOf(node) as unknown as Schema) : undefined);
  for (const segment of segments) {
    node = child(node, segment);
    if (!node) break;
    found = own(node) ?? found;
  }
  // A value that is one of a union's literals with a source of its own (the interface's `git-diff` among the
  // service's modes) comes from there.
  if (node?.[Kind] === 'Union' && value !== undefined) {
    const literal = (node.anyOf as Schema[]).find((b) => b[Kind] === 'Literal' && b.const === value);
    if (literal !== undefined) found = own(literal) ?? found;
  }
  return found ?? 'service';
}

export interface BodyProblem {
  /** The definition the problem is measured against, e.g. `v2/Document`. */
  readonly schema: SchemaName;
  readonly path: string;
  readonly segments: readonly (string | number)[];
  readonly message: string;
  /** Where the broken element comes from (`interface §4`, `service`). */
  readonly section: string;
}

/** Problems of one answer listed at each level, in the order found; the others are only counted. */
export const LISTED_PROBLEMS = 3;

/**
 * What is wrong with `body` as `version/name`, by level (`interface`, `service`): the first LISTED_PROBLEMS
 * problems of each, and how many there are. A status answer's pages are validated one by one as the version's
 * `Document`, so a problem in a page names the page definition.
 *
 * Only the problems listed are kept (tally.ts): an answer of up to `--max-response-bytes` may hold millions of
 * broken records (`"data":[0,0,...]`), one problem or more each, and keeping each (its path, message, section)
 * took gigabytes. Each record is validated on its own, so what `validate` builds for one is garbage once it is
 * counted, and memory stays bounded whatever the answer holds.
 */
export function bodyProblems(version: Version, name: string, body: unknown): Tally<BodyProblem> {
  const problems = new Tally<BodyProblem>(LISTED_PROBLEMS);
  const check = (schema: string, value: unknown, at: readonly (string | number)[]): void => {
    const qualified = `${version}/${schema}` as SchemaName;
    const result = validate(qualified, value);
    if (result.valid) return;
    for (const issue of result.errors) {
      // The source of the broken constraint (validate() gives it per keyword), else of the element it is on.
      const section = issue.source ?? sourceAt(version, schema, issue.segments);
      problems.add(levelOf(section), () => {
        const segments = [...at, ...issue.segments];
        const path = `$${segments.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}`;
        return { schema: qualified, path, segments, message: issue.message, section };
      });
    }
  };
  if (name === 'JobStatusResponse' && typeof body === 'object' && body !== null && Array.isArray((body as { data?: unknown }).data)) {
    const pages = (body as { data: unknown[] }).data;
    check(name, { ...body, data: [] }, []);
    for (let i = 0; i < pages.length; i += 1) check('Document', pages[i], ['data', i]);
  } else check(name, body, []);
  return problems;
}

/** Every leaf value of `value` with its path (an empty array or object is a leaf). */
function leaves(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; value: unknown }[] {
  if (Array.isArray(value)) return value.length === 0 ? [{ path, value }] : value.flatMap((v, i) => leaves(v, [...path, i]));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? [{ path, value }] : entries.flatMap(([k, v]) => leaves(v, [...path, k]));
  }
  return [{ path, value }];
}

/** The object schemas a value at `node` may be: the node's own, or each branch of a union. */
function objectsOf(node: Schema): Schema[] {
  const object = (node[Kind] === 'Intersect' ? objectOf(node) : node) as unknown as Schema | undefined;
  if (object?.[Kind] === 'Object') return [object];
  if (object?.[Kind] === 'Union') return (object.anyOf as Schema[]).flatMap(objectsOf);
  return [];
}

/**
 * How many leading segments of `path` the definition `version/name` lists: a key that no object schema there
 * names (an object that names its properties; a free-form one, such as a JSON Schema given for extraction,
 * holds what it likes) ends it. `path.length` when every key is listed.
 */
function listedDepth(version: Version, name: string, path: readonly (string | number)[]): number {
  let node = definitions[version].get(name) as Schema | undefined;
  for (let i = 0; i < path.length && node !== undefined; i++) {
    const segment = path[i]!;
    if (typeof segment === 'string') {
      const objects = objectsOf(node).filter((o) => Object.keys((o.properties as object | undefined) ?? {}).length > 0);
      if (objects.length > 0 && !objects.some((o) => Object.hasOwn(o.properties as object, segment))) return i;
    }
    node = child(node, segment);
  }
  return path.length;
}

const placeName = (path: readonly (string | number)[]) => path.map((s) => (typeof s === 'number' ? '[]' : s)).join('.');

/**
 * The places in `body` (a request of `version/name`) whose values the interface does not state: where the
 * definitions cite the service (an extension field, a form the service fills in), and keys no definition lists
 * (which the service ignores in its open objects, a location say, and refuses elsewhere). A header's value counts
 * as its header (the interface's `headers` object, whose values are text). Empty for a body of interface values
 * only.
 */
export function serviceOnlyPlaces(version: Version, name: string, body: unknown): string[] {
  const found = new Set<string>();
  for (const { path, value } of leaves(body)) {
    const listed = listedDepth(version, name, path);
    if (listed < path.length) {
      found.add(`${placeName(path.slice(0, listed + 1))} (a key no definition lists)`);
      continue;
    }
    const header = path.length >= 2 && path[path.length - 2] === 'headers';
    const source = header ? sourceAt(version, name, path.slice(0, -1)) : sourceAt(version, name, path, value);
    if (levelOf(source) !== 'interface') found.add(`${placeName(path)} (${source})`);
  }
  return [...found];
}
