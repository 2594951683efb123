/**
 * Holding the record a job returned for a scrape page against the scrape oracle (schemas/scrape/), for the
 * scrape-behaviour checks: the record is found by its address, the oracle says what it must and must not
 * hold, and a check takes the constraints of what it proves (`select`). Per finding:
 *
 *   - `holds`: nothing to say;
 *   - `violated`: a failure at the constraint's level and citation (per case, one failure per level and
 *     citation, naming the first few and counting the others);
 *   - not judged because the record lacks the field the meaning shows in (`html` asked for, no `html`) and no
 *     other text of it holds that format (the judge looks for it by content: schemas/scrape/formatSearch.ts):
 *     the field names are the service's (interface §2.6 shows no record fields), so at interface level the
 *     meaning is not judged (the check is inconclusive, saying so and how to hold the target to the service's
 *     names; that the format is missing is `vN.batch.behaviour.formats`'s failure) and at service level the
 *     record differs from the service (a failure there);
 *   - not judged for another reason (no record for the page, no fetch count shown): left undecided at the
 *     constraint's level, with why.
 */
import { fetchCountOf, judgeScrapeRecord, type ScrapeFinding } from '../../../../schemas/scrape/judge.js';
import { pageKey } from '../../../../schemas/crawl/site.js';
import { scrapeExpectation, type EarlierScrape } from '../../../../schemas/scrape/oracle.js';
import type { ScrapeConstraint } from '../../../../schemas/scrape/constraint.js';
import type { ScrapePageModel } from '../../../../schemas/scrape/page.js';
import { bounded } from '../../../../schemas/scrape/text.js';
import { scrapePage } from '../../../site/scrapePages.js';
import type { Attempt } from '../../engine/context.js';
import { toCurl } from '../../wire/curl.js';
import type { Level } from '../../spec/levels.js';
import { Skip } from '../../engine/signals.js';
import { Tally } from '../../spec/tally.js';
import type { JobResult } from './scrapePlan.js';
import { addressOf, jobTitle, optionsOf, type Addresses, type PageRef } from './scrapeJobs.js';
import { LOST_RECORDS_CAUSE, targetReason } from '../lifecycle/jobAccount.js';
import { isSearchedFormat } from '../../../../schemas/scrape/formatSearch.js';

/** Findings named in one failure, at most. */
const SHOWN = 3;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An address as records are matched by: parsed, without fragment (as the crawl oracle compares them); undefined for what is no address. */
const addressKey = (value: unknown): string | undefined => (typeof value === 'string' ? pageKey(value) : undefined);

/** The addresses a record says it is of: `metadata.sourceURL` (the address asked for), `metadata.url` (read from). */
function recordAddresses(record: unknown): string[] {
  const metadata = isObject(record) && isObject(record['metadata']) ? record['metadata'] : {};
  return [metadata['sourceURL'], metadata['url']].flatMap((u) => addressKey(u) ?? []);
}

/** The address a record says was asked for (`metadata.sourceURL`), if it names one. */
export function sourceUrlOf(record: unknown): string | undefined {
  const metadata = isObject(record) && isObject(record['metadata']) ? record['metadata'] : {};
  return addressKey(metadata['sourceURL']);
}

/** The record of `url` among `records`: by its address; the only record of a job of one page when it names none. */
function recordOf(records: readonly unknown[], url: string, pages: number): { record: unknown; unnamed: number } {
  const key = addressKey(url);
  const found = records.find((r) => recordAddresses(r).includes(key!));
  const unnamed = records.filter((r) => recordAddresses(r).length === 0).length;
  if (found !== undefined) return { record: found, unnamed };
  if (pages === 1 && records.length === 1 && unnamed === 1) return { record: records[0], unnamed: 0 };
  return { record: undefined, unnamed };
}

/** The page model of a page of a job, at the job's address. */
const modelOf = (at: Addresses, ref: PageRef): ScrapePageModel => ({ ...scrapePage(at.origins, ref.name), url: addressOf(at, ref) });

/** A constraint in words: `markdown lacks "..."`. */
function described(c: ScrapeConstraint): string {
  const what = c.text ?? (c.value === undefined ? c.pattern : String(c.value));
  const words: Record<string, string> = {
    present: 'is there',
    absent: 'is absent',
    contains: 'contains',
    lacks: 'lacks',
    hasLine: 'has the line',
    hasLineMatching: 'has a line matching',
    noLineMatching: 'has no line matching',
    holdsBase64: 'holds the base64 data',
    lacksBase64: 'lacks the base64 data',
    equals: 'is',
    includes: 'includes',
    only: 'holds only the links of the page',
    fetchedAgain: 'shows the page fetched again',
    notFetchedAgain: 'shows the page not fetched again',
    holdsFormat: 'holds, in some field, the format',
  };
  const subject = c.field === 'record' ? 'the record' : c.field;
  return `${subject} ${words[c.kind] ?? c.kind}${what === undefined || c.kind === 'only' ? '' : ` ${JSON.stringify(bounded(what, 80))}`}`;
}

/** What one case of a check judges: a page of a job, the constraints it takes, and what the page was scraped after. */
export interface Case {
  readonly result: JobResult;
  readonly page: PageRef;
  readonly select: (c: ScrapeConstraint) => boolean;
  /** For the counter's second scrape: the job that scraped the address first. */
  readonly earlier?: JobResult;
  /**
   * For a job that changes options from the defaults: the defaults job of the same kind that asks for the page
   * too. A page it returned and this job did not was lost to what this job changes (`missingRecord`).
   */
  readonly control?: JobResult;
}

/** What of a job every check resting on it reports: its start refused, what could not be judged, or not sent at all. */
export function takeJob(attempt: Attempt, result: JobResult, taken: Set<JobResult>): void {
  if (taken.has(result)) return;
  taken.add(result);
  if (result.skipped !== undefined) throw new Skip(`${jobTitle(result.spec)} was not sent: ${result.skipped}`);
  // A fault of the job is one fault, whichever of the checks resting on it report it: named the same in each.
  for (const failure of result.failures)
    attempt.failures.push({ ...failure, check: attempt.check, cause: failure.cause ?? `${jobTitle(result.spec)}: ${failure.message}` });
  for (const u of result.undecided) attempt.leaveUndecided(u.reason, u.level, u.local ?? false, u.cause);
}

/** The curl line that starts the job again. */
const startLine = (result: JobResult) => (result.start === undefined ? undefined : toCurl(result.start.request));

/** The earlier scrape of a counter address, from the job that scraped it first. */
function earlierOf(attempt: Attempt, c: Case, url: string): EarlierScrape | undefined {
  const first = c.earlier;
  if (first === undefined) return undefined;
  const record = first.records === undefined ? undefined : recordOf(first.records, url, first.spec.pages.length).record;
  const count = fetchCountOf(record);
  if (count === undefined) {
    // The count shows in the markdown the counter's scrapes ask for: a record with none rests on that fault.
    const noMarkdown = isObject(record) && !Object.hasOwn(record, 'markdown');
    attempt.leaveUndecided(
      `${jobTitle(c.result.spec)}: the first scrape of ${url} (${jobTitle(first.spec)}) shows no fetch count, so the second was not judged`,
      attempt.of.level,
      false,
      noMarkdown ? formatCause('markdown') : undefined,
    );
    return undefined;
  }
  return { options: optionsOf(first.spec), count, ageMs: Math.ceil(c.result.startedAt - first.startedAt) };
}

/** Holds the record of one case against the oracle, recording failures and what could not be judged in `attempt`. */
export function judgeCase(attempt: Attempt, c: Case, at: Addresses, option: string): void {
  const { result } = c;
  const title = jobTitle(result.spec);
  if (result.records === undefined) {
    attempt.leaveUndecided(`${result.unread ?? title}, so what ${option} means was not judged there`);
    return;
  }
  const page = modelOf(at, c.page);
  const { record, unnamed } = recordOf(result.records, page.url, result.spec.pages.length);
  const earlier = c.earlier === undefined ? undefined : earlierOf(attempt, c, page.url);
  if (c.earlier !== undefined && earlier === undefined) return;
  const expectation = scrapeExpectation(page, {
    version: result.spec.version,
    options: optionsOf(result.spec),
    ...(earlier === undefined ? {} : { earlier }),
  });
  const findings = judgeScrapeRecord(expectation, record).filter((f) => c.select(f.constraint));
  if (findings.length === 0) throw new Error(`no constraint of ${option} on ${page.url} for ${title}`);
  const where = `${title}, the record of ${page.url}`;
  const line = startLine(result);
  // The record as it came, in a status answer (a status that could not be read with 200 left the job unread).
  const got = record === undefined ? undefined : { status: 200, body: JSON.stringify(record) };
  const show = (failure: { level: Level; message: string; expected: string; section: string; cause?: string }) =>
    attempt.fail({ kind: 'scrape', ...failure, ...(line === undefined ? {} : { request: line }), ...(got === undefined ? {} : { got }) });

  if (record === undefined && unnamed === 0 && !findings.some((f) => f.constraint.kind === 'absent' && f.constraint.field === 'record')) {
    missingRecord(attempt, c, at, page.url, findings, show, option);
    return;
  }
  // A record that names no address may be this page's (or one it must not have): nothing of it can be judged.
  if (record === undefined && unnamed > 0) {
    missingField(
      attempt,
      show,
      where,
      option,
      'metadata.sourceURL',
      `${unnamed} record(s) of the job name no address (metadata.sourceURL), so none can be told to be the record of ${page.url}`,
    );
    return;
  }
  const violated = new Tally<ScrapeFinding>(SHOWN);
  const missing = new Set<string>();
  for (const f of findings) {
    if (f.outcome === 'violated') violated.add(`${f.level}|${f.cite}|${formatMissing(f.constraint) ?? ''}`, () => f);
    else if (f.outcome === 'notJudged') {
      const lacksField = record !== undefined && f.constraint.field !== 'record' && fieldMissing(record, f.constraint.field);
      if (lacksField && !missing.has(f.constraint.field)) {
        missing.add(f.constraint.field);
        missingField(attempt, show, where, option, f.constraint.field, f.seen, f.level);
      } else if (!lacksField)
        attempt.leaveUndecided(
          record === undefined
            ? `${title}: no record of ${page.url} came back, so what ${option} means was not judged there`
            : `${where}: ${described(f.constraint)} was not judged: ${f.seen}`,
          f.level,
        );
    }
  }
  for (const { first, count } of violated.all()) {
    const more = count > first.length ? `; and ${count - first.length} more` : '';
    const missingFormat = formatMissing(first[0]!.constraint);
    show({
      level: first[0]!.level,
      message: `${where}: ${first.map((f) => `${f.constraint.why}: ${f.seen}`).join('; ')}${more}`,
      expected: `${first.map((f) => described(f.constraint)).join('; ')}${more}`,
      section: first[0]!.cite,
      ...(missingFormat === undefined ? {} : { cause: formatCause(missingFormat) }),
    });
  }
}

/** Whether the record lacks the dotted `field`. */
function fieldMissing(record: unknown, field: string): boolean {
  let value = record;
  for (const key of field.split('.')) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return true;
    value = value[key];
  }
  return value === undefined;
}

/**
 * A record without the field a meaning shows in: at interface level the meaning is not judged (the field's name
 * is the service's), at service level the record differs from the service. A constraint of the service's
 * own (`level` service) is a difference only.
 */
function missingField(
  attempt: Attempt,
  show: (failure: { level: Level; message: string; expected: string; section: string; cause?: string }) => void,
  where: string,
  option: string,
  field: string,
  seen: string,
  level: Level = 'interface',
): void {
  if (level === 'interface')
    attempt.leaveUndecided(
      `${where}: ${seen}, so what ${option} means was not judged there: the service names the field ${field}; run with --level service to hold the target to the service's field names`,
      'interface',
      false,
      isSearchedFormat(field) ? formatCause(field) : undefined,
    );
  show({
    level: 'service',
    message: `${where}: ${seen}`,
    expected: `${field}, the field the service returns it in`,
    section: 'service',
  });
}

/** The cause of a page the target fails whatever the options: the same words in every check that meets it. */
const failedPageCause = (url: string, reason: string | undefined): string =>
  `the target fails to scrape ${new URL(url).pathname}${reason === undefined ? '' : ` (${reason})`}`;

/**
 * No record came back for a page the oracle says is returned. Which fault that is (issue 40: one fault, one
 * verdict), in this order:
 *
 *   1. the job lost records (it counts more than it delivered): this may be one of them, so the option is not
 *      judged here; the lost record is the job's failure, which every check resting on the job reports; likewise
 *      when the defaults job, which must return the page, lost it too (4.);
 *   2. the option's own meaning is that the page is returned (a self-signed page with skipTlsVerification true,
 *      a page late within the timeout, a page asked with mobile or a location): the option fails, with the
 *      target's own reason;
 *   3. the defaults job returned the page and this one, which changes one option alone, did not: the page was
 *      lost to that option, which fails, with the target's reason;
 *   4. otherwise the target fails the page whatever the options: a fault of its own, named with its reason, on
 *      which the option rests (inconclusive), never a failure of the option.
 */
function missingRecord(
  attempt: Attempt,
  c: Case,
  at: Addresses,
  url: string,
  findings: readonly ScrapeFinding[],
  show: (failure: { level: Level; message: string; expected: string; section: string; cause?: string }) => void,
  option: string,
): void {
  const { result } = c;
  const title = jobTitle(result.spec);
  const reason = targetReason(result.errors, url);
  const said = reason === undefined ? 'no record of it came back' : `no record of it came back; ${reason}`;
  const lost = result.failures.find((f) => f.cause === LOST_RECORDS_CAUSE);
  if (lost !== undefined) {
    attempt.leaveUndecided(
      `${title}: ${said}, and the job lost records (${lost.message}), so what ${option} means was not judged on ${url}`,
      'interface',
      false,
      LOST_RECORDS_CAUSE,
    );
    return;
  }
  // The defaults job, which the oracle says returns the page, lost it too: the target fails it whatever the options.
  const control = c.control?.records === undefined ? undefined : recordOf(c.control.records, url, c.control.spec.pages.length).record;
  if (c.control?.records !== undefined && control === undefined && returns(c.control, c.page, at)) {
    attempt.leaveUndecided(
      `${title}: ${said}, and the target does not return it with the default options either, so what ${option} means was not judged on ${url}`,
      'interface',
      false,
      failedPageCause(url, reason),
    );
    return;
  }
  const presence = findings.filter((f) => f.outcome === 'violated' && f.constraint.field === 'record');
  if (presence.length > 0) {
    const first = presence[0]!;
    show({
      level: first.level,
      message: `${title}, the page ${url}: ${said}`,
      expected: `the page returned: ${first.constraint.why}`,
      section: first.cite,
    });
    return;
  }
  if (control !== undefined && c.control !== undefined) {
    const first = findings[0]!;
    show({
      level: 'interface',
      message: `${title}, the page ${url}: ${said}, though ${jobTitle(c.control.spec)} returned it`,
      expected: `the page returned with ${option} as this job asks, as it is with the defaults (the job changes nothing else)`,
      section: first.cite,
    });
    return;
  }
  attempt.leaveUndecided(
    `${title}: ${said}, and the target does not return it with the default options either, so what ${option} means was not judged on ${url}`,
    'interface',
    false,
    failedPageCause(url, reason),
  );
}

/** The format a `holdsFormat` constraint asks for, when that is what the constraint is. */
const formatMissing = (c: ScrapeConstraint): string | undefined => (c.kind === 'holdsFormat' ? String(c.value) : undefined);

/** The cause of a format asked for and found in no text of a record: the same words in every check that meets it. */
const formatCause = (format: string): string => `a record lacks the ${format} asked for (found by its content in no field)`;

/** Whether the oracle says `result`'s job returns the page `ref` (no constraint that its record is absent). */
const returns = (result: JobResult, ref: PageRef, at: Addresses): boolean =>
  !scrapeExpectation(modelOf(at, ref), { version: result.spec.version, options: optionsOf(result.spec) }).constraints.some(
    (k) => k.field === 'record' && k.kind === 'absent',
  );
