/**
 * `--min-coverage`: the least coverage a run must reach, of the overall figure (`--min-coverage 80`: the mean of the
 * measures' percentages, schema.ts `overall`) or of one measure (`--min-coverage requestFields=80`); repeatable,
 * each must hold. A percentage from 0 to 100.
 */
import { MEASURES, type Coverage, type MeasureName } from './schema.js';

export interface Threshold {
  /** `overall`, or a measure. */
  readonly of: 'overall' | MeasureName;
  readonly percent: number;
}

/** `text` as a threshold, or a sentence saying what is wrong with it (for a usage error). */
export function parseThreshold(text: string): Threshold | string {
  const match = /^(?:([A-Za-z]+)=)?(\d+(?:\.\d+)?)$/.exec(text);
  const expected = `expected a percentage from 0 to 100 (of the overall coverage), or MEASURE=N with a measure of ${MEASURES.join(', ')}`;
  if (match === null) return `--min-coverage ${JSON.stringify(text)} is not a percentage; ${expected}`;
  const [, of, number] = match;
  if (of !== undefined && !(MEASURES as readonly string[]).includes(of))
    return `--min-coverage ${JSON.stringify(text)} names no measure; ${expected}`;
  const percent = Number(number);
  if (percent > 100) return `--min-coverage ${JSON.stringify(text)} is out of range; ${expected}`;
  return { of: (of ?? 'overall') as Threshold['of'], percent };
}

/** The thresholds `coverage` falls below, each as a sentence. */
export function unmet(coverage: Coverage, thresholds: readonly Threshold[]): string[] {
  return thresholds.flatMap(({ of, percent }) => {
    const reached = of === 'overall' ? coverage.overall : coverage.measures[of].percent;
    return reached >= percent
      ? []
      : [`spec coverage ${of === 'overall' ? 'overall' : `of ${of}`} is ${reached}%, below the --min-coverage of ${percent}%`];
  });
}
