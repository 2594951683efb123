/** Jobs the scenarios start, and reading one back whole. */
import type { SchemaName } from '../../../schemas/validate.js';
import { authHeaders, parsed, short, sleep, valid } from '../shared.js';

export interface Variant {
  readonly name: string;
  readonly version: 'v1' | 'v2';
  readonly path: string;
  readonly text: string;
  readonly startSchema: SchemaName;
}

export function variants(base: string): Variant[] {
  const site = (path: string) => `${base}/site${path}`;
  const crawl = (version: 'v1' | 'v2', name: string, body: object): Variant => ({
    name,
    version,
    path: `/${version}/crawl`,
    text: JSON.stringify(body),
    startSchema: `${version}/CrawlStartResponse`,
  });
  const batch = (version: 'v1' | 'v2', name: string, body: object): Variant => ({
    name,
    version,
    path: `/${version}/batch/scrape`,
    text: JSON.stringify(body),
    startSchema: `${version}/BatchScrapeStartResponse`,
  });
  return [
    crawl('v1', 'v1 crawl', { url: site('/docs/'), limit: 5 }),
    crawl('v2', 'v2 crawl', { url: site('/blog/'), limit: 5, scrapeOptions: { formats: ['markdown', 'links'] } }),
    batch('v1', 'v1 batch', { urls: [site('/about'), 'https://example.com/a'] }),
    batch('v2', 'v2 batch', { urls: [site('/products/widget'), site('/broken'), 'https://example.com/b'] }),
    // Backtracking would take 2^n steps on every path these do not match (pathPattern.ts).
    crawl('v2', 'v2 crawl, catastrophic patterns', {
      url: site('/'),
      limit: 5,
      includePaths: ['^(.|.)*/docs/(.|.)*$', '^(.|.)*X$'],
      excludePaths: ['(x+x+)+y'],
    }),
  ];
}

export interface JobRead {
  readonly status: number;
  readonly state: string | undefined;
  readonly completed: number;
  readonly total: number;
  /** The scrape ids of the pages `next` led to, in order. */
  readonly pages: readonly string[];
  /** A problem with the answers on the way (invalid answer, a failed request), if any. */
  readonly problem: string | undefined;
}

/**
 * A job read back whole: its first 2 pages polled until it has ended (or `deadline`), then the rest walked
 * with `next`, 2 at a time. Every answer is validated. `onRequest` gets each request's latency and status.
 */
export async function readJob(
  base: string,
  statusPath: string,
  version: 'v1' | 'v2',
  deadline: number,
  onRequest: (ms: number, status: number) => void,
): Promise<JobRead> {
  const get = async (target: string): Promise<{ status: number; body: any }> => {
    const started = performance.now();
    const response = await fetch(target.startsWith('http') ? target : `${base}${target}`, {
      headers: authHeaders(),
      signal: AbortSignal.timeout(10_000),
    });
    const body = parsed(await response.text());
    onRequest(performance.now() - started, response.status);
    return { status: response.status, body };
  };
  let answer = await get(`${statusPath}?limit=2`);
  while (answer.status === 200 && answer.body?.status === 'scraping' && Date.now() < deadline) {
    await sleep(20);
    answer = await get(`${statusPath}?limit=2`);
  }
  const { status, body: ended } = answer;
  const read = (pages: string[], problem: string | undefined): JobRead => ({
    status,
    state: ended?.status,
    completed: Number(ended?.completed ?? -1),
    total: Number(ended?.total ?? -1),
    pages,
    problem,
  });
  if (status !== 200) return read([], `status ${status}: ${short(JSON.stringify(ended))}`);

  const pages: string[] = [];
  for (let page = answer; ; page = await get(page.body.next as string)) {
    if (page.status !== 200 || !valid(`${version}/JobStatusResponse`, page.body)) return read(pages, `answered ${page.status}, or invalid`);
    for (const record of page.body.data as { metadata: { scrapeId: string } }[]) pages.push(record.metadata.scrapeId);
    if (page.body.data.length === 0 || page.body.next === undefined) return read(pages, undefined);
  }
}
