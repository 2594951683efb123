/**
 * The batch `invalidURLs` rule (interface §4 rule 1, §7) with `ignoreInvalidURLs` true, false and left
 * to the version's default: what `partitionBatch` says the request becomes is what the target must do.
 * Accepted: 200, and `invalidURLs` present exactly when ignoring, equal to the invalid entries in request
 * order (empty when there are none); the job is cancelled. Rejected: 400 and the error envelope.
 */
import { partitionBatch } from '../../../schemas/batchPartition.js';
import type { Version } from '../../../schemas/registry.js';
import { simpleCheck, type Check } from '../check.js';
import { checkInvalidUrls } from './follow.js';

export const INVALID_URL_MODES = { ignoring: true, notIgnoring: false, default: undefined } as const;

/** The URL lists each mode is tried with: mixed, all valid, all invalid. Invalid entries are never fetched. */
export function batchUrlLists(siteUrl: string): string[][] {
  return [
    ['not a url', `${siteUrl}/`, 'ftp://example.com/file', `${siteUrl}/docs`, 'http://localhost'],
    [`${siteUrl}/`],
    ['ftp://example.com/file', 'http://localhost'],
  ];
}

export function invalidUrlChecks(version: Version): Check[] {
  return Object.entries(INVALID_URL_MODES).map(([mode, ignore]) =>
    simpleCheck(`${version}.batch.invalidURLs.${mode}`, { startsJob: true }, async (attempt) => {
      for (const urls of batchUrlLists(attempt.options.siteUrl)) {
        const body = ignore === undefined ? { urls } : { urls, ignoreInvalidURLs: ignore };
        const partition = partitionBatch(version, body);
        const accepted = partition.outcome === 'accepted';
        const why = accepted
          ? `accepted with ${partition.valid.length} valid URL(s)${partition.invalidURLs ? ` and invalidURLs ${JSON.stringify(partition.invalidURLs)}` : ', no invalidURLs'}`
          : `rejected (${partition.reason})`;
        const { exchange, ok, job } = await attempt.start(
          version,
          'batch',
          { json: body },
          {
            status: accepted ? 200 : 400,
            expected: `${accepted ? `200 with a body valid as ${version}/BatchScrapeStartResponse` : `400 with a body valid as ${version}/ErrorResponse`}: the batch is ${why}`,
            section: 'interface §4',
          },
        );
        if (ok && accepted) checkInvalidUrls(attempt, version, body, exchange);
        if (job) await attempt.cancel(job);
      }
    }),
  );
}
