/**
 * The reference of the interface (generated/spec/reference.md and .html) and the citations that link to it: the
 * reference has a part for every section the package cites and for the service; every field of every request body
 * is in the part of the section it cites; and every citation in the HTML docs, the kit's reports, the proxy's JSON
 * lines and docs/*.md links to an anchor the shipped reference has.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations } from '../schemas/operations.js';
import { VERSIONS } from '../schemas/registry.js';
import { jsonReport, type Failure } from '../scripts/contract/report/report.js';
import { formatHtml } from '../scripts/contract/reporters/html.js';
import { logLine } from '../scripts/proxy/exchangeLog.js';
import { citationLink, installedReference, linkCitations, PACKAGE_REFERENCE } from '../scripts/reference/citationLink.js';
import { INTERFACE_SECTIONS, SECTIONS } from '../scripts/reference/sections.js';
import { check, report } from './support/reportFixtures.js';
import { ROOT } from './support/runCli.js';

const read = (...path: string[]) => readFileSync(join(ROOT, ...path), 'utf8');
const MARKDOWN = read('generated', 'spec', 'reference.md');
const HTML = read('generated', 'spec', 'reference.html');
const anchorsOf = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));
const ANCHORS = anchorsOf(HTML);
const CITATION = /interface §(\d+(?:\.\d+)?)/g;

/** The part of reference.md under `anchor`, up to the next part. */
function part(anchor: string): string {
  const at = MARKDOWN.indexOf(`## <a id="${anchor}"></a>`);
  expect(at, `reference.md has no part ${anchor}`).toBeGreaterThanOrEqual(0);
  const end = MARKDOWN.indexOf('\n## ', at + 1);
  return MARKDOWN.slice(at, end < 0 ? undefined : end);
}

/** `interface §2.4` → `s2-4`. */
const anchorOf = (citation: string) => (citation === 'service' ? 'service' : `s${citation.replace('interface §', '').replace('.', '-')}`);

describe('the reference', () => {
  it('has a part, with its anchor and title, for every section the package cites and for the service', () => {
    for (const section of INTERFACE_SECTIONS) {
      const anchor = anchorOf(`interface ${section}`);
      expect(part(anchor)).toContain(`${section} ${SECTIONS[section].title}`);
      expect(ANCHORS.has(anchor), `reference.html has no anchor ${anchor}`).toBe(true);
      expect(HTML).toContain(`href="#${anchor}"`);
    }
    expect(ANCHORS.has('service')).toBe(true);
    expect(part('service')).toContain('What the service fills in');
  });

  it('files every field of every request body under the section it cites', () => {
    let fields = 0;
    for (const version of VERSIONS) {
      const bodies = new Set(operations(version).flatMap((op) => (op.requestBody === undefined ? [] : [op.requestBody])));
      expect(bodies.size).toBeGreaterThanOrEqual(2);
      for (const body of bodies) {
        const schema = JSON.parse(read('generated', 'schemas', version, `${body}.json`)) as Record<string, never>;
        const properties = (schema.properties ?? {}) as Record<string, Record<string, string>>;
        for (const [name, property] of Object.entries(properties)) {
          const ref = property.$ref?.replace('#/$defs/', '');
          const referenced = ref === undefined ? undefined : (JSON.parse(read('generated', 'schemas', version, `${ref}.json`)) as Record<string, string>);
          const cited = property['x-crawlspec-source'] ?? referenced?.['x-crawlspec-source'] ?? schema['x-crawlspec-source'];
          const blocks = part(anchorOf(cited ?? 'service')).split('\n### ').filter((b) => new RegExp(`^${body} \\([^)]*${version}`).test(b));
          expect(blocks.length, `${version}/${body} has no block under ${cited}`).toBe(1);
          expect(blocks[0], `${version}/${body}.${name} is not under ${cited}`).toContain(`| \`${name}\` |`);
          fields += 1;
        }
      }
    }
    expect(fields).toBeGreaterThan(50);
  });

  it('tells a default or a limit that comes from elsewhere than its field, linked', () => {
    // v2 `timeout`: the field and its maximum from §2.4, its minimum from the service.
    const timeout = part('s2-4')
      .split('\n')
      .find((line) => line.startsWith('| `timeout` |'));
    expect(timeout).toContain('`maximum 300000`');
    expect(timeout).toMatch(/`minimum 1000` \(\[service\]\(#service\)\)/);
  });
});

describe('citationLink', () => {
  it('maps a citation to its anchor in the reference, and nothing else', () => {
    expect(citationLink('interface §2.4')).toBe(`${PACKAGE_REFERENCE}#s2-4`);
    expect(citationLink('service', 'r.html')).toBe('r.html#service');
    expect(citationLink('interface §3')).toBeUndefined();
    expect(citationLink('HTTP (RFC 9110 §15.6: a 5xx says the server failed)')).toBeUndefined();
    expect(linkCitations('see interface §1, §4/§6 and Interface\n§2.3', 'r')).toBe(
      'see [interface §1](r#s1), [§4](r#s4)/[§6](r#s6) and [Interface\n§2.3](r#s2-3)',
    );
  });
});

/** Every link to the reference in `text` (Markdown or HTML) names an anchor the reference has. */
function expectAnchorsExist(links: readonly string[], where: string) {
  expect(links.length, `${where} links nowhere`).toBeGreaterThan(0);
  for (const link of links) expect(ANCHORS.has(link.split('#')[1] ?? ''), `${where}: ${link} points nowhere`).toBe(true);
}

/** The OpenAPI document inlined in a docs page. */
const definitionOf = (html: string): unknown =>
  JSON.parse(html.slice(html.indexOf('const __redoc_definition = ') + 27, html.indexOf(';\n      const __redoc_options = ')));

/** Every string under `description` in `value`. */
function descriptions(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => descriptions(v, out));
  else if (typeof value === 'object' && value !== null)
    for (const [key, v] of Object.entries(value)) {
      if (key === 'description' && typeof v === 'string') out.push(v);
      else if (key !== 'examples' && key !== 'example') descriptions(v, out);
    }
  return out;
}

/** The citations of `text` not inside a Markdown link to their own section of `reference`. */
function unlinked(text: string, reference: string): string[] {
  const linked = new RegExp(`\\[[^\\]]*\\]\\(${reference.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#[a-z0-9-]+\\)`, 'g');
  return [...text.replace(linked, '').matchAll(CITATION)].map((m) => m[0]);
}

describe('every citation links to the reference', () => {
  it.each(VERSIONS)('in the shipped HTML docs of %s: the rendered markup and every description of the document', (version) => {
    const html = read('generated', 'docs', `${version}.html`);
    const rendered = html.slice(0, html.indexOf('<script type="module">'));
    expectAnchorsExist([...rendered.matchAll(/href="\.\.\/spec\/reference\.html(#[^"]*)"/g)].map((m) => m[1]!), `${version}.html`);
    const texts = descriptions(definitionOf(html));
    const links = texts.flatMap((t) => [...t.matchAll(/\]\(\.\.\/spec\/reference\.html(#[a-z0-9-]+)\)/g)].map((m) => m[1]!));
    expectAnchorsExist(links, `${version}.html's document`);
    expect(texts.flatMap((t) => unlinked(t, '../spec/reference.html'))).toEqual([]);
    // Each element's own source line: as many as the elements Redoc describes that carry a source.
    expect(links.length).toBeGreaterThan(300);
  });

  it('in docs/*.md: each citation outside code is a link to its section (a code span holding more is an example)', () => {
    const dir = join(ROOT, 'docs');
    let links = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
      const prose = readFileSync(join(dir, file), 'utf8')
        .replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, '')
        .replace(/\[`interface §[\d.]+`\]/g, '[x]')
        .replace(/`[^`\n]*`/g, '');
      const found = [...prose.matchAll(/\]\(\.\.\/generated\/spec\/reference\.md#([a-z0-9-]+)\)/g)].map((m) => m[1]!);
      for (const anchor of found) expect(MARKDOWN.includes(`<a id="${anchor}"></a>`), `${file}: #${anchor} points nowhere`).toBe(true);
      links += found.length;
      expect(unlinked(prose, '../generated/spec/reference.md'), file).toEqual([]);
      // The link goes to the section the text cites.
      for (const m of prose.matchAll(/\[[Ii]nterface\s+§([\d.]+)\]\(\.\.\/generated\/spec\/reference\.md#([a-z0-9-]+)\)/g))
        expect(m[2], `${file}: ${m[0]}`).toBe(`s${m[1]!.replace('.', '-')}`);
    }
    expect(links).toBeGreaterThan(50);
  });

  const failure = (section: string): Failure => ({
    check: 'v2.crawl.start.valid',
    kind: 'status',
    level: section === 'service' ? 'service' : 'interface',
    message: 'refused a valid crawl',
    expected: 'accepted',
    section,
  });
  const REPORT = report({
    checks: [
      check('v2.crawl.start.valid', {
        status: 'fail',
        failures: [failure('interface §2.1'), failure('HTTP (RFC 9110 §15.6: a 5xx says the server failed)')],
        differences: [failure('service')],
      }),
    ],
  });

  it("in the kit's HTML report: each section a link to the installed reference's anchor", () => {
    const html = formatHtml(REPORT);
    const reference = installedReference();
    expect(fileURLToPath(reference)).toBe(join(ROOT, 'generated', 'spec', 'reference.html'));
    const hrefs = [...html.matchAll(/<a href="([^"]*)">/g)].map((m) => m[1]!).filter((h) => h.startsWith(reference));
    expect(hrefs).toEqual([`${reference}#s2-1`, `${reference}#service`]);
    expectAnchorsExist(hrefs, 'the report');
    expect(html).toContain('<dd>HTTP (RFC 9110 §15.6: a 5xx says the server failed) (');
  });

  it("in the kit's JSON report and the proxy's JSON lines: a sectionUrl beside each section of the reference", () => {
    const [checked] = jsonReport(REPORT).checks;
    expect(checked?.failures.map((f) => f.sectionUrl)).toEqual([`${PACKAGE_REFERENCE}#s2-1`, undefined]);
    expect(checked?.differences.map((f) => f.sectionUrl)).toEqual([`${PACKAGE_REFERENCE}#service`]);
    const line = JSON.parse(
      logLine(
        {
          method: 'POST',
          path: '/v2/crawl',
          status: 200,
          startedAt: new Date(0),
          durationMs: 1,
          verdict: 'problems',
          refused: false,
          problems: [{ side: 'answer', method: 'POST', path: '/v2/crawl', at: '$.id', message: 'missing', expected: 'an id', level: 'interface', section: 'interface §4' }],
        },
        'interface',
      ),
    ) as { problems: { sectionUrl?: string }[] };
    expect(line.problems[0]?.sectionUrl).toBe(`${PACKAGE_REFERENCE}#s4`);
    expectAnchorsExist([line.problems[0]!.sectionUrl!, checked!.failures[0]!.sectionUrl!], 'the JSON outputs');
  });
});
