import { Type, type SchemaOptions, type TLiteral, type TUnion } from '@sinclair/typebox';

/**
 * A union of string literals that keeps each literal in its static type (mapping an array through
 * `Type.Literal` would widen them to `string`). Generated schemas carry it as `{ type, enum }`.
 */
export function Literals<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;
}
