/**
 * Comparing two OpenAPI documents (breakingChanges.ts): their operations and webhooks paired by method and path
 * shape, and of each pair its authentication, parameters, request body, status codes and media types.
 */
import type { Change, Direction } from './change.js';
import { SchemaComparison } from './schemaComparison.js';
import { asObject, canonical, isObject, resolveSchema, type Json } from './schemaReading.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operation: Json;
  readonly parameters: Json[];
}

/** `/v2/crawl/{id}` and `/v2/crawl/{jobId}` are the same path. */
const pathShape = (path: string) => path.replace(/\{[^{}]*\}/g, '{}');

function operationsOf(doc: Json, where: 'paths' | 'webhooks'): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const [path, rawItem] of Object.entries(asObject(doc[where]))) {
    const item = resolveSchema(doc, rawItem).schema;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const byKey = new Map<string, Json>();
      for (const raw of [
        ...(Array.isArray(item['parameters']) ? item['parameters'] : []),
        ...(Array.isArray(operation['parameters']) ? operation['parameters'] : []),
      ]) {
        const parameter = resolveSchema(doc, raw).schema;
        byKey.set(`${String(parameter['in'])} ${String(parameter['name'])}`, parameter);
      }
      const key = where === 'paths' ? `${method} ${pathShape(path)}` : `${method} ${path}`;
      found.set(key, { method, path, operation, parameters: [...byKey.values()] });
    }
  }
  return found;
}

/** Path parameters by position (their names may change with the template); the others by place and name. */
function parameterKeys(parameters: Json[], path: string): Map<string, Json> {
  const names = [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
  return new Map(
    parameters.map((p) => [
      p['in'] === 'path' ? `path #${names.indexOf(String(p['name']))}` : `${String(p['in'])} ${String(p['name'])}`,
      p,
    ]),
  );
}

function securityNames(doc: Json, operation: Json): string[] | 'anonymous' {
  const security = Array.isArray(operation['security']) ? operation['security'] : Array.isArray(doc['security']) ? doc['security'] : [];
  if (security.length === 0 || security.some((s) => isObject(s) && Object.keys(s).length === 0)) return 'anonymous';
  return security.map((s) => Object.keys(asObject(s)).sort().join(' + ')).sort();
}

function compareContent(
  base: Json,
  current: Json,
  docs: { base: Json; current: Json },
  direction: Direction,
  where: string,
  out: Change[],
): void {
  const bContent = asObject(base['content']);
  const cContent = asObject(current['content']);
  for (const type of Object.keys(bContent))
    if (!(type in cContent)) out.push({ breaking: true, where, what: `media type ${type} removed` });
  for (const type of Object.keys(cContent)) {
    if (!(type in bContent)) {
      out.push({ breaking: false, where, what: `media type ${type} added` });
      continue;
    }
    const comparison = new SchemaComparison(docs.base, docs.current, direction, where, 'body', out);
    comparison.compare(asObject(bContent[type])['schema'], asObject(cContent[type])['schema']);
  }
}

function compareOperation(
  base: Operation,
  current: Operation,
  docs: { base: Json; current: Json },
  where: string,
  webhook: boolean,
  out: Change[],
): void {
  const b = base.operation;
  const c = current.operation;
  // A webhook's request is what the service sends and the receiver reads; its answer is what the receiver writes.
  const sent: Direction = webhook ? 'response' : 'request';
  const answered: Direction = webhook ? 'request' : 'response';
  const requestWhere = `${where} ${webhook ? 'event' : 'request'}`;
  if (b['deprecated'] !== true && c['deprecated'] === true) out.push({ breaking: false, where, what: 'operation deprecated' });

  if (!webhook) {
    const before = securityNames(docs.base, b);
    const after = securityNames(docs.current, c);
    if (canonical(before) !== canonical(after)) {
      const text = (s: string[] | 'anonymous') => (s === 'anonymous' ? 'none' : s.join(' or '));
      if (after === 'anonymous') out.push({ breaking: false, where, what: `no longer requires authentication (was ${text(before)})` });
      else out.push({ breaking: true, where, what: `authentication ${text(before)} → ${text(after)}` });
    }
  }

  const bParams = parameterKeys(base.parameters, base.path);
  const cParams = parameterKeys(current.parameters, current.path);
  const label = (p: Json) => `parameter ${String(p['name'])} (${String(p['in'])})`;
  for (const [key, p] of bParams) if (!cParams.has(key)) out.push({ breaking: true, where: requestWhere, what: `${label(p)} removed` });
  for (const [key, p] of cParams) {
    const before = bParams.get(key);
    if (before === undefined) {
      const required = p['required'] === true;
      out.push({ breaking: required, where: requestWhere, what: `new ${required ? 'required' : 'optional'} ${label(p)}` });
      continue;
    }
    if (before['required'] !== true && p['required'] === true)
      out.push({ breaking: true, where: requestWhere, what: `${label(p)} made required` });
    if (before['required'] === true && p['required'] !== true)
      out.push({ breaking: false, where: requestWhere, what: `${label(p)} made optional` });
    new SchemaComparison(docs.base, docs.current, sent, requestWhere, label(p), out).compare(before['schema'], p['schema']);
  }

  const bBody = b['requestBody'] === undefined ? undefined : resolveSchema(docs.base, b['requestBody']).schema;
  const cBody = c['requestBody'] === undefined ? undefined : resolveSchema(docs.current, c['requestBody']).schema;
  if (bBody !== undefined && cBody === undefined) out.push({ breaking: true, where: requestWhere, what: 'body removed' });
  else if (bBody === undefined && cBody !== undefined) {
    out.push({
      breaking: cBody['required'] === true,
      where: requestWhere,
      what: `${cBody['required'] === true ? 'required' : 'optional'} body added`,
    });
  } else if (bBody !== undefined && cBody !== undefined) {
    if (bBody['required'] !== true && cBody['required'] === true)
      out.push({ breaking: true, where: requestWhere, what: 'body made required' });
    if (bBody['required'] === true && cBody['required'] !== true)
      out.push({ breaking: false, where: requestWhere, what: 'body made optional' });
    compareContent(bBody, cBody, docs, sent, requestWhere, out);
  }

  const bResponses = asObject(b['responses']);
  const cResponses = asObject(c['responses']);
  for (const status of Object.keys(bResponses)) {
    if (!(status in cResponses)) out.push({ breaking: true, where, what: `status ${status} removed` });
  }
  for (const status of Object.keys(cResponses)) {
    if (!(status in bResponses)) {
      out.push({ breaking: false, where, what: `status ${status} added` });
      continue;
    }
    const responseWhere = `${where} ${webhook ? 'reply' : 'response'} ${status}`;
    const before = resolveSchema(docs.base, bResponses[status]).schema;
    const after = resolveSchema(docs.current, cResponses[status]).schema;
    compareContent(before, after, docs, answered, responseWhere, out);
  }
}

/** Every change from `base` to `current`, in document order; `label` names the document (`v2`). */
export function compareDocuments(base: Json, current: Json, label: string): Change[] {
  const out: Change[] = [];
  const docs = { base, current };
  for (const where of ['paths', 'webhooks'] as const) {
    const webhook = where === 'webhooks';
    const before = operationsOf(base, where);
    const after = operationsOf(current, where);
    const name = (op: Operation) => `${label} ${webhook ? `webhook ${op.path}` : `${op.method.toUpperCase()} ${op.path}`}`;
    for (const [key, op] of before) {
      const match = after.get(key);
      if (match === undefined) out.push({ breaking: true, where: name(op), what: `${webhook ? 'webhook' : 'operation'} removed` });
      else compareOperation(op, match, docs, name(match), webhook, out);
    }
    for (const [key, op] of after) {
      if (!before.has(key)) out.push({ breaking: false, where: name(op), what: `${webhook ? 'webhook' : 'operation'} added` });
    }
  }
  return out;
}
