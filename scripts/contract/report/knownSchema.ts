/**
 * Known deviations (issue 43), defined once in TypeBox: an entry of a known-deviations file (`--baseline FILE`,
 * scripts/contract/known/), the file itself, and the `known` member of a report judged against one. The file's
 * JSON Schema is generated from these definitions (generated/contract/known-deviations.schema.json, exported as
 * `crawlspec/contract/known-deviations.schema.json`); the report's, with the report (reportSchema.ts). Every object
 * is closed: a key it does not define is an error in the file, and a field added to the report and not here fails `tsc`.
 */
import { Type } from '@sinclair/typebox';

const closed = { additionalProperties: false } as const;

/** The `$id` the file's schema is published under, which a file names in `$schema`. */
export const KNOWN_DEVIATIONS_SCHEMA_ID = 'https://crawlspec.dev/schemas/contract/known-deviations.schema.json';

/** A calendar date, `YYYY-MM-DD` (the pattern; known/file.ts also refuses a day the month does not have). */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

const entryProperties = {
  check: Type.String({ minLength: 1, description: 'The check that found it (for a fault shown by several checks, the first of them).' }),
  operation: Type.Optional(
    Type.String({ description: 'The operation of the request that showed it, as the interface names it, e.g. `POST /v2/crawl/{id}`.' }),
  ),
  what: Type.String({ description: "What is wrong: the fault's words, for a reader (matching uses `signature`)." }),
  signature: Type.String({
    pattern: '^[0-9a-f]{16}$',
    description:
      'What identifies the deviation from one run to the next: a hash of its stable parts (known/signature.ts), without the ports, job ids, generated values, seeds, timings and counts that vary.',
  }),
  expires: Type.Optional(
    Type.String({
      pattern: DATE_PATTERN,
      description: 'YYYY-MM-DD: the last day the deviation is accepted as known; from the day after, it fails the run again.',
    }),
  ),
  note: Type.Optional(Type.String({ description: 'Free text: why it is accepted, a ticket, who owns it. The kit keeps it as it is.' })),
};

export const KnownEntrySchema = Type.Object(entryProperties, {
  ...closed,
  description: 'A deviation accepted as known: one fault (a cause), or one failure that names no cause.',
});

export const KnownDeviationsFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: `The schema of this file: ${KNOWN_DEVIATIONS_SCHEMA_ID}.` })),
    entries: Type.Array(KnownEntrySchema, { description: 'The deviations accepted as known.' }),
  },
  {
    ...closed,
    title: 'crawlspec known deviations',
    description: 'The deviations a contract run accepts as known (`crawlspec contract --baseline FILE`); written by `--update-baseline`.',
  },
);

/** An entry as a judged report lists it: the entry, and the checks it made fail in this run. */
export const JudgedEntrySchema = Type.Object(
  {
    ...entryProperties,
    checks: Type.Array(Type.String(), { description: 'The checks it made fail in this run (none for an entry not met).' }),
  },
  { ...closed, description: 'A deviation of the run or of the file, and the checks it showed in.' },
);

export const KnownSchema = Type.Object(
  {
    file: Type.String({ description: 'The known-deviations file, as given (`--baseline`).' }),
    strict: Type.Boolean({ description: '`--baseline-strict`: an entry of the file no longer met fails the run.' }),
    known: Type.Array(JudgedEntrySchema, { description: 'Met, and in the file: does not fail the run.' }),
    new: Type.Array(JudgedEntrySchema, { description: 'Met, and not in the file: fails the run.' }),
    expired: Type.Array(JudgedEntrySchema, { description: 'Met, and in the file past its `expires`: fails the run again.' }),
    fixed: Type.Array(JudgedEntrySchema, {
      description:
        'In the file, not met, though its check ran to a verdict: remove it from the file (with `--baseline-strict` it fails the run).',
    }),
    unjudged: Type.Array(JudgedEntrySchema, {
      description:
        "In the file, not met, and its check did not run to a verdict at the run's level (left out, skipped, inconclusive, or above the level) or draws its cases from the seed (a case not drawn this run): neither known nor fixed.",
    }),
  },
  {
    ...closed,
    description:
      'The run judged against a known-deviations file (`--baseline FILE`): each deviation met is known, new or expired; each entry not met is fixed or unjudged.',
  },
);
