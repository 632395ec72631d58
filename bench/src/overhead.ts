import {
  measureOverhead as measureOnHost, type AnswerFormat, type OverheadComparison, type OverheadSide as SharedSide, type OverheadSize, type OverheadSpread,
} from '@mcp-resilience/scenarios';
import { NODE_CPU, nodeHost } from 'node-sample/dist/node-host.js';
import { startChaosProcess } from './chaos-process.ts';

export type { AnswerFormat, OverheadSize } from '@mcp-resilience/scenarios';

/**
 * The progress notifications before each result in the overhead run with progress (what a slow
 * tool sends): each after a 0 ms timer of the server (Node's: about 1 ms).
 *
 * @example
 * await measureOverhead(size, 'sse', PROGRESS_NOTIFICATIONS);
 */
export const PROGRESS_NOTIFICATIONS = 3;

/**
 * One client's side, with the CPU time this process can always read on Node (user + system, µs per call).
 *
 * @example
 * const { cpuMicrosPerCall } = (await measureOverhead(size, 'sse')).sequential.resilient;
 */
export type OverheadSide = Omit<SharedSide, 'cpuMicrosPerCall'> & { readonly cpuMicrosPerCall: number };

/**
 * A comparison with its CPU figures.
 *
 * @example
 * const { cpuRatio } = (await measureOverhead(size, 'json')).concurrent;
 */
export type NodeOverheadComparison = Omit<OverheadComparison, 'plain' | 'resilient' | 'cpuRatio' | 'spread'> & {
  readonly plain: OverheadSide;
  readonly resilient: OverheadSide;
  readonly cpuRatio: number;
  /** Every ratio round by round, spread over the rounds. */
  readonly spread: Required<OverheadSpread>;
};

/**
 * One call at a time and 32 at a time.
 *
 * @example
 * const { sequential, concurrent } = await measureOverhead(size, 'sse');
 */
export interface OverheadResult {
  readonly sequential: NodeOverheadComparison;
  readonly concurrent: NodeOverheadComparison;
}

/** A comparison measured with a CPU clock and concurrent blocks has every figure: this says so to the types. */
function complete(comparison: OverheadComparison | undefined): NodeOverheadComparison {
  const { plain, resilient, cpuRatio, spread } = comparison ?? {};
  if (!plain || !resilient || cpuRatio === undefined || plain.cpuMicrosPerCall === undefined || resilient.cpuMicrosPerCall === undefined) {
    throw new Error('overhead: a comparison without its concurrent blocks or CPU figures');
  }
  const { medianRatio, p99Ratio, blockRatio, cpuRatio: cpuSpread, addedCpuMicros } = spread ?? {};
  if (!medianRatio || !p99Ratio || !blockRatio || !cpuSpread || !addedCpuMicros) throw new Error('overhead: a comparison without the spread of each ratio');
  return {
    ...comparison!, plain: { ...plain, cpuMicrosPerCall: plain.cpuMicrosPerCall }, resilient: { ...resilient, cpuMicrosPerCall: resilient.cpuMicrosPerCall }, cpuRatio,
    spread: { medianRatio, p99Ratio, blockRatio, cpuRatio: cpuSpread, addedCpuMicros },
  };
}

/**
 * The plain SDK client against the same client given `createResilientFetch()`, on one healthy
 * chaos server (in an `mcp-chaos` process of its own, so its work is not counted) answering in
 * `format`: latency and this process's CPU time per call, one call at a time and 32 at a time,
 * each ratio also spread round by round. With `progressNotifications` (SSE only), each answer is a
 * stream of that many progress notifications before its result (the chaos server's `slow` tool).
 * Blocks alternate between the two clients (ABBA), so drift on a noisy machine falls on both
 * alike. The measurement is the runtime-neutral one of `@mcp-resilience/scenarios`, which the
 * other runtimes' samples run too (`pnpm bench:runtimes`).
 *
 * @example
 * const { sequential } = await measureOverhead({ warmupCalls: 50, rounds: 10, sequentialCalls: 30, concurrentCallsPerWorker: 3 }, 'sse');
 * sequential.medianRatio; // ≈ 1
 * const progress = await measureOverhead(size, 'sse', PROGRESS_NOTIFICATIONS);
 */
export async function measureOverhead(size: OverheadSize, format: AnswerFormat, progressNotifications = 0): Promise<OverheadResult> {
  const chaos = await startChaosProcess();
  try {
    return await measureOverheadAgainst(chaos.control, size, format, progressNotifications);
  } finally {
    await chaos.stop();
  }
}

/**
 * {@link measureOverhead} against the `mcp-chaos` whose control API is at `control` (a server of
 * its own from that pool): what a child process of another Node line runs (`overhead-line-main.ts`).
 *
 * @example
 * const { sequential } = await measureOverheadAgainst(chaos.control, size, 'sse');
 */
export async function measureOverheadAgainst(control: string, size: OverheadSize, format: AnswerFormat, progressNotifications = 0): Promise<OverheadResult> {
  const result = await measureOnHost(nodeHost(control), size, { format, readCpuMicros: NODE_CPU.readMicros, progressNotifications });
  return { sequential: complete(result.sequential), concurrent: complete(result.concurrent) };
}
