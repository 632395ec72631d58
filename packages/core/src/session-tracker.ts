import type { ErrorInfo } from './errors.ts';

/** The session a client holds. The raw id stays here: events and logs get the ordinal. */
export interface SessionRecord {
  /** Absent when the server assigned no id (a sessionless server on a sessionful revision). */
  readonly id?: string;
  /** 1 for the first session of a client, 2 for its replacement, … */
  readonly ordinal: number;
  readonly revision: string;
  readonly startedAtMs: number;
  readonly lastActivityAtMs: number;
}

/** A client's sessions: the current one, and the ids declared dead. Immutable. */
export interface SessionTracker {
  readonly current?: SessionRecord;
  /** The highest ordinal handed out so far. */
  readonly ordinals: number;
  /** Dead ids, newest last, at most {@link DEAD_IDS_KEPT}. */
  readonly dead: readonly string[];
}

/** How many dead ids are remembered to refuse a server that hands one out again. */
export const DEAD_IDS_KEPT = 1024;

/** A client that has not started a session yet. */
export const NO_SESSION: SessionTracker = Object.freeze({ ordinals: 0, dead: [] });

/**
 * Takes the session an `initialize` exchange produced. Refuses (`SESSION_ID_REUSED`) an id
 * that was declared dead: a dead id is never sent again.
 *
 * @example
 * const result = adoptSession(NO_SESSION, { id: 'abc', revision: '2025-11-25', nowMs: 0 });
 * if (result.ok) tracker = result.tracker; // tracker.current.ordinal === 1
 */
export function adoptSession(
  tracker: SessionTracker,
  session: { readonly id?: string; readonly revision: string; readonly nowMs: number },
): { readonly ok: true; readonly tracker: SessionTracker } | { readonly ok: false; readonly error: ErrorInfo } {
  const { id, revision, nowMs } = session;
  if (id !== undefined && tracker.dead.includes(id)) {
    return { ok: false, error: { code: 'SESSION_ID_REUSED', message: 'The server handed out a session id that is already dead' } };
  }
  const ordinal = tracker.ordinals + 1;
  const current: SessionRecord = { ...(id === undefined ? {} : { id }), ordinal, revision, startedAtMs: nowMs, lastActivityAtMs: nowMs };
  return { ok: true, tracker: { ...tracker, current, ordinals: ordinal } };
}

/**
 * Declares the session with this ordinal dead: it stops being current, and its id is
 * remembered so that it is never adopted (hence never sent) again. Another ordinal is a no-op.
 *
 * @example
 * tracker = markDead(tracker, failedOrdinal);
 */
export function markDead(tracker: SessionTracker, ordinal: number): SessionTracker {
  const { current } = tracker;
  if (current?.ordinal !== ordinal) return tracker;
  const dead = current.id === undefined ? tracker.dead : [...tracker.dead, current.id].slice(-DEAD_IDS_KEPT);
  return { ordinals: tracker.ordinals, dead };
}

/**
 * The session id to put on the next request, if any.
 *
 * @example
 * const id = sessionIdToSend(tracker); // undefined before the first session and after a loss
 */
export function sessionIdToSend(tracker: SessionTracker): string | undefined {
  const id = tracker.current?.id;
  return id !== undefined && !tracker.dead.includes(id) ? id : undefined;
}

/**
 * Records an exchange on the current session.
 *
 * @example
 * tracker = touch(tracker, now);
 */
export function touch(tracker: SessionTracker, nowMs: number): SessionTracker {
  return tracker.current ? { ...tracker, current: { ...tracker.current, lastActivityAtMs: nowMs } } : tracker;
}

/**
 * Whether a call that failed on session `failedOrdinal` must start a re-initialization, or
 * can replay on a session that another call already opened. This is how concurrent calls
 * that meet the same dead session share one re-initialization.
 *
 * @example
 * needsReinitialize(tracker, 1) // false once session 2 exists
 */
export function needsReinitialize(tracker: SessionTracker, failedOrdinal: number): boolean {
  return tracker.current === undefined || tracker.current.ordinal <= failedOrdinal;
}

/**
 * Whether the current session has been idle for at least `idleBudgetMs`, so that it is
 * better replaced before the next call than discovered dead by it.
 *
 * @example
 * if (isIdleBeyond(tracker, now, 7_200_000)) startNewSession();
 */
export function isIdleBeyond(tracker: SessionTracker, nowMs: number, idleBudgetMs: number): boolean {
  const current = tracker.current;
  return current !== undefined && nowMs - current.lastActivityAtMs >= idleBudgetMs;
}
