import { judge, type Spread } from '@mcp-resilience/scenarios';

/**
 * A goal and whether this run met it. `counted` goals are counts, not timings: a miss fails the
 * run. A timing goal is judged on the spread of its per-round values (`verdict`): met when the
 * upper quartile is within the target, missed when the lower quartile is beyond it, unclear when
 * the target falls between them.
 *
 * @example
 * const goal: Goal = { name: 'storm, failed calls', goal: '0', measured: '0', met: true, counted: true };
 */
export interface Goal {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean;
  readonly counted: boolean;
  /** For a goal judged on a spread: `unclear` when the rounds straddle the target. */
  readonly verdict?: 'met' | 'missed' | 'unclear';
}

/**
 * The goal for the median latency ratio one call at a time, engine / plain, with SSE answers: the
 * project's first overhead goal (issue #5), which SSE answers meet since issue #28 and must keep
 * meeting ("no worse than before", issue 38).
 *
 * @example
 * summary.overhead_spread.sse.sequential.median_ratio.q3 <= OVERHEAD_MEDIAN_GOAL; // the SSE goal met
 */
export const OVERHEAD_MEDIAN_GOAL = 1.03;

/**
 * The goals of the healthy path (issue 38), per answer format: the median latency ratio one call
 * at a time and 32 at a time, and the CPU the engine adds to a call (µs). SSE keeps its earlier
 * 1.03 one call at a time.
 *
 * @example
 * HEALTHY_PATH_GOALS.json.medianRatio; // 1.05
 */
export const HEALTHY_PATH_GOALS = {
  sse: { medianRatio: OVERHEAD_MEDIAN_GOAL, concurrentMedianRatio: 1.1, addedCpuMicros: 40 },
  json: { medianRatio: 1.05, concurrentMedianRatio: 1.1, addedCpuMicros: 40 },
} as const;

/**
 * A spread as the reports write it: the median of the rounds, then the interquartile range and
 * the extremes (signed: a + before positive values, for an amount added).
 *
 * @example
 * spreadText({ rounds: 20, median: 1.04, q1: 1.02, q3: 1.06, min: 0.99, max: 1.1 }, ' ×'); // '1.04 × (IQR 1.02 to 1.06 ×, range 0.99 to 1.1 ×, 20 rounds)'
 */
export function spreadText(s: Spread, unit = '', signed = false): string {
  const n = (x: number) => (signed && x > 0 ? `+${x}` : `${x}`);
  return `${n(s.median)}${unit} (IQR ${n(s.q1)} to ${n(s.q3)}${unit}, range ${n(s.min)} to ${n(s.max)}${unit}, ${s.rounds} rounds)`;
}

/**
 * A timing goal judged on a spread of per-round values, lower is better: never counted.
 *
 * @example
 * spreadGoal('overhead, median latency, one call at a time (JSON answers)', spread, 1.05, '×');
 * // { …, goal: '≤ 1.05 × (upper quartile of the rounds)', verdict: 'unclear', met: false }
 */
export function spreadGoal(name: string, spread: Spread, atMost: number, unit: '×' | 'µs'): Goal {
  const verdict = judge(spread, atMost);
  const target = unit === '×' ? `≤ ${atMost.toFixed(2)} ×` : `≤ +${atMost} µs`;
  const shown = unit === '×' ? ' ×' : ' µs';
  return { name, goal: `${target} (upper quartile of the rounds)`, measured: spreadText(spread, shown, unit === 'µs'), met: verdict === 'met', counted: false, verdict };
}
