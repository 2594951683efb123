/**
 * The small pieces of the fast path's generated code: literals, property reads, indented lines, local variable
 * names, and the names of the functions and constants of a fast path module.
 */
import type { JsonSchema } from './jsonSchema.js';

export const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
export const literal = (value: unknown): string => JSON.stringify(value);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
export const member = (object: string, key: string): string => (IDENTIFIER.test(key) ? `${object}.${key}` : `${object}[${literal(key)}]`);

export type Lines = string[];
export const indent = (lines: Lines): Lines => lines.map((line) => `  ${line}`);

/** Local variable names of one function. */
export class Scope {
  private count = 0;
  fresh(prefix: string): string {
    this.count += 1;
    return `${prefix}${this.count}`;
  }
}

export function primitive(value: unknown): string {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return literal(value);
  throw new Error(`fast path: only primitive const and enum values are supported, not ${literal(value)}`);
}

export function count(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`fast path: ${literal(value)} is not a count`);
  return value;
}

export const functionName = (definition: string) => `is${definition}`;
export const captureTarget = (definition: string) => `captured${definition}`;
