/**
 * The request bodies of the attacks, each as issue 13's finding describes it. Built as text where a value
 * would be too deep for JSON.stringify (the nested ones), else stringified.
 */

const MiB = 1024 * 1024;

/** 1: a v2 batch of 5000 addresses, `maxConcurrency` 5000, a webhook to `webhookUrl` whose metadata is 1 MB. */
export function manyPagesBigMetadata(webhookUrl: string): string {
  return JSON.stringify({
    urls: Array.from({ length: 5000 }, (_, i) => `https://a.co/p${i}`),
    maxConcurrency: 5000,
    webhook: { url: webhookUrl, metadata: { note: 'x'.repeat(1_000_000) } },
  });
}

/** 2: a v2 batch of as many short scheme-less addresses as fit in `bytes`, `maxConcurrency` as high. */
export function hugeBatch(bytes: number): { readonly text: string; readonly count: number } {
  // `"a.co/1234",` is 12 bytes a page; the object around the list and the concurrency take less than 40.
  const count = Math.floor((bytes - 40) / 12);
  const urls = Array.from({ length: count }, (_, i) => `a.co/${String(i % 10_000).padStart(4, '0')}`);
  return { text: JSON.stringify({ urls, maxConcurrency: count }), count };
}

/**
 * 3: path patterns of named groups and named backreferences (`(?<g1>a)…\k<g1>…`), which made the pattern
 * parse quadratic, about `bytes` of body each way: one pattern (a v2 crawl), or patterns of 2000 characters
 * each (a v1 crawl).
 */
export function namedGroupPatterns(bytes: number): { readonly onePattern: string; readonly manyPatterns: string } {
  /** A pattern of about `size` characters, or of `size` bytes as a JSON string (each backslash doubled). */
  const pattern = (size: number, inJson: boolean): string => {
    const groups: string[] = [];
    const references: string[] = [];
    let length = 0;
    for (let i = 0; length < size - 40; i++) {
      groups.push(`(?<g${i}>a)`);
      references.push(`\\k<g${i}>`);
      length += groups.at(-1)!.length + references.at(-1)!.length + (inJson ? 1 : 0);
    }
    return `^/${groups.join('')}${references.join('')}$`;
  };
  const many: string[] = [];
  for (let total = 0; total < bytes - 2000; total += JSON.stringify(many.at(-1)).length + 1) many.push(pattern(2000, false));
  return {
    onePattern: JSON.stringify({ url: 'https://example.com/', includePaths: [pattern(bytes, true)] }),
    manyPatterns: JSON.stringify({ url: 'https://example.com/', includePaths: many }),
  };
}

/** 4: a v2 crawl of one address `urlLength` characters long, with 50 `scrape` actions. */
export function longUrlCrawl(urlLength: number): string {
  const url = `https://example.com/${'a'.repeat(urlLength - 'https://example.com/'.length)}`;
  return JSON.stringify({ url, scrapeOptions: { actions: Array.from({ length: 50 }, () => ({ type: 'scrape' })) } });
}

/** 5: a v2 batch of one address whose webhook goes to `webhookUrl` with a header that must not travel. */
export function webhookBatch(webhookUrl: string, header: Record<string, string>, tag: string): string {
  return JSON.stringify({ urls: [`https://example.com/redirected/${tag}`], webhook: { url: webhookUrl, headers: header } });
}

/**
 * 6: a v2 batch of `count` addresses whose first label has `labelLength` different CJK characters (3 bytes
 * each in UTF-8): WHATWG's punycode of such a label is quadratic in its length.
 */
export function idnBatch(count: number, labelLength: number): string {
  const label = Array.from({ length: labelLength }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20_000))).join('');
  return JSON.stringify({ urls: Array.from({ length: count }, (_, i) => `https://${label}${i}.com/`) });
}

/** 7: `{"a":{"a":…{}…}}`, `depth` objects deep, as text (JSON.stringify would overflow the stack first). */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;

/**
 * 7: crawls that run for `delaySeconds` (their one page waits for the delay) and carry an object `depth`
 * levels deep: a v2 crawl as the JSON schema of a `json` format; a v1 crawl in an action's extra field (an
 * action object is open), since a v1 `jsonOptions` schema that large is refused unread.
 */
export function deeplyNestedCrawls(depth: number, delaySeconds: number): { readonly v1: string; readonly v2: string } {
  const deep = nested(depth);
  return {
    v2: `{"url":"https://example.com/nested","delay":${delaySeconds},"scrapeOptions":{"formats":[{"type":"json","schema":${deep}}]}}`,
    v1: `{"url":"https://example.com/nested","delay":${delaySeconds},"scrapeOptions":{"actions":[{"type":"wait","milliseconds":1,"nested":${deep}}]}}`,
  };
}

/** 8: a v2 batch of `count` addresses, `concurrency` a tick, a webhook with `metadataBytes` of metadata. */
export function hangingWebhookBatch(webhookUrl: string, count: number, concurrency: number, metadataBytes: number): string {
  return JSON.stringify({
    urls: Array.from({ length: count }, (_, i) => `https://example.com/queued/${i}`),
    maxConcurrency: concurrency,
    webhook: { url: webhookUrl, metadata: { note: 'x'.repeat(metadataBytes) } },
  });
}

/** 9: a JSON body of exactly `bytes` bytes, nearly all of it one array nested as deep as the size allows. */
export function deeplyNestedBody(bytes: number): Buffer {
  const head = '{"url":"https://example.com/","nested":';
  const depth = Math.floor((bytes - head.length - 1) / 2);
  const text = `${head}${'['.repeat(depth)}${']'.repeat(depth)}}`.padEnd(bytes, ' ');
  return Buffer.from(text, 'latin1');
}

export const TWENTY_MIB = 20 * MiB;
