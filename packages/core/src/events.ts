import type { Diagnosis } from './diagnose.ts';
import type { ErrorCode } from './errors.ts';
import type { LossReport } from './loss-report.ts';
import type { TaskLossCause } from './tasks.ts';
import type { UnrecognisedAnswer } from './unrecognised.ts';
import type { VerdictKind } from './verdict.ts';

interface At {
  /** When it happened, on the engine's clock; dropped by {@link normalizeTrace}. */
  readonly atMs?: number;
  /** Which client of one fetch it is about, from the second on (2, 3, …): a fetch's first client, or only one, has none. */
  readonly client?: number;
}

/**
 * Every decision the engine carries out, as an event. Sessions are named by ordinal
 * (1, 2, …), never by id, so events can be logged and compared safely.
 *
 * @example
 * const onEvent = (event: ResilienceEvent) => {
 *   if (event.type === 'session-lost') console.warn(`session ${event.session} lost: ${event.cause}`);
 * };
 */
export type ResilienceEvent = At &
  (
    | { readonly type: 'session-started'; readonly session: number; readonly revision: string }
    /** `report`: for a session dropped while in use (a suspected server bug), what to send its maintainers. */
    | ({
        readonly type: 'session-lost'; readonly session: number; readonly dialect: string; readonly method?: string;
        readonly report?: LossReport;
      } & Diagnosis)
    | { readonly type: 'session-reinitialized'; readonly from: number; readonly to: number; readonly reason: 'lost' | 'idle' }
    | {
        readonly type: 'session-changed'; readonly from: number; readonly to: number;
        readonly revision?: { readonly from: string; readonly to: string }; readonly capabilities: readonly string[];
      }
    | { readonly type: 'state-restored'; readonly session: number; readonly subscriptions: number; readonly logLevel?: string }
    /** A call sent again on a new session; `stream`: the standalone GET stream opened again. */
    | { readonly type: 'replayed'; readonly session: number; readonly method?: string; readonly stream?: true }
    | {
        readonly type: 'backed-off'; readonly method?: string; readonly verdict: VerdictKind;
        readonly status?: number; readonly attempt: number; readonly delayMs: number;
      }
    | { readonly type: 'resumed'; readonly method?: string; readonly attempt: number; readonly delayMs: number }
    | { readonly type: 'reissued'; readonly method?: string; readonly attempt: number; readonly delayMs: number }
    | { readonly type: 'gave-up'; readonly method?: string; readonly code: ErrorCode }
    /** The server refused the connection (nothing was sent): the call waits for it, up to `limitMs`. */
    | { readonly type: 'server-wait-started'; readonly method?: string; readonly limitMs: number }
    /**
     * The wait ended: the server answered (`reachable`), the deadline came (`deadline`: the call
     * fails `SERVER_UNREACHABLE`), the caller aborted (`aborted`) or the engine closed (`closed`).
     */
    | {
        readonly type: 'server-wait-ended'; readonly method?: string;
        readonly outcome: 'reachable' | 'deadline' | 'aborted' | 'closed'; readonly attempts: number; readonly waitedMs: number;
      }
    /** Task `task` (by ordinal, never by id), known on session `from`, answered on session `session` after that one was lost. */
    | { readonly type: 'task-survived'; readonly task: number; readonly from: number; readonly session: number }
    /** The server no longer knows task `task`, last known on session `session` (see `TASK_LOST`). */
    | {
        readonly type: 'task-lost'; readonly task: number; readonly session: number; readonly method?: string;
        readonly cause: TaskLossCause; readonly mayStillRun: boolean; readonly recreatable: boolean;
      }
    /**
     * A refusal no "session gone" dialect knows met a request that carried a session id: passed
     * to the caller as it is. If it is a server's way of saying its session is gone, report it,
     * or add it with the `dialects` option.
     */
    | ({ readonly type: 'unrecognised-answer'; readonly method?: string } & UnrecognisedAnswer)
  );

/**
 * The `type` of a {@link ResilienceEvent}.
 *
 * @example
 * const counts = new Map<EventType, number>();
 * counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
 */
export type EventType = ResilienceEvent['type'];

/**
 * An event with times, waits and figures removed and sessions renumbered from 1.
 *
 * @example
 * const trace: NormalizedEvent[] = normalizeTrace(events);
 * trace[0] // { type: 'session-started', session: 1, revision: '2025-11-25' }
 */
export type NormalizedEvent = Readonly<Record<string, unknown>> & { readonly type: EventType };

/** Fields that vary from run to run: clock readings, jittered waits, ages, attempts made while waiting, and the bug report made of them. */
const VARYING = ['atMs', 'delayMs', 'sessionAgeMs', 'idleMs', 'serverUptimeSeconds', 'report', 'limitMs', 'waitedMs', 'attempts'];
/** Fields that name a session. */
const SESSION_FIELDS = ['session', 'from', 'to'];

/**
 * Makes a trace comparable across runs and runtimes: drops times, waits and ages, and
 * renumbers sessions in order of first appearance (so a trace that starts at session 7
 * reads as one that starts at 1). The same scenario yields the same normalized trace
 * everywhere.
 *
 * @example
 * normalizeTrace([{ type: 'session-started', session: 3, revision: '2025-11-25', atMs: 12 }])
 * // [{ type: 'session-started', session: 1, revision: '2025-11-25' }]
 */
export function normalizeTrace(events: readonly ResilienceEvent[]): NormalizedEvent[] {
  const sessions: number[] = [];
  // A session's ordinal is its place in order of first appearance (push returns the new length).
  const renumber = (n: number) => sessions.indexOf(n) + 1 || sessions.push(n);
  return events.map((event) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(event)) {
      if (VARYING.includes(key) || value === undefined) continue;
      out[key] = SESSION_FIELDS.includes(key) && typeof value === 'number' ? renumber(value) : value;
    }
    return out as NormalizedEvent;
  });
}
