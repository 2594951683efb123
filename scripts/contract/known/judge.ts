/**
 * A run held against its known deviations (`--baseline FILE`, issue 43). The deviations a run met are its faults:
 * one per cause a failure names (`Failure.cause`: an operation not implemented, a 5xx, a record lost; however many
 * checks it showed in), and one per failure that names none (each class of a check's own failures, as the report
 * collapses them: collapse.ts), each with its signature (signature.ts). Held against the file's entries:
 *
 *   - met, and an entry has its signature: KNOWN (it does not fail the run), or EXPIRED when the entry's `expires`
 *     is before today (it fails the run again, saying so);
 *   - met, and no entry has its signature: NEW (it fails the run);
 *   - an entry not met whose check ran to a verdict at the run's level: FIXED (remove it from the file; with
 *     `--baseline-strict` it fails the run, so that the file only shrinks);
 *   - an entry not met whose check did not run to a verdict at the run's level (left out by `--only`, skipped,
 *     inconclusive, above the level, or no check of this run), or draws what it sends from the seed (`drawn`: the
 *     case may just not have been drawn this time, with another seed or fewer runs): UNJUDGED, neither known nor
 *     fixed. So a baseline does not flap between runs whose seeds differ.
 *
 * How the verdict follows is report.ts's `verdict`. `updatedFile` writes what a run met as the file
 * (`--update-baseline`).
 */
import type { CheckResult, ContractReport } from '../report/report.js';
import type { Known, KnownDeviationsFile, KnownEntry } from './file.js';
import { causeSignature, failureSignature, operationOf } from './signature.js';

/** A deviation the run met, as an entry (without expiry or note), and the checks it made fail. */
export interface Met {
  readonly entry: KnownEntry;
  readonly checks: readonly string[];
}

/** Longest `what` written to the file: the fault's words, cut (matching uses the signature, not them). */
const WHAT_LIMIT = 500;
const cutWhat = (text: string) => (text.length > WHAT_LIMIT ? `${text.slice(0, WHAT_LIMIT - 3)}...` : text);

/** The deviations `report` met, first met first: each cause once, each failure naming none once. */
export function metDeviations(report: ContractReport): Met[] {
  const met = new Map<string, { entry: KnownEntry; checks: string[] }>();
  for (const check of report.checks) {
    if (!check.inScope) continue;
    for (const failure of check.failures) {
      const operation = operationOf(failure, report.target);
      const signature = failure.cause === undefined ? failureSignature(failure, operation) : causeSignature(failure.cause);
      const seen = met.get(signature);
      if (seen !== undefined) {
        if (!seen.checks.includes(check.name)) seen.checks.push(check.name);
        continue;
      }
      const what = failure.cause ?? `${failure.message}; expected ${failure.expected} [${failure.section}]`;
      met.set(signature, {
        entry: { check: check.name, ...(operation === undefined ? {} : { operation }), what: cutWhat(what), signature },
        checks: [check.name],
      });
    }
  }
  return [...met.values()];
}

/**
 * Whether an entry of `check` not met can be called fixed: the check ran to a verdict at the run's level, and does
 * not draw its cases from the seed (one it drew before may not have been drawn this time).
 */
const ranToVerdict = (check: CheckResult | undefined) =>
  check?.inScope === true && (check.status === 'pass' || check.status === 'fail') && check.drawn !== true;

/** `report` held against `file` on `today` (YYYY-MM-DD): the report's `known` member. */
export function judge(report: ContractReport, file: KnownDeviationsFile, options: { path: string; strict: boolean; today: string }): Known {
  const entries = new Map(file.entries.map((entry) => [entry.signature, entry]));
  const judged: Known = { file: options.path, strict: options.strict, known: [], new: [], expired: [], fixed: [], unjudged: [] };
  const met = metDeviations(report);
  for (const { entry, checks } of met) {
    const listed = entries.get(entry.signature);
    if (listed === undefined) judged.new.push({ ...entry, checks: [...checks] });
    else if (listed.expires !== undefined && listed.expires < options.today) judged.expired.push({ ...listed, checks: [...checks] });
    else judged.known.push({ ...listed, checks: [...checks] });
  }
  const metSignatures = new Set(met.map((m) => m.entry.signature));
  const checks = new Map(report.checks.map((c) => [c.name, c]));
  for (const entry of file.entries)
    if (!metSignatures.has(entry.signature))
      (ranToVerdict(checks.get(entry.check)) ? judged.fixed : judged.unjudged).push({ ...entry, checks: [] });
  return judged;
}

/**
 * The file `--update-baseline` writes after `report`: every deviation it met (with the `expires` and `note` of the
 * entry of `previous` that has its signature: an update never extends an expiry), then the entries of `previous` it
 * could not judge (their checks did not run to a verdict), kept as they were. The entries it found fixed are dropped.
 */
export function updatedFile(report: ContractReport, previous: KnownDeviationsFile | undefined): KnownDeviationsFile {
  const before = new Map((previous?.entries ?? []).map((entry) => [entry.signature, entry]));
  const met = metDeviations(report);
  const kept = judge(report, previous ?? { entries: [] }, { path: '', strict: false, today: '' }).unjudged;
  return {
    entries: [
      ...met.map(({ entry }) => {
        const old = before.get(entry.signature);
        return {
          ...entry,
          ...(old?.expires === undefined ? {} : { expires: old.expires }),
          ...(old?.note === undefined ? {} : { note: old.note }),
        };
      }),
      ...kept.map(({ checks: _checks, ...entry }) => entry),
    ],
  };
}
