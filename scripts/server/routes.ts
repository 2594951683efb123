/**
 * The reference server's routes, derived from `operations(version)`: method plus path template (`{id}`),
 * literal paths before templates (`/crawl/active` before `/crawl/{id}`). What each operation does follows
 * from its shape: POST starts a job, DELETE with an id cancels, GET with an id reads the status (or the
 * errors, for `.../errors`), GET without one lists running crawls.
 */
import { operations, type OperationSpec } from '../../schemas/operations.js';
import { VERSIONS, type Version } from '../../schemas/registry.js';

export type Kind = 'crawl' | 'batch';
export type Action = 'start' | 'status' | 'cancel' | 'errors' | 'active';

export interface Route {
  readonly version: Version;
  readonly operation: OperationSpec;
  readonly kind: Kind;
  readonly action: Action;
  readonly method: string;
  /** `['v2', 'crawl', '{id}']`. */
  readonly segments: readonly string[];
}

/** What an operation does, from its shape. */
function actionOf(operation: OperationSpec): Action {
  const hasId = operation.parameters.includes('id');
  if (operation.method === 'post' && !hasId) return 'start';
  if (operation.method === 'delete' && hasId) return 'cancel';
  if (operation.method === 'get' && hasId) return operation.path.endsWith('/errors') ? 'errors' : 'status';
  if (operation.method === 'get') return 'active';
  throw new Error(`reference server: no behaviour for operation ${operation.operationId}`);
}

/** Every route of every version, literal paths first. */
export function buildRoutes(): Route[] {
  const routes = VERSIONS.flatMap((version) =>
    operations(version).map((operation): Route => ({
      version,
      operation,
      kind: operation.tag === 'Crawl' ? 'crawl' : 'batch',
      action: actionOf(operation),
      method: operation.method.toUpperCase(),
      segments: [version, ...operation.path.split('/').filter((s) => s !== '')],
    })),
  );
  const templated = (route: Route) => route.segments.filter((s) => s.startsWith('{')).length;
  return routes.sort((a, b) => templated(a) - templated(b));
}

/** The route of a method and path, and its `{id}`. */
function match(routes: readonly Route[], method: string, segments: readonly string[]): { route: Route; id: string } | undefined {
  for (const route of routes) {
    if (route.method !== method || route.segments.length !== segments.length) continue;
    let id = '';
    const fits = route.segments.every((template, i) => {
      const actual = segments[i]!;
      if (template === '{id}') {
        id = actual;
        return actual !== '';
      }
      return template === actual;
    });
    if (fits) return { route, id };
  }
  return undefined;
}

/** The path of a request target (`/v2/crawl/<id>?skip=10` → `/v2/crawl/<id>`). */
export const pathOf = (url: string): string => url.split(/[?#]/, 1)[0] ?? '';

/** The route of a method and request target, one trailing slash tolerated, and its `{id}`. */
export function routeOf(routes: readonly Route[], method: string, url: string): { route: Route; id: string } | undefined {
  const path = pathOf(url);
  if (!path.startsWith('/')) return undefined;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return match(routes, method.toUpperCase(), trimmed.split('/').slice(1));
}
