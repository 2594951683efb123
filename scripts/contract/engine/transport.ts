/**
 * Lost connections. A request whose connection was lost before a whole answer came (closed or reset by the
 * target or by anything between: "socket hang up", ECONNRESET) says nothing of the implementation: no
 * answer came to judge. So it is never a failure: it is sent once more, and when that is lost too, the check
 * is inconclusive (transport), with the reason. A 5xx is an answer and stays a failure; a request the target
 * held past `--timeout` is not lost either (context.ts: a finding, the connection stayed open).
 *
 * A lost start (POST crawl or batch) may have started a job before its connection went, and sending it again
 * starts another; so before the start is sent again, the job the lost one may have started is looked for and
 * cancelled:
 *
 *   - a crawl: in the active list (GET /vN/crawl/active, the service's), a running crawl of the same address
 *     that is none of the run's known jobs. It is cancelled only when it is the only one and no other start of
 *     that address is on its way at that moment (whose job it could be); otherwise nothing is cancelled and
 *     the report's jobs line names the crawl that may exist. A crawl that already ended needs no cancel.
 *   - a batch: there is no list of batch jobs, so it cannot be found; the report's jobs line says a batch
 *     may have been started.
 *
 * What this sends beyond a check's share comes from the run's reserve (reserve.ts).
 */
import type { Version } from '../../../schemas/registry.js';
import type { Attempt } from './context.js';
import { ConnectionLost, type Exchange, type OutgoingRequest, type SentRequest } from '../wire/http.js';
import { Inconclusive } from './signals.js';
import { KIND_PATH, type JobKind } from '../spec/operations.js';

/** What lost connections did to a run, for the report. */
export interface TransportSummary {
  /** Requests whose connection was lost before a whole answer came. */
  readonly lost: number;
  /** Lost requests sent once more. */
  readonly retried: number;
  /** Requests lost twice (or with no budget left to send them again): each left its check inconclusive. */
  readonly inconclusive: number;
}

/** The run's account of lost connections (the HttpClient counts the losses themselves). */
export class Transport {
  retried = 0;
  inconclusive = 0;
  /** Lost starts that may have started a job the kit could not find to cancel: version, kind, check, why. */
  readonly mayHaveStarted: string[] = [];
}

/** The start endpoint `request` goes to, if it is one: its version and job kind. */
function startOf(baseUrl: string, request: Pick<SentRequest, 'method' | 'url'>): { version: Version; kind: JobKind } | undefined {
  if (request.method !== 'POST') return undefined;
  for (const version of ['v1', 'v2'] as const)
    for (const kind of ['crawl', 'batch'] as const) if (request.url === `${baseUrl}/${version}${KIND_PATH[kind]}`) return { version, kind };
  return undefined;
}

/** An address as a crawl list shows it, for comparing: parsed, without a trailing slash; undefined when it is none. */
function address(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).href.replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

/** The `url` of a crawl start body, as `address` gives it. */
function crawlAddress(request: SentRequest): string | undefined {
  try {
    return address((JSON.parse(request.body ?? '') as { url?: unknown } | null)?.url);
  } catch {
    return undefined;
  }
}

/**
 * Looks for the crawl a lost start may have started, and cancels it when it is surely that one; returns why a
 * job may be left running, or undefined when none is.
 */
async function cancelLostCrawl(attempt: Attempt, version: Version, lost: SentRequest): Promise<string | undefined> {
  const { client, jobs, reserve } = attempt.env;
  const wanted = crawlAddress(lost);
  if (wanted === undefined) return 'its body names no crawl address to look for';
  // One request for the list, one held for the cancel.
  const budget = reserve.take(2);
  if (budget === undefined) return 'the budget (--max-requests) leaves no room to look for it';
  const reservation = budget.takeAndReserve();
  let listed: Exchange;
  try {
    attempt.requests += 1;
    listed = await client.send({ method: 'GET', url: attempt.url(version, '/crawl/active') }, budget, 'prepaid');
  } catch (error) {
    return `the active list could not be read (${error instanceof Error ? error.message : String(error)})`;
  }
  const crawls = (listed.json as { crawls?: unknown } | undefined)?.crawls;
  if (listed.status !== 200 || !Array.isArray(crawls)) return `the active list could not be read (${listed.status})`;
  const known = new Set(jobs.all.filter((job) => job.kind === 'crawl').map((job) => job.id));
  const candidates = crawls.filter(
    (c): c is { id: string } =>
      typeof (c as { id?: unknown })?.id === 'string' &&
      !known.has((c as { id: string }).id) &&
      address((c as { url?: unknown }).url) === wanted,
  );
  // Another start of the same address on its way: the crawl listed may be its job, not the lost one's.
  const sameOnItsWay = [...client.inFlight].some(
    (sent) => startOf(attempt.options.baseUrl, sent)?.kind === 'crawl' && crawlAddress(sent) === wanted,
  );
  if (candidates.length === 0) return undefined;
  if (candidates.length > 1 || sameOnItsWay)
    return `${candidates.length} unknown running crawl(s) of ${wanted} in the active list, and which one it started cannot be told; none was cancelled`;
  const job = jobs.add(version, 'crawl', candidates[0]!.id, undefined, budget, reservation);
  await attempt.cancelQuietly(job);
  return undefined;
}

/** Before a lost start is sent again: cancels the job it may have started, or records that one may exist. */
async function settleLostStart(attempt: Attempt, lost: SentRequest): Promise<void> {
  const start = startOf(attempt.options.baseUrl, lost);
  if (start === undefined) return;
  const why = start.kind === 'crawl' ? await cancelLostCrawl(attempt, start.version, lost) : 'there is no list of batch jobs to find it in';
  if (why !== undefined) attempt.env.transport.mayHaveStarted.push(`${start.version} ${start.kind} of ${attempt.check} (${why})`);
}

/**
 * `request`, whose connection was lost (`lost`), sent once more, after the job a lost start may have started
 * is dealt with. Lost again, or no budget left to send it: Inconclusive (transport) at the check's level.
 */
export async function resend(attempt: Attempt, request: OutgoingRequest, lost: ConnectionLost): Promise<Exchange> {
  const { client, reserve, transport } = attempt.env;
  const what = `${lost.request.method} ${lost.request.url}`;
  const inconclusive = (reason: string) => {
    transport.inconclusive += 1;
    return new Inconclusive(`transport: ${reason}; nothing came back to judge`, attempt.of.level);
  };
  await settleLostStart(attempt, lost.request);
  const budget = reserve.take(1);
  if (budget === undefined)
    throw inconclusive(
      `the connection of ${what} was lost (${lost.reason}) and the budget (--max-requests) leaves no room to send it again`,
    );
  transport.retried += 1;
  try {
    return await client.send(request, budget);
  } catch (error) {
    if (!(error instanceof ConnectionLost)) throw error;
    attempt.requests += 1;
    await settleLostStart(attempt, error.request);
    throw inconclusive(`the connection of ${what} was lost twice before an answer (${lost.reason}; then ${error.reason})`);
  }
}
