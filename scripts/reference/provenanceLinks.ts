/**
 * Provenance a reader of the HTML docs can follow. Redoc shows descriptions, not `x-` annotations, so the docs
 * pages are built from the OpenAPI document with each element's `x-crawlspec-source` told at the end of its
 * description as a link to the reference (`_Source: [interface §2.4](../spec/reference.html#s2-4)_`), and the
 * citations of the introduction made links. `crawlspec docs` points those links at the reference a page that
 * stands alone can reach (`rebaseProvenance`), or leaves provenance out of a publisher's page altogether
 * (`withoutProvenance`: no `x-crawlspec-*` annotation, no source line, no citation).
 */
import { citationLink, linkCitations } from './citationLink.js';

/** The reference as the shipped docs pages (generated/docs/<version>.html) reach it. */
export const DOCS_REFERENCE = '../spec/reference.html';

type Json = unknown;
type JsonObject = { [key: string]: Json };

const SOURCE = 'x-crawlspec-source';
const EXTENSION = 'x-crawlspec-extension';
const SOURCE_LINE_START = '_Source: ';
/** A source line as `linkProvenance` ends a description with it. */
const SOURCE_LINE = /(?:^|\n\n)_Source: [^\n]*_$/;
/** A parenthesis of linked citations only (`([interface §1](…#s1), [§4](…#s4))`), as `linkCitations` writes them. */
const CITATION_PARENTHESIS = / ?\((?:\[(?:interface )?§\d+(?:\.\d+)?\]\([^()\s]*\)(?:, |\/| and )?)+\)/g;

const isObject = (value: Json): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Values, not schemas: what an example or a default holds is left as it is. */
const VALUES = new Set(['examples', 'example', 'default', 'const', 'enum']);

/** A copy of `value` with `change` applied to every object outside values, innermost first. */
function mapObjects(value: Json, change: (object: JsonObject, key: string | undefined) => JsonObject, key?: string): Json {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, change));
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [k, v] of Object.entries(value)) copy[k] = VALUES.has(k) ? v : mapObjects(v, change, k);
  return change(copy, key);
}

function sourceLine(object: JsonObject, reference: string): string | undefined {
  const source = object[SOURCE];
  if (typeof source !== 'string') return undefined;
  const href = citationLink(source, reference);
  const label = href === undefined ? source : `[${source}](${href})`;
  return `${SOURCE_LINE_START}${label}${object[EXTENSION] === true ? ', beyond the fields the interface lists' : ''}_`;
}

/**
 * `doc` (an OpenAPI document) with provenance as links to `reference`: a source line at the end of the
 * description of every element that carries `x-crawlspec-source` where Redoc shows a description (a component
 * schema, a property, an operation), and the introduction's citations linked.
 */
export function linkProvenance(doc: Json, reference: string): Json {
  const linked = mapObjects(doc, (object, key) => {
    if (key === 'properties' || key === 'schemas' || key === 'paths' || key === 'webhooks') return object;
    const line = sourceLine(object, reference);
    if (line === undefined) return object;
    const description = typeof object.description === 'string' && object.description !== '' ? `${object.description}\n\n` : '';
    return { ...object, description: `${description}${line}` };
  });
  if (isObject(linked) && isObject(linked.info) && typeof linked.info.description === 'string')
    linked.info = { ...linked.info, description: linkCitations(linked.info.description, reference) };
  return linked;
}

/** `doc` with every link to the reference `from` pointed at `to` instead (the same anchors). */
export function rebaseProvenance(doc: Json, from: string, to: string): Json {
  const prefix = `](${from}#`;
  return mapObjects(doc, (object) => {
    const description = object.description;
    return typeof description === 'string' && description.includes(prefix)
      ? { ...object, description: description.split(prefix).join(`](${to}#`) }
      : object;
  });
}

/** `doc` without provenance: no `x-crawlspec-*` annotation, no source line, no linked citation. */
export function withoutProvenance(doc: Json): Json {
  return mapObjects(doc, (object) => {
    const copy: JsonObject = {};
    for (const [k, v] of Object.entries(object)) if (!k.startsWith('x-crawlspec-')) copy[k] = v;
    if (typeof copy.description === 'string') {
      const description = copy.description.replace(SOURCE_LINE, '').replace(CITATION_PARENTHESIS, '');
      if (description === '') delete copy.description;
      else copy.description = description;
    }
    return copy;
  });
}
