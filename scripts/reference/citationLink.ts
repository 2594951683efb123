/**
 * Where a citation points: "interface §2.4" to the part of the shipped reference (generated/spec/reference.html,
 * made by `npm run generate`) that tells what §2.4 defines, "service" to the part that tells what the service fills
 * in. Every page that shows a citation links it with `citationLink`, each with the reference's address as that page
 * reaches it: relative in the shipped HTML docs and in docs/*.md, the installed file's `file:` URL (or a base the
 * user gives) in a page that stands alone, the package-relative path in JSON output.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { INTERFACE_SECTIONS, type InterfaceSection } from './sections.js';

/** The reference's path in the package, from its root (`node_modules/crawlspec/`): what JSON output links to. */
export const PACKAGE_REFERENCE = 'generated/spec/reference.html';

/** The anchor of the part that tells what the service fills in where the interface says nothing. */
export const SERVICE_ANCHOR = 'service';

/** The anchor of a section: `s2-4` for §2.4. */
export const sectionAnchor = (section: InterfaceSection): string => `s${section.slice(1).replace('.', '-')}`;

const KNOWN = new Set<string>(INTERFACE_SECTIONS);

/** The anchor a citation points at (`interface §2.4` → `s2-4`, `service` → `service`); none for any other text. */
export function citationAnchor(citation: string): string | undefined {
  if (citation === 'service') return SERVICE_ANCHOR;
  const section = /^interface (§\d+(?:\.\d+)?)$/.exec(citation)?.[1];
  return section !== undefined && KNOWN.has(section) ? sectionAnchor(section as InterfaceSection) : undefined;
}

/**
 * The link of `citation`: `reference` (the address of reference.html as the citing page reaches it) with the
 * section's anchor; undefined for a citation that names no part of the reference (an HTTP rule, say).
 */
export function citationLink(citation: string, reference: string = PACKAGE_REFERENCE): string | undefined {
  const anchor = citationAnchor(citation);
  return anchor === undefined ? undefined : `${reference}#${anchor}`;
}

/** The `file:` URL of the reference this installation ships: what a page that stands alone links to by default. */
export const installedReference = (): string =>
  pathToFileURL(createRequire(import.meta.url).resolve('#generated/spec/reference.html')).href;

/**
 * A citation in prose: "interface §2.4" (or "Interface", the space maybe a line break), or a list of sections after
 * it ("interface §1, §4, §6", "interface §2.3/§2.4"). `\s*` and the separators never overlap `§`, so the match is
 * linear in the text.
 */
const PROSE_CITATION = /\b([Ii]nterface\s+)(§\d+(?:\.\d+)?)((?:\s*(?:,|\/|and)\s*§\d+(?:\.\d+)?)*)/g;

/**
 * Markdown `text` with each citation of a known section made a link to `reference` (`[interface §2.4](…#s2-4)`;
 * in a list, each further section its own link). Citations of unknown sections stay text.
 */
export function linkCitations(text: string, reference: string): string {
  const link = (label: string, section: string) => {
    const href = citationLink(`interface ${section}`, reference);
    return href === undefined ? label : `[${label}](${href})`;
  };
  return text.replace(PROSE_CITATION, (_match, word: string, first: string, rest: string) => {
    const more = rest.replace(/§\d+(?:\.\d+)?/g, (section) => link(section, section));
    return `${link(`${word}${first}`, first)}${more}`;
  });
}
