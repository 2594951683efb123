/**
 * What the text, HTML and JUnit reports say of a run held against known deviations (`--baseline FILE`,
 * scripts/contract/known/): the counts, then each deviation met or entry of the file in a line, KNOWN, FAIL (new,
 * or expired on its date), FIXED (remove it from the file) or NOT JUDGED (its check did not run to a verdict).
 */
import type { ContractReport } from '../report/report.js';
import { cut, LINE_LIMIT } from '../wire/cut.js';

type Entry = NonNullable<ContractReport['known']>['known'][number];

/** Entries listed at the most in each state (the JSON report lists every one). */
const SHOWN = 50;

const line = (label: string, entry: Entry, why: string) =>
  `  ${cut(`${label.padEnd(10)} ${entry.check}${entry.operation === undefined ? '' : ` (${entry.operation})`}: ${entry.what}${why}`, LINE_LIMIT - 2)}`;

/** Why an entry of a check that draws its cases from the seed, not met, is not called fixed. */
const DRAWN_WHY =
  ' (its check draws its bodies from the seed and did not draw this case in this run: neither known nor fixed; run with the seed of the run that found it to judge it)';

/** The checks that failed only for known deviations: they do not fail the run. */
export function knownOnly(report: ContractReport): Set<string> {
  const known = report.known;
  if (known === undefined) return new Set();
  const failing = new Set([...known.new, ...known.expired].flatMap((e) => e.checks));
  return new Set(known.known.flatMap((e) => e.checks).filter((name) => !failing.has(name)));
}

/** The section of the report on known deviations, none without `--baseline`. */
export function knownLines(report: ContractReport): string[] {
  const known = report.known;
  if (known === undefined) return [];
  const drawn = new Set(report.checks.filter((c) => c.drawn === true).map((c) => c.name));
  const fixedWhy = known.strict ? ' (no longer seen: remove it from the file; --baseline-strict fails the run)' : ' (no longer seen: remove it from the file)';
  const groups: [string, readonly Entry[], (entry: Entry) => string][] = [
    ['FAIL', known.new, () => ' (new: not in the file)'],
    ['FAIL', known.expired, (entry) => ` (known, but expired on ${entry.expires ?? ''})`],
    ['FIXED', known.fixed, () => fixedWhy],
    ['KNOWN', known.known, (entry) => (entry.expires === undefined ? '' : ` (accepted until ${entry.expires})`)],
    ['NOT JUDGED', known.unjudged, (entry) => (drawn.has(entry.check) ? DRAWN_WHY : ' (its check did not run to a verdict: neither known nor fixed)')],
  ];
  return [
    `known deviations (${known.file}): ${known.known.length} known, ${known.new.length} new, ${known.expired.length} expired, ${known.fixed.length} fixed, ${known.unjudged.length} not judged`,
    ...groups.flatMap(([label, entries, why]) => [
      ...entries.slice(0, SHOWN).map((entry) => line(label, entry, why(entry))),
      ...(entries.length > SHOWN ? [`  and ${entries.length - SHOWN} more ${label} (--json lists each in known)`] : []),
    ]),
  ];
}
