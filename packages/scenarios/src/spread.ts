// The dispersion of a figure measured once per round: one run's ratio is a point estimate, and the
// same run can read 1.087 and 1.113 for the same thing, so every ratio also comes as the spread of
// its per-round values, and a goal is judged on that spread rather than on one number.

/**
 * How a figure measured once per round spread over the rounds: the median of the per-round
 * values, their quartiles (linear interpolation between order statistics, as `numpy.quantile`
 * does by default) and their extremes. `q1`–`q3` is the interquartile range: half of the rounds
 * fall inside it.
 *
 * @example
 * const s: Spread = { rounds: 4, median: 1.05, q1: 1.02, q3: 1.08, min: 1, max: 1.1 };
 */
export interface Spread {
  readonly rounds: number;
  readonly median: number;
  readonly q1: number;
  readonly q3: number;
  readonly min: number;
  readonly max: number;
}

/**
 * The `p` quantile (0 ≤ p ≤ 1) of a sample, interpolated linearly between its order statistics.
 *
 * @example
 * quantile([1, 2, 3, 4], 0.25); // 1.75
 */
export function quantile(sample: readonly number[], p: number): number {
  if (sample.length === 0) throw new RangeError('quantile of an empty sample');
  if (!(p >= 0 && p <= 1)) throw new RangeError('p must be in [0, 1]');
  const sorted = [...sample].sort((a, b) => a - b);
  const at = p * (sorted.length - 1);
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

/**
 * The {@link Spread} of per-round values, each figure rounded to `digits` decimals.
 *
 * @example
 * spreadOf([1.1, 1, 1.05, 1.2]); // { rounds: 4, median: 1.075, q1: 1.038, q3: 1.125, min: 1, max: 1.2 }
 */
export function spreadOf(values: readonly number[], digits = 3): Spread {
  const round = (n: number) => Math.round(n * 10 ** digits) / 10 ** digits;
  return {
    rounds: values.length,
    median: round(quantile(values, 0.5)), q1: round(quantile(values, 0.25)), q3: round(quantile(values, 0.75)),
    min: round(Math.min(...values)), max: round(Math.max(...values)),
  };
}

/**
 * Where a target stands against a spread of values where lower is better: `met` when even the
 * upper quartile is within it, `missed` when even the lower quartile is beyond it, `unclear` when
 * the target falls inside the interquartile range (the rounds disagree).
 *
 * @example
 * judge({ rounds: 20, median: 1.04, q1: 1.02, q3: 1.06, min: 0.99, max: 1.1 }, 1.05); // 'unclear'
 */
export function judge(spread: Spread, atMost: number): 'met' | 'missed' | 'unclear' {
  if (spread.q3 <= atMost) return 'met';
  return spread.q1 > atMost ? 'missed' : 'unclear';
}
