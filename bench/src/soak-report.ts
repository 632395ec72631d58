import type { AppliedStep } from './soak-conductor.ts';
import type { SOAK_ENGINE, TrafficRecorder } from './soak-client.ts';
import type { FaultKind } from './soak-schedule.ts';
import type { TimelineBucket } from './soak-timeline.ts';
import { breaksGoal, callSucceeded, type CallFigures, type CallRecord, type Goal } from './soak-verdict.ts';
import type { WireSummary } from './soak-wire.ts';

/** What a soak did and whether it met its goals (written as JSON by the CLI). */
export interface SoakReport extends CallFigures {
  readonly seed: number;
  readonly requestedCalls: number;
  readonly settings: {
    readonly clients: number; readonly sleepers: number; readonly maxBatch: number; readonly watchdogMs: number; readonly deadlineMs: number;
    readonly killSpacingMs: number; readonly engine: typeof SOAK_ENGINE;
    /** The calls are paced to last as long as the schedule, and a little more. */
    readonly plannedMs: number; readonly plannedCallsPerSecond: number;
  };
  readonly wallMs: number;
  readonly callsPerSecond: number;
  readonly deadlineReached: boolean;
  readonly reinitializations: number;
  readonly sessionsStarted: number;
  /** Engine events by type, and `gave-up` by code. */
  readonly events: Readonly<Record<string, number>>;
  readonly gaveUp: Readonly<Record<string, number>>;
  readonly faults: {
    readonly scheduled: number;
    readonly applied: number;
    readonly byKind: Readonly<Record<string, number>>;
    readonly kindsNotApplied: readonly FaultKind[];
    readonly applyErrors: number;
    readonly wire: WireSummary;
  };
  readonly goals: readonly Goal[];
  readonly passed: boolean;
  /** The failed calls worth a look (see {@link failuresOf}). */
  readonly failures: readonly ReturnType<typeof failuresOf>[number][];
  readonly schedule: readonly AppliedStep[];
  readonly timeline: { readonly bucketMs: number; readonly buckets: readonly TimelineBucket[] };
}

const MAX_FAILURES_SHOWN = 50;

/**
 * The failed calls worth a look, in the order they failed, those that break a goal first (a
 * replay-safe call that failed, a `record` that broke its contract), at most 50: what the
 * caller saw, what the ledger counts, what went on the wire for it.
 *
 * @example
 * failuresOf(records, chaos.state().ledger, traffic)[0] // { label: 'c812', tool: 'echo', code: 'SESSION_LOST', breaksGoal: true, … }
 */
export function failuresOf(records: readonly CallRecord[], ledger: Readonly<Record<string, number>>, traffic: TrafficRecorder) {
  const failed = records.filter((r) => !callSucceeded(r, ledger)).sort((a, b) => a.endMs - b.endMs);
  const first = [...failed.filter((r) => breaksGoal(r, ledger, traffic)), ...failed.filter((r) => !breaksGoal(r, ledger, traffic))];
  return first.slice(0, MAX_FAILURES_SHOWN).map((r) => ({
    label: r.label, tool: r.tool, client: r.client, settled: r.settled, code: r.errorCode, message: r.message, breaksGoal: breaksGoal(r, ledger, traffic),
    startMs: r.startMs, endMs: r.endMs, ...(r.tool === 'record' ? { executions: ledger[r.label] ?? 0 } : {}),
    replays: traffic.replays.get(r.label) ?? 0, sends: traffic.sends.get(r.label) ?? 0, sessionGone: traffic.sessionGone.get(r.label) ?? 0, sessionsLost: traffic.sessionsLost.get(r.label)?.size ?? 0,
  }));
}
