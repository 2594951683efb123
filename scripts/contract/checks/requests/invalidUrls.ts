/**
 * The batch `invalidURLs` rule (interface §4 rule 1, §7 rule 1) with `ignoreInvalidURLs` true, false and left
 * to the version's default (v1 false, v2 true: interface §2.2). What `partitionBatch` says the request
 * becomes is what the target must do. Accepted: 200, and `invalidURLs` present exactly when ignoring, equal
 * to the invalid entries in request order (empty when there are none); the job is cancelled. Refused: a 4xx
 * and no job (the service: 400 and the error envelope).
 *
 * The interface's lists use entries that are no URL under any reading (`not a url`), so the interface alone
 * makes them invalid; the service's lists use entries only the service refuses (an ftp address, a host
 * without a top-level domain), judged at service level. A batch left with no valid entry while ignoring is
 * refused by the service ("No valid URLs provided"); the interface does not say, so either answer passes
 * there, but a 200 must still list every entry as invalid.
 */
import { partitionBatch } from '../../../../schemas/batchPartition.js';
import type { Version } from '../../../../schemas/registry.js';
import { startRefused } from '../../engine/baseline.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import type { Expectation } from '../../spec/expectation.js';
import type { Level } from '../../spec/levels.js';
import { checkInvalidUrls } from '../../engine/follow.js';

export const INVALID_URL_MODES = { ignoring: true, notIgnoring: false, default: undefined } as const;

/** Entries no reading takes for a URL (not even with `http://` put in front). */
export const INTERFACE_INVALID_URLS = ['not a url', 'http://exa mple.com/'] as const;
/** Entries that are URLs, but ones the service refuses (a scheme it does not scrape, no top-level domain). */
export const SERVICE_INVALID_URLS = ['ftp://example.com/file', 'http://localhost'] as const;

/** The URL lists each mode is tried with, by the level their invalid entries are invalid at: mixed, all valid, all invalid. */
export function batchUrlLists(siteUrl: string, pages: readonly string[]): { level: Level; urls: string[] }[] {
  const [a = '/', b = '/'] = pages;
  const [x, y] = INTERFACE_INVALID_URLS;
  const [f, l] = SERVICE_INVALID_URLS;
  return [
    { level: 'interface', urls: [x, `${siteUrl}${a}`, y, `${siteUrl}${b}`] },
    { level: 'interface', urls: [`${siteUrl}${a}`] },
    { level: 'interface', urls: [x, y] },
    { level: 'service', urls: [f, `${siteUrl}${a}`, l] },
  ];
}

export function invalidUrlChecks(version: Version): Check[] {
  return Object.entries(INVALID_URL_MODES).map(([mode, ignore]) =>
    simpleCheck(
      {
        name: `${version}.batch.invalidURLs.${mode}`,
        level: 'interface',
        proves: `A ${version} batch with ignoreInvalidURLs ${ignore === undefined ? 'left out' : String(ignore)} and invalid entries is ${
          (ignore ?? version === 'v2') ? 'accepted from its valid entries, listing the invalid ones in invalidURLs' : 'refused as a whole'
        }; with every entry valid, accepted${(ignore ?? version === 'v2') ? ' with invalidURLs []' : ' without invalidURLs'}.`,
        cites: [
          { source: 'interface §4', names: ['invalidURLs', 'ignoreInvalidURLs'] },
          { source: 'interface §7', names: ['ignoreInvalidURLs', 'invalidURLs'] },
          ...(ignore === undefined ? [{ source: 'interface §2.2', names: ['ignoreInvalidURLs'] }] : []),
          { source: 'service', names: ['No valid URLs provided', 'URL uses unsupported protocol'] },
        ],
        startsJob: true,
        cost: 4 * 2 * START,
      },
      async (attempt) => {
        for (const { level, urls } of batchUrlLists(attempt.options.siteUrl, attempt.options.site.pages)) {
          const body = ignore === undefined ? { urls } : { urls, ignoreInvalidURLs: ignore };
          const partition = partitionBatch(version, body);
          const accepted = partition.outcome === 'accepted';
          const why = accepted
            ? `accepted with ${partition.valid.length} valid URL(s)${partition.invalidURLs ? ` and invalidURLs ${JSON.stringify(partition.invalidURLs)}` : ', no invalidURLs'}`
            : partition.reason === 'no valid URLs'
              ? 'left with no valid URL'
              : 'refused for its invalid URLs';
          const section = ignore === undefined ? 'interface §2.2' : partition.outcome === 'rejected' ? 'interface §7' : 'interface §4';
          const service = {
            status: accepted ? 200 : 400,
            expected: `${accepted ? `200 with a body valid as ${version}/BatchScrapeStartResponse` : `400 with a body valid as ${version}/ErrorResponse`}: the batch is ${why}`,
          };
          const silent = level === 'service' || (!accepted && partition.reason === 'no valid URLs');
          const expectation: Expectation = silent
            ? { service }
            : { interface: { outcome: accepted ? 'accepted' : 'refused', why: `the batch is ${why}`, section }, service };
          // A refusal is held against the same batch of its valid entries (baseline.ts).
          const { siteUrl, site } = attempt.options;
          const validEntries = urls.filter((u) => u.startsWith(`${siteUrl}/`));
          const base = { ...body, urls: validEntries.length > 0 ? validEntries : [`${siteUrl}${site.pages[0] ?? '/'}`] };
          const { exchange, ok, job } = accepted
            ? await attempt.start(version, 'batch', { json: body }, expectation)
            : await startRefused(attempt, version, 'batch', { json: body }, expectation, base);
          if (accepted && ok) checkInvalidUrls(attempt, partition.invalidURLs, exchange, level);
          // A 200 to a batch the service refuses for having no valid URL must still list every entry as invalid.
          else if (!accepted && partition.reason === 'no valid URLs' && exchange.status === 200)
            checkInvalidUrls(attempt, urls, exchange, level);
          if (job) await attempt.cancel(job);
        }
      },
    ),
  );
}
