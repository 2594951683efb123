/**
 * A version's HTML documentation page made for a publisher, from the page the package ships
 * (`generated/docs/<version>.html`, built by Redocly at generation): their API title and their server address, the
 * provenance links pointed at a reference the page can reach, or no provenance at all (../reference/provenanceLinks.ts).
 *
 * The shipped page is Redoc's: the overview and menu rendered at generation inside `<div id="redoc">`, the Redoc
 * script inline, the OpenAPI document inline (`const __redoc_definition = {...};`), and a call that hydrates the
 * rendered markup from that document. The rendered markup holds the old title and server; so when either changes,
 * the document is changed, the rendered markup is dropped and the page calls `init` instead of `hydrate` (both are
 * exports of the same Redoc script): the browser renders it from the changed document. Building the page again
 * would need @redocly/cli, a development tool the package does not carry.
 */
import type { Version } from '../../schemas/registry.js';
import { escapeHtml } from '../contract/reporters/escapeHtml.js';
import { DOCS_REFERENCE, rebaseProvenance, withoutProvenance } from '../reference/provenanceLinks.js';

export interface PageChanges {
  /** The API's name; the page shows it with the version, `Acme Crawl API (v2)`. */
  readonly title?: string | undefined;
  /** The address clients reach the service at, without the version (`https://api.example.com`). */
  readonly serverUrl?: string | undefined;
  /** Where the provenance links go: the address of the reference (`…/reference.html`) from where the page stands. */
  readonly reference?: string | undefined;
  /** false: no provenance (`x-crawlspec-*` annotations, source lines, citations). */
  readonly provenance?: boolean | undefined;
}

const DEFINITION_START = 'const __redoc_definition = ';
const DEFINITION_END = ';\n      const __redoc_options = ';
const HYDRATE = "hydrate(__redoc_definition, __redoc_options, document.getElementById('redoc'));";
const INIT = "init(__redoc_definition, __redoc_options, document.getElementById('redoc'));";
const RENDERED_START = '<div id="redoc">';
const SCRIPT_START = '<script type="module">';

/**
 * JSON that may stand inside a `<script>` element: a `<` never starts a tag there (a title of `</script>` stays
 * text), and the two line separators JSON allows are written as escapes.
 */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Where a part of the page is, or an error saying which part the page lacks (a page crawlspec did not make). */
function find(html: string, marker: string, from: number, version: Version): number {
  const at = html.indexOf(marker, from);
  if (at < 0)
    throw new Error(`the ${version} documentation page has no ${JSON.stringify(marker.trim().slice(0, 40))}: not a page crawlspec made`);
  return at;
}

/** `html` (a shipped page of `version`) with `changes` made; unchanged when there are none. */
export function publishedPage(html: string, version: Version, changes: PageChanges): string {
  const provenance = changes.provenance ?? true;
  if (changes.title === undefined && changes.serverUrl === undefined && changes.reference === undefined && provenance) return html;
  const definitionAt = find(html, DEFINITION_START, 0, version) + DEFINITION_START.length;
  const definitionEnd = find(html, DEFINITION_END, definitionAt, version);
  const shipped: unknown = JSON.parse(html.slice(definitionAt, definitionEnd));
  const linked = changes.reference === undefined ? shipped : rebaseProvenance(shipped, DOCS_REFERENCE, changes.reference);
  const definition = (provenance ? linked : withoutProvenance(shipped)) as {
    info: { title: string };
    servers?: { url: string; description?: string }[];
  };
  if (changes.title !== undefined) definition.info.title = changes.title;
  if (changes.serverUrl !== undefined) {
    const description = definition.servers?.[0]?.description;
    definition.servers = [{ url: changes.serverUrl, ...(description === undefined ? {} : { description }) }];
  }
  const renderedAt = find(html, RENDERED_START, 0, version) + RENDERED_START.length;
  const scriptAt = find(html, SCRIPT_START, renderedAt, version);
  // The rendered markup ends with the `</div>` of `<div id="redoc">`, just before the script.
  const renderedEnd = html.lastIndexOf('</div>', scriptAt);
  const hydrateAt = find(html, HYDRATE, definitionEnd, version);
  const title = `${definition.info.title} (${version})`;
  return (
    html.slice(0, renderedAt).replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`) +
    html.slice(renderedEnd, definitionAt) +
    scriptJson(definition) +
    html.slice(definitionEnd, hydrateAt) +
    INIT +
    html.slice(hydrateAt + HYDRATE.length)
  );
}
