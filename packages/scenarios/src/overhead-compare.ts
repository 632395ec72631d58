// How measureOverhead turns its blocks into figures: each client's summary over all its calls,
// the ratios of the two, and the spread of the same ratios round by round.
import { ratio, summarize, type Summary } from './latency-stats.ts';
import { spreadOf, type Spread } from './spread.ts';

/** One client's calls: latency, and its CPU time per call when the runtime can read it. */
export interface OverheadSide {
  readonly latency: Summary;
  /**
   * The time its blocks took, over its calls: a mean that a coarse clock cannot round away
   * (workerd's advances only on I/O, in whole milliseconds).
   */
  readonly blockMsPerCall: number;
  readonly cpuMicrosPerCall?: number;
}

/**
 * Each ratio of an {@link OverheadComparison} computed round by round (a round: one block of
 * each client, back to back), and spread over the rounds. `addedCpuMicros` is the engine's CPU
 * a call minus the plain client's, in µs. A ratio no round could form (a clock that never moved
 * within a block, so every baseline was 0) is absent.
 *
 * @example
 * const { medianRatio } = result.sequential.spread; // { rounds: 20, median: 1.04, q1: 1.02, q3: 1.06, min: 0.98, max: 1.12 }
 */
export interface OverheadSpread {
  readonly medianRatio?: Spread;
  readonly p99Ratio?: Spread;
  readonly blockRatio?: Spread;
  readonly cpuRatio?: Spread;
  readonly addedCpuMicros?: Spread;
}

/** The plain SDK client against the resilient one; ratios are `resilient / plain`. */
export interface OverheadComparison {
  readonly plain: OverheadSide;
  readonly resilient: OverheadSide;
  readonly medianRatio: number;
  readonly p99Ratio: number;
  /** Of {@link OverheadSide.blockMsPerCall}. */
  readonly blockRatio: number;
  readonly cpuRatio?: number;
  /** The same ratios round by round: their median, quartiles and extremes. */
  readonly spread: OverheadSpread;
}

/**
 * One block's (or one client's, over all its blocks) calls: latencies, time and CPU.
 *
 * @example
 * const sample: OverheadSample = { latencies: [1.2, 1.1], blockMs: 2.4, cpuMicros: 900 };
 */
export interface OverheadSample {
  readonly latencies: number[];
  blockMs: number;
  cpuMicros: number;
}

/**
 * A sample with nothing in it yet.
 *
 * @example
 * const all = emptySample();
 */
export const emptySample = (): OverheadSample => ({ latencies: [], blockMs: 0, cpuMicros: 0 });

function side(sample: OverheadSample, withCpu: boolean): OverheadSide {
  const latency = summarize(sample.latencies);
  const blockMsPerCall = Math.round((sample.blockMs / latency.n) * 1000) / 1000;
  return withCpu ? { latency, blockMsPerCall, cpuMicrosPerCall: Math.round(sample.cpuMicros / latency.n) } : { latency, blockMsPerCall };
}

/** A ratio of two positive figures, or none where the baseline is zero (a clock that did not move). */
const ratioOrNone = (subject: number, baseline: number) => (baseline > 0 ? ratio(subject, baseline) : undefined);
const defined = (values: readonly (number | undefined)[]) => values.filter((v): v is number => v !== undefined);

function spreadOver(rounds: readonly { plain: OverheadSample; resilient: OverheadSample }[], withCpu: boolean): OverheadSpread {
  const each = rounds.map(({ plain, resilient }) => ({ plain: side(plain, withCpu), resilient: side(resilient, withCpu), cpu: [plain, resilient].map((s) => s.cpuMicros / s.latencies.length) }));
  const of = (pick: (r: (typeof each)[number]) => number | undefined) => {
    const values = defined(each.map(pick));
    return values.length > 0 ? spreadOf(values) : undefined;
  };
  const spreads: Record<string, Spread | undefined> = {
    medianRatio: of((r) => ratioOrNone(r.resilient.latency.medianMs, r.plain.latency.medianMs)),
    p99Ratio: of((r) => ratioOrNone(r.resilient.latency.p99Ms, r.plain.latency.p99Ms)),
    blockRatio: of((r) => ratioOrNone(r.resilient.blockMsPerCall, r.plain.blockMsPerCall)),
    ...(withCpu ? { cpuRatio: of((r) => ratioOrNone(r.cpu[1]!, r.cpu[0]!)), addedCpuMicros: spreadOf(each.map((r) => r.cpu[1]! - r.cpu[0]!), 0) } : {}),
  };
  return Object.fromEntries(Object.entries(spreads).filter(([, s]) => s !== undefined)) as OverheadSpread;
}

/**
 * The comparison of the two clients: each one's figures over all its calls, their ratios, and
 * the same ratios round by round, spread.
 *
 * @example
 * const sequential = compare(all.plain, all.resilient, rounds, true);
 * sequential.spread.medianRatio.q3 <= 1.05; // the goal met on the interval
 */
export function compare(
  plainSample: OverheadSample, resilientSample: OverheadSample, rounds: readonly { plain: OverheadSample; resilient: OverheadSample }[], withCpu: boolean,
): OverheadComparison {
  const plain = side(plainSample, withCpu);
  const resilient = side(resilientSample, withCpu);
  return {
    plain, resilient,
    medianRatio: ratio(resilient.latency.medianMs, plain.latency.medianMs),
    p99Ratio: ratio(resilient.latency.p99Ms, plain.latency.p99Ms),
    blockRatio: ratio(resilient.blockMsPerCall, plain.blockMsPerCall),
    ...(withCpu ? { cpuRatio: ratio(resilient.cpuMicrosPerCall!, plain.cpuMicrosPerCall!) } : {}),
    spread: spreadOver(rounds, withCpu),
  };
}
