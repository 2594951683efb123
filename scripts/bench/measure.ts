/**
 * Nanoseconds per call, measured with mitata's `measure` (batched loops, warm-up, robust percentiles), in
 * interleaved rounds: each round times every function once, and a function's figure is the median of its
 * rounds. On a shared, noisy machine drift then hits all the functions of a comparison alike, which is
 * what a ratio measured in one run needs.
 */
import { measure } from 'mitata';

export interface MeasureOptions {
  /** How many rounds (odd, so the median is one of them). */
  readonly rounds: number;
  /** CPU time per function per round, in milliseconds. */
  readonly cpuTimeMs: number;
  /**
   * Calls per sample for a quick function (mitata's `batch_samples`, 4096 unless given). A smoke run gives
   * fewer: mitata takes at least 8 samples of 4 such batches whatever the CPU time, some 100 ms for a 1 us call.
   */
  readonly batchSamples?: number;
}

/** The median over `rounds` of each function's median time per call, in nanoseconds. */
export async function nsPerCall<K extends string>(
  fns: Readonly<Record<K, () => unknown>>,
  options: MeasureOptions,
): Promise<Record<K, number>> {
  const names = Object.keys(fns) as K[];
  const samples = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const name of names) {
      const stats = await measure(fns[name], {
        min_cpu_time: options.cpuTimeMs * 1e6,
        min_samples: 8,
        ...(options.batchSamples === undefined ? {} : { batch_samples: options.batchSamples }),
      });
      samples.get(name)!.push(stats.p50);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples.get(name)!)])) as Record<K, number>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
