/**
 * The preflight: before the suite, one small crawl and one small batch of each site the run's checks point at
 * tell whether the target can use that site at all. What can come of it, per site:
 *
 *   - the target refuses the site's bodies while it accepts the same bodies with `https://example.com` in
 *     place of the site (the control): a rule of the target keeps the site out (an SSRF guard, a rule against
 *     IP or loopback hosts);
 *   - it accepts them, but the jobs end with no page of the site (none, or every one an error) while the
 *     control's jobs end with one: the target cannot reach the site;
 *   - it refuses the site's bodies and the control's alike, each with 401 or 403: it refuses the run's
 *     credentials (no token, or one it does not know), whatever the site (credentialsDiagnosis.ts);
 *   - anything else: the site is usable, or the target treats the control no better (it refuses valid bodies,
 *     or reaches no site at all: the checks say so themselves), or nothing could be told (no answer, an account
 *     limit, a job still running).
 *
 * In the first two cases every check that rests on that site is inconclusive without being run, and the report
 * carries one diagnosis with the cause and the fix, where there would be dozens of failures saying the same; in
 * the third, every check but the auth checks (which send credentials of their own), under one diagnosis.
 * A control is sent only to tell those cases apart. Every job is cancelled (a control's at once, unless its
 * pages are needed); the requests come out of the run's budget (`preflightCost`).
 */
import type { Version } from '../../../schemas/registry.js';
import { BudgetExhausted, type RequestBudget } from '../wire/budget.js';
import type { CheckInfo } from '../spec/checkInfo.js';
import { POLL_DELAYS, POLLS } from './polls.js';
import type { BehaviourSite } from './context.js';
import { AnswerTooLarge, NetworkFailure, sleep, TargetUnreachable, type Exchange, type HttpClient } from '../wire/http.js';
import type { Job, JobTracker } from '../wire/jobs.js';
import type { ResolvedOptions } from './options.js';
import { blockedDetail, type Diagnosis } from '../report/report.js';
import { credentialsDiagnosis, refusesCredentials, type CredentialsRefusal } from './credentialsDiagnosis.js';
import { KIND_PATH, type JobKind } from '../spec/operations.js';
import { TEST_SITE_PROFILE } from '../../site/testSite.js';
import { OutOfTime } from '../wire/timeLimit.js';

/** The site whose bodies the target is compared with: the kit's default site, a reserved domain (RFC 2606). */
export const CONTROL_SITE = 'https://example.com';

/** How the run came to use a site: it tells what fixes a site the target cannot use. */
export type SiteSource = 'served' | 'copy' | 'given' | 'default';

/** A site the preflight tries: its address, two of its pages, and how the run came to use it. */
export interface PreflightSite {
  readonly url: string;
  readonly pages: readonly string[];
  readonly source: SiteSource;
}

/** A diagnosis as the preflight makes it; the report adds how many checks it kept from running. */
export type SiteDiagnosis = Omit<Diagnosis, 'checks'>;

const KINDS: readonly JobKind[] = ['crawl', 'batch'];

/** Requests one site may take: a crawl and a batch, their controls, each with a cancel, and the polls of each. */
const COST_PER_SITE = KINDS.length * 2 * (2 + POLLS);

/** The requests the preflight of `sites` needs at most. */
export const preflightCost = (sites: readonly PreflightSite[]): number => sites.length * COST_PER_SITE;

/** The site a check rests on: the behaviour site for a crawl-behaviour check, none for one that names no site, else the run's site. */
export function siteOfCheck(check: CheckInfo, options: ResolvedOptions, behaviour: BehaviourSite | undefined): string | undefined {
  if (check.siteIndependent === true) return undefined;
  if (check.behaviour !== undefined) return behaviour?.origins.main;
  return options.siteUrl;
}

/**
 * The sites to try before `checks` (the checks that will run): each site one of them rests on, once. None when
 * the run starts no job (`onlyNoJob`).
 */
export function preflightSites(
  checks: readonly CheckInfo[],
  options: ResolvedOptions,
  behaviour: BehaviourSite | undefined,
): PreflightSite[] {
  if (options.onlyNoJob) return [];
  const copy = options.behaviourSite !== undefined;
  const sourceOf = (url: string): SiteSource =>
    url === behaviour?.origins.main ? (copy ? 'copy' : 'served') : url === CONTROL_SITE ? 'default' : 'given';
  const sites = new Map<string, PreflightSite>();
  for (const check of checks) {
    const url = siteOfCheck(check, options, behaviour);
    if (url === undefined || sites.has(url)) continue;
    // The run's site is known by its profile's pages; the behaviour checks' site is the test site.
    const pages = url === options.siteUrl ? options.site.pages : TEST_SITE_PROFILE.pages;
    sites.set(url, { url, pages, source: sourceOf(url) });
  }
  return [...sites.values()];
}

/** What the preflight found: the sites the target cannot use, each with its diagnosis, or credentials it refuses. */
export class Preflight {
  readonly diagnoses: readonly SiteDiagnosis[];

  constructor(
    sites: readonly SiteDiagnosis[],
    private readonly credentials?: SiteDiagnosis,
  ) {
    // A target that refuses the run's credentials refuses every site's bodies alike: its one diagnosis says it all.
    this.diagnoses = credentials === undefined ? sites : [credentials];
  }

  /**
   * The detail of a check the preflight keeps from running (it rests on a site the target cannot use, or on
   * requests whose credentials the target refuses: every check but those sending credentials of their own), if it does.
   */
  blocking(check: CheckInfo, options: ResolvedOptions, behaviour: BehaviourSite | undefined): string | undefined {
    if (this.credentials !== undefined) return check.needsAuth ? undefined : blockedDetail(this.credentials);
    const site = siteOfCheck(check, options, behaviour);
    const diagnosis = site === undefined ? undefined : this.diagnoses.find((d) => d.site === site);
    return diagnosis === undefined ? undefined : blockedDetail(diagnosis);
  }
}

interface Context {
  readonly client: HttpClient;
  readonly jobs: JobTracker;
  readonly budget: RequestBudget;
  readonly baseUrl: string;
  readonly version: Version;
}

/** What became of one start: accepted (and whether its pages were read), refused (with what), or nothing told. */
type Tried =
  | { readonly kind: JobKind; readonly answer: 'accepted'; readonly pages: Pages }
  | {
      readonly kind: JobKind;
      readonly answer: 'refused';
      readonly status: number;
      readonly said: string;
      /** The answer's `WWW-Authenticate` header, if any. */
      readonly authenticate: string | undefined;
    }
  | { readonly kind: JobKind; readonly answer: 'unknown' };

/** What an accepted job showed: a page of the site, none (with what it ended as), or nothing told (still running, unreadable). */
type Pages = { readonly seen: 'some' } | { readonly seen: 'none'; readonly ended: string } | { readonly seen: 'unknown' };

/** What a refusal said, in a few words: the envelope's `error`, else the start of the body. */
function saidIn(exchange: Exchange): string {
  const error = (exchange.json as { error?: unknown } | undefined)?.error;
  const line = (typeof error === 'string' ? error : exchange.text).replace(/\s+/g, ' ').trim();
  return line.length <= 120 ? line : `${line.slice(0, 120)}...`;
}

/** A page record that is a page: an object whose metadata holds no error and no error status. */
function isPage(record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return false;
  const metadata = (record as { metadata?: { statusCode?: unknown; error?: unknown } | null }).metadata;
  const status = metadata?.statusCode;
  return !(typeof status === 'number' && status >= 400) && (metadata?.error === undefined || metadata.error === null);
}

/** A crawl of the site's first page (one page), a batch of its first two. */
const bodyOf = (kind: JobKind, url: string, pages: readonly string[]) =>
  kind === 'crawl' ? { url: `${url}${pages[0]}`, limit: 1 } : { urls: pages.slice(0, 2).map((page) => `${url}${page}`) };

/** The failures of sending that tell nothing of the site (the target gone, the budget or the time used up, an answer too long). */
const untold = (error: unknown) =>
  error instanceof BudgetExhausted ||
  error instanceof OutOfTime ||
  error instanceof TargetUnreachable ||
  error instanceof NetworkFailure ||
  error instanceof AnswerTooLarge;

async function cancel(ctx: Context, job: Job): Promise<void> {
  if (job.address === undefined) return;
  try {
    const exchange = await ctx.client.send({ method: 'DELETE', url: job.address }, job.budget, job.reservation);
    ctx.jobs.settle(job, exchange.status);
  } catch {
    ctx.jobs.settle(job, undefined);
  }
}

/** Reads `job`'s status until it ends (bounded polls): whether it shows a page. */
async function pagesOf(ctx: Context, job: Job): Promise<Pages> {
  if (job.address === undefined) return { seen: 'unknown' };
  for (const delay of [0, ...POLL_DELAYS]) {
    if (delay > 0) await sleep(delay);
    const exchange = await ctx.client.send({ method: 'GET', url: job.address }, ctx.budget);
    const body = exchange.json as { status?: unknown; data?: unknown } | undefined;
    if (exchange.status !== 200 || typeof body?.status !== 'string' || !Array.isArray(body.data)) return { seen: 'unknown' };
    if (body.data.some(isPage)) return { seen: 'some' };
    if (body.status !== 'scraping')
      return {
        seen: 'none',
        ended: `${body.status}, ${body.data.length === 0 ? 'no page record' : `${body.data.length} records, each an error`}`,
      };
  }
  return { seen: 'unknown' };
}

/** Starts `body`; when accepted and `read`, reads its pages; cancels the job either way. */
async function tryStart(ctx: Context, kind: JobKind, body: unknown, read: boolean): Promise<Tried> {
  let job: Job | undefined;
  try {
    const reservation = ctx.budget.takeAndReserve();
    let exchange: Exchange;
    try {
      exchange = await ctx.client.send(
        { method: 'POST', url: `${ctx.baseUrl}/${ctx.version}${KIND_PATH[kind]}`, body: { json: body } },
        ctx.budget,
        'prepaid',
      );
    } catch (error) {
      ctx.budget.release(reservation);
      throw error;
    }
    const answer = exchange.json as { id?: unknown; url?: unknown } | undefined;
    const id = typeof answer?.id === 'number' && Number.isFinite(answer.id) ? String(answer.id) : answer?.id;
    if (exchange.status >= 200 && exchange.status < 300 && typeof id === 'string' && id.length > 0) {
      job = ctx.jobs.add(ctx.version, kind, id, answer?.url, ctx.budget, reservation);
      return { kind, answer: 'accepted', pages: read ? await pagesOf(ctx, job) : { seen: 'unknown' } };
    }
    ctx.budget.release(reservation);
    // An account limit or a 2xx without a job tells nothing of the site.
    if (exchange.status < 400 || exchange.status === 402 || exchange.status === 429) return { kind, answer: 'unknown' };
    const authenticate = exchange.headers.get('www-authenticate') ?? undefined;
    return { kind, answer: 'refused', status: exchange.status, said: saidIn(exchange), authenticate };
  } catch (error) {
    if (untold(error)) return { kind, answer: 'unknown' };
    throw error;
  } finally {
    if (job !== undefined) await cancel(ctx, job);
  }
}

const SERVED_FIX =
  'serve the test site under a name the target accepts: --site-host NAME (NAME and sub.NAME resolving to 127.0.0.1 for the target; a name with a public suffix, e.g. crawlspec.example.com), or deploy a copy where the target can reach it: crawlspec site export DIR --base-url URL --external-url URL, served there, then --behaviour-site URL --behaviour-external URL';

/** A target that reads no loopback port it was not given (as `crawlspec serve` does) reaches the served site once allowed. */
const LOOPBACK_FIX =
  "if the target fetches no loopback port it was not given, allow the site's hosts (a crawlspec serve target: start it with --allow-host 127.0.0.1 --allow-host 127.0.0.2, or pin the port with --site-port N and allow 127.0.0.1:N)";

const FIXES: Record<SiteSource, string> = {
  served: SERVED_FIX,
  copy: 'deploy the copy where the target can reach it, under a host it accepts (SERVING.md in the exported directory says how it is served), and give that with --behaviour-site URL --behaviour-external URL',
  given: `point --site-url at a site the target can crawl (--site-page, --site-failing say what it has), or leave --site-url out to use the kit's test site; for it: ${SERVED_FIX}`,
  default: `point --site-url at a site the target can crawl (--site-page, --site-failing say what it has), or give a copy of the kit's test site it can reach: crawlspec site export DIR --base-url URL --external-url URL, served there, then --behaviour-site URL --behaviour-external URL`,
};

const KIND_WORD: Record<JobKind, string> = { crawl: 'crawl', batch: 'batch scrape' };

/** What one site showed: a diagnosis of the site, or the starts refused for their credentials (the control's too). */
type Found = { readonly site: SiteDiagnosis } | { readonly credentials: readonly CredentialsRefusal[] } | undefined;

const refusedForCredentials = (tried: readonly Tried[]): tried is readonly (Tried & { answer: 'refused' })[] =>
  tried.every((t) => t.answer === 'refused' && refusesCredentials(t.status));

/** Whether the target can use `site`; a diagnosis when it cannot, or the refusals that show it refuses the run's credentials. */
async function trySite(ctx: Context, site: PreflightSite): Promise<Found> {
  const tried = await Promise.all(KINDS.map((kind) => tryStart(ctx, kind, bodyOf(kind, site.url, site.pages), true)));
  const control = (kind: JobKind, read: boolean) => tryStart(ctx, kind, bodyOf(kind, CONTROL_SITE, site.pages), read);
  const refused = tried.filter((t) => t.answer === 'refused');
  // The control site itself refused for its credentials: that is no matter of the site.
  if (site.url === CONTROL_SITE) return refusedForCredentials(tried) ? { credentials: tried } : undefined;
  if (refused.length > 0) {
    const controls = await Promise.all(refused.map((t) => control(t.kind, false)));
    // Each start of the site and of the control refused with 401 or 403: the credentials, whatever the site.
    if (refusedForCredentials(tried) && refusedForCredentials(controls)) return { credentials: tried };
    const shown = refused.filter((_, i) => controls[i]!.answer === 'accepted');
    if (shown.length === 0) return undefined;
    const what = shown.map((t) => `a ${ctx.version} ${KIND_WORD[t.kind]} of it (${t.status} ${JSON.stringify(t.said)})`).join(' and ');
    return {
      site: {
        site: site.url,
        summary: `the target refuses ${site.url}`,
        problem: `it refused ${what}, and accepted the same ${shown.length === 1 ? 'body' : 'bodies'} with ${CONTROL_SITE} in place of the site: a rule of the target keeps the site out (an SSRF guard, or a rule against IP or loopback hosts), so it cannot be used to test what rests on the site`,
        fix: FIXES[site.source],
      },
    };
  }
  const ended = tried.flatMap((t) => (t.answer === 'accepted' && t.pages.seen === 'none' ? [{ kind: t.kind, ended: t.pages.ended }] : []));
  if (ended.length !== KINDS.length) return undefined;
  // No page of the site: the site's fault only if the same jobs on the control site show one.
  const controls = await Promise.all(KINDS.map((kind) => control(kind, true)));
  if (!controls.some((c) => c.answer === 'accepted' && c.pages.seen === 'some')) return undefined;
  return {
    site: {
      site: site.url,
      summary: `the target cannot reach ${site.url}`,
      problem: `it accepted a ${ctx.version} crawl and a batch scrape of it, but they ended with no page of it (${ended.map((e) => `${KIND_WORD[e.kind]}: ${e.ended}`).join('; ')}), while the same jobs on ${CONTROL_SITE} gave pages: the target cannot fetch the site from where it runs, so it cannot be used to test what rests on the site`,
      fix: site.source === 'served' ? `${LOOPBACK_FIX}; or ${SERVED_FIX}` : FIXES[site.source],
    },
  };
}

/** Tries each of `sites` (at once) with `version`, within `budget`. */
export async function runPreflight(
  env: { readonly client: HttpClient; readonly jobs: JobTracker; readonly options: ResolvedOptions },
  sites: readonly PreflightSite[],
  budget: RequestBudget,
): Promise<Preflight> {
  const { client, jobs, options } = env;
  // The newer version when both are tested: one is enough to tell whether the site is usable.
  const version = options.versions[options.versions.length - 1]!;
  const ctx: Context = { client, jobs, budget, baseUrl: options.baseUrl, version };
  const found = await Promise.all(sites.map((site) => trySite(ctx, site)));
  const refused = found.find((f) => f !== undefined && 'credentials' in f);
  return new Preflight(
    found.flatMap((f) => (f !== undefined && 'site' in f ? [f.site] : [])),
    refused === undefined || !('credentials' in refused)
      ? undefined
      : credentialsDiagnosis(options, version, CONTROL_SITE, refused.credentials),
  );
}
