/**
 * No regular expression the package runs can backtrack catastrophically (ReDoS). The patterns are found
 * mechanically, never listed by hand, so one added later is checked too, and recheck (its native backend)
 * must call each one safe, that is, matching in time linear in the input:
 *   a. the package's own TypeScript (every `.ts` file it ships: its package.json `files` under schemas/ and
 *      scripts/): regular-expression literals,
 *      and `RegExp(...)` / `new RegExp(...)` whose pattern is constant (string literals, templates, `String.raw`,
 *      `+`, and `const`s of the same file made of those). Any other `RegExp(...)` is dynamic: each file holding
 *      one is listed in DYNAMIC_PATTERNS with why its patterns are no risk, so a new dynamic site fails here
 *      until someone has reviewed it;
 *   b. the generated JSON Schemas (generated/schemas, the OpenAPI documents, the vector file schema): each
 *      `pattern` keyword and `patternProperties` key, with the `u` flag (Ajv's `unicodeRegExp`, on by default,
 *      as the generated validators show) and without flags (as TypeBox's checker compiles the same patterns of
 *      the exported definitions); and every regex in the generated validator modules, which is what they run;
 *   c. the formats the definitions use (`uri`, `date-time`, `uuid`): the regexes of ajv-formats each of them
 *      reaches, in every copy of ajv-formats that runs (its own module, which TypeBox's checker and the
 *      in-memory Ajv use, and the module the validators import). The library's other formats never run here
 *      and are not checked: `url` (polynomial) would fail, and checking all of them takes longer than the rest.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { COUNTRY_PATTERN } from '../schemas/shared/countries.js';
import { FORMATS } from '../scripts/emit/ajv.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A path relative to the repository, with `/`. */
const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

/**
 * recheck's parameters. Its fuzzing phases stop at wall-clock limits by default, so on a busy machine one
 * pattern can get different verdicts from run to run (seen here: a linear pattern reported polynomial); without
 * those limits they stop at their step limits only, and with a fixed random seed every run gives the same
 * verdict. The overall timeout (default 10 s) stays, raised, against a check that never ends: the slowest
 * pattern here takes about 6 s alone on a busy two-core machine.
 */
const RECHECK_PARAMS = { timeout: 30_000, attackTimeout: null, incubationTimeout: null, seedingTimeout: null, randomSeed: 0 } as const;

/**
 * Files whose `RegExp(...)` calls build a pattern at run time, reviewed: how many such calls each has, and why
 * they are no risk. A file not listed here, or more calls than listed, fails the test.
 */
const DYNAMIC_PATTERNS: Readonly<Record<string, { readonly sites: number; readonly reason: string }>> = {
  'schemas/scrape/judge.ts': {
    sites: 1,
    reason:
      "the scrape oracle builds each line pattern itself (schemas/scrape/serving.ts): constant text, escaped option values, anchored at the line start, one `.*` before a literal or an optional group; the lines matched are a record's, each bounded by the reader",
  },
  'schemas/codeRules/pathPatterns.ts': {
    sites: 1,
    reason:
      'the validator compiles each includePaths/excludePaths pattern of a request only to learn whether it is valid; the RegExp is dropped, never run, so a hostile pattern costs no more than its length',
  },
  'schemas/reasons.ts': {
    sites: 1,
    reason:
      "the reasons read the definitions as data and compile their `pattern` keywords, the same patterns the generated validators run (checked in b below); a request's data is only ever matched, never compiled",
  },
  'schemas/crawl/rules.ts': {
    sites: 1,
    reason:
      "the crawl oracle's default matcher runs includePaths/excludePaths with RegExp on a site model's addresses, for tests that choose both; whoever judges a caller's patterns passes a linear-time matcher instead, as the reference server's crawler does with pathPattern.ts",
  },
  'scripts/server/pathPattern.ts': {
    sites: 1,
    reason:
      "the reference server runs a crawl's includePaths/excludePaths on its own linear-time matcher within a step budget; only each single character class or set (`[^a-z]`, `\\d`, `.`) becomes a RegExp, tested on one UTF-16 code unit, where nothing can backtrack",
  },
  'scripts/contract/generation/arbitrary.ts': {
    sites: 1,
    reason:
      "fast-check's stringMatching generates strings from the package's own schema `pattern`s (checked here among the generated JSON Schemas); it parses the pattern, never matches with it",
  },
  'scripts/contract/wire/redact.ts': {
    sites: 2,
    reason:
      "the spellings of the run's own secrets, each regex-escaped, as one alternation of literals (with a one-character look-around for a short one); and the run's own addresses, each regex-escaped, as another: nothing to backtrack into but the alternatives, so the work is linear in the text cleaned for a given run",
  },
  'scripts/cli/config.ts': {
    sites: 1,
    reason:
      "the name of one of the command's own options (letters and hyphens, from its option table) after a literal `--`, with one lookahead for a character that would continue it: no quantifier, linear",
  },
  'scripts/contract/spec/operations.ts': {
    sites: 1,
    reason:
      "the path template of one of the package's own operations, regex-escaped, each `{param}` as `[^/]+`, anchored: literal text and `[^/]+` runs separated by `/`, linear",
  },
};

// ---------------------------------------------------------------------------------------------------------
// Collection
// ---------------------------------------------------------------------------------------------------------

/** A pattern and where it is: `file:line` in code, `file#/json/pointer` in a JSON Schema. */
interface Found {
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
function filesUnder(dir: string, extension: string): string[] {
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

function parse(path: string): ts.SourceFile {
  const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

/** Every node of a file, depth first (without recursion: generated code nests deeply). */
function* nodesOf(root: ts.Node): Generator<ts.Node> {
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

const lineOf = (file: ts.SourceFile, node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;

/** `/source/flags` → its source and flags. */
function splitLiteral(node: ts.RegularExpressionLiteral): { source: string; flags: string } {
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
function regexesOf(file: ts.SourceFile): { found: Found[]; dynamic: DynamicSite[] } {
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
function fullFormatsOf(file: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
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

/** The modules a file imports (`import ... from`), resolved to paths: relative ones beside it, others as Node would. */
function importsOf(file: ts.SourceFile): string[] {
  return file.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const specifier = statement.moduleSpecifier.text;
    return [specifier.startsWith('.') ? join(dirname(file.fileName), specifier) : createRequire(file.fileName).resolve(specifier)];
  });
}

/** Patterns with the same source and flags, checked once, with every place they occur. */
interface Pattern {
  readonly source: string;
  readonly flags: string;
  readonly at: readonly string[];
}

function grouped(found: readonly Found[]): Pattern[] {
  const groups = new Map<string, { source: string; flags: string; at: string[] }>();
  for (const { source, flags, at } of found) {
    const key = JSON.stringify([source, flags]);
    const group = groups.get(key) ?? { source, flags, at: [] };
    group.at.push(at);
    groups.set(key, group);
  }
  return [...groups.values()];
}

// --- a: the package's TypeScript -------------------------------------------------------------------------

/**
 * The sources the package ships (package.json `files`, its entries under schemas/ and scripts/): what runs on a
 * user's input and on a target's answers. The dev tooling it does not ship (the generator in scripts/emit/, the
 * bench, the load script) runs only on the repository's own files and on its own output: a slow pattern there
 * would cost a developer's command time, and no input from outside reaches it. Its patterns took recheck some 14 s
 * of this file's 23.
 */
const SHIPPED_SOURCES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files.filter((entry) =>
  /^(schemas|scripts)(\/|$)/.test(entry),
);
const SOURCE_FILES = SHIPPED_SOURCES.flatMap((entry) => (entry.endsWith('.ts') ? [join(ROOT, entry)] : filesUnder(entry, '.ts')))
  .sort()
  .map(parse);
const sourceScan = SOURCE_FILES.map(regexesOf);
const SOURCE_FOUND = sourceScan.flatMap((scan) => scan.found);
const SOURCE_DYNAMIC = sourceScan.flatMap((scan) => scan.dynamic);

// --- b: the generated JSON Schemas and validators --------------------------------------------------------

const SCHEMA_FILES = [
  ...filesUnder('generated/schemas', '.json'),
  ...filesUnder('generated/openapi', '.json'),
  ...filesUnder('generated/vectors', '.schema.json'),
];
const schemaScan = SCHEMA_FILES.map((path) => schemaKeywords(JSON.parse(readFileSync(path, 'utf8')) as Json, rel(path)));
const SCHEMA_PATTERNS = schemaScan.flatMap((scan) => scan.patterns);
const SCHEMA_FORMATS = [...new Set(schemaScan.flatMap((scan) => [...scan.formats]))].sort();
/** The validator modules: generated/validators/*.js but the formats module generated beside them. */
const VALIDATOR_FILES = filesUnder('generated/validators', '.js')
  .map(parse)
  .filter((file) => fullFormatsOf(file) === undefined);
/** What the validators import: formats modules (category c), and any other module, whose regexes they run too. */
const VALIDATOR_IMPORTS = [...new Set(VALIDATOR_FILES.flatMap(importsOf))].sort().map(parse);
const [FORMATS_IMPORTS, OTHER_IMPORTS] = [
  VALIDATOR_IMPORTS.filter((file) => fullFormatsOf(file) !== undefined),
  VALIDATOR_IMPORTS.filter((file) => fullFormatsOf(file) === undefined),
];
const validatorScan = [...VALIDATOR_FILES, ...OTHER_IMPORTS].map(regexesOf);
const VALIDATOR_FOUND = validatorScan.flatMap((scan) => scan.found);
const GENERATED_FOUND: Found[] = [
  // Ajv (unicodeRegExp, on by default) compiles `pattern` with `u`; TypeBox's checker without flags.
  ...SCHEMA_PATTERNS.flatMap(({ pattern, at }) => [
    { source: pattern, flags: 'u', at },
    { source: pattern, flags: '', at },
  ]),
  ...VALIDATOR_FOUND,
];

// --- c: ajv-formats --------------------------------------------------------------------------------------

/**
 * The formats modules that run: the one the validators import, and ajv-formats' own, which TypeBox's checker
 * (schemas/typeboxFormats.ts) and the in-memory Ajv (scripts/emit/ajv.ts) use.
 */
const AJV_FORMATS_MODULE = createRequire(import.meta.url).resolve('ajv-formats/dist/formats.js');
const FORMATS_FILES = [...new Map([...FORMATS_IMPORTS, parse(AJV_FORMATS_MODULE)].map((file) => [file.fileName, file])).values()];
const USED_FORMATS = [...new Set([...FORMATS, ...SCHEMA_FORMATS])].sort();
const FORMAT_REGEXES = FORMATS_FILES.flatMap((file) => formatRegexes(file, USED_FORMATS));

// ---------------------------------------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------------------------------------

const diagnoses = new Map<string, Promise<Diagnostics>>();

/** recheck's verdict on a pattern, asked once per source and flags. */
function diagnose(source: string, flags: string): Promise<Diagnostics> {
  const key = JSON.stringify([source, flags]);
  let diagnosis = diagnoses.get(key);
  if (diagnosis === undefined) {
    diagnosis = check(source, flags, RECHECK_PARAMS);
    diagnoses.set(key, diagnosis);
  }
  return diagnosis;
}

const shorten = (text: string, length: number) => (text.length <= length ? text : `${text.slice(0, length - 1)}…`);
const nameOf = ({ source, flags, at }: Pattern) =>
  `${at[0] ?? '?'}${at.length > 1 ? ` (+${at.length - 1} more)` : ''} /${shorten(source, 70)}/${flags}`;

/** What a developer needs to fix a pattern recheck does not call safe. */
function verdict(pattern: Pattern, diagnosis: Diagnostics): string {
  const where = `${pattern.at.join(', ')}: /${pattern.source}/${pattern.flags} is ${diagnosis.status}`;
  switch (diagnosis.status) {
    case 'safe':
      return `${where} (${diagnosis.complexity.summary})`;
    case 'vulnerable': {
      const hot = diagnosis.hotspot.filter((h) => h.temperature === 'heat').map((h) => pattern.source.slice(h.start, h.end));
      return (
        `${where}: ${diagnosis.complexity.summary} backtracking (${diagnosis.checker} checker). ` +
        `Attack string: ${diagnosis.attack.pattern} (${diagnosis.attack.string.length} characters). ` +
        `Hot spots: ${hot.length > 0 ? hot.map((h) => JSON.stringify(h)).join(', ') : 'none reported'}. ` +
        'Rewrite it so that a string can be matched in one way only: bound the quantifiers, make adjacent repetitions ' +
        'disjoint, keep an unanchored search from retrying at every position of a run (e.g. with a look-behind), or scan by hand.'
      );
    }
    case 'unknown':
      return `${where}: ${diagnosis.error.kind}${'message' in diagnosis.error ? ` (${diagnosis.error.message})` : ''}; raise RECHECK_PARAMS.timeout if it timed out`;
  }
}

async function expectSafe(pattern: Pattern): Promise<void> {
  const diagnosis = await diagnose(pattern.source, pattern.flags);
  expect(diagnosis.status, verdict(pattern, diagnosis)).toBe('safe');
}

// ---------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------

const SOURCE_PATTERNS = grouped(SOURCE_FOUND);
const GENERATED_PATTERNS = grouped(GENERATED_FOUND);
const FORMAT_PATTERNS = grouped(
  FORMAT_REGEXES.filter((r) => r.usedBy.length > 0).map((r) => ({
    ...r.found,
    at: `${r.found.at} ${r.name} (format ${r.usedBy.join(', ')})`,
  })),
);

it('recheck itself works: ^(a+)+$ is exponential, and the assertion fails on it, with the attack string', async () => {
  const probe: Pattern = { source: '^(a+)+$', flags: '', at: ['probe'] };
  const diagnosis = await diagnose(probe.source, probe.flags);
  expect(diagnosis.status).toBe('vulnerable');
  expect(diagnosis.status === 'vulnerable' && diagnosis.complexity.type).toBe('exponential');
  await expect(expectSafe(probe)).rejects.toThrow(/probe: \/\^\(a\+\)\+\$\/ is vulnerable: exponential .*Attack string: 'a'/);
});

describe("the package's TypeScript (what it ships of schemas/ and scripts/)", () => {
  const patterns = SOURCE_PATTERNS;

  it('finds the regexes, e.g. the IPv4 address of a crawl URL, in every shipped folder and in no dev tool', () => {
    expect(SOURCE_FILES.length).toBeGreaterThan(50);
    expect(patterns.length).toBeGreaterThan(20);
    const at = (source: string, flags: string) => patterns.find((p) => p.source === source && p.flags === flags)?.at ?? [];
    expect(at(String.raw`^\d{1,3}(?:\.\d{1,3}){3}$`, '')).toEqual([expect.stringMatching(/^schemas\/shared\/crawlUrl\.ts:\d+$/)]);
    const folders = new Set(SOURCE_FILES.map((file) => rel(file.fileName).split('/').slice(0, 2).join('/')));
    for (const shipped of ['schemas/shared', 'scripts/cli', 'scripts/contract', 'scripts/server', 'scripts/site', 'scripts/proxy']) {
      expect(folders, shipped).toContain(shipped);
    }
    for (const tool of ['scripts/emit', 'scripts/bench', 'scripts/load', 'scripts/generate.ts', 'scripts/bench.ts']) {
      expect(folders, tool).not.toContain(tool);
    }
  });

  it('every dynamic RegExp(...) is in a reviewed file (DYNAMIC_PATTERNS), as many as reviewed', () => {
    expect(SOURCE_DYNAMIC.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const files = [...new Set([...SOURCE_DYNAMIC.map((d) => d.file), ...Object.keys(DYNAMIC_PATTERNS)])].sort();
    for (const file of files) {
      const sites = SOURCE_DYNAMIC.filter((d) => d.file === file);
      const reviewed = DYNAMIC_PATTERNS[file]?.sites ?? 0;
      const list = sites.map((d) => `  ${d.file}:${d.line}: ${d.code}`).join('\n');
      if (sites.length > reviewed) {
        problems.push(
          `${file} builds ${sites.length} regular expression(s) at run time, ${reviewed} reviewed:\n${list}\n` +
            'A dynamic pattern cannot be checked here: review where its pattern and its input come from (can a user ' +
            'choose either?), then add or update the file in DYNAMIC_PATTERNS with the reason, or make the pattern constant.',
        );
      } else if (sites.length < reviewed) {
        problems.push(
          `${file}: DYNAMIC_PATTERNS reviewed ${reviewed} dynamic RegExp(...), the file has ${sites.length}; update the entry${list ? `:\n${list}` : ''}`,
        );
      }
    }
    expect(problems.join('\n\n'), problems.join('\n\n')).toBe('');
  });

  it.each(patterns.map((p) => [nameOf(p), p] as const))('%s', async (_, pattern) => {
    await expectSafe(pattern);
  });
});

describe('the generated JSON Schemas and validators', () => {
  const patterns = GENERATED_PATTERNS;

  it('finds the patterns, e.g. the country code, as the schemas have it and as the validators compile it', () => {
    expect(SCHEMA_FILES.filter((f) => f.includes(`${sep}schemas${sep}`)).length).toBeGreaterThan(20);
    const modules = ['v1.all-errors.js', 'v1.js', 'v2.all-errors.js', 'v2.js'].map((file) => `generated/validators/${file}`);
    expect(VALIDATOR_FILES.map((file) => rel(file.fileName)).sort()).toEqual(modules);
    expect(SCHEMA_PATTERNS.length).toBeGreaterThan(0);
    const country = SCHEMA_PATTERNS.filter((p) => p.pattern === COUNTRY_PATTERN);
    expect(country.map((p) => p.at)).toContainEqual(expect.stringMatching(/^generated\/schemas\/v1\/Location\.json#/));
    expect(country.map((p) => p.at)).toContainEqual(expect.stringMatching(/^generated\/schemas\/v2\/Location\.json#/));
    const compiled = VALIDATOR_FOUND.filter((f) => f.source === COUNTRY_PATTERN).map((f) => [f.at.replace(/:\d+$/, ''), f.flags]);
    expect(compiled.sort()).toEqual(modules.map((module) => [module, 'u']));
  });

  it('the validators build no pattern at run time, and compile only schema patterns, each with the u flag', () => {
    expect(validatorScan.flatMap((scan) => scan.dynamic)).toEqual([]);
    const schemaPatterns = new Set(SCHEMA_PATTERNS.map((p) => p.pattern));
    const compiled = VALIDATOR_FOUND.filter((f) => schemaPatterns.has(f.source));
    expect(compiled.length).toBeGreaterThan(0);
    for (const f of compiled) expect(f.flags, f.at).toBe('u');
  });

  it.each(patterns.map((p) => [nameOf(p), p] as const))('%s', async (_, pattern) => {
    await expectSafe(pattern);
  });
});

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
