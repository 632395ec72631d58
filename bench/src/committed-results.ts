import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Goal } from './goal.ts';
import type { LineageMemoryResult } from './lineage-memory.ts';
import type { MemoryResult } from './memory.ts';
import type { NodeLineFailure, NodeLineFigures, NodeLinesSummary } from './node-lines-summary.ts';
import type { OverheadResult } from './overhead.ts';
import type { BenchSummary } from './report.ts';
import type { RecoveryResult } from './recovery.ts';
import type { SizeReport } from './size.ts';
import type { StormResult } from './storm.ts';

/** The repository's root, which the docs' paths are relative to. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The committed results the docs quote. */
export const COMMITTED_RESULTS = 'bench/results/latest.json';

/**
 * `overhead_node_lines` as runs before JSON answers were measured on every Node line wrote it: SSE
 * figures only, keyed by line (`node20`, …), without `added_cpu_us`.
 *
 * @example
 * const older: SseOnlyNodeLines = { node26: { node: 'v26.12.1', median_ratio: 1.028, p99_ratio: 0.74, cpu_ratio: 1.002, plain_cpu_us: 643, resilient_cpu_us: 644, concurrent_median_ratio: 1.275, concurrent_cpu_ratio: 1.458 } };
 */
export type SseOnlyNodeLines = Readonly<Record<string, Omit<NodeLineFigures, 'added_cpu_us'> | NodeLineFailure>>;

/**
 * `bench/results/latest.json` as committed: a full run's summary, with the keys a run older than
 * the current `pnpm bench` may lack left optional (`overhead_node_lines`, the lineage memory run),
 * and `overhead_node_lines` in either shape (SSE only, or each answer format).
 */
export type CommittedResults = Omit<Partial<BenchSummary>, 'overhead_node_lines'> & {
  readonly overhead_node_lines?: NodeLinesSummary | SseOnlyNodeLines;
  readonly quick: boolean;
  readonly date: string;
  readonly wallSeconds: number;
  readonly machine: { readonly node: string; readonly platform: string; readonly cpu: string; readonly cores: number; readonly memoryBytes: number };
  readonly goals: readonly Goal[];
  readonly details: {
    readonly size: SizeReport;
    readonly overhead: OverheadResult;
    readonly overheadJson: OverheadResult;
    /** Absent in runs before the overhead with progress notifications was measured. */
    readonly overheadProgress?: OverheadResult;
    readonly recovery: RecoveryResult;
    readonly storm: StormResult;
    readonly memory: { readonly resilient: MemoryResult; readonly baseline: MemoryResult; readonly clients?: LineageMemoryResult };
  };
};

/**
 * The committed results, read from the repository.
 *
 * @example
 * readCommittedResults().details.storm.calls // 32
 */
export function readCommittedResults(path = `${ROOT}${COMMITTED_RESULTS}`): CommittedResults {
  return JSON.parse(readFileSync(path, 'utf8')) as CommittedResults;
}
