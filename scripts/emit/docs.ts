/**
 * HTML documentation: one self-contained Redoc page per version (`docs/v1.html`, `docs/v2.html`), made by
 * `redocly build-docs` (the local binary, no network) from the in-memory OpenAPI documents.
 *
 * Self-contained: the Redoc script is inlined (`--inlineBundle`), the theme's fonts are system fonts, and the
 * page carries a Content-Security-Policy that allows nothing from elsewhere (Redoc's "API docs by" logo, an
 * image on Redocly's CDN, is blocked and hidden). Telemetry is off, in the CLI and in the page. Every
 * page is checked for an external script, style sheet, font or image load; one found fails generation.
 * Component schemas are listed in a "Schemas" section (`schemaDefinitionsTagName`). Each element's provenance is a
 * link to its section of the reference (../reference/provenanceLinks.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { VERSIONS, type Version } from '../../schemas/registry.js';
import { API_TITLE } from '../../schemas/apiTitle.js';
import { openApiDocument } from './openapi.js';
import { DOCS_REFERENCE, linkProvenance } from '../reference/provenanceLinks.js';

const run = promisify(execFile);

/** The policy every page declares: inline script and styles, `data:` images and fonts, nothing else. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'";

/** The page around Redoc: build-docs' default template with the policy added. */
const TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />
  <title>{{title}}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <style>
    body {
      padding: 0;
      margin: 0;
    }
    /* Redoc's "API docs by Redocly" badge is an image from its CDN, which the policy blocks: hidden, not left empty. */
    span:has(> a[href^="https://redocly.com/redoc"]),
    a[href^="https://redocly.com/redoc"] {
      display: none !important;
    }
  </style>
  {{{redocHead}}}
</head>
<body>
  {{{redocHTML}}}
</body>
</html>
`;

/** Redoc options (and CLI settings) for every page. */
const CONFIG = `telemetry: off
openapi:
  schemaDefinitionsTagName: Schemas
`;

/** The project's `redocly` binary, found from this module (in `scripts/emit/` or its build in `dist/`). */
function redoclyBinary(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', 'redocly');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('docs: node_modules/.bin/redocly not found; run npm ci');
  }
}

const ABSOLUTE = String.raw`(?:https?:)?//`;
const QUOTE = String.raw`["'\x60]?`;
/**
 * What a browser would fetch from elsewhere when it opens the page; links (`<a href>`) are text. Inside a tag the
 * patterns skip `[^<>]*`, not `[^>]*`: a run of `<` without `>` would otherwise make them quadratic (ReDoS).
 */
const EXTERNAL_LOADS: readonly [string, RegExp][] = [
  ['script src', new RegExp(String.raw`<script\b[^<>]*\ssrc\s*=\s*${QUOTE}${ABSOLUTE}`, 'gi')],
  ['link href', new RegExp(String.raw`<link\b[^<>]*\shref\s*=\s*${QUOTE}${ABSOLUTE}`, 'gi')],
  [
    'element src',
    new RegExp(
      String.raw`<(?:img|iframe|source|video|audio|embed|object|track|input|image|use)\b[^<>]*\s(?:src|srcset|data|poster|href|xlink:href)\s*=\s*${QUOTE}${ABSOLUTE}`,
      'gi',
    ),
  ],
  ['@import', new RegExp(String.raw`@import\s+(?:url\(\s*)?${QUOTE}${ABSOLUTE}`, 'gi')],
  ['url(', new RegExp(String.raw`url\(\s*${QUOTE}${ABSOLUTE}`, 'gi')],
  ['module import', new RegExp(String.raw`(?:\bimport\s*\(\s*|\bfrom\s*|\bimport\s*)["'\x60]${ABSOLUTE}`, 'g')],
];

/** Every place in `html` that would load a script, style sheet, font or image from another address. */
export function externalLoads(html: string): string[] {
  const found: string[] = [];
  for (const [kind, pattern] of EXTERNAL_LOADS) {
    for (const match of html.matchAll(pattern)) {
      const at = match.index;
      found.push(`${kind}: ${html.slice(at, at + match[0].length + 80).replace(/\s+/g, ' ')}`);
    }
  }
  return found;
}

/** Refuses a page that loads anything from elsewhere or lost its policy. */
function checkSelfContained(path: string, html: string): void {
  const problems = externalLoads(html);
  if (!html.includes(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`))
    problems.push('the Content-Security-Policy meta element is missing');
  if (!/<div id="redoc">/.test(html) || !/<script type="module">/.test(html)) problems.push('no Redoc markup or inline script');
  if (problems.length > 0) throw new Error(`docs: ${path} is not self-contained:\n  ${problems.join('\n  ')}`);
}

/** A page's title: the API's, and the version once (Redoc's heading adds `info.version` to `info.title` itself). */
export const pageTitle = (version: Version): string => `${API_TITLE} (${version})`;

async function buildPage(dir: string, version: Version): Promise<string> {
  const input = join(dir, `${version}.json`);
  const output = join(dir, `${version}.html`);
  await writeFile(input, JSON.stringify(linkProvenance(openApiDocument(version), DOCS_REFERENCE)));
  const args = [
    'build-docs',
    input,
    '--output',
    output,
    '--inlineBundle',
    '--title',
    pageTitle(version),
    '--template',
    join(dir, 'template.hbs'),
    '--config',
    join(dir, 'redocly.yaml'),
    '--lint-config',
    'off',
  ];
  try {
    await run(redoclyBinary(), args, {
      cwd: dir,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', NO_COLOR: '1' },
    });
  } catch (error) {
    const { stderr, stdout, message } = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`docs: redocly build-docs failed for ${version}: ${message}\n${stdout ?? ''}${stderr ?? ''}`);
  }
  // The page holds no timestamp, random id or path of the scratch directory; refuse one if a new version adds it.
  const html = await readFile(output, 'utf8');
  if (html.includes(dir)) throw new Error(`docs: the ${version} page names the scratch directory ${dir}`);
  return html;
}

/** `docs/<version>.html` for each version, by path relative to `generated/`. */
export async function htmlDocs(): Promise<Map<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'crawlspec-docs-'));
  try {
    await writeFile(join(dir, 'template.hbs'), TEMPLATE);
    await writeFile(join(dir, 'redocly.yaml'), CONFIG);
    const pages = await Promise.all(VERSIONS.map(async (version) => [`docs/${version}.html`, await buildPage(dir, version)] as const));
    for (const [path, html] of pages) checkSelfContained(path, html);
    return new Map(pages);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
