import { Type } from '@sinclair/typebox';
import { Named, fromInterface } from '../annotations.js';

/** A caller-supplied JSON Schema (for structured extraction or change tracking). */
export const JsonSchemaObject = Named(
  'JsonSchemaObject',
  Type.Object({}, { description: 'A JSON Schema object describing the data to extract.', ...fromInterface('§2.3') }),
);
