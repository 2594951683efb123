/**
 * Endpoints the target does not implement. An operation the interface or the service defines that answers
 * 405 or 501, or 404 where the operation itself would not (a start, the active list; or a job endpoint whose 404
 * is not the error envelope the service answers for an unknown job, e.g. a framework's "Cannot GET" page), is
 * not there. The run lists each such operation once (method, path, the statuses, how many requests got them,
 * from which checks), first in the report, so that one missing route reads as one finding instead of hundreds
 * of refusals. The fault fails the check that proves the operation (`proverOf`: `vN.crawl.start.valid` for a crawl
 * start, `vN.status` for a status read...); every other check whose request met it rests on it (inconclusive,
 * naming it as its cause: context.ts), so that one missing route is one failure and one cause, not a failure per
 * check (issue 40). A refusal check never passes on it (baseline.ts).
 */
import type { Version } from '../../../schemas/registry.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import type { Exchange } from '../wire/http.js';
import type { NotImplemented } from '../report/report.js';
import type { OperationSpec } from '../spec/operations.js';

/** Statuses that say the route is not there, whatever the operation. */
const NOT_THERE = new Set([405, 501]);

/**
 * Whether `exchange`, a request to `operation`, was answered as by a target that does not implement it: 405 or
 * 501; or 404 where the operation answers 404 only with the error envelope for a job it does not know (a batch
 * start only for an `appendToId`), and this 404 is not the body the operation documents for it.
 */
export function answeredAsMissing(exchange: Exchange, version: Version, operation: OperationSpec): boolean {
  if (NOT_THERE.has(exchange.status)) return true;
  if (exchange.status !== 404) return false;
  if (!('404' in operation.responses)) return true;
  if (operation.method === 'post') {
    const body = exchange.request.body === undefined ? undefined : safeParse(exchange.request.body);
    if (typeof body !== 'object' || body === null || !('appendToId' in body)) return true;
  }
  const documented = operation.responses['404']!.schema;
  return !(exchange.isJson && validate(`${version}/${documented}` as SchemaName, exchange.json).valid);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface Entry {
  readonly method: string;
  readonly path: string;
  readonly source: string;
  readonly statuses: Set<number>;
  requests: number;
  readonly checks: Set<string>;
}

/** The operations a run found missing, each once, first met first. */
export class MissingEndpoints {
  private readonly found = new Map<string, Entry>();

  /** Records that `check`'s request to `operation` of `version` was answered as missing. */
  note(check: string, version: Version, operation: OperationSpec, status: number): void {
    const method = operation.method.toUpperCase();
    const path = `/${version}${operation.path}`;
    const key = `${method} ${path}`;
    const entry = this.found.get(key) ?? { method, path, source: operation.source, statuses: new Set(), requests: 0, checks: new Set() };
    entry.statuses.add(status);
    entry.requests += 1;
    entry.checks.add(check);
    this.found.set(key, entry);
  }

  list(): NotImplemented[] {
    return [...this.found.values()].map((e) => ({
      method: e.method,
      path: e.path,
      source: e.source,
      statuses: [...e.statuses].sort((a, b) => a - b),
      requests: e.requests,
      checks: [...e.checks],
    }));
  }
}

/**
 * The check that proves `operation` of `version` is there: the one that fails when it is not. Undefined for an
 * operation no check is about (a failure meeting it there fails its own check).
 */
export function proverOf(version: Version, operation: Pick<OperationSpec, 'method' | 'path'>): string | undefined {
  const { method, path } = operation;
  const kind = path.startsWith('/crawl') ? 'crawl' : path.startsWith('/batch/scrape') ? 'batch' : undefined;
  if (kind === undefined) return undefined;
  if (method === 'post' && (path === '/crawl' || path === '/batch/scrape')) return `${version}.${kind}.start.valid`;
  if (method === 'get' && path === '/crawl/active') return `${version}.active`;
  if (method === 'get' && path.endsWith('/errors')) return `${version}.errors`;
  if (method === 'get' && path.endsWith('/{id}')) return `${version}.status`;
  if (method === 'delete') return `${version}.cancel`;
  return undefined;
}
