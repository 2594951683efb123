/**
 * `crawlspec contract --baseline FILE [--update-baseline | --baseline-strict]`: the run held against its known
 * deviations (scripts/contract/known/). The file is read and checked before anything is sent (a bad one: exit 2,
 * one line naming it, the place and what is expected); after the run, `--update-baseline` writes what the run met
 * to it, and the report is judged against it (its `known` member; the verdict follows, report.ts).
 */
import { writeFile } from 'node:fs/promises';
import type { ContractReport } from '../contract/report/report.js';
import { formatKnownFile, KnownFileError, readKnownFile, today, type KnownDeviationsFile } from '../contract/known/file.js';
import { judge, updatedFile } from '../contract/known/judge.js';
import { InputError, outputFile, UsageError } from './errors.js';
import { quote } from './terminal.js';

export interface KnownDeviationsFlags {
  readonly baseline?: string | undefined;
  readonly 'update-baseline'?: boolean | undefined;
  readonly 'baseline-strict'?: boolean | undefined;
}

/** What the run does with its known deviations: nothing (no --baseline), or `apply` to its report. */
export interface KnownDeviations {
  /** The file written by --update-baseline (so that no other output names it), else undefined. */
  readonly written: string | undefined;
  /** `report` judged against the file (written first with --update-baseline; not when the target was never reached). */
  apply(report: ContractReport): Promise<ContractReport>;
}

/** The flags checked and the file read, before the run: usage errors and a bad file end the command (exit 2). */
export async function knownDeviations(flags: KnownDeviationsFlags): Promise<KnownDeviations | undefined> {
  const path = flags.baseline;
  const update = flags['update-baseline'] === true;
  const strict = flags['baseline-strict'] === true;
  if (path === undefined) {
    if (update || strict)
      throw new UsageError(`${update ? '--update-baseline' : '--baseline-strict'} goes with --baseline FILE, the known-deviations file`);
    return undefined;
  }
  if (update && strict)
    throw new UsageError(
      '--update-baseline and --baseline-strict exclude each other: an update accepts what the run meets, strict refuses what it no longer meets',
    );
  if (update) await outputFile(path, '--baseline', 'the known deviations', 'known-deviations.json');
  else if (path === '') throw new UsageError('--baseline is empty; expected a known-deviations file, e.g. known-deviations.json');
  let previous: KnownDeviationsFile | undefined;
  try {
    previous = await readKnownFile(path);
  } catch (error) {
    if (error instanceof KnownFileError) throw new InputError(`--baseline ${error.message}`);
    throw error;
  }
  if (previous === undefined && !update)
    throw new InputError(
      `--baseline ${quote(path)}: no such file; expected a known-deviations file (write one with --baseline ${quote(path)} --update-baseline)`,
    );
  return {
    written: update ? path : undefined,
    async apply(report) {
      let file = previous ?? { entries: [] };
      // A run that never reached the target met nothing: writing that would empty the file.
      if (update && !report.unreachable) {
        file = updatedFile(report, previous);
        await writeFile(path, formatKnownFile(file)).catch((error: unknown) => {
          throw new InputError(`cannot write the known deviations to ${quote(path)}: ${(error as Error).message}`);
        });
      }
      return { ...report, known: judge(report, file, { path, strict, today: today() }) };
    },
  };
}
