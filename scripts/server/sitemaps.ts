/**
 * Reading a site's sitemaps: from the files a crawl starts with (the `Sitemap:` lines of the start origin's
 * robots.txt, and `<origin>/sitemap.xml`), the page addresses they list, sitemap indexes followed.
 *
 * Each file is parsed with htmlparser2 in XML mode, bounded as pages are (`boundedParser.ts`): a `<loc>`
 * inside `<url>` is a page, one inside `<sitemap>` another sitemap file. Namespaced extensions
 * (`<image:loc>`) are not pages. Only a 200 answer is read; anything else is no
 * sitemap. Gzipped sitemap files (`.xml.gz` served as such) are not read.
 *
 * Bounds: at most `MAX_SITEMAP_FILES` files per crawl, each fetched with the fetcher's bounds (time, size,
 * redirects); indexes followed `SITEMAP_INDEX_DEPTH` levels down (an index listed by an index listed by the
 * root is read, what it lists that is an index again is not); at most `MAX_SITEMAP_PAGES` addresses, each of
 * at most `MAX_LOC_CHARS` characters (longer ones are left out).
 */
import { BoundedParser, parseInSlices } from './boundedParser.js';
import type { Fetched } from './fetcher.js';

export const MAX_SITEMAP_FILES = 8;
export const SITEMAP_INDEX_DEPTH = 2;
export const MAX_SITEMAP_PAGES = 10_000;
/** Characters of an address read from a sitemap: the sitemaps protocol's bound ("less than 2,048 characters"). */
export const MAX_LOC_CHARS = 2048;

interface SitemapFile {
  readonly pages: string[];
  readonly sitemaps: string[];
}

/** The addresses one sitemap file lists. */
async function parseSitemap(xml: string, signal: AbortSignal): Promise<SitemapFile> {
  const file: SitemapFile = { pages: [], sitemaps: [] };
  const open: string[] = [];
  let text: string[] | undefined;
  const parser = new BoundedParser(
    {
      onopentag(name) {
        open.push(name.toLowerCase());
        if (name.toLowerCase() === 'loc') text = [];
      },
      ontext(data) {
        text?.push(data);
      },
      onclosetag() {
        const name = open.pop();
        if (name !== 'loc' || text === undefined) return;
        const address = text.join('').trim();
        text = undefined;
        const parent = open[open.length - 1];
        if (address === '' || address.length > MAX_LOC_CHARS) return;
        if (parent === 'url') file.pages.push(address);
        else if (parent === 'sitemap') file.sitemaps.push(address);
      },
    },
    { xmlMode: true },
  );
  await parseInSlices(parser, xml, signal);
  return file;
}

/**
 * The page addresses listed by the sitemaps `roots` and the indexes they lead to, each once, in the order
 * found. `fetch` gets a file (within the fetcher's bounds); `reachable` says which addresses may be fetched.
 */
export async function sitemapPages(
  roots: readonly string[],
  fetch: (address: string) => Promise<Fetched>,
  reachable: (address: string) => boolean,
  signal: AbortSignal,
): Promise<string[]> {
  const pages = new Set<string>();
  const queued = new Set<string>(roots);
  const queue = roots.map((address) => ({ address, depth: 0 }));
  for (let i = 0; i < queue.length && i < MAX_SITEMAP_FILES && pages.size < MAX_SITEMAP_PAGES; i++) {
    const { address, depth } = queue[i]!;
    if (!reachable(address)) continue;
    const fetched = await fetch(address);
    signal.throwIfAborted();
    if (!fetched.ok || fetched.status !== 200) continue;
    const file = await parseSitemap(fetched.body, signal);
    for (const page of file.pages) if (pages.size < MAX_SITEMAP_PAGES) pages.add(page);
    if (depth >= SITEMAP_INDEX_DEPTH) continue;
    for (const sitemap of file.sitemaps)
      if (!queued.has(sitemap)) {
        queued.add(sitemap);
        queue.push({ address: sitemap, depth: depth + 1 });
      }
  }
  return [...pages];
}
