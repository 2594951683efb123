/**
 * What tools that read the OpenAPI documents need from them beyond the schemas (issue 44): the dialect of their
 * schemas declared (Prism read them as draft-07 without it: test/prismValidation.test.ts), and an example of every
 * parameter (Dredd 14 stops before sending anything when a path parameter has none: "Required URI parameter 'id'
 * has no example or default value"). Read from generated/openapi/, as the tools read them.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARAMETER_EXAMPLES } from '../schemas/operations.js';
import { createAjv } from '../scripts/emit/ajv.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const read = (file: string): Json => JSON.parse(readFileSync(new URL(`../generated/${file}`, import.meta.url), 'utf8')) as Json;
const DOCUMENTS = ['v1', 'v2', 'openapi'] as const;

/** Every operation of a document, its paths' and its webhooks', with where it is. */
function operationsOf(doc: Json): { where: string; operation: Json; pathItem: Json }[] {
  return (['paths', 'webhooks'] as const).flatMap((section) =>
    Object.entries((doc[section] ?? {}) as Json).flatMap(([path, pathItem]) =>
      ['get', 'put', 'post', 'delete', 'patch']
        .filter((method) => (pathItem as Json)[method] !== undefined)
        .map((method) => ({ where: `${section} ${path} ${method}`, operation: (pathItem as Json)[method] as Json, pathItem: pathItem as Json })),
    ),
  );
}

describe.each(DOCUMENTS)('generated/openapi/%s.json', (name) => {
  const doc = read(`openapi/${name}.json`);

  it('declares the dialect of its schemas, the one the JSON Schemas of the package name', () => {
    expect(doc.jsonSchemaDialect).toBe(read('schemas/v2/CrawlRequest.json').$schema);
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('gives every parameter of every operation an example its schema accepts', () => {
    const ajv = createAjv();
    const parameters = operationsOf(doc).flatMap(({ where, operation, pathItem }) =>
      [...((pathItem.parameters ?? []) as Json[]), ...((operation.parameters ?? []) as Json[])].map((parameter) => ({
        where: `${where} ${parameter.in} ${parameter.name}`,
        parameter,
      })),
    );
    expect(parameters.filter(({ parameter }) => parameter.in === 'path').length).toBeGreaterThan(0);
    const wrong = parameters.flatMap(({ where, parameter }) => {
      const examples =
        parameter.example !== undefined ? [parameter.example] : Object.values((parameter.examples ?? {}) as Json).map((e) => e.value);
      if (examples.length === 0) return [`${where}: no example`];
      const check = ajv.compile(parameter.schema as Json);
      return examples.filter((example) => !check(example)).map((example) => `${where}: example ${JSON.stringify(example)} breaks its schema`);
    });
    expect(wrong).toEqual([]);
  });

  it('names the job of the answers’ examples in the id parameter, and signs the webhook example body', () => {
    for (const { operation } of operationsOf(doc)) {
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.name === 'id') expect(parameter.example).toBe(PARAMETER_EXAMPLES.id);
        if (parameter.name !== 'X-Firecrawl-Signature') continue;
        const body = JSON.stringify(operation.requestBody.content['application/json'].examples.started.value);
        expect(parameter.example).toBe(`sha256=${createHmac('sha256', 'whsec-example').update(body).digest('hex')}`);
      }
    }
    expect(JSON.stringify(doc.paths)).toContain(`"id":"${String(PARAMETER_EXAMPLES.id)}"`);
  });
});
