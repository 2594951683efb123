/**
 * How the ReDoS test files (test/redos*.test.ts) find the regular expressions the package runs, mechanically, never
 * listed by hand: the regular-expression literals and constant `RegExp(...)` patterns of TypeScript files (and the
 * sites of dynamic ones), the `pattern` keywords and `patternProperties` keys of JSON Schemas, the modules the
 * generated validators import, and the regexes of ajv-formats that each format used reaches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A path relative to the repository, with `/`. */
export const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

// ---------------------------------------------------------------------------------------------------------
// Collection
// ---------------------------------------------------------------------------------------------------------

/** A pattern and where it is: `file:line` in code, `file#/json/pointer` in a JSON Schema. */
export interface Found {
  readonly source: string;
  readonly flags: string;
  readonly at: string;
}

/** A `RegExp(...)` call whose pattern or flags are computed. */
interface DynamicSite {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

/** Files under `dir` (relative to the repository) whose names end in `extension`, sorted. */
export function filesUnder(dir: string, extension: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith(extension)) found.push(full);
    }
  };
  walk(join(ROOT, dir));
  return found.sort();
}

export function parse(path: string): ts.SourceFile {
  const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

/** Every node of a file, depth first (without recursion: generated code nests deeply). */
export function* nodesOf(root: ts.Node): Generator<ts.Node> {
  const stack: ts.Node[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    yield node;
    const children: ts.Node[] = [];
    ts.forEachChild(node, (child) => {
      children.push(child);
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

export const lineOf = (file: ts.SourceFile, node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;

/** `/source/flags` → its source and flags. */
export function splitLiteral(node: ts.RegularExpressionLiteral): { source: string; flags: string } {
  const slash = node.text.lastIndexOf('/');
  return { source: node.text.slice(1, slash), flags: node.text.slice(slash + 1) };
}

/**
 * The `const` initialisers of a file by name, for names declared exactly once in it (as anything: a parameter
 * or a local of the same name makes the name ambiguous, and so unresolved).
 */
function constantsOf(file: ts.SourceFile): Map<string, ts.Expression> {
  const declarations = new Map<string, ts.Node[]>();
  for (const node of nodesOf(file)) {
    const named =
      ts.isVariableDeclaration(node) ||
      ts.isParameter(node) ||
      ts.isBindingElement(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isClassDeclaration(node) ||
      ts.isClassExpression(node) ||
      ts.isEnumDeclaration(node) ||
      ts.isImportClause(node) ||
      ts.isImportSpecifier(node) ||
      ts.isNamespaceImport(node) ||
      ts.isImportEqualsDeclaration(node);
    const name = named ? node.name : undefined;
    if (name !== undefined && ts.isIdentifier(name)) declarations.set(name.text, [...(declarations.get(name.text) ?? []), node]);
  }
  const constants = new Map<string, ts.Expression>();
  for (const [name, nodes] of declarations) {
    const only = nodes.length === 1 ? nodes[0] : undefined;
    if (
      only !== undefined &&
      ts.isVariableDeclaration(only) &&
      only.initializer !== undefined &&
      ts.isVariableDeclarationList(only.parent) &&
      (only.parent.flags & ts.NodeFlags.Const) !== 0
    ) {
      constants.set(name, only.initializer);
    }
  }
  return constants;
}

const isStringRaw = (tag: ts.Expression) =>
  ts.isPropertyAccessExpression(tag) && ts.isIdentifier(tag.expression) && tag.expression.text === 'String' && tag.name.text === 'raw';

/** The value of a constant string expression, or undefined when it is computed at run time. */
function constantText(
  expression: ts.Expression,
  constants: ReadonlyMap<string, ts.Expression>,
  seen = new Set<string>(),
): string | undefined {
  const text = (e: ts.Expression) => constantText(e, constants, seen);
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return expression.text;
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) {
    return text(expression.expression);
  }
  if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = text(expression.left);
    const right = text(expression.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  // A template's parts: cooked text, or the raw text under `String.raw`.
  const template = (node: ts.TemplateLiteral, raw: boolean): string | undefined => {
    const part = (literal: ts.TemplateLiteralLikeNode) => (raw ? literal.rawText : literal.text);
    if (ts.isNoSubstitutionTemplateLiteral(node)) return part(node);
    let result = part(node.head);
    for (const span of node.templateSpans) {
      const value = text(span.expression);
      const literal = part(span.literal);
      if (result === undefined || value === undefined || literal === undefined) return undefined;
      result += value + literal;
    }
    return result;
  };
  if (ts.isTemplateExpression(expression)) return template(expression, false);
  if (ts.isTaggedTemplateExpression(expression) && isStringRaw(expression.tag)) return template(expression.template, true);
  if (ts.isIdentifier(expression) && !seen.has(expression.text)) {
    const initializer = constants.get(expression.text);
    return initializer === undefined ? undefined : constantText(initializer, constants, new Set([...seen, expression.text]));
  }
  return undefined;
}

/** The regexes of a TypeScript or JavaScript file: literals and constant `RegExp(...)`, and the dynamic `RegExp(...)`. */
export function regexesOf(file: ts.SourceFile): { found: Found[]; dynamic: DynamicSite[] } {
  const name = rel(file.fileName);
  const constants = constantsOf(file);
  const found: Found[] = [];
  const dynamic: DynamicSite[] = [];
  for (const node of nodesOf(file)) {
    if (ts.isRegularExpressionLiteral(node)) {
      found.push({ ...splitLiteral(node), at: `${name}:${lineOf(file, node)}` });
      continue;
    }
    if (!(ts.isNewExpression(node) || ts.isCallExpression(node))) continue;
    if (!ts.isIdentifier(node.expression) || node.expression.text !== 'RegExp') continue;
    const [pattern, flagsArgument] = node.arguments ?? [];
    if (pattern === undefined) continue; // `new RegExp()`: the empty pattern
    // `new RegExp(/literal/, flags)`: the literal itself is found above; here it is found again with these flags.
    const literal = ts.isRegularExpressionLiteral(pattern) ? splitLiteral(pattern) : undefined;
    const source = literal?.source ?? constantText(pattern, constants);
    const flags = flagsArgument === undefined ? (literal?.flags ?? '') : constantText(flagsArgument, constants);
    const line = lineOf(file, node);
    if (source !== undefined && flags !== undefined) found.push({ source, flags, at: `${name}:${line}` });
    else dynamic.push({ file: name, line, code: node.getText(file).replace(/\s+/g, ' ').slice(0, 120) });
  }
  return { found, dynamic };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords whose value is a map from names (not keywords) to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not a schema. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);

/** `pattern` keywords and `patternProperties` keys of a JSON Schema (or OpenAPI) document, and its `format`s. */
function schemaKeywords(document: Json, file: string): { patterns: { pattern: string; at: string }[]; formats: Set<string> } {
  const patterns: { pattern: string; at: string }[] = [];
  const formats = new Set<string>();
  const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  const walk = (node: Json, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escape(key)}`;
      // Annotations (`x-...`) are data, and may name a keyword (`x-crawlspec-keyword-sources: {pattern: ...}`).
      if (key.startsWith('x-')) continue;
      if (key === 'pattern' && typeof value === 'string') patterns.push({ pattern: value, at: `${file}#${at}` });
      if (key === 'format' && typeof value === 'string') formats.add(value);
      if (DATA_KEYWORDS.has(key)) continue;
      if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const [name, schema] of Object.entries(value)) {
          if (key === 'patternProperties') patterns.push({ pattern: name, at: `${file}#${at}` });
          walk(schema, `${at}/${escape(name)}`);
        }
      } else {
        walk(value, at);
      }
    }
  };
  walk(document, '');
  return { patterns, formats };
}

/** The object literal assigned to `<something>.fullFormats`: ajv-formats' formats module, or a bundle of it. */
export function fullFormatsOf(file: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  for (const node of nodesOf(file)) {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.name.text === 'fullFormats' &&
      ts.isObjectLiteralExpression(node.right)
    ) {
      return node.right;
    }
  }
  return undefined;
}

/** The modules a file imports (`import ... from`), resolved to paths: relative ones beside it, others as Node would. */
export function importsOf(file: ts.SourceFile): string[] {
  return file.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const specifier = statement.moduleSpecifier.text;
    return [specifier.startsWith('.') ? join(dirname(file.fileName), specifier) : createRequire(file.fileName).resolve(specifier)];
  });
}

// --- b: the generated JSON Schemas and validators --------------------------------------------------------

export const SCHEMA_FILES = [
  ...filesUnder('generated/schemas', '.json'),
  ...filesUnder('generated/openapi', '.json'),
  ...filesUnder('generated/vectors', '.schema.json'),
];
export const schemaScan = SCHEMA_FILES.map((path) => schemaKeywords(JSON.parse(readFileSync(path, 'utf8')) as Json, rel(path)));

/** The validator modules: generated/validators/*.js but the formats module generated beside them. */
export const VALIDATOR_FILES = filesUnder('generated/validators', '.js')
  .map(parse)
  .filter((file) => fullFormatsOf(file) === undefined);
/** What the validators import: formats modules (category c), and any other module, whose regexes they run too. */
const VALIDATOR_IMPORTS = [...new Set(VALIDATOR_FILES.flatMap(importsOf))].sort().map(parse);
export const [FORMATS_IMPORTS, OTHER_IMPORTS] = [
  VALIDATOR_IMPORTS.filter((file) => fullFormatsOf(file) !== undefined),
  VALIDATOR_IMPORTS.filter((file) => fullFormatsOf(file) === undefined),
];
