/**
 * The forms of the spec a value can be checked against, for one named definition:
 *   - typebox:   TypeBox's compiled checker on the TypeBox definition (the single source)
 *   - validator: the generated standalone Ajv validator, stopping at the first problem (generated/validators/<v>.js)
 *   - allErrorsValidator: the generated standalone Ajv validator gathering every problem (<v>.all-errors.js)
 *   - jsonSchema: Ajv compiling the generated JSON Schema file (generated/schemas)
 *   - openapi:   Ajv compiling the component schema taken from the generated OpenAPI document
 *   - fastPath:  the generated decision function validate() asks first (generated/fast/<v>.js)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import * as v1Validators from '#generated/validators/v1.js';
import * as v2Validators from '#generated/validators/v2.js';
import * as v1AllErrors from '#generated/validators/v1.all-errors.js';
import * as v2AllErrors from '#generated/validators/v2.all-errors.js';
import * as v1FastPath from '#generated/fast/v1.js';
import * as v2FastPath from '#generated/fast/v2.js';
import { definitions, type Version } from '../../schemas/registry.js';
import { registerTypeBoxFormats } from '../../schemas/typeboxFormats.js';
import { createAjv } from '../../scripts/emit/ajv.js';

export const FORM_NAMES = ['typebox', 'validator', 'allErrorsValidator', 'jsonSchema', 'openapi', 'fastPath'] as const;
export type FormName = (typeof FORM_NAMES)[number];
export type Checkers = Record<FormName, (value: unknown) => boolean>;

registerTypeBoxFormats();

const readJson = (path: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../generated/${path}`, import.meta.url)), 'utf8'));

type Generated = Record<Version, Record<string, (v: unknown) => boolean>>;
const generatedValidators = { v1: v1Validators, v2: v2Validators } as unknown as Generated;
const allErrorsValidators = { v1: v1AllErrors, v2: v2AllErrors } as unknown as Generated;
const fastPaths = { v1: v1FastPath, v2: v2FastPath } as unknown as Generated;

/** One Ajv per version holding that version's OpenAPI document, so `$ref`s resolve inside it. */
const openApiAjv = new Map<Version, ReturnType<typeof createAjv>>();
function openApiSchema(version: Version, name: string) {
  let ajv = openApiAjv.get(version);
  if (!ajv) {
    // OpenAPI's `discriminator` is an annotation; validation is by `oneOf` alone.
    ajv = createAjv({ discriminator: 'annotation' });
    // The document's `components` is a container the `$ref`s point into, not a keyword.
    ajv.addKeyword('components');
    const doc = readJson(`openapi/${version}.json`) as { components: unknown };
    ajv.addSchema({ $id: `openapi-${version}`, components: doc.components });
    openApiAjv.set(version, ajv);
  }
  return ajv.getSchema(`openapi-${version}#/components/schemas/${name}`)!;
}

const jsonSchemaAjv = createAjv();

const cache = new Map<string, Checkers>();

/** The checkers of a definition, one per form (compiled once). */
export function checkersFor(version: Version, name: string): Checkers {
  const key = `${version}/${name}`;
  const known = cache.get(key);
  if (known) return known;
  const checkers = compileCheckers(version, name);
  cache.set(key, checkers);
  return checkers;
}

function compileCheckers(version: Version, name: string): Checkers {
  const definition = definitions[version].get(name) as TSchema;
  const typebox = TypeCompiler.Compile(definition);
  const validator = generatedValidators[version][name]!;
  const allErrorsValidator = allErrorsValidators[version][name]!;
  const fastPath = fastPaths[version][name]!;
  const jsonSchema = jsonSchemaAjv.compile(readJson(`schemas/${version}/${name}.json`) as object);
  const openapi = openApiSchema(version, name);
  return {
    typebox: (v) => typebox.Check(v),
    validator: (v) => validator(v),
    allErrorsValidator: (v) => allErrorsValidator(v),
    jsonSchema: (v) => jsonSchema(v) as boolean,
    openapi: (v) => openapi(v) as boolean,
    fastPath: (v) => fastPath(v),
  };
}

/** Every form deciding `valid`: what `decisions` gives when the forms agree. */
export const everyForm = (valid: boolean): Record<FormName, boolean> =>
  Object.fromEntries(FORM_NAMES.map((f) => [f, valid])) as Record<FormName, boolean>;

/** What each form decides for `value`. */
export function decisions(checkers: Checkers, value: unknown): Record<FormName, boolean> {
  return Object.fromEntries(FORM_NAMES.map((f) => [f, checkers[f](value)])) as Record<FormName, boolean>;
}
