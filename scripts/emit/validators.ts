/**
 * Standalone Ajv validators, one ES module per version (`generated/validators/<version>.js`), exporting one
 * precompiled validate function per named definition, plus its `.d.ts`. Nothing is compiled at import time.
 */
import { _ } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { Version } from '../../schemas/registry.js';
import { createAjv } from './ajv.js';
import { emitDefinitions } from './definitions.js';
import { FORMATS_SPECIFIER } from './formatsModule.js';
import { DIALECT, SCHEMA_BASE_URI } from './jsonSchemaFiles.js';

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

/** The end of the JSON value starting at `start` (an object or array literal), strings taken into account. */
function endOfLiteral(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; code[i] !== '"'; i++) if (code[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error('unterminated literal in standalone validator code');
}

/**
 * Makes the module tree-shakeable: a bundler must be able to drop every validator the importer does not use.
 * Ajv writes `function validateN(...) {...}validateN.evaluated = {...};` at the top level, and that assignment
 * is a side effect that keeps every function (and so every schema) alive. Each such pair becomes
 * `const validateN = /* @__PURE__ *\/ Object.assign(function validateN(...) {...}, { evaluated: {...} });`,
 * and the exports (`export const Name = validateN;`, written before the function they name, which a `const`
 * cannot be) become one `export { validateN as Name, ... }` at the end. `new RegExp(...)` is marked pure too.
 */
function treeShakeable(code: string): string {
  const exported: string[] = [];
  let body = code.replace(/export const (\w+) = (validate\d+);/g, (_all, name: string, fn: string) => {
    exported.push(`${fn} as ${name}`);
    return '';
  });
  const assigned = /\}(validate\d+)\.evaluated = /g;
  let out = '';
  let from = 0;
  const wrapped = new Set<string>();
  for (let match = assigned.exec(body); match !== null; match = assigned.exec(body)) {
    const fn = match[1]!;
    const literal = match.index + match[0].length;
    if (body[literal] !== '{') throw new Error(`${fn}.evaluated: expected an object literal`);
    const end = endOfLiteral(body, literal);
    if (body[end] !== ';') throw new Error(`${fn}.evaluated: unexpected code after the value`);
    out += `${body.slice(from, match.index)}}, { evaluated: ${body.slice(literal, end)} });`;
    from = end + 1;
    assigned.lastIndex = from;
    wrapped.add(fn);
  }
  body = out + body.slice(from);
  for (const fn of wrapped) {
    const declaration = `function ${fn}(`;
    if (body.split(declaration).length !== 2) throw new Error(`${fn}: expected exactly one declaration`);
    body = body.replace(declaration, `const ${fn} = /* @__PURE__ */ Object.assign(function ${fn}(`);
  }
  body = body.replace(/(?<![\w.])new RegExp\(/g, '/* @__PURE__ */ new RegExp(');
  return `${body}\nexport { ${exported.join(', ')} };`;
}

export function validatorModule(version: Version): { js: string; dts: string } {
  const bundleId = `${SCHEMA_BASE_URI}/${version}.json`;
  const defs = emitDefinitions(version, (name) => `#/$defs/${name}`);
  const ajv = createAjv({ standalone: true });
  // Format implementations come from the ES module generated beside the validators (formatsModule.ts).
  ajv.opts.code.formats = _`require(${FORMATS_SPECIFIER}).fullFormats`;
  ajv.addSchema({ $schema: DIALECT, $id: bundleId, $defs: Object.fromEntries([...defs].map(([n, d]) => [n, d.schema])) });
  const names = [...defs.keys()];
  const code = standaloneCode(ajv, Object.fromEntries(names.map((n) => [n, `${bundleId}#/$defs/${n}`])));
  const header = `// Generated by scripts/generate.ts from schemas/${version}: do not edit.\n`;
  const dts = [
    header,
    `import type { ErrorObject } from 'ajv';`,
    `import type * as T from '../types/${version}.js';`,
    '',
    '/** A precompiled validator: true when `data` is valid; otherwise false, with the problems in `errors`. */',
    'export interface Validator<Data> {',
    '  (data: unknown): data is Data;',
    '  errors?: ErrorObject[] | null;',
    '}',
    '',
    ...names.map((n) => `export declare const ${n}: Validator<T.${n}>;`),
    '',
  ].join('\n');
  return { js: `${header}${treeShakeable(toEsm(code))}\n`, dts };
}
