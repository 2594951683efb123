/**
 * The batch `invalidURLs` rule (interface §4 rule 1, §7): what a batch request with some invalid URLs
 * becomes, for each version, and what its start answer must say.
 *
 *   - Not ignoring invalid URLs (`ignoreInvalidURLs: false`; v1's default): one invalid entry fails the
 *     whole request, and the start answer has no `invalidURLs`.
 *   - Ignoring (`ignoreInvalidURLs: true`; v2's default): the batch is made of the valid entries, and the
 *     start answer's `invalidURLs` lists the invalid ones as sent, in request order (empty when none).
 *     With no valid entry left the request fails (the service answers "No valid URLs provided").
 *
 * Validity is `crawlUrlProblem` (shared/crawlUrl.ts). The version defaults come from the definitions (through
 * `generated/fast/defaults.js`).
 */
import { defaults } from '#generated/fast/defaults.js';
import { denseArray, isRecord, field } from './codeRules/codeRule.js';
import { crawlUrlProblem } from './shared/crawlUrl.js';

export const NO_VALID_URLS = 'No valid URLs provided';

export interface InvalidUrl {
  readonly index: number;
  readonly url: unknown;
  /** Why it is invalid, in the service's words. */
  readonly problem: string;
}

export type BatchPartition =
  | { readonly outcome: 'rejected'; readonly reason: 'invalid URLs' | 'no valid URLs'; readonly invalid: readonly InvalidUrl[] }
  | { readonly outcome: 'accepted'; readonly valid: readonly string[]; readonly invalidURLs: readonly unknown[] | undefined };

/** The definition's default, as the generator wrote it down (no TypeBox definition is loaded with validate()). */
const defaultOf = (version: 'v1' | 'v2'): boolean => {
  const value = defaults[version]?.['BatchScrapeRequest']?.['ignoreInvalidURLs'];
  if (typeof value !== 'boolean') throw new Error('ignoreInvalidURLs has no boolean default');
  return value;
};

const IGNORE_BY_DEFAULT = { v1: defaultOf('v1'), v2: defaultOf('v2') };

/** Whether a request without its own `ignoreInvalidURLs` ignores invalid URLs (the version's default). */
export const ignoresInvalidUrlsByDefault = (version: 'v1' | 'v2'): boolean => IGNORE_BY_DEFAULT[version];

/** Whether the request ignores invalid URLs: its own `ignoreInvalidURLs`, or the version's default. */
export function ignoresInvalidUrls(version: 'v1' | 'v2', request: unknown): boolean {
  const given = isRecord(request) ? field(request, 'ignoreInvalidURLs') : undefined;
  return typeof given === 'boolean' ? given : IGNORE_BY_DEFAULT[version];
}

/** What the request becomes. `urls` that is not an array gives an accepted, empty batch (the schema rejects it). */
export function partitionBatch(version: 'v1' | 'v2', request: unknown): BatchPartition {
  const urls = isRecord(request) ? field(request, 'urls') : undefined;
  const entries: readonly unknown[] = denseArray(urls) ?? [];
  const invalid: InvalidUrl[] = [];
  const valid: string[] = [];
  entries.forEach((url, index) => {
    const problem = crawlUrlProblem(url);
    if (problem === undefined) valid.push(url as string);
    else invalid.push({ index, url, problem });
  });
  if (!ignoresInvalidUrls(version, request)) {
    return invalid.length > 0
      ? { outcome: 'rejected', reason: 'invalid URLs', invalid }
      : { outcome: 'accepted', valid, invalidURLs: undefined };
  }
  if (valid.length === 0 && entries.length > 0) return { outcome: 'rejected', reason: 'no valid URLs', invalid };
  return { outcome: 'accepted', valid, invalidURLs: invalid.map((i) => i.url) };
}

/**
 * What the start answer to an accepted `request` must carry as `invalidURLs`: the list, or `undefined` for
 * "absent". `undefined` as well when the request is not accepted.
 */
export function expectedInvalidUrls(version: 'v1' | 'v2', request: unknown): readonly unknown[] | undefined {
  const partition = partitionBatch(version, request);
  return partition.outcome === 'accepted' ? partition.invalidURLs : undefined;
}
