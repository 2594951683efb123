/**
 * A known-deviations file (`--baseline FILE`): read, checked and written. Its form is KnownDeviationsFileSchema
 * (report/knownSchema.ts; published as `crawlspec/contract/known-deviations.schema.json`). A file that is not JSON,
 * has the wrong shape, a key it does not define, a day the calendar does not have or one signature twice is refused
 * with one line naming the file, the place in it and what is expected (`KnownFileError`; the command exits 2).
 * Bounded: a file over MAX_KNOWN_FILE_BYTES is refused before it is read whole.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';
import { open } from 'node:fs/promises';
import { parseJson } from '../../../schemas/parseJson.js';
import { KNOWN_DEVIATIONS_SCHEMA_ID, KnownDeviationsFileSchema, type KnownEntrySchema, type KnownSchema } from '../report/knownSchema.js';

export type KnownEntry = Static<typeof KnownEntrySchema>;
export type KnownDeviationsFile = Static<typeof KnownDeviationsFileSchema>;
/** The report's `known` member: the run held against a file (judge.ts). */
export type Known = Static<typeof KnownSchema>;

/** The largest file read: 16 MiB, some 30000 entries; a file of known deviations larger than that is no list a team keeps. */
export const MAX_KNOWN_FILE_BYTES = 16 * 1024 * 1024;

/** A known-deviations file that cannot be used: the message is one line, naming the file, the place and what is expected. */
export class KnownFileError extends Error {
  override name = 'KnownFileError';
}

/** `/entries/0/expires` → `$.entries[0].expires`. */
const placeOf = (pointer: string) =>
  `$${pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`))
    .join('')}`;

/** A value for a message: short, on one line. */
const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** Whether `date` (YYYY-MM-DD by the schema's pattern) is a day of the calendar: 2025-02-30 and 2026-13-01 are none. */
function isCalendarDay(date: string): boolean {
  const time = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === date;
}

/** The first thing wrong with `value` as a file, as `place: what; expected ...`, or undefined when it is right. */
function problemOf(value: unknown): string | undefined {
  const error = Value.Errors(KnownDeviationsFileSchema, value).First();
  if (error !== undefined) {
    const place = placeOf(error.path);
    const schema = error.schema as TSchema & { description?: string };
    if (error.type === ValueErrorType.ObjectAdditionalProperties) {
      const parent = placeOf(error.path.replace(/\/[^/]*$/, ''));
      const keys = Object.keys((schema as { properties?: object }).properties ?? {}).join(', ');
      return `${parent}: unknown key ${JSON.stringify(error.path.split('/').pop())}; expected only ${keys}`;
    }
    // TypeBox's words (`Expected array`), then what the field is for (its description in the schema).
    const expected = `${error.message.replace(/^Expected /, '')}${schema.description === undefined ? '' : ` (${schema.description.replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase()).replace(/\.$/, '')})`}`;
    if (error.type === ValueErrorType.ObjectRequiredProperty) return `${place}: missing; expected ${expected}`;
    return `${place}: ${shown(error.value)} is wrong; expected ${expected}`;
  }
  const file = value as KnownDeviationsFile;
  const first = new Map<string, number>();
  for (const [i, entry] of file.entries.entries()) {
    const { expires, signature } = entry;
    // The pattern says YYYY-MM-DD; the calendar says whether there is such a day (2025-02-30 is none).
    if (expires !== undefined && !isCalendarDay(expires))
      return `$.entries[${i}].expires: ${shown(expires)} is no day of the calendar; expected a date YYYY-MM-DD, e.g. 2026-06-30`;
    const before = first.get(signature);
    if (before !== undefined)
      return `$.entries[${i}].signature: ${shown(signature)} is also the signature of $.entries[${before}]; expected each deviation once`;
    first.set(signature, i);
  }
  return undefined;
}

/** `text` as a known-deviations file; `path` names it in the error. */
export function parseKnownFile(text: string, path: string): KnownDeviationsFile {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new KnownFileError(`${path}: ${parsed.issue.message}; expected a known-deviations file (JSON)`);
  const problem = problemOf(parsed.value);
  if (problem !== undefined) throw new KnownFileError(`${path}: ${problem}`);
  return parsed.value as KnownDeviationsFile;
}

/** The file at `path`, or undefined when there is none (ENOENT). */
export async function readKnownFile(path: string): Promise<KnownDeviationsFile | undefined> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new KnownFileError(`${path}: cannot be read (${error.code ?? error.message}); expected a known-deviations file you may read`);
  });
  if (handle === undefined) return undefined;
  try {
    // One byte past the bound tells a file over it from one of exactly its size.
    const buffer = Buffer.alloc(MAX_KNOWN_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null).catch((error: NodeJS.ErrnoException) => {
        throw new KnownFileError(`${path}: cannot be read (${error.code ?? error.message}); expected a known-deviations file`);
      });
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_KNOWN_FILE_BYTES)
        throw new KnownFileError(`${path}: larger than ${MAX_KNOWN_FILE_BYTES} bytes; expected a known-deviations file of at most that size`);
    }
    return parseKnownFile(buffer.toString('utf8', 0, length), path);
  } finally {
    await handle.close();
  }
}

/** The file as written: its `$schema`, then its entries, two spaces of indent, a newline at the end. */
export const formatKnownFile = (file: KnownDeviationsFile): string =>
  `${JSON.stringify({ $schema: KNOWN_DEVIATIONS_SCHEMA_ID, entries: file.entries }, null, 2)}\n`;

/** Today, as `expires` is written (YYYY-MM-DD, UTC). */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);
