/**
 * TypeBox checks a `format` only when its FormatRegistry knows it. This registers the formats the
 * definitions use with the same implementations the generated validators use (ajv-formats), so TypeBox's
 * checker (`Value.Check`, `TypeCompiler`) decides exactly as they do. Idempotent.
 */
import { FormatRegistry } from '@sinclair/typebox';
import formatsModule from 'ajv-formats/dist/formats.js';

// CommonJS module: the default import is its `module.exports`.
const { fullFormats } = formatsModule;

function check(format: unknown): (value: string) => boolean {
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === 'function') return format as (value: string) => boolean;
  if (typeof format === 'object' && format !== null && 'validate' in format) return check(format.validate);
  throw new Error('unsupported format definition');
}

export function registerTypeBoxFormats(): void {
  for (const name of ['uri', 'date-time', 'uuid'] as const) {
    if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, check(fullFormats[name]));
  }
}
