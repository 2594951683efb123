/**
 * A typed client for the v2 interface: `openapi-fetch`, with the types `openapi-typescript` makes from the
 * published OpenAPI document. The types are generated, never committed (examples/generated/ is ignored):
 *
 *   npx openapi-typescript generated/openapi/v2.json -o examples/generated/v2.d.ts \
 *     --redocly examples/redocly.yaml --default-non-nullable=false
 *
 *   --redocly examples/redocly.yaml   the root redocly.yaml's rules without its `apis` list, which would
 *                                     otherwise replace the file named on the command line
 *   --default-non-nullable=false      a field with a default stays optional, as its schema says: without
 *                                     it, every scrape option with a default (`onlyMainContent`, `timeout`,
 *                                     ...) would have to be sent
 *
 *   CRAWLSPEC_BASE_URL=http://127.0.0.1:3002 CRAWLSPEC_TOKEN=... node --import tsx examples/typed-client.ts https://example.com
 */
import { pathToFileURL } from 'node:url';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/v2.js';

export type CrawlRequest = components['schemas']['CrawlRequest'];
export type CrawlClient = Client<paths>;

export function crawlClient(baseUrl: string, token: string): CrawlClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
}

/** Starts a crawl of `url` and returns the job's id. */
export async function startCrawl(client: CrawlClient, url: string): Promise<string> {
  const { data, error, response } = await client.POST('/v2/crawl', {
    body: { url, limit: 20, scrapeOptions: { formats: ['markdown', { type: 'screenshot', fullPage: true }], timeout: 60_000 } },
  });
  // `error` is the 4xx/5xx body (ErrorResponse: `error`, and for a 400 the `details` naming each path).
  if (error !== undefined) throw new Error(`POST /v2/crawl answered ${response.status}: ${error.error}`);
  return data.id;
}

/** One page of a crawl's results; `next` is the address of the following page while there is one. */
export async function crawlStatus(client: CrawlClient, id: string, skip = 0) {
  const { data, error, response } = await client.GET('/v2/crawl/{id}', { params: { path: { id }, query: { skip } } });
  if (error !== undefined) throw new Error(`GET /v2/crawl/${id} answered ${response.status}: ${error.error}`);
  return {
    status: data.status,
    completed: data.completed,
    total: data.total,
    pages: data.data.map((page) => page.markdown),
    next: data.next,
  };
}

/**
 * Mistakes the generated types refuse (never called: the type-check is the point). An unknown key is
 * caught only where the body is declared as a `CrawlRequest`: `client.POST` infers its argument's type,
 * which turns TypeScript's excess-property check off for the literal written inline.
 */
export function mistakesTheTypesCatch(client: CrawlClient): void {
  // @ts-expect-error `timeout` is a number of milliseconds
  void client.POST('/v2/crawl', { body: { url: 'https://example.com', scrapeOptions: { timeout: '60s' } } });
  // @ts-expect-error `url` is required
  void client.POST('/v2/crawl', { body: { limit: 5 } });
  // @ts-expect-error no such format (PDFs are read through `parsers`)
  void client.POST('/v2/crawl', { body: { url: 'https://example.com', scrapeOptions: { formats: ['pdf'] } } });
  // @ts-expect-error `maxDepth` is v1's; v2 has `maxDiscoveryDepth`
  const body: CrawlRequest = { url: 'https://example.com', maxDepth: 2 };
  void client.POST('/v2/crawl', { body });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const client = crawlClient(process.env.CRAWLSPEC_BASE_URL ?? 'http://127.0.0.1:3002', process.env.CRAWLSPEC_TOKEN ?? '');
  console.log(await startCrawl(client, process.argv[2] ?? 'https://example.com'));
}
