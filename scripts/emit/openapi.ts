/**
 * OpenAPI 3.1 documents built with openapi3-ts: one per version (`v1`, `v2`) and one with both (`all`).
 * Component schemas are the version's named definitions; in the combined document their names carry the
 * version (`V2CrawlRequest`).
 */
import { createHmac } from 'node:crypto';
import { API_TITLE } from '../../schemas/apiTitle.js';
import { OpenApiBuilder, type OpenAPIObject, type OperationObject, type ParameterObject, type SchemaObject } from 'openapi3-ts/oas31';
import { operations, PARAMETER_EXAMPLES, type OperationSpec, type ParameterName } from '../../schemas/operations.js';
import { VERSIONS, type Version } from '../../schemas/registry.js';
import { emitDefinitions, type EmittedDefinition } from './definitions.js';
import type { JsonSchema } from './jsonSchema.js';

export type DocumentScope = Version | 'all';

const componentName = (scope: DocumentScope, version: Version, name: string) =>
  scope === 'all' ? `${version.toUpperCase()}${name}` : name;

const TAGS = [
  {
    name: 'Crawl',
    description: 'Crawl a site from one address: start a crawl, follow its status and results, cancel it, read its failures.',
  },
  {
    name: 'Batch scrape',
    description: 'Scrape a list of addresses: start a batch, follow its status and results, cancel it, read its failures.',
  },
  { name: 'Webhooks', description: 'Events the service POSTs to the `webhook` address of a crawl or batch scrape.' },
];

function parameter(name: ParameterName, version: Version): ParameterObject {
  return { ...parameterWithoutExample(name, version), example: PARAMETER_EXAMPLES[name] };
}

function parameterWithoutExample(name: ParameterName, version: Version): ParameterObject {
  switch (name) {
    case 'id':
      return {
        name: 'id',
        in: 'path',
        required: true,
        description: version === 'v2' ? 'Job identifier (a UUID).' : 'Job identifier.',
        schema: version === 'v2' ? { type: 'string', format: 'uuid' } : { type: 'string' },
      };
    case 'skip':
      return {
        name: 'skip',
        in: 'query',
        required: false,
        description: 'Number of results to skip (pagination).',
        schema: { type: 'integer', minimum: 0 },
      };
    case 'limit':
      return {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Maximum number of results on this page.',
        schema: { type: 'integer', minimum: 1 },
      };
    case 'idempotencyKey':
      return {
        name: 'x-idempotency-key',
        in: 'header',
        required: false,
        description: 'A UUID that makes the request take effect once: a key used before, or one that is not a UUID, is answered 409.',
        schema: { type: 'string', format: 'uuid' },
        'x-crawlspec-source': 'service',
      };
  }
}

/** OpenAPI reads an untyped discriminator value as a schema name; ours are the branches' `type` values. */
function withDiscriminatorMapping(
  schema: JsonSchema,
  defs: ReadonlyMap<string, EmittedDefinition>,
  refFor: (n: string) => string,
): JsonSchema {
  const { discriminator, oneOf } = schema as { discriminator?: { propertyName: string }; oneOf?: { $ref?: string }[] };
  if (!discriminator || !oneOf) return schema;
  const mapping: Record<string, string> = {};
  for (const branch of oneOf) {
    const name = [...defs.keys()].find((n) => refFor(n) === branch.$ref);
    const tag = (defs.get(name ?? '')?.schema.properties as Record<string, JsonSchema> | undefined)?.[discriminator.propertyName];
    const values = tag?.const !== undefined ? [tag.const] : (tag?.enum as unknown[] | undefined);
    if (!branch.$ref || !values)
      throw new Error(`discriminator branch ${branch.$ref ?? '(inline)'} has no ${discriminator.propertyName} value`);
    for (const value of values) mapping[String(value)] = branch.$ref;
  }
  return { ...schema, discriminator: { ...discriminator, mapping } };
}

function namedExamples(examples: unknown): Record<string, { value: unknown }> | undefined {
  if (!Array.isArray(examples) || examples.length === 0) return undefined;
  return Object.fromEntries(examples.map((value, i) => [`example${i + 1}`, { value }]));
}

function operationObject(
  op: OperationSpec,
  version: Version,
  ref: (name: string) => string,
  defs: ReadonlyMap<string, EmittedDefinition>,
): OperationObject {
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, response]) => [
      status,
      {
        description: response.description,
        content: {
          'application/json': {
            schema: { $ref: ref(response.schema) },
            examples: Object.fromEntries(Object.entries(response.examples).map(([name, value]) => [name, { value }])),
          },
        },
      },
    ]),
  );
  const body = op.requestBody;
  const bodyExamples = body === undefined ? undefined : namedExamples(defs.get(body)?.schema.examples);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    ...(op.deprecated ? { deprecated: true } : {}),
    ...(op.parameters.length > 0 ? { parameters: op.parameters.map((p) => parameter(p, version)) } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: ref(body) },
                ...(bodyExamples ? { examples: bodyExamples } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    'x-crawlspec-source': op.source,
  };
}

/** The secret the example signature is keyed with. */
const EXAMPLE_WEBHOOK_SECRET = 'whsec-example';

/** The `X-Firecrawl-Signature` of an event body sent as `JSON.stringify` writes it, under the example secret. */
const signature = (body: unknown) =>
  `sha256=${createHmac('sha256', EXAMPLE_WEBHOOK_SECRET).update(JSON.stringify(body)).digest('hex')}`;

function webhookOperation(version: Version, kind: 'crawl' | 'batch', ref: (name: string) => string): OperationObject {
  const job = kind === 'crawl' ? 'crawl' : 'batch scrape';
  const prefix = kind === 'crawl' ? 'crawl' : 'batch_scrape';
  const started = {
    success: true,
    type: `${prefix}.started`,
    id: '0196e7e2-7f4a-7b8e-9d5c-2f1a3b4c5d6e',
    data: [],
    metadata: { project: 'docs' },
  };
  return {
    operationId: `${kind === 'crawl' ? 'crawl' : 'batchScrape'}Event${version.toUpperCase()}`,
    summary: `Event of a ${version} ${job}`,
    description: `Sent to the webhook address of a ${job}: \`${prefix}.started\`, one \`${prefix}.page\` per scraped page, and \`${prefix}.completed\`. The body's \`metadata\` echoes the webhook's metadata. A delivery that is not answered with a 2xx within 10 seconds has failed, and the service delivers the event again, with the same \`webhookId\`: drop repeats by it.`,
    tags: ['Webhooks'],
    security: [],
    parameters: [
      {
        name: 'X-Firecrawl-Signature',
        in: 'header',
        required: false,
        description:
          "`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the team's webhook secret; sent when the team has one. A webhook's own `headers` may not set it. " +
          `The example signs the \`started\` example body with the secret \`${EXAMPLE_WEBHOOK_SECRET}\`.`,
        schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
        example: signature(started),
        'x-crawlspec-source': 'service',
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: ref('WebhookEvent') },
          examples: {
            started: { value: started },
          },
        },
      },
    },
    responses: {
      '200': { description: 'Any 2xx answer acknowledges the event.' },
      '400': {
        description:
          'Any other answer (or none within 10 seconds) fails the delivery: the event is delivered again, with the same `webhookId`.',
      },
    },
    'x-crawlspec-source': 'service',
  };
}

/**
 * What a reader of the documents learns first: what the API does, how to authenticate, which versions there are,
 * and what errors look like. Each paragraph says what the interface states (its section) and what the public
 * service does where the interface says nothing.
 */
function introduction(scope: DocumentScope): string {
  const versions =
    scope === 'all'
      ? 'This document describes both.'
      : `This document describes \`${scope}\`; \`${scope === 'v1' ? 'v2' : 'v1'}\` has a document of its own.`;
  return [
    'Crawl a website from one address, or scrape an explicit list of pages in one batch, and get each page in the formats you ask for (markdown, HTML, links, screenshots, structured data, ...). ' +
      'Starting a crawl or a batch answers at once with a job id; you then follow the job, read its pages as they come, cancel it, list the errors it met, or receive its events at a webhook (interface §1, §4, §6).',
    '**Authentication.** Every request carries the header `Authorization: Bearer <token>`, where the token is your API key (interface §5). ' +
      'The public service answers 401 to a request without a valid one.',
    `**Versions.** The version is the first segment of every path: \`/v1/...\` and \`/v2/...\` (interface §9). ${versions}`,
    '**Errors.** The interface does not show error statuses or bodies (interface §7). ' +
      'The public service answers a refused request with a 4xx status and `{ "success": false, "error": "..." }`, and a body that breaks the schema with 400 and `details`, one entry per problem: each operation lists these answers.',
  ].join('\n\n');
}

/**
 * The dialect of every Schema Object: the component schemas are JSON Schema draft 2020-12, as the JSON Schemas
 * in generated/schemas/ say with their `$schema`. Without it a tool may read them otherwise: Stoplight Prism 5.14
 * took them as draft-07, where `minContains` does not exist, so its request validation read "at most one
 * screenshot format" (`not: { contains, minContains: 2 }`) as "no screenshot format" and refused every v2 body
 * with one (test/prismValidation.test.ts). Prism recognises the draft's own URI, not OpenAPI's base dialect
 * (`https://spec.openapis.org/oas/3.1/dialect/base`, the 2020-12 draft plus `discriminator`, `xml`,
 * `externalDocs` and `example`, of which these schemas use `discriminator` alone, an annotation to a validator).
 */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** openapi3-ts's OpenAPIObject does not list `jsonSchemaDialect`, a field of OpenAPI 3.1's OpenAPI Object. */
type OpenAPIObject31 = OpenAPIObject & { jsonSchemaDialect: string };

export function openApiDocument(scope: DocumentScope): OpenAPIObject31 {
  const versions = scope === 'all' ? VERSIONS : [scope];
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addInfo({
      // The title names no version: Redoc shows `info.version` beside it ("Crawl and batch scrape API (v2)").
      title: API_TITLE,
      version: scope === 'all' ? 'v1+v2' : scope,
      description: introduction(scope),
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'crawlspec maintainers' },
      // Where each constraint comes from is told on the schema elements themselves; what their marks mean, here.
      'x-crawlspec-provenance':
        'Generated by crawlspec from its TypeBox definitions. Each schema element says where it comes from: ' +
        '`x-crawlspec-source: "interface §N"` for what the interface document states, `"service"` for what the interface leaves unsaid ' +
        'and the public service fills in, and `x-crawlspec-extension: true` for fields the service accepts beyond the interface.',
    })
    .addServer({
      url: '{baseUrl}',
      description: 'The service; the version is the first path segment.',
      variables: { baseUrl: { default: 'http://localhost:3002', description: 'Base address of the service, without a trailing slash.' } },
    })
    .addSecurityScheme('bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: "Every request carries `Authorization: Bearer <token>`, where the token is the caller's API key.",
    });
  for (const tag of TAGS) builder.addTag(tag);
  const doc = builder.getSpec();
  doc.security = [{ bearerAuth: [] }];
  for (const version of versions) {
    const refFor = (name: string) => `#/components/schemas/${componentName(scope, version, name)}`;
    const defs = emitDefinitions(version, refFor);
    for (const [name, def] of defs)
      builder.addSchema(componentName(scope, version, name), withDiscriminatorMapping(def.schema, defs, refFor) as SchemaObject);
    for (const op of operations(version)) {
      const path = `/${version}${op.path}`;
      builder.addPath(path, { ...(doc.paths?.[path] ?? {}), [op.method]: operationObject(op, version, refFor, defs) });
    }
    for (const kind of ['crawl', 'batch'] as const) {
      builder.addWebhook(`${kind === 'crawl' ? 'crawlEvent' : 'batchScrapeEvent'}${version.toUpperCase()}`, {
        post: webhookOperation(version, kind, refFor),
      });
    }
  }
  const { openapi, ...rest } = builder.getSpec();
  return { openapi, jsonSchemaDialect: JSON_SCHEMA_DIALECT, ...rest };
}
