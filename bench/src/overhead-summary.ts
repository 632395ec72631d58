// The overhead figures `latest.json` leads with beyond the point ratios: each ratio's spread over
// the rounds (`overhead_spread`), and the goals of the healthy path judged on those spreads.
import type { Spread } from '@mcp-resilience/scenarios';
import { HEALTHY_PATH_GOALS, spreadGoal, type Goal } from './goal.ts';
import type { NodeOverheadComparison, OverheadResult } from './overhead.ts';

/** The runs of the overhead as `overhead_spread` keys them: SSE answers, JSON answers, SSE answers with progress notifications before each result. */
export const OVERHEAD_RUNS = ['sse', 'json', 'sse_progress'] as const;
export type OverheadRun = (typeof OVERHEAD_RUNS)[number];

/**
 * One comparison's ratios spread over its rounds (each round: one block of each client), and the
 * CPU the engine adds to a call (µs), round by round.
 *
 * @example
 * const figures: SpreadFigures = { median_ratio: spread, p99_ratio: spread, cpu_ratio: spread, added_cpu_us: spread };
 */
export interface SpreadFigures {
  readonly median_ratio: Spread;
  readonly p99_ratio: Spread;
  readonly cpu_ratio: Spread;
  readonly added_cpu_us: Spread;
}

/**
 * `overhead_spread` in `latest.json`: for each run, one call at a time and 32 at a time.
 *
 * @example
 * summary.overhead_spread.json.sequential.median_ratio.q3; // the upper quartile of the per-round median ratios
 */
export type OverheadSpreadSummary = Readonly<Record<OverheadRun, { readonly sequential: SpreadFigures; readonly concurrent: SpreadFigures }>>;

/**
 * A comparison's spreads under `latest.json`'s names.
 *
 * @example
 * spreadFigures(run.overheadJson.sequential).added_cpu_us.median; // 97
 */
export function spreadFigures(c: NodeOverheadComparison): SpreadFigures {
  return { median_ratio: c.spread.medianRatio, p99_ratio: c.spread.p99Ratio, cpu_ratio: c.spread.cpuRatio, added_cpu_us: c.spread.addedCpuMicros };
}

/**
 * Every overhead run's spreads.
 *
 * @example
 * overheadSpreadSummary({ sse: run.overhead, json: run.overheadJson, sse_progress: run.overheadProgress }).sse.concurrent.p99_ratio;
 */
export function overheadSpreadSummary(runs: Readonly<Record<OverheadRun, OverheadResult>>): OverheadSpreadSummary {
  const of = (r: OverheadResult) => ({ sequential: spreadFigures(r.sequential), concurrent: spreadFigures(r.concurrent) });
  return { sse: of(runs.sse), json: of(runs.json), sse_progress: of(runs.sse_progress) };
}

/**
 * The point figures of the progress run and the CPU added per call, flat, as `latest.json` leads with them.
 *
 * @example
 * overheadPointFigures(run).overhead_progress_median_ratio; // ≈ 1.01
 */
export function overheadPointFigures(run: { readonly overhead: OverheadResult; readonly overheadJson: OverheadResult; readonly overheadProgress: OverheadResult }) {
  const added = (c: NodeOverheadComparison) => c.resilient.cpuMicrosPerCall - c.plain.cpuMicrosPerCall;
  const { sequential: p, concurrent: pc } = run.overheadProgress;
  return {
    overhead_added_cpu_us: added(run.overhead.sequential),
    overhead_json_added_cpu_us: added(run.overheadJson.sequential),
    overhead_json_concurrent_p99_ratio: run.overheadJson.concurrent.p99Ratio,
    overhead_progress_median_ratio: p.medianRatio,
    overhead_progress_p99_ratio: p.p99Ratio,
    overhead_progress_cpu_ratio: p.cpuRatio,
    overhead_progress_added_cpu_us: added(p),
    overhead_progress_concurrent_median_ratio: pc.medianRatio,
    overhead_progress_concurrent_p99_ratio: pc.p99Ratio,
    overhead_progress_concurrent_cpu_ratio: pc.cpuRatio,
  };
}

const ANSWERS: Readonly<Record<'sse' | 'json', string>> = { sse: 'SSE answers', json: 'JSON answers' };

/**
 * The goals of the healthy path on this process's Node ({@link HEALTHY_PATH_GOALS}), for SSE and
 * JSON answers: the median ratio one call at a time and 32 at a time, and the CPU the engine adds
 * to a call, each judged on its spread over the rounds. Timings: reported, never counted.
 *
 * @example
 * overheadGoals(summary.overhead_spread).map((g) => g.verdict); // ['met', 'met', 'met', 'unclear', 'missed', 'missed']
 */
export function overheadGoals(spread: OverheadSpreadSummary): Goal[] {
  return (['sse', 'json'] as const).flatMap((format) => {
    const target = HEALTHY_PATH_GOALS[format];
    const { sequential: s, concurrent: c } = spread[format];
    return [
      spreadGoal(`overhead, median latency, one call at a time (${ANSWERS[format]})`, s.median_ratio, target.medianRatio, '×'),
      spreadGoal(`overhead, median latency, 32 at a time (${ANSWERS[format]})`, c.median_ratio, target.concurrentMedianRatio, '×'),
      spreadGoal(`overhead, CPU the engine adds to a call (${ANSWERS[format]})`, s.added_cpu_us, target.addedCpuMicros, 'µs'),
    ];
  });
}
