import { Type, type TSchema, type TUnion } from '@sinclair/typebox';
import { objectOf } from './rule.js';

interface DiscriminatedOptions {
  readonly description: string;
  readonly [annotation: string]: unknown;
}

/** The `type` values a branch admits: its `type` property's literal, or each literal of a union of them. */
function tagValues(branch: TSchema): string[] {
  const tag = objectOf(branch)?.properties['type'] as { const?: unknown; anyOf?: { const?: unknown }[] } | undefined;
  const values = tag?.anyOf ? tag.anyOf.map((l) => l.const) : [tag?.const];
  if (values.some((v) => typeof v !== 'string')) throw new Error('every branch of a discriminated union needs literal `type` values');
  return values as string[];
}

/**
 * A union of objects told apart by their `type` property. Generated JSON Schema and OpenAPI carry it as
 * `oneOf` with a `discriminator`, so a validator checks only the branch the tag selects and reports that
 * branch's problems. The description lists the accepted tags, so error messages and docs can name them.
 */
export function Discriminated<T extends TSchema[]>(branches: [...T], options: DiscriminatedOptions): TUnion<T> {
  const tags = branches.flatMap(tagValues);
  // A union of at least one branch is a TUnion (TypeBox types the empty case as TNever).
  return Type.Union(branches, {
    ...options,
    type: 'object',
    discriminator: { propertyName: 'type' },
    description: `${options.description} \`type\` is one of: ${tags.map((t) => `\`${t}\``).join(', ')}.`,
  }) as TUnion<T>;
}
