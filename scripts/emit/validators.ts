/**
 * Standalone Ajv validators, two ES modules per version, each exporting one precompiled validate function per
 * named definition, plus its `.d.ts`: `generated/validators/<version>.js`, which stops at the first problem,
 * and `<version>.all-errors.js`, which gathers them all. Nothing is compiled at import time.
 */
import { _ } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { Version } from '../../schemas/registry.js';
import { createAjv, type ErrorMode } from './ajv.js';
import { emitDefinitions } from './definitions.js';
import { FORMATS_SPECIFIER } from './formatsModule.js';
import { DIALECT, SCHEMA_BASE_URI } from './jsonSchemaFiles.js';
import { REASONS_FILE } from './reasonsData.js';

// CommonJS module: the default import is its `module.exports`, which holds the function as `default`.
const standaloneCode = standaloneModule.default;

/**
 * Ajv's ESM output still loads its runtime helpers and formats with `require()` (ajv issue #1976), which an
 * ES module cannot call. Each `const x = require("m").path;` becomes a default import of the CommonJS module
 * (its `module.exports`) and a property read; anything else that still says `require(` fails generation.
 */
function toEsm(code: string): string {
  const modules = new Map<string, string>();
  const body = code.replace(
    /const (\w+) = require\("([^"]+)"\)((?:\.\w+|\["[^"]+"\])*);/g,
    (_all, name: string, module: string, path: string) => {
      const specifier = module.endsWith('.js') ? module : `${module}.js`;
      let local = modules.get(specifier);
      if (local === undefined) {
        local = `__module${modules.size}`;
        modules.set(specifier, local);
      }
      return `const ${name} = ${local}${path};`;
    },
  );
  if (body.includes('require(')) throw new Error('standalone validator code still calls require()');
  const imports = [...modules].map(([specifier, local]) => `import ${local} from ${JSON.stringify(specifier)};`);
  return [...imports, body.replace(/^"use strict";/, '')].join('\n');
}

/**
 * Makes the module tree-shakeable: a bundler must be able to drop every validator the importer does not use.
 * Ajv's functions are plain declarations (no evaluated-property tracking assigns to them: see ajv.ts), so
 * what remains is the exports, which Ajv writes as `export const Name = validateN;` before the function they
 * name (which a bundler reads as a use): they become one `export { validateN as Name, ... }` at the end.
 * `new RegExp(...)` at the top level is marked pure.
 */
function treeShakeable(code: string): string {
  const exported: string[] = [];
  const body = code.replace(/export const (\w+) = (validate\d+);/g, (_all, name: string, fn: string) => {
    exported.push(`${fn} as ${name}`);
    return '';
  });
  return `${body.replace(/(?<![\w.])new RegExp\(/g, '/* @__PURE__ */ new RegExp(')}\nexport { ${exported.join(', ')} };`;
}

/**
 * Where a definition calls another's validator and that one fails, Ajv adds its errors with
 * `vErrors = vErrors === null ? v.errors : vErrors.concat(v.errors);` (the `$ref` keyword's `addErrorsFrom`),
 * which copies every error gathered so far each time: quadratic in their number. A batch of 10^5 entries
 * that are not strings (600 KB of JSON) then took over half a minute. Each such statement becomes an
 * append in place, linear overall. When `vErrors` is null the array is taken over as before (Ajv then
 * pushes its own later errors onto it too). Nothing else may call `concat` (generation fails), so a change
 * in Ajv's output cannot bring the copying back unnoticed.
 */
function linearErrorGathering(code: string): string {
  let appends = 0;
  const body = code.replace(/vErrors = vErrors === null \? (\w+)\.errors : vErrors\.concat\(\1\.errors\);/g, (_all, fn: string) => {
    appends += 1;
    return `if (vErrors === null) {vErrors = ${fn}.errors;} else {for (const e of ${fn}.errors) {vErrors.push(e);}}`;
  });
  if (appends === 0 || body.includes('.concat(')) throw new Error("Ajv's error gathering changed shape: review linearErrorGathering");
  return body;
}

/** The file name, in `generated/validators/`, of a version's validators of each kind. */
export function validatorFile(version: Version, errors: ErrorMode): string {
  return errors === 'first' ? `${version}.js` : `${version}.all-errors.js`;
}

/**
 * A version's validators, as an ES module and its declarations: `first` stop at the first problem (the
 * package's validators, for untrusted input), `all` gather every problem (for reports; see createAjv).
 */
export function validatorModule(version: Version, errors: ErrorMode): { js: string; dts: string } {
  const bundleId = `${SCHEMA_BASE_URI}/${version}.json`;
  const defs = emitDefinitions(version, (name) => `#/$defs/${name}`);
  const ajv = createAjv({ standalone: true, errors });
  // Format implementations come from the ES module generated beside the validators (formatsModule.ts).
  ajv.opts.code.formats = _`require(${FORMATS_SPECIFIER}).fullFormats`;
  ajv.addSchema({ $schema: DIALECT, $id: bundleId, $defs: Object.fromEntries([...defs].map(([n, d]) => [n, d.schema])) });
  const names = [...defs.keys()];
  const code = standaloneCode(ajv, Object.fromEntries(names.map((n) => [n, `${bundleId}#/$defs/${n}`])));
  const header = `// Generated by scripts/generate.ts from schemas/${version}: do not edit.\n`;
  // The all-errors module declares the same validators with the first-error module's `Validator` type.
  const validatorType =
    errors === 'first'
      ? [
          '/** A precompiled validator: true when `data` is valid; otherwise false, with the problems in `errors`. */',
          'export interface Validator<Data> {',
          '  (data: unknown): data is Data;',
          '  errors?: ErrorObject[] | null;',
          '}',
        ]
      : [`import type { Validator } from './${validatorFile(version, 'first')}';`, 'export type { Validator };'];
  const dts = [
    header,
    ...(errors === 'first' ? [`import type { ErrorObject } from 'ajv';`] : []),
    `import type * as T from '../types/${version}.js';`,
    '',
    ...validatorType,
    '',
    ...names.map((n) => `export declare const ${n}: Validator<T.${n}>;`),
    '',
  ].join('\n');
  return { js: `${header}${treeShakeable(linearErrorGathering(toEsm(code)))}\n`, dts };
}

/** The first lines of a loader that `require()`s what it loads, on first use (here and `dependencyLoaders.ts`). */
export const REQUIRING_PREAMBLE: readonly string[] = [
  '// Node with require(esm) only (package.json `imports`: the `node` and `module-sync` conditions). Nothing is',
  '// loaded until asked for: `process.getBuiltinModule` (Node 20.16 and later) gives `createRequire` without an import.',
  "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
];

/**
 * The files of a pair of loaders with one interface (here and `dependencyLoaders.ts`): the one that imports
 * statically at `file`, the one that `require()`s on first use at `requiringFile`, each with the declarations
 * both share beside it.
 */
export function loaderPairFiles(file: string, loader: string, requiringFile: string, requiring: string, dts: string): Map<string, string> {
  const declarations = (js: string) => js.replace(/\.js$/, '.d.ts');
  return new Map([
    [file, loader],
    [declarations(file), dts],
    [requiringFile, requiring],
    [declarations(requiringFile), dts],
  ]);
}

/** The file names, in `generated/load/`, of the three loaders (see `loaderModules`). */
export const LOADER_FILE = 'validators.js';
export const REQUIRING_LOADER_FILE = 'validators.require.js';
export const BROWSER_LOADER_FILE = 'validators.browser.js';

/**
 * How `validate()` reaches what decides and what says why a body is refused (`#generated/load/validators.js`):
 * `fastPath(version)` gives the version's fast path (generated/fast/), or undefined where it is not shipped;
 * `validators(version, errors)` gives a version's Ajv module of either kind, or undefined where they are not shipped;
 * `reasonData(version)` then gives the definitions as data for schemas/reasons.ts. Three loaders with one interface;
 * package.json's `imports` picks one:
 *   - `validators.require.js`, on Node with `require(esm)` (20.19 and later, 22.12 and later: the Node versions that set
 *     the `module-sync` condition): loads each module on first use, synchronously, with `require()`. The four
 *     modules are about 1.8 MB of JavaScript, most of the main entry's import time; a server whose bodies the
 *     fast path accepts never loads them.
 *   - `validators.browser.js` under the `browser` condition (bundles for a browser): no Ajv module (1.3 MB minified),
 *     the definitions as data instead (`generated/reasons/`, scripts/emit/reasonsData.ts), a tenth of that; and no
 *     fast path (60 KB): in a browser every body is decided by the validators built from that data.
 *   - `validators.js` everywhere else (older Node, other bundles): imports the Ajv modules statically.
 */
export function loaderModules(versions: readonly Version[]): Map<string, string> {
  const header = '// Generated by scripts/generate.ts: do not edit.\n';
  const kinds = versions.flatMap((version) =>
    (['first', 'all'] as const).map((errors) => [version, errors, validatorFile(version, errors)] as const),
  );
  const local = (version: Version, errors: ErrorMode) => `${version}${errors === 'first' ? 'First' : 'All'}`;
  const table = (value: (version: Version, errors: ErrorMode) => string) =>
    `{ ${versions.map((version) => `${version}: { first: ${value(version, 'first')}, all: ${value(version, 'all')} }`).join(', ')} }`;
  const validatorsDoc = [
    '/**',
    ' * The validators of `version` that stop at the first problem (`errors` "first") or gather every problem ("all"),',
    ' * as the module `generated/validators/<version>[.all-errors].js` exports them (scripts/emit/validators.ts); undefined',
    ' * where they are not shipped (then see `reasonData`).',
    ' */',
  ];
  const dataDoc = [
    '/**',
    ' * Where the validators are not shipped, the definitions of `version` as data and the formats, for',
    ' * schemas/reasons.ts to build validators that report the same errors; else undefined.',
    ' */',
  ];
  const noData = [...dataDoc, 'export function reasonData(_version) {', '  return undefined;', '}', ''];
  const fastDoc = ['/** The fast path of `version` (generated/fast/<version>.js), or undefined where it is not shipped. */'];
  const fastImports = versions.map((version) => `import * as ${version}Fast from ${JSON.stringify(`../fast/${version}.js`)};`);
  const fastPath = [
    ...fastDoc,
    `const FAST = { ${versions.map((version) => `${version}: ${version}Fast`).join(', ')} };`,
    'export function fastPath(version) {',
    '  return FAST[version];',
    '}',
    '',
  ];
  const loader = [
    header,
    '// Every module imported with this one: where neither validators.require.js nor validators.browser.js is picked',
    '// (package.json `imports`), that is on Node without require(esm) and in bundles that are not for a browser.',
    ...kinds.map(([version, errors, file]) => `import * as ${local(version, errors)} from ${JSON.stringify(`../validators/${file}`)};`),
    ...fastImports,
    '',
    `const MODULES = ${table(local)};`,
    '',
    ...validatorsDoc,
    'export function validators(version, errors) {',
    '  return MODULES[version][errors];',
    '}',
    '',
    ...noData,
    ...fastPath,
  ].join('\n');
  const requiring = [
    header,
    ...REQUIRING_PREAMBLE,
    ...fastImports,
    `const FILES = ${table((version, errors) => JSON.stringify(`../validators/${validatorFile(version, errors)}`))};`,
    `const loaded = ${table(() => 'undefined')};`,
    '',
    ...validatorsDoc,
    'export function validators(version, errors) {',
    '  return (loaded[version][errors] ??= require(FILES[version][errors]));',
    '}',
    '',
    ...noData,
    ...fastPath,
  ].join('\n');
  const browser = [
    header,
    '// For a browser: the definitions as data (generated/reasons/), not the Ajv validators.',
    `import formats from ${JSON.stringify(`../validators/formats.js`)};`,
    `import { definitions } from ${JSON.stringify(`../reasons/${REASONS_FILE}`)};`,
    '',
    ...validatorsDoc,
    'export function validators(_version, _errors) {',
    '  return undefined;',
    '}',
    '',
    ...dataDoc,
    'export function reasonData(version) {',
    '  return { definitions: definitions[version], formats: formats.fullFormats };',
    '}',
    '',
    ...fastDoc,
    'export function fastPath(_version) {',
    '  return undefined;',
    '}',
    '',
  ].join('\n');
  const versionType = versions.map((v) => JSON.stringify(v)).join(' | ');
  const dts = [
    header,
    `import type { Validator } from '../validators/${validatorFile(versions[0]!, 'first')}';`,
    '',
    ...validatorsDoc,
    `export declare function validators(version: ${versionType}, errors: 'first' | 'all'): Readonly<Record<string, Validator<unknown>>> | undefined;`,
    '',
    ...dataDoc,
    `export declare function reasonData(version: ${versionType}): {`,
    '  readonly definitions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;',
    '  readonly formats: Readonly<Record<string, unknown>>;',
    '} | undefined;',
    '',
    ...fastDoc,
    `export declare function fastPath(version: ${versionType}): Readonly<Record<string, (data: unknown) => boolean>> | undefined;`,
    '',
  ].join('\n');
  const files = loaderPairFiles(LOADER_FILE, loader, REQUIRING_LOADER_FILE, requiring, dts);
  files.set(BROWSER_LOADER_FILE, browser);
  files.set(BROWSER_LOADER_FILE.replace(/\.js$/, '.d.ts'), dts);
  return files;
}
