/**
 * `crawlspec docs`: writes a version's HTML documentation page, the one the package ships, with the publisher's API
 * title and server address (docsPage.ts). One self-contained file: it loads nothing from elsewhere.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Version } from '../../schemas/registry.js';
import { API_TITLE } from '../../schemas/apiTitle.js';
import { parseCommand } from './args.js';
import { baseAddress, InputError, outputFile, UsageError } from './errors.js';
import { publishedPage } from './docsPage.js';
import { printable, quote } from './terminal.js';

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

export async function docsCommand(args: string[]): Promise<number> {
  const { values } = parseCommand(
    'docs',
    args,
    {
      version: { type: 'string', default: 'v2' },
      title: { type: 'string' },
      'server-url': { type: 'string' },
      output: { type: 'string', short: 'o' },
    },
    false,
  );
  const version = versionOption(values.version);
  const title = titleOption(values.title);
  const serverUrl = serverUrlOption(values['server-url']);
  if (values.output === undefined) throw new UsageError('docs needs -o FILE, the file to write the page to, e.g. -o api.html');
  const output = await outputFile(values.output, '-o', 'the page', 'api.html');
  const shipped = await readFile(createRequire(import.meta.url).resolve(`#generated/docs/${version}.html`), 'utf8');
  await writeFile(output, publishedPage(shipped, version, { title, serverUrl })).catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`cannot write the page to ${quote(output)} (${error.code ?? error.message}); expected a file you may write`);
  });
  console.log(
    printable(
      `wrote ${output}: "${title ?? API_TITLE} (${version})", server ${serverUrl ?? '{baseUrl} (default http://localhost:3002; set it with --server-url)'}`,
    ),
  );
  return 0;
}
