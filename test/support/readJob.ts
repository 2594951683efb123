/**
 * Reading a job of the reference server back whole, as a client would: its status polled until it has
 * ended, then its pages walked with `next` a few at a time. Every answer is validated with the package's
 * validators, so a test can compare what the job reported with what it actually gives.
 */
import { validate } from '../../schemas/validate.js';

export interface ReadJob {
  /** HTTP status of the status answer the job ended with (or the first one that was not 200). */
  readonly status: number;
  /** The final status answer's body. */
  readonly body: any;
  /** Scrape ids of the pages `next` led to, in order. */
  readonly scrapeIds: readonly string[];
  /** Their addresses (`metadata.url`), in order. */
  readonly urls: readonly string[];
  /** Invalid answers met on the way (name of the schema and what was wrong). */
  readonly invalid: readonly string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `jobUrl` (absolute) read back, `pageSize` pages per request. `timeoutMs` is a safety net, not a bound: a job
 * still running after it (or a request unanswered after it) fails the read, saying so.
 */
export async function readJob(
  jobUrl: string,
  version: 'v1' | 'v2',
  options: { readonly token: string; readonly pageSize: number; readonly timeoutMs: number },
): Promise<ReadJob> {
  const invalid: string[] = [];
  const get = async (target: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(target, {
      headers: { authorization: `Bearer ${options.token}` },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const body = (await response.json()) as unknown;
    if (response.status === 200) {
      const result = validate(`${version}/JobStatusResponse`, body);
      if (!result.valid) invalid.push(`${target}: ${result.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    }
    return { status: response.status, body };
  };

  const first = `${jobUrl}?limit=${options.pageSize}`;
  const deadline = Date.now() + options.timeoutMs;
  let answer = await get(first);
  while (answer.status === 200 && answer.body.status === 'scraping') {
    if (Date.now() > deadline) throw new Error(`${jobUrl} still scraping after ${options.timeoutMs} ms`);
    await sleep(10);
    answer = await get(first);
  }
  const scrapeIds: string[] = [];
  const urls: string[] = [];
  const ended = answer;
  while (answer.status === 200) {
    for (const page of answer.body.data as { metadata: { scrapeId: string; url: string } }[]) {
      scrapeIds.push(page.metadata.scrapeId);
      urls.push(page.metadata.url);
    }
    if (answer.body.data.length === 0 || typeof answer.body.next !== 'string') break;
    answer = await get(answer.body.next);
  }
  return { status: answer.status === 200 ? ended.status : answer.status, body: ended.body, scrapeIds, urls, invalid };
}
