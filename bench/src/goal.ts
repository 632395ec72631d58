/**
 * A goal of issue #5 and whether this run met it. `counted` goals are counts, not timings: a miss fails the run.
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
}

/**
 * The goal for the median latency ratio one call at a time, engine / plain, in either answer format.
 *
 * @example
 * summary.overhead_json_median_ratio <= OVERHEAD_MEDIAN_GOAL; // the JSON goal met
 */
export const OVERHEAD_MEDIAN_GOAL = 1.03;
