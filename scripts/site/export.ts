/**
 * The test site as static files, to deploy on any host so that a hosted implementation can crawl a public
 * copy: `<dir>/main/`, `<dir>/external/` (and `<dir>/subdomain/`), each the root of its origin. A directory
 * page (`/docs/`) is written as its `index.html`. What a static host cannot do by itself is written beside the
 * files, for its configuration: the redirect (`_redirects`, the format Netlify and Cloudflare Pages read) and
 * the error page's 500 (SERVING.md says how the kit judges a host that answers it 200). The scrape pages that
 * answer each request differently, late, with a status of their own or over TLS (scrapePages.ts `COPY_MISSING`)
 * are not in the copy: SERVING.md names them, and the kit runs no check that rests on them against a copy.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { COPY_MISSING } from './scrapePages.js';
import { siteAnswer, sitePaths, type SiteOrigins, type SitePart } from './testSite.js';

/** The files of the site, by path relative to `dir`. */
export function siteFiles(origins: SiteOrigins): Map<string, string> {
  const files = new Map<string, string>();
  const parts: SitePart[] = origins.subdomain === undefined ? ['main', 'external'] : ['main', 'external', 'subdomain'];
  const redirects: string[] = [];
  for (const part of parts)
    for (const path of sitePaths(part)) {
      const answer = siteAnswer(origins, part, path);
      if (answer === 'reset') continue;
      const location = answer.headers['location'];
      if (location !== undefined) {
        redirects.push(`${path} ${location} ${answer.status}`);
        continue;
      }
      files.set(join(part, path.endsWith('/') ? `${path}index.html` : path), answer.body);
    }
  files.set(join('main', '_redirects'), `${redirects.join('\n')}\n`);
  files.set(
    'SERVING.md',
    [
      '# Serving this copy of the crawlspec test site',
      '',
      `Serve \`main/\` at ${origins.main}, \`external/\` at ${origins.external}${origins.subdomain === undefined ? '' : `, \`subdomain/\` at ${origins.subdomain}`}: each directory is the root of its origin.`,
      '',
      `- \`main/_redirects\` lists the redirect the site has (${redirects.join('; ')}); a host that does not read it needs the same rule in its own configuration. Without it, the page behind the redirect is missing from crawls (a difference from the service, which follows redirects).`,
      '- `main/blog/broken.html` stands for a page that answers HTTP 500; served as 200 it is an ordinary page, which the kit accepts either way.',
      '- The address whose connection is cut (`/reset`) cannot be served statically: the errors check needs the site the kit serves itself.',
      `- Scrape pages a static copy cannot hold, so the checks that rest on them are not run against a copy: ${COPY_MISSING.map((m) => `\`${m.path}\` (${m.why})`).join('; ')}.`,
      '',
      `Then: \`crawlspec contract --base-url <your implementation> --token ... --behaviour --behaviour-site ${origins.main} --behaviour-external ${origins.external}\``,
      '',
    ].join('\n'),
  );
  return files;
}

/**
 * Makes `folder` and the folders above it that are missing, one `mkdir` each. Node 20's `mkdir(folder, { recursive:
 * true })` never returns for a folder under /proc (it tries the parent again and again), so it is not used here.
 */
async function makeFolders(folder: string, made: Set<string>): Promise<void> {
  if (made.has(folder)) return;
  const parent = dirname(folder);
  if (parent !== folder) await makeFolders(parent, made);
  await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  made.add(folder);
}

/** Writes the site's files under `dir`. */
export async function exportSite(dir: string, origins: SiteOrigins): Promise<string[]> {
  const files = siteFiles(origins);
  const made = new Set<string>();
  for (const [path, content] of files) {
    await makeFolders(dirname(join(dir, path)), made);
    await writeFile(join(dir, path), content);
  }
  return [...files.keys()];
}
