import { expectedText, isReplaySafe, type PlannedCall, type SoakTool } from './soak-workload.ts';

/** How one call ended, as its caller saw it. */
export interface CallRecord extends PlannedCall {
  readonly client: number;
  /** When it was made and when it settled, in ms since the calls started. */
  readonly startMs: number;
  readonly endMs: number;
  readonly settled: 'fulfilled' | 'rejected' | 'hung';
  /** The result's text (fulfilled), and whether the tool said it failed. */
  readonly text?: string;
  readonly isError?: boolean;
  /** How it failed (see `errorCodeOf`; `HUNG` when the watchdog gave up on it). */
  readonly errorCode?: string;
  readonly message?: string;
}

/** What the engine and the wire did for each call, by label. */
export interface CallTraffic {
  /** `replayed` events of the engine for the call (a replay on a new session after a loss). */
  readonly replays: ReadonlyMap<string, number>;
  /** `replayed` events for tools/call that could not be tied to a call. */
  readonly unattributedReplays: number;
  /** Requests the engine put on the wire for the call (first send, retries, re-issues, replays). */
  readonly sends: ReadonlyMap<string, number>;
  /** Answers "session gone" (404, or 400 in the express dialect) the call met. */
  readonly sessionGone: ReadonlyMap<string, number>;
  /** The sessions on which the call met them (by id): two are two separate losses. */
  readonly sessionsLost: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The figures of a soak's calls against its goals. */
export interface CallFigures {
  readonly calls: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly hung: number;
  readonly byTool: Readonly<Record<SoakTool, { calls: number; succeeded: number; failed: number }>>;
  /**
   * echo, add, slow: any failure is user-visible and counts against the goal of 0, but one: a
   * call that failed `SESSION_LOST` having met "session gone" on two sessions, the one it was sent
   * on and the new one its replay went to (`secondLoss`). The engine replays a call once, so a
   * second, separate loss fails it, by design (invariant 1); the schedule spaces its losses to make
   * that rare, but a call waiting out a backoff on a loaded machine can outlive the spacing.
   */
  readonly replaySafe: {
    readonly calls: number; readonly errors: number; readonly errorsByCode: Readonly<Record<string, number>>; readonly secondLoss: number;
  };
  /** record: executed exactly once, or failed OUTCOME_UNKNOWN having executed at most once. */
  readonly nonIdempotent: {
    readonly calls: number; readonly succeeded: number; readonly outcomeUnknown: number;
    readonly errorsByCode: Readonly<Record<string, number>>;
    /** Executions by count in the ledger: how many calls ran 0, 1, 2 … times. */
    readonly executions: Readonly<Record<string, number>>;
    readonly violations: number;
    readonly violationsByReason: Readonly<Record<string, number>>;
  };
  /** Ledger keys executed more than once, and the extra executions. */
  readonly duplicates: { readonly keys: number; readonly extraExecutions: number; readonly sample: readonly string[] };
  readonly replays: { readonly total: number; readonly max: number; readonly callsReplayed: number; readonly unattributed: number };
  readonly maxSendsPerCall: number;
  readonly maxSessionGonePerCall: number;
}

/**
 * Whether a call's end breaks a goal: a replay-safe call that did not succeed, or a `record`
 * neither executed exactly once nor OUTCOME_UNKNOWN having executed at most once.
 *
 * @example
 * breaksGoal(call, chaos.state().ledger)
 */
export function breaksGoal(call: CallRecord, ledger: Readonly<Record<string, number>>, traffic?: Pick<CallTraffic, 'sessionsLost'>): boolean {
  const ok = callSucceeded(call, ledger);
  if (isReplaySafe(call.tool)) return !ok && !(traffic && metSecondLoss(call, traffic));
  return violationOf(call, ledger[call.label] ?? 0, ok) !== undefined;
}

const bump = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

/** A call that failed `SESSION_LOST` after meeting "session gone" on two sessions: a second, separate loss, read on the wire. */
function metSecondLoss(call: CallRecord, traffic: Pick<CallTraffic, 'sessionsLost'>): boolean {
  return call.errorCode === 'SESSION_LOST' && (traffic.sessionsLost.get(call.label)?.size ?? 0) >= 2;
}

/**
 * Whether a call gave the right answer (for `record`: and ran exactly once, by the ledger).
 *
 * @example
 * callSucceeded(record, chaos.state().ledger)
 */
export function callSucceeded(call: CallRecord, ledger: Readonly<Record<string, number>>): boolean {
  if (call.settled !== 'fulfilled' || call.isError === true || call.text !== expectedText(call)) return false;
  return call.tool !== 'record' || ledger[call.label] === 1;
}

/** Why a `record` call broke its contract, or undefined when it kept it. */
function violationOf(call: CallRecord, executions: number, ok: boolean): string | undefined {
  if (ok) return undefined;
  if (call.settled === 'fulfilled') return `answered, executed ${executions}×${call.isError === true ? ' (tool error)' : ''}`;
  if (call.errorCode === 'OUTCOME_UNKNOWN') return executions <= 1 ? undefined : `OUTCOME_UNKNOWN, executed ${executions}×`;
  return `failed ${call.errorCode ?? '?'}, executed ${executions}×`;
}

/**
 * Judges every call against the soak's goals: replay-safe calls must succeed; a `record` must
 * run exactly once, or fail OUTCOME_UNKNOWN having run at most once (read from the ledger);
 * no key may run twice; no call may be replayed more than once.
 *
 * @example
 * const figures = judgeCalls(records, chaos.state().ledger, traffic);
 * figures.replaySafe.errors === 0 && figures.duplicates.keys === 0;
 */
export function judgeCalls(calls: readonly CallRecord[], ledger: Readonly<Record<string, number>>, traffic: CallTraffic): CallFigures {
  const byTool = Object.fromEntries((['echo', 'add', 'record', 'slow'] as const).map((t) => [t, { calls: 0, succeeded: 0, failed: 0 }])) as
    Record<SoakTool, { calls: number; succeeded: number; failed: number }>;
  const safe = { calls: 0, errors: 0, errorsByCode: {} as Record<string, number>, secondLoss: 0 };
  const unsafe = {
    calls: 0, succeeded: 0, outcomeUnknown: 0, errorsByCode: {} as Record<string, number>,
    executions: {} as Record<string, number>, violations: 0, violationsByReason: {} as Record<string, number>,
  };
  let ok = 0;
  for (const call of calls) {
    const good = callSucceeded(call, ledger);
    const tool = byTool[call.tool];
    tool.calls += 1;
    if (good) (tool.succeeded += 1, (ok += 1));
    else tool.failed += 1;
    const code = call.settled === 'fulfilled' ? (call.isError === true ? 'TOOL_ERROR' : 'WRONG_RESULT') : (call.errorCode ?? 'UNKNOWN');
    if (isReplaySafe(call.tool)) {
      safe.calls += 1;
      if (!good && metSecondLoss(call, traffic)) safe.secondLoss += 1;
      else if (!good) (safe.errors += 1, bump(safe.errorsByCode, code));
      continue;
    }
    const executions = ledger[call.label] ?? 0;
    unsafe.calls += 1;
    bump(unsafe.executions, String(executions));
    if (good) unsafe.succeeded += 1;
    else bump(unsafe.errorsByCode, code);
    if (call.errorCode === 'OUTCOME_UNKNOWN') unsafe.outcomeUnknown += 1;
    const violation = violationOf(call, executions, good);
    if (violation !== undefined) (unsafe.violations += 1, bump(unsafe.violationsByReason, violation));
  }
  const twice = Object.entries(ledger).filter(([, n]) => n > 1);
  const replays = [...traffic.replays.values()];
  const max = (values: Iterable<number>) => Math.max(0, ...values);
  return {
    calls: calls.length, succeeded: ok, failed: calls.length - ok, hung: calls.filter((c) => c.settled === 'hung').length,
    byTool, replaySafe: safe, nonIdempotent: unsafe,
    duplicates: {
      keys: twice.length, extraExecutions: twice.reduce((sum, [, n]) => sum + n - 1, 0),
      sample: twice.slice(0, 20).map(([key, n]) => `${key}×${n}`),
    },
    replays: {
      total: replays.reduce((a, b) => a + b, 0) + traffic.unattributedReplays, max: max(replays),
      callsReplayed: replays.filter((n) => n > 0).length, unattributed: traffic.unattributedReplays,
    },
    maxSendsPerCall: max(traffic.sends.values()),
    maxSessionGonePerCall: max(traffic.sessionGone.values()),
  };
}

/** One goal of the soak and whether the run met it. */
export interface Goal {
  readonly name: string;
  readonly value: number;
  readonly target: string;
  readonly met: boolean;
}

/**
 * The soak's goals: 0 user-visible errors on replay-safe calls, 0 duplicate executions, 0
 * broken `record` contracts, at most 1 replay per call (every replay tied to its call), no
 * hung call, and every requested call made.
 *
 * @example
 * goalsOf(figures, 20_000).filter((g) => !g.met) // [] when the soak passed
 */
export function goalsOf(figures: CallFigures, requested: number): Goal[] {
  const goal = (name: string, value: number, target: string, met: boolean): Goal => ({ name, value, target, met });
  return [
    goal('user-visible errors on replay-safe calls', figures.replaySafe.errors, '0', figures.replaySafe.errors === 0),
    goal('duplicate executions of non-idempotent calls', figures.duplicates.extraExecutions, '0', figures.duplicates.extraExecutions === 0),
    goal('non-idempotent calls not exactly-once nor OUTCOME_UNKNOWN at-most-once', figures.nonIdempotent.violations, '0',
      figures.nonIdempotent.violations === 0),
    goal('max replays per call', figures.replays.max, '≤ 1', figures.replays.max <= 1),
    goal('replays not tied to a call', figures.replays.unattributed, '0', figures.replays.unattributed === 0),
    goal('hung calls', figures.hung, '0', figures.hung === 0),
    goal('calls made', figures.calls, `${requested}`, figures.calls === requested),
  ];
}
