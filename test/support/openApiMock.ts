/**
 * A mock of the OpenAPI document, as a mock server generated from it answers (Prism's static mode, say): every
 * request to an operation the document has is answered 200 with the first example of its 200 answer, whatever
 * its body and token. So every start gets the same job id, every token is accepted, and a job never ends (the
 * status example is `scraping`). On 127.0.0.1, a port the system picks; anything else is 404.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';

interface Operation {
  readonly method: string;
  readonly pattern: RegExp;
  readonly example: string;
}

interface OpenApiDocument {
  readonly paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }> }>
  >;
}

/** Each operation of the versions' documents with the text of its first 200 example. */
function operations(): Operation[] {
  return ['v1', 'v2'].flatMap((version) => {
    const file = fileURLToPath(new URL(`../../generated/openapi/${version}.json`, import.meta.url));
    const document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
    return Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) => {
        const examples = operation.responses?.['200']?.content?.['application/json']?.examples;
        const first = examples === undefined ? undefined : Object.values(examples)[0];
        if (first === undefined) return [];
        const pattern = new RegExp(`^${path.replace(/\{[^{}]+\}/g, '[^/]+')}$`);
        return [{ method: method.toUpperCase(), pattern, example: JSON.stringify(first.value) }];
      }),
    );
  });
}

export interface OpenApiMock {
  readonly url: string;
  /** Requests answered, by `METHOD path`. */
  readonly answered: Map<string, number>;
  close(): Promise<void>;
}

export async function startOpenApiMock(): Promise<OpenApiMock> {
  const known = operations();
  const answered = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    // The body is read and dropped: a static mock answers whatever it holds.
    request.resume();
    request.on('end', () => {
      const path = (request.url ?? '/').split('?', 1)[0]!;
      // A literal path (`/crawl/active`) before a template (`/crawl/{id}`), as the document's routing does.
      const found =
        known.find((op) => op.method === request.method && !op.pattern.source.includes('[^/]+') && op.pattern.test(path)) ??
        known.find((op) => op.method === request.method && op.pattern.test(path));
      const key = `${request.method} ${found?.pattern.source ?? path}`;
      answered.set(key, (answered.get(key) ?? 0) + 1);
      response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      response.end(found ? found.example : JSON.stringify({ success: false, error: 'Not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the mock has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
