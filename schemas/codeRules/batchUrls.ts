/** A batch's `urls` under the `invalidURLs` rule (see `batchPartition.ts`). */
import { NO_VALID_URLS, partitionBatch } from '../batchPartition.js';
import { plainOriginEnd } from '../shared/crawlUrl.js';
import { field, NO_PROBLEMS, type CodeRule } from './codeRule.js';

export function batchUrlsUsable(version: 'v1' | 'v2'): CodeRule {
  return {
    id: 'batchUrls',
    fields: ['urls'],
    description: `Each entry must be a valid crawl URL unless \`ignoreInvalidURLs\` is true (default ${version === 'v1' ? 'false' : 'true'} in ${version}); when ignoring, invalid entries are dropped and listed in \`invalidURLs\`, and at least one valid entry must remain.`,
    check(request) {
      // A batch of plain addresses is accepted as sent, whether invalid entries are ignored or not.
      const urls = field(request, 'urls');
      if (Array.isArray(urls) && allPlain(urls)) return NO_PROBLEMS;
      const partition = partitionBatch(version, request);
      if (partition.outcome === 'accepted') return NO_PROBLEMS;
      if (partition.reason === 'no valid URLs') return [{ at: ['urls'], message: NO_VALID_URLS }];
      // An entry that is not a string is the schema's to report (once per entry, not twice).
      return partition.invalid.filter((i) => typeof i.url === 'string').map((i) => ({ at: ['urls', i.index], message: i.problem }));
    },
  };
}

/**
 * Whether every entry is a plain address (`plainOriginEnd` in shared/crawlUrl.ts). The entries of a batch are
 * mostly pages of one site: an entry that starts with the origin of a plain entry before it (its scheme and
 * host and the `/`, `?` or `#` after them) is plain whatever follows, which one native comparison tells, so
 * the host is read once per origin rather than once per entry (and one string is allocated per origin).
 */
function allPlain(entries: readonly unknown[]): boolean {
  let origin: string | undefined;
  for (let i = 0; i < entries.length; i++) {
    const url = entries[i];
    if (typeof url !== 'string') return false;
    if (origin !== undefined && url.startsWith(origin)) continue;
    const end = plainOriginEnd(url);
    if (end < 0) return false;
    // An address that ends with its host has no origin prefix to share: `https://a.com` is not a prefix only
    // of plain addresses (`https://a.com:99999`).
    const last = url.charCodeAt(end - 1);
    if (last === 0x2f || last === 0x3f || last === 0x23) origin = url.slice(0, end);
  }
  return true;
}
