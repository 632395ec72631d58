// Latency statistics of the benchmarks (`bench`) and of the runtimes' overhead measurement: one definition of median, p99 and ratio for both.
/**
 * Order statistics of a sample, by the nearest-rank method.
 *
 * @example
 * percentile([5, 1, 3], 50); // 3
 */
export function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) throw new RangeError('percentile of an empty sample');
  if (!(p > 0 && p <= 100)) throw new RangeError('p must be in (0, 100]');
  const sorted = [...sample].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1] as number;
}

/** Median, p99 and count of a latency sample (milliseconds). */
export interface Summary {
  readonly n: number;
  readonly medianMs: number;
  readonly p99Ms: number;
}

/**
 * @example
 * summarize([1, 2, 3]); // { n: 3, medianMs: 2, p99Ms: 3 }
 */
export function summarize(sample: readonly number[]): Summary {
  return { n: sample.length, medianMs: percentile(sample, 50), p99Ms: percentile(sample, 99) };
}

/**
 * `subject / baseline`, rounded to three decimals.
 *
 * @example
 * ratio(1.05, 1); // 1.05
 */
export function ratio(subject: number, baseline: number): number {
  if (!(baseline > 0)) throw new RangeError('the baseline must be positive');
  return Math.round((subject / baseline) * 1000) / 1000;
}
