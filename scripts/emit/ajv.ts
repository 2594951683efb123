/**
 * The one Ajv configuration the package uses: for the standalone validators it generates, and for tests
 * that compile the generated JSON Schemas and OpenAPI documents.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ANNOTATION_KEYWORDS } from '../../schemas/annotations.js';

// ajv-formats is CommonJS: an ES module's default import is its `module.exports`, which holds the plugin as `default`.
const addFormats = addFormatsModule.default;

function warnExceptUnicodeNotice(...args: unknown[]): void {
  if (typeof args[0] === 'string' && args[0].startsWith('DEPRECATED: option unicode')) return;
  console.warn(...args);
}

/** The formats the definitions use. */
export const FORMATS = ['uri', 'date-time', 'uuid'] as const;

/**
 * `first`: stop at the first problem (Ajv's default), so the work on any input is bounded: what a server
 * runs on untrusted bodies. `all`: go on and gather every problem (`allErrors`), whose number, and so the
 * time and memory spent, grows with the input: for reporting on input of bounded size (see validate.ts).
 */
export type ErrorMode = 'first' | 'all';

export interface AjvSetup {
  /** Emit standalone source code (generation), instead of compiling in memory (tests). */
  readonly standalone?: boolean;
  /** Treat `discriminator` as Ajv does (a keyword that needs `oneOf` without `mapping`), or as an OpenAPI annotation. */
  readonly discriminator?: 'ajv' | 'annotation';
  /** Which problems the validators report (default `all`). */
  readonly errors?: ErrorMode;
}

/**
 * Ajv2020 always turns on its tracking of evaluated properties and items, which `unevaluatedProperties` and
 * `unevaluatedItems` need: generated code then records, per object, which keys each subschema evaluated, and
 * an `anyOf` tries every branch even after one matched. No definition uses those two keywords, so the tracking
 * is switched off (Ajv reads the option only when it generates code) and the keywords are removed, so that a
 * schema using them fails generation (strict mode: unknown keyword) instead of being checked wrongly.
 */
function withoutEvaluationTracking(ajv: Ajv2020): Ajv2020 {
  (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
  ajv.removeKeyword('unevaluatedProperties');
  ajv.removeKeyword('unevaluatedItems');
  return ajv;
}

export function createAjv({ standalone = false, discriminator = 'ajv', errors = 'all' }: AjvSetup = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: errors === 'all',
    // Errors carry the failing schema and data, so a message can say what the interface expects.
    verbose: true,
    discriminator: discriminator === 'ajv',
    // Lengths count UTF-16 code units, as the service (JavaScript) and TypeBox count them. Ajv 8 still
    // honours this option but announces it as deprecated; that one notice is dropped below.
    unicode: false,
    // Each named definition is its own function, called where it is referenced, rather than copied into every
    // definition using it: the module is a fraction of the size (import time) and each function stays small
    // enough for V8 to optimise (a validator inlining all of a request's definitions never is).
    inlineRefs: false,
    logger: { log: console.log, error: console.error, warn: warnExceptUnicodeNotice },
    ...(standalone ? { code: { source: true, esm: true, optimize: true } } : {}),
  });
  addFormats(ajv, [...FORMATS]);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword(keyword);
  if (discriminator === 'annotation') ajv.addKeyword('discriminator');
  return withoutEvaluationTracking(ajv);
}
