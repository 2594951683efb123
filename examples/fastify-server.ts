/**
 * A Fastify 5 server taking `POST /v2/crawl`, its body typed and validated with this package's TypeBox
 * definition, and answering a bad body as the service does.
 *
 *   node --import tsx examples/fastify-server.ts      # listens on 127.0.0.1:3002 (HOST, PORT to change)
 *   curl -s localhost:3002/v2/crawl -H 'content-type: application/json' -d '{"url":"https://example.com"}'
 *   curl -s localhost:3002/v2/crawl -H 'content-type: application/json' -d '{"url":"https://example.com","maxDepth":2}'
 *
 * What makes the answers the service's rather than Fastify's:
 *   - bodies are checked by `validate()`: the schema and the rules written as code (crawl URLs, path
 *     patterns, waits against the timeout). Fastify's own Ajv is not used: by default it drops unknown keys
 *     (`removeAdditional`) and converts types (`coerceTypes`), where the service refuses both;
 *   - a refused body gets the service's 400 envelope (`validationErrorBody`), each detail naming its path;
 *   - a body that is not JSON gets the service's 400 body for malformed JSON.
 * The TypeBox type provider types `request.body` from the same definition.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import Fastify, { type FastifyInstance, type FastifySchemaCompiler } from 'fastify';
import { MALFORMED_JSON_BODY, parseRequestBody, validationErrorBody } from '../schemas/errorEnvelope.js';
import { CrawlRequest, CrawlStartResponse } from '../schemas/v2/index.js';
import { validate, type SchemaName, type ValidationIssue } from '../schemas/validate.js';

/** The definitions this server's routes use, by the name `validate()` knows them under. */
const SCHEMA_NAMES = new Map<TSchema, SchemaName>([[CrawlRequest, 'v2/CrawlRequest']]);

/** A body that breaks the schema or a rule: what the error handler turns into the 400 envelope. */
class InvalidBody extends Error {
  constructor(
    readonly version: 'v1' | 'v2',
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`invalid body: ${issues.length} problem(s)`);
  }
}

class MalformedJson extends Error {}

/** Fastify asks this for a checking function per route schema, once, when the route is registered. */
const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart, method, url }) => {
  const name = SCHEMA_NAMES.get(schema);
  if (httpPart !== 'body' || name === undefined) throw new Error(`${method} ${url}: no crawlspec definition for this ${httpPart} schema`);
  const version = name.startsWith('v1/') ? 'v1' : 'v2';
  return (data: unknown) => {
    const result = validate(name, data);
    return result.valid ? { value: data } : { error: new InvalidBody(version, result.errors) };
  };
};

type CrawlStart = Static<typeof CrawlStartResponse>;

export function buildServer(): FastifyInstance {
  // The service accepts bodies up to 10 MB (Fastify's default limit is 1 MB).
  const app = Fastify({ bodyLimit: 10 * 1024 * 1024 }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  // JSON as the service reads it (a leading byte order mark is ignored); anything else is malformed.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const parsed = parseRequestBody(String(text));
    if (parsed.ok) done(null, parsed.value);
    else done(new MalformedJson('malformed JSON'), undefined);
  });

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof InvalidBody) return reply.code(400).send(validationErrorBody(error.version, error.issues));
    if (error instanceof MalformedJson) return reply.code(400).send(MALFORMED_JSON_BODY);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return status < 500
      ? reply.code(status).send({ success: false, error: (error as Error).message })
      : reply.code(500).send({ success: false, error: 'An unexpected error occurred', code: 'UNKNOWN_ERROR' });
  });

  app.post('/v2/crawl', { schema: { body: CrawlRequest } }, async (request): Promise<CrawlStart> => {
    // Typed from the definition: `url` is a string, `limit` an optional number, `scrapeOptions.formats` the v2 formats.
    const { url, limit = 10_000, scrapeOptions } = request.body;
    const id = randomUUID();
    request.log.info({ url, limit, formats: scrapeOptions?.formats ?? ['markdown'] }, 'crawl requested');
    return { success: true, id, url: `${request.protocol}://${request.host}/v2/crawl/${id}` };
  });

  return app;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const app = buildServer();
  const address = await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3002) });
  console.log(`POST ${address}/v2/crawl`);
}
