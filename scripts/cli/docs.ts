/**
 * `crawlspec docs`: writes a version's HTML documentation page, the one the package ships, with the publisher's API
 * title and server address (docsPage.ts). One self-contained file: it loads nothing from elsewhere. Its provenance
 * links go to the reference this installation ships (a `file:` URL) or to `--reference-url`; `--no-provenance`
 * leaves provenance out.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Version } from '../../schemas/registry.js';
import { API_TITLE } from '../../schemas/apiTitle.js';
import { parseCommand } from './args.js';
import { baseAddress, InputError, outputFile, UsageError } from './errors.js';
import { publishedPage } from './docsPage.js';
import { printable, quote } from './terminal.js';
import { installedReference } from '../reference/citationLink.js';

const TITLE_MAX_LENGTH = 200;

function versionOption(value: string): Version {
  if (value === 'v1' || value === 'v2') return value;
  throw new UsageError(`--version takes v1 or v2, not ${quote(value)}`);
}

function titleOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  if (value.trim() === '' || value.length > TITLE_MAX_LENGTH || /[\u0000-\u001f\u007f]/.test(value))
    throw new UsageError(
      `--title takes the API's name, 1 to ${TITLE_MAX_LENGTH} characters on one line, e.g. "Acme Crawl API", not ${quote(value)}`,
    );
  return value;
}

/** The service's address as the operations' paths follow it (`/v2/crawl`): no trailing slash, query or fragment. */
function serverUrlOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  baseAddress(value, '--server-url', 'https://api.example.com');
  // Tried only where a run of slashes starts, so that the search stays linear in the address.
  return value.replace(/(?<!\/)\/+$/, '');
}

/**
 * Where the page's provenance links go: an http, https or file address of the reference (`…/reference.html`), without
 * a fragment (each link adds its section's) and without parentheses or spaces (it stands in a Markdown link).
 */
function referenceUrlOption(value: string | undefined): string {
  if (value === undefined) return installedReference();
  const example = 'https://docs.example.com/crawlspec/reference.html';
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || !['http:', 'https:', 'file:'].includes(url.protocol) || url.hash !== '' || /[()\s]/.test(value))
    throw new UsageError(
      `--reference-url takes the http, https or file address of the reference (reference.html), without a fragment, spaces or parentheses, e.g. ${example}, not ${quote(value)}`,
    );
  return url.href;
}

export async function docsCommand(args: string[]): Promise<number> {
  const { values } = parseCommand(
    'docs',
    args,
    {
      version: { type: 'string', default: 'v2' },
      title: { type: 'string' },
      'server-url': { type: 'string' },
      output: { type: 'string', short: 'o' },
      'reference-url': { type: 'string' },
      'no-provenance': { type: 'boolean', default: false },
    },
    false,
  );
  const version = versionOption(values.version);
  const title = titleOption(values.title);
  const serverUrl = serverUrlOption(values['server-url']);
  const provenance = !values['no-provenance'];
  if (!provenance && values['reference-url'] !== undefined) throw new UsageError('--reference-url says where provenance links go; --no-provenance leaves them out: give one of them');
  const reference = provenance ? referenceUrlOption(values['reference-url']) : undefined;
  if (values.output === undefined) throw new UsageError('docs needs -o FILE, the file to write the page to, e.g. -o api.html');
  const output = await outputFile(values.output, '-o', 'the page', 'api.html');
  const shipped = await readFile(createRequire(import.meta.url).resolve(`#generated/docs/${version}.html`), 'utf8');
  await writeFile(output, publishedPage(shipped, version, { title, serverUrl, reference, provenance })).catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`cannot write the page to ${quote(output)} (${error.code ?? error.message}); expected a file you may write`);
  });
  console.log(
    printable(
      `wrote ${output}: "${title ?? API_TITLE} (${version})", server ${serverUrl ?? '{baseUrl} (default http://localhost:3002; set it with --server-url)'}, ${reference === undefined ? 'no provenance' : `provenance linked to ${reference}`}`,
    ),
  );
  return 0;
}
