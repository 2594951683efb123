/**
 * The examples of the published OpenAPI documents (request bodies and answers of every operation, and
 * webhook events), each with the schema it illustrates.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { SchemaName } from '../schemas/validate.js';

export interface SpecExample {
  /** e.g. `v2 POST /v2/crawl → 200 started`. */
  readonly label: string;
  readonly schema: SchemaName;
  readonly value: unknown;
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'delete'] as const;

function mediaExamples(label: string, version: 'v1' | 'v2', media: unknown): SpecExample[] {
  const json = (media as Json | undefined)?.['application/json'] as Json | undefined;
  const ref = (json?.schema as Json | undefined)?.$ref;
  if (typeof ref !== 'string') return [];
  const schema = `${version}/${ref.replace(/^.*\//, '')}` as SchemaName;
  return Object.entries((json?.examples ?? {}) as Record<string, Json>).map(([name, example]) => ({
    label: `${label} ${name}`,
    schema,
    value: example.value,
  }));
}

function operationExamples(label: string, version: 'v1' | 'v2', operation: Json): SpecExample[] {
  const body = mediaExamples(`${label} request`, version, (operation.requestBody as Json | undefined)?.content);
  const answers = Object.entries((operation.responses ?? {}) as Record<string, Json>).flatMap(([status, response]) =>
    mediaExamples(`${label} → ${status}`, version, response.content),
  );
  return [...body, ...answers];
}

/** Every example of the version's document. */
export async function specExamples(version: 'v1' | 'v2'): Promise<SpecExample[]> {
  // Resolved through the package's `#generated/*` import map, so it works from source and from dist/.
  const file = createRequire(import.meta.url).resolve(`#generated/openapi/${version}.json`);
  const doc = JSON.parse(await readFile(file, 'utf8')) as Json;
  const paths = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).flatMap((m) => operationExamples(`${version} ${m.toUpperCase()} ${path}`, version, item[m] as Json)),
  );
  const webhooks = Object.entries(doc.webhooks as Record<string, Json>).flatMap(([name, item]) =>
    operationExamples(`${version} webhook ${name}`, version, item.post as Json),
  );
  return [...paths, ...webhooks];
}
