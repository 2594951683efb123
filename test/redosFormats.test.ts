/**
 * No regex of ajv-formats behind the formats the definitions use (`uri`, `date-time`, `uuid`) can backtrack
 * catastrophically (ReDoS), in every copy of ajv-formats that runs (its own module, which TypeBox's checker and the
 * in-memory Ajv use, and the module the validators import). The library's other formats never run here
 * and are not checked: `url` (polynomial) would fail, and checking all of them takes longer than the rest.
 */
import { createRequire } from 'node:module';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../scripts/emit/ajv.js';
import {
  FORMATS_IMPORTS,
  type Found,
  VALIDATOR_FILES,
  fullFormatsOf,
  importsOf,
  lineOf,
  nodesOf,
  parse,
  rel,
  schemaScan,
  splitLiteral,
} from './support/redosFinding.js';
import { expectSafe, grouped, nameOf } from './support/redosCheck.js';

/** The name of a regex literal in ajv-formats: `CONSTANT`, or `object.property` for `exports.object = { property: ... }`. */
function nameInFormats(node: ts.Node): string {
  let property: string | undefined;
  for (let at: ts.Node | undefined = node.parent; at !== undefined; at = at.parent) {
    if (ts.isPropertyAssignment(at) && property === undefined) property = at.name.getText().replace(/^"(.*)"$/, '$1');
    if (ts.isVariableDeclaration(at)) return at.name.getText();
    if (ts.isBinaryExpression(at) && ts.isPropertyAccessExpression(at.left)) return `${at.left.name.text}.${property ?? '?'}`;
  }
  return '?';
}

/** A regex literal of a formats module, with its name and the formats used that reach it. */
interface FormatRegex {
  readonly name: string;
  readonly found: Found;
  readonly usedBy: readonly string[];
}

/**
 * The regex literals of a formats module (ajv-formats' own, or a bundle of it), each with the formats of
 * `used` that reach it: from the format's entry in `fullFormats`, through every function and variable it
 * names, transitively. Over-approximate (a name declared twice leads to both), never under.
 */
function formatRegexes(file: ts.SourceFile, used: readonly string[]): FormatRegex[] {
  const fullFormats = fullFormatsOf(file);
  if (fullFormats === undefined) throw new Error(`${rel(file.fileName)}: no \`fullFormats = { ... }\``);
  const declarations = new Map<string, ts.Node[]>();
  for (const node of nodesOf(file)) {
    if ((ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) && node.name !== undefined && ts.isIdentifier(node.name)) {
      declarations.set(node.name.text, [...(declarations.get(node.name.text) ?? []), node]);
    }
  }
  const usedBy = new Map<ts.Node, string[]>();
  for (const format of used) {
    const entry = fullFormats.properties.find(
      (p) =>
        (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) &&
        (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) &&
        p.name.text === format,
    );
    if (entry === undefined) throw new Error(`${rel(file.fileName)}: fullFormats has no ${format}`);
    const visited = new Set<ts.Node>();
    const pending: ts.Node[] = [entry];
    for (let start = pending.pop(); start !== undefined; start = pending.pop()) {
      if (visited.has(start)) continue;
      visited.add(start);
      for (const node of nodesOf(start)) {
        if (ts.isRegularExpressionLiteral(node)) usedBy.set(node, [...new Set([...(usedBy.get(node) ?? []), format])]);
        const isPropertyName = ts.isPropertyAccessExpression(node.parent) && node.parent.name === node;
        if (ts.isIdentifier(node) && !isPropertyName) pending.push(...(declarations.get(node.text) ?? []));
      }
    }
  }
  return [...nodesOf(file)].filter(ts.isRegularExpressionLiteral).map((node) => ({
    name: nameInFormats(node),
    found: { ...splitLiteral(node), at: `${rel(file.fileName)}:${lineOf(file, node)}` },
    usedBy: usedBy.get(node) ?? [],
  }));
}

const SCHEMA_FORMATS = [...new Set(schemaScan.flatMap((scan) => [...scan.formats]))].sort();

// --- c: ajv-formats --------------------------------------------------------------------------------------

/**
 * The formats modules that run: the one the validators import, and ajv-formats' own, which TypeBox's checker
 * (schemas/typeboxFormats.ts) and the in-memory Ajv (scripts/emit/ajv.ts) use.
 */
const AJV_FORMATS_MODULE = createRequire(import.meta.url).resolve('ajv-formats/dist/formats.js');
const FORMATS_FILES = [...new Map([...FORMATS_IMPORTS, parse(AJV_FORMATS_MODULE)].map((file) => [file.fileName, file])).values()];
const USED_FORMATS = [...new Set([...FORMATS, ...SCHEMA_FORMATS])].sort();
const FORMAT_REGEXES = FORMATS_FILES.flatMap((file) => formatRegexes(file, USED_FORMATS));

const FORMAT_PATTERNS = grouped(
  FORMAT_REGEXES.filter((r) => r.usedBy.length > 0).map((r) => ({
    ...r.found,
    at: `${r.found.at} ${r.name} (format ${r.usedBy.join(', ')})`,
  })),
);

describe("ajv-formats' regexes behind the formats used", () => {
  const patterns = FORMAT_PATTERNS;
  const reached = (file: ts.SourceFile, format: string) =>
    FORMAT_REGEXES.filter((r) => r.found.at.startsWith(`${rel(file.fileName)}:`) && r.usedBy.includes(format))
      .map((r) => r.name)
      .sort();

  it('the formats used are uri, date-time and uuid; each validator takes them from one formats module, checked here', () => {
    expect(USED_FORMATS).toEqual(['date-time', 'uri', 'uuid']);
    expect(SCHEMA_FORMATS).toEqual(USED_FORMATS);
    for (const file of VALIDATOR_FILES) {
      const formatsModules = importsOf(file).filter((path) => FORMATS_IMPORTS.some((f) => f.fileName === path));
      expect(formatsModules, rel(file.fileName)).toHaveLength(1);
    }
    expect(FORMATS_FILES.map((file) => rel(file.fileName))).toContain('node_modules/ajv-formats/dist/formats.js');
  });

  it('finds which regexes each format reaches, in every formats module', () => {
    for (const file of FORMATS_FILES) {
      expect(FORMAT_REGEXES.filter((r) => r.found.at.startsWith(`${rel(file.fileName)}:`)).length).toBeGreaterThan(20);
      expect(reached(file, 'uri'), rel(file.fileName)).toEqual(['NOT_URI_FRAGMENT', 'URI']);
      expect(reached(file, 'date-time'), rel(file.fileName)).toEqual(['DATE', 'DATE_TIME_SEPARATOR', 'TIME']);
      expect(reached(file, 'uuid'), rel(file.fileName)).toEqual(['fullFormats.uuid']);
    }
  });

  it.each(patterns.map((p) => [nameOf(p), p] as const))('%s', async (_, pattern) => {
    await expectSafe(pattern);
  });
});
