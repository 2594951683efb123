/**
 * Batch behaviour (`vN.batch.behaviour.*`): what the records of a batch scrape of the test site's scrape pages
 * hold, whatever the options: one record per valid URL (and none for an invalid entry it ignores), the formats
 * asked for (each recognised by its content; under the service's field names, and only those), raw HTML that
 * is the page as served, the page's links as absolute addresses, the page's own status and title, markdown with
 * the main text and its headings. Each rests on the batches of the scrape-behaviour checks (scrapeJobs.ts) and
 * the scrape oracle (schemas/scrape/), except `records`, which counts and names the records of a batch with an
 * invalid entry itself.
 */
import type { ScrapeConstraint } from '../../../../schemas/scrape/constraint.js';
import type { Attempt } from '../../engine/context.js';
import { toCurl } from '../../wire/curl.js';
import { addressOf, batchKey, jobTitle, RECORDS_INVALID, type Addresses } from './scrapeJobs.js';
import { sourceUrlOf } from './scrapeJudging.js';
import { LOST_RECORDS_CAUSE } from '../lifecycle/jobAccount.js';
import type { JobResult } from './scrapePlan.js';
import type { ScrapeCheckDef } from './scrapeChecks.js';

/** The constraints on what the fields hold; whether a format's field is there at all is the `formats` check's. */
const field =
  (...names: string[]) =>
  (c: ScrapeConstraint) =>
    names.includes(c.field) && c.kind !== 'present' && c.kind !== 'absent';

/**
 * One record per valid URL of a batch that ignores an invalid entry: as many records as valid URLs (the
 * interface: the batch is made of the valid entries, and scrapes each), and (the service) each valid URL the
 * `metadata.sourceURL` of exactly one of them, the invalid entry of none.
 */
function judgeRecords(attempt: Attempt, result: JobResult, at: Addresses): void {
  const title = jobTitle(result.spec);
  if (result.records === undefined) {
    attempt.leaveUndecided(`${result.unread ?? title}, so its records were not judged`);
    return;
  }
  const records = result.records;
  const lost = result.failures.find((f) => f.cause === LOST_RECORDS_CAUSE);
  if (lost !== undefined) {
    // The job's lost records (its failure, which this check reports) explain a record missing: not counted again.
    attempt.leaveUndecided(
      `${title}: its records were not counted, the job lost some (${lost.message})`,
      'interface',
      false,
      LOST_RECORDS_CAUSE,
    );
    return;
  }
  const valid = result.spec.pages.map((p) => addressOf(at, p));
  const line = result.start === undefined ? {} : { request: toCurl(result.start.request) };
  const got = {
    got: {
      status: 200,
      body: JSON.stringify(records.map((r) => (typeof r === 'object' && r !== null ? (r as { metadata?: unknown }).metadata : r))),
    },
  };
  if (records.length !== valid.length)
    attempt.fail({
      kind: 'scrape',
      level: 'interface',
      message: `${title}: ${records.length} record(s) for ${valid.length} valid URLs`,
      expected: `one record for each valid URL (${valid.join(', ')}), none for the invalid entry ${JSON.stringify(RECORDS_INVALID[0])} it ignores`,
      section: 'interface §4',
      ...line,
      ...got,
    });
  const named = records.map(sourceUrlOf);
  const problems: string[] = [];
  const unnamed = named.filter((n) => n === undefined).length;
  if (unnamed > 0) problems.push(`${unnamed} record(s) name no metadata.sourceURL`);
  for (const url of valid) {
    const count = named.filter((n) => n === url).length;
    if (count !== 1) problems.push(`${count} records have the metadata.sourceURL ${url}`);
  }
  const stray = named.filter((n): n is string => n !== undefined && !valid.includes(n));
  if (stray.length > 0) problems.push(`record(s) of ${stray.join(', ')}, no valid URL of the batch`);
  if (problems.length > 0)
    attempt.fail({
      kind: 'scrape',
      level: 'service',
      message: `${title}: ${problems.join('; ')}`,
      expected: `each valid URL the metadata.sourceURL of exactly one record (${valid.join(', ')}), and no other`,
      section: 'service',
      ...line,
      ...got,
    });
}

export const BATCH_CHECKS: readonly ScrapeCheckDef[] = [
  {
    name: 'records',
    kind: 'batch',
    level: 'interface',
    proves: () =>
      'A batch that ignores an invalid entry returns one record for each valid URL and none for the invalid one, each record naming its URL in metadata.sourceURL (service).',
    cites: () => [
      { source: 'interface §2.2', names: ['urls', 'ignoreInvalidURLs'] },
      { source: 'interface §4', names: ['invalidURLs', 'ignoreInvalidURLs'] },
      { source: 'service', names: ['metadata.sourceURL'] },
    ],
    cases: () => [],
    jobs: () => [batchKey('records')],
    judge: (attempt, results, at) => judgeRecords(attempt, results.get(batchKey('records'))!, at),
  },
  {
    // Each format asked for is judged by its content (`holdsFormat`: whatever field holds it), the field it is
    // in and the formats not asked for by the service's names.
    name: 'formats',
    kind: 'batch',
    level: 'interface',
    proves: () =>
      'A record holds each format asked for (markdown, HTML, raw HTML, links), recognised by its content whatever field holds it; each under the service’s field name, and no other format (service).',
    cites: (v) => [
      { source: 'interface §1', names: ['output formats'] },
      { source: v === 'v1' ? 'interface §2.3' : 'interface §2.4', names: ['formats'] },
      { source: 'service', names: ['markdown', 'html', 'rawHtml', 'links'] },
    ],
    cases: () =>
      (['defaults', 'records'] as const).flatMap((set) =>
        (['article', 'image'] as const).map((page) => ({
          set,
          page,
          select: (c: ScrapeConstraint) =>
            c.option === 'formats' && (c.kind === 'present' || c.kind === 'absent' || c.kind === 'holdsFormat'),
        })),
      ),
  },
  {
    name: 'rawHtml',
    kind: 'batch',
    level: 'interface',
    proves: () =>
      '`rawHtml` is the page as served, every text of it (header and footer too) whatever the other options; byte for byte (service).',
    cites: (v) => [
      { source: v === 'v1' ? 'interface §2.3' : 'interface §2.4', names: ['formats', 'rawHtml'] },
      { source: 'service', names: ['rawHtml'] },
    ],
    cases: () => (['article', 'image'] as const).map((page) => ({ set: 'defaults' as const, page, select: field('rawHtml') })),
  },
  {
    name: 'links',
    kind: 'batch',
    level: 'interface',
    proves: () => '`links` holds every link of the page’s content as its absolute address, and no address that is no link of the page.',
    cites: (v) => [{ source: v === 'v1' ? 'interface §2.3' : 'interface §2.4', names: ['formats', 'links'] }],
    cases: () => [{ set: 'defaults', page: 'article', select: field('links') }],
  },
  {
    name: 'metadata',
    kind: 'batch',
    level: 'service',
    proves: () =>
      'A record’s metadata.statusCode is the status the page answered with (404 for a page that is gone), and metadata.title its title.',
    cites: () => [{ source: 'service', names: ['metadata.statusCode', 'metadata.title'] }],
    cases: () =>
      (['article', 'pdf', 'gone'] as const).map((page) => ({
        set: 'defaults' as const,
        page,
        select: field('metadata.statusCode', 'metadata.title'),
      })),
  },
  {
    name: 'markdown',
    kind: 'batch',
    level: 'interface',
    proves: () => '`markdown` holds every main text of the page, recognised by its content whatever field holds it.',
    cites: (v) => [
      { source: v === 'v1' ? 'interface §2.3' : 'interface §2.4', names: ['formats', 'markdown'] },
      { source: 'service', names: ['markdown'] },
    ],
    cases: () =>
      (['article', 'image'] as const).map((page) => ({
        set: 'defaults' as const,
        page,
        // The markdown found by its content (in any field), and what it holds: a record with no markdown fails here.
        select: (c: ScrapeConstraint) =>
          (field('markdown')(c) && c.option === 'formats') || (c.kind === 'holdsFormat' && c.value === 'markdown'),
      })),
  },
];
