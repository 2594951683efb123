/**
 * Spec coverage in a few lines of text, for the text summary, the HTML report, a Markdown summary and
 * `crawlspec check-traffic`: the overall figure, then one line per measure with a few of what it did not cover.
 */
import { MEASURES, type Coverage, type MeasureName } from './schema.js';

const WORDS: Record<MeasureName, string> = {
  operations: 'operations exercised',
  statuses: 'documented answers seen',
  checkedAnswers: 'documented answers checked',
  requestFields: 'request fields sent valid',
  invalidFields: 'request fields sent invalid',
  enumValues: 'enum values sent',
  rules: 'rules exercised both ways',
  answerFields: 'answer fields observed',
};

/** How many of a measure's untouched items a line names. */
const NAMED = 3;

/** `coverage` as lines (no newlines inside): the overall figure, then each measure; `untouched` names a few not covered. */
export function coverageLines(coverage: Coverage, untouched = true): string[] {
  const lines = [
    `Spec coverage: ${coverage.overall}% overall (the mean of ${MEASURES.length} measures) over ${coverage.exchanges} exchange(s)${coverage.outsideSpec > 0 ? `, ${coverage.outsideSpec} outside the spec` : ''}`,
  ];
  for (const m of MEASURES) {
    const { covered, total, percent } = coverage.measures[m];
    const missing = coverage.untouched[m];
    const some = untouched && missing.length > 0 ? `; not: ${missing.slice(0, NAMED).join(', ')}${missing.length > NAMED ? `, … ${missing.length - NAMED} more` : ''}` : '';
    lines.push(`  ${m}: ${percent}% (${covered} of ${total} ${WORDS[m]})${some}`);
  }
  return lines;
}
