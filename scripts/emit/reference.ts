/**
 * The reference of the interface in the package's own words (generated/spec/reference.md and reference.html): one
 * part per section the package cites ("interface §2.4" → anchor `s2-4`), telling what the package's definitions
 * take from it (definitions, fields with their types, defaults, limits and meanings, rules, operations), then one
 * part (`service`) for what the service fills in where the interface says nothing. Every citation in the package
 * links here (scripts/reference/citationLink.ts). Written from the definitions alone, so the same definitions give
 * the same bytes; the HTML is the Markdown rendered by `marked` (CommonMark and GFM tables), on a page that loads
 * nothing from elsewhere.
 */
import { marked } from 'marked';
import { SERVICE_ANCHOR, citationLink, sectionAnchor } from '../reference/citationLink.js';
import { INTERFACE_SECTIONS, SECTIONS, SERVICE_ABOUT, SERVICE_TITLE } from '../reference/sections.js';
import { CONTENT_SECURITY_POLICY } from './docs.js';
import { definitionEntries, operationEntries, type Citation, type DefinitionEntry, type FieldEntry, type OperationEntry } from './referenceEntries.js';

export const REFERENCE_MARKDOWN = 'spec/reference.md';
export const REFERENCE_HTML = 'spec/reference.html';

/** Text that stands in one table cell: no line break, pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** A source other than the part's own, linked (`(service)`). */
function otherSource(source: Citation, part: Citation): string {
  if (source === part) return '';
  const href = citationLink(source, '');
  return href === undefined ? ` (${source})` : ` ([${source}](${href}))`;
}

function fieldRow(field: FieldEntry, part: Citation): string {
  const def = field.default === undefined ? '' : `${code(field.default.value)}${otherSource(field.default.source, part)}`;
  const limits = field.limits.map((l) => `${code(l.text)}${otherSource(l.source, part)}`).join('; ');
  const notes = [
    field.extension ? 'accepted beyond the fields the interface lists' : '',
    field.extensionValues.length > 0 ? `values only the service accepts: ${field.extensionValues.map(code).join(', ')}` : '',
  ].filter((n) => n !== '');
  const meaning = [field.meaning, ...notes.map((n) => `(${n})`)].filter((t) => t !== '').join(' ');
  return `| ${code(field.name)} | ${cell(code(field.type))} | ${field.required ? 'yes' : ''} | ${cell(def)} | ${cell(limits)} | ${cell(meaning)} |`;
}

/** What `definition` takes from the part `part`, or nothing when it takes nothing. */
function definitionBlock(definition: DefinitionEntry, part: Citation): string[] {
  const own = definition.source === part;
  const fields = definition.fields.filter((f) => f.source === part);
  const rules = definition.rules.filter((r) => r.source === part);
  const constraints = definition.constraints.filter((c) => c.source === part);
  if (!own && fields.length === 0 && rules.length === 0 && constraints.length === 0) return [];
  const lines = [`### ${definition.name} (${definition.versions.join(', ')})`, ''];
  if (own) lines.push(`${definition.meaning === '' ? '' : `${definition.meaning} `}Type: ${code(definition.type)}.`.trim(), '');
  else lines.push(`Defined under [${definition.source}](${citationLink(definition.source, '') ?? ''}); these parts come from here.`, '');
  if (fields.length > 0)
    lines.push(
      '| field | type | required | default | limits | meaning |',
      '| --- | --- | --- | --- | --- | --- |',
      ...fields.map((f) => fieldRow(f, part)),
      '',
    );
  if (constraints.length > 0) lines.push(`Constraints: ${constraints.map((c) => code(c.text)).join(', ')}.`, '');
  if (rules.length > 0) lines.push('Rules:', '', ...rules.map((r) => `- ${code(r.id)}: ${r.what.replace(/\s*\n\s*/g, ' ')}`), '');
  return lines;
}

function operationList(entries: readonly OperationEntry[]): string[] {
  if (entries.length === 0) return [];
  return [
    '### Operations',
    '',
    ...entries.map((op) => `- ${code(`${op.method} ${op.path}`)}: ${op.summary}${op.body === undefined ? '' : ` (body: ${op.body})`}`),
    '',
  ];
}

function part(anchor: string, heading: string, about: string, citation: Citation, definitions: readonly DefinitionEntry[], ops: readonly OperationEntry[]): string[] {
  const blocks = definitions.flatMap((d) => definitionBlock(d, citation));
  const cited = ops.filter((op) => op.source === citation);
  const body = [...operationList(cited), ...blocks];
  return [
    `## <a id="${anchor}"></a>${heading}`,
    '',
    about,
    '',
    ...(body.length > 0 ? body : ['No definition of the package cites this section on its own; the checks and documents that rest on it cite it in their words.', '']),
  ];
}

/** The reference as Markdown. */
export function referenceMarkdown(): string {
  const definitions = definitionEntries();
  const ops = operationEntries();
  const contents = [
    ...INTERFACE_SECTIONS.map((s) => `- [${s} ${SECTIONS[s].title}](#${sectionAnchor(s)})`),
    `- [${SERVICE_TITLE}](#${SERVICE_ANCHOR})`,
  ];
  const lines = [
    '<!-- Generated by `npm run generate` from the definitions in schemas/. Do not edit. -->',
    '',
    '# The interface, section by section',
    '',
    'Every message, document and report of crawlspec says where what it holds comes from: `interface §N`, a section of the interface document, or `service`, what the public service does where the interface is silent. This reference tells, for each section, what the package takes from it: definitions, fields (type, whether required, default, limits, meaning), rules and operations, in the package\'s own words. A default or limit that comes from elsewhere than its field says so. Versions are given per definition.',
    '',
    ...contents,
    '',
  ];
  for (const section of INTERFACE_SECTIONS) {
    const { title, about } = SECTIONS[section];
    lines.push(...part(sectionAnchor(section), `${section} ${title}`, about, `interface ${section}`, definitions, ops));
  }
  lines.push(...part(SERVICE_ANCHOR, SERVICE_TITLE, SERVICE_ABOUT, 'service', definitions, ops));
  return `${lines.join('\n').trimEnd()}\n`;
}

const STYLE = `body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 2rem; color: #1b1b1b; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
code { font-family: ui-monospace, monospace; background: #f3f3f3; padding: 0 0.2em; }
h2 { border-top: 2px solid #333; padding-top: 1rem; margin-top: 2.5rem; }
h2:target, h2:has(> a:target) { background: #fff6cc; }`;

/** The reference as one HTML page, self-contained (the policy of the docs pages; no script). */
export function referenceHtml(markdown: string): string {
  const body = marked.parse(markdown, { async: false, gfm: true }) as string;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>crawlspec: the interface, section by section</title>
<style>
${STYLE}
</style>
</head>
<body>
${body}</body>
</html>
`;
}
