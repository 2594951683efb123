/** A batch's `urls` under the `invalidURLs` rule (see `batchPartition.ts`). */
import { ignoresInvalidUrls, ignoresInvalidUrlsByDefault, NO_VALID_URLS, partitionBatch } from '../batchPartition.js';
import { isUnparseableUrl, plainOriginEnd } from '../shared/crawlUrl.js';
import { denseArray, field, NO_PROBLEMS, type CodeRule, type RuleProblem } from './codeRule.js';

export function batchUrlsUsable(version: 'v1' | 'v2'): CodeRule {
  const ignoringByDefault = ignoresInvalidUrlsByDefault(version);
  return {
    id: 'batchUrls',
    // Interface §4 rule 1 and §7 rule 1 state the rule; which entries are invalid beyond "no URL at all" (§2.2:
    // "string (URI)[]"), and refusing a batch left with no valid entry, are the service's.
    source: 'interface §4',
    // Its service clauses as written: a batch left with no valid entry refused (2025-10-10), the URL rule (2026-08-02).
    since: '2026-08-02',
    fields: ['urls'],
    description: `Each entry must be a valid crawl URL unless \`ignoreInvalidURLs\` is true (default ${version === 'v1' ? 'false' : 'true'} in ${version}); when ignoring, invalid entries are dropped and listed in \`invalidURLs\`, and at least one valid entry must remain.`,
    check(request) {
      // A batch of plain addresses is accepted as sent, whether invalid entries are ignored or not.
      const urls = denseArray(field(request, 'urls'));
      if (urls !== undefined && allPlain(urls)) return NO_PROBLEMS;
      return partitionProblems(version, request);
    },
    keeps: (request) => kept(request, request.urls, request.ignoreInvalidURLs),
    reads: ['urls', 'ignoreInvalidURLs'],
    keepsWith: kept,
  };

  function kept(request: Readonly<Record<string, unknown>>, given: unknown, ignoreInvalid: unknown): boolean {
    // Plain reads (see CodeRule.keeps): `check` reads own fields only, and where `urls` is inherited it finds
    // nothing, whatever this answers. An absent `ignoreInvalidURLs` means the default, so one the plain read finds
    // counts only when it is the request's own (ignoresInvalidUrls reads it as `check` does).
    const urls = denseArray(given);
    if (urls === undefined) return false;
    const ignoring = ignoreInvalid === undefined ? ignoringByDefault : ignoresInvalidUrls(version, request);
    // Ignoring invalid entries, a batch is refused only when none is valid (partitionBatch): one plain entry
    // settles it, and which others are invalid is for the answer's invalidURLs, not for validation.
    return ignoring ? urls.length === 0 || somePlain(urls) : allPlain(urls);
  }
}

/** The rule's problems as the batch partition judges every entry, without the plain-address shortcut. */
export function partitionProblems(version: 'v1' | 'v2', request: Readonly<Record<string, unknown>>): readonly RuleProblem[] {
  const partition = partitionBatch(version, request);
  if (partition.outcome === 'accepted') return NO_PROBLEMS;
  if (partition.reason === 'no valid URLs') return [{ at: ['urls'], message: NO_VALID_URLS, source: 'service' }];
  // An entry that is not a string is the schema's to report (once per entry, not twice).
  return partition.invalid
    .filter((i) => typeof i.url === 'string')
    .map((i) => ({
      at: ['urls', i.index],
      message: i.problem,
      source: isUnparseableUrl(i.url as string) ? 'interface §4' : 'service',
    }));
}

/** Whether some entry is a plain address (`plainOriginEnd`): the first one, as a rule. */
function somePlain(entries: readonly unknown[]): boolean {
  for (let i = 0; i < entries.length; i++) {
    const url = entries[i];
    if (typeof url === 'string' && plainOriginEnd(url) >= 0) return true;
  }
  return false;
}

/**
 * Whether every entry is a plain address (`plainOriginEnd` in shared/crawlUrl.ts). The entries of a batch mostly
 * share an origin: `plainOriginEnd` reads only the scheme and host, up to the `/`, `?` or `#` that ends it, so an
 * entry starting with the same text up to that character is plain too, and a native search (no allocation)
 * tells. One string is kept per origin met in a row.
 */
function allPlain(entries: readonly unknown[]): boolean {
  let origin: string | undefined;
  for (let i = 0; i < entries.length; i++) {
    const url = entries[i];
    if (typeof url !== 'string') return false;
    // `indexOf` rather than `startsWith` or `lastIndexOf(origin, 0)`: on Node 20 it is the fastest of the three to
    // find a prefix (18 against 28 and 57 ns an address, measured), and where the origin is not the prefix it reads
    // the address once more at most.
    if (origin !== undefined && url.indexOf(origin) === 0) continue;
    const end = plainOriginEnd(url);
    if (end < 0) return false;
    const last = url.charCodeAt(end - 1);
    // Only an origin that ends in its separator: a host that ends the address may go on in another entry.
    origin = last === 0x2f || last === 0x3f || last === 0x23 ? url.slice(0, end) : undefined;
  }
  return true;
}
