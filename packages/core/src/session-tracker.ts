import { defined } from './defined.ts';
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

/**
 * A client's sessions: the current one, the ids declared dead, a re-initialization under way. Immutable.
 * The id to send is `current?.id`: a dead id is never current ({@link markDead} clears it, {@link adoptSession} refuses it).
 *
 * @example
 * let tracker: SessionTracker = NO_SESSION;
 * const adopted = adoptSession(tracker, { id: 'abc', revision: '2025-11-25', nowMs: 0 });
 * if (adopted.ok) tracker = adopted.tracker;
 * headers.set('mcp-session-id', tracker.current?.id ?? ''); // never a dead id
 */
export interface SessionTracker {
  readonly current?: SessionRecord;
  /** The highest ordinal handed out so far. */
  readonly ordinals: number;
  /** Dead ids, newest last, at most {@link DEAD_IDS_KEPT}. */
  readonly dead: readonly string[];
  /** One call has started a re-initialization; the others wait for it. */
  readonly reinitializing: boolean;
}

/** How many dead ids are remembered to refuse a server that hands one out again. */
export const DEAD_IDS_KEPT = 1024;

/**
 * A client that has not started a session yet.
 *
 * @example
 * recoveryStep(NO_SESSION, 0) // 'start'
 */
export const NO_SESSION: SessionTracker = Object.freeze({ ordinals: 0, dead: [], reinitializing: false });

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
  if (tracker.dead.includes(id!)) { // never undefined: only ids are kept dead
    return { ok: false, error: { code: 'SESSION_ID_REUSED', message: 'The server reused a dead session id' } };
  }
  const ordinal = tracker.ordinals + 1;
  const current: SessionRecord = defined({ id, ordinal, revision, startedAtMs: nowMs, lastActivityAtMs: nowMs });
  return { ok: true, tracker: { ...tracker, current, ordinals: ordinal, reinitializing: false } };
}

/**
 * Declares the session with this ordinal dead: it stops being current, and its id is
 * remembered so that it is never adopted (hence never sent) again. Another ordinal is a no-op.
 *
 * @example
 * tracker = markDead(tracker, failedOrdinal);
 */
export function markDead(tracker: SessionTracker, ordinal: number): SessionTracker {
  const { current, ...rest } = tracker;
  if (current?.ordinal !== ordinal) return tracker;
  return current.id === undefined ? rest : { ...rest, dead: [...rest.dead, current.id].slice(-DEAD_IDS_KEPT) };
}

/**
 * Records an exchange on the current session.
 *
 * @example
 * tracker = touch(tracker, now);
 */
export function touch(tracker: SessionTracker, nowMs: number): SessionTracker {
  const { current } = tracker;
  return current ? { ...tracker, current: { ...current, lastActivityAtMs: nowMs } } : tracker;
}

/** What a call that met a session loss does next; see {@link recoveryStep}. */
export type RecoveryStep = 'start' | 'wait' | 'replay';

/**
 * What a call that met a session loss on session `failedOrdinal` does next:
 * - `replay`: a newer session exists already (another call opened it): send the call on it;
 * - `wait`: another call's re-initialization is under way: wait for it, then replay;
 * - `start`: this call starts the re-initialization ({@link beginReinitialize}).
 * This is how concurrent calls that meet one dead session share one re-initialization.
 *
 * @example
 * recoveryStep(tracker, 1) // 'start' for the first caller, 'wait' for the others, 'replay' once session 2 exists
 */
export function recoveryStep(tracker: SessionTracker, failedOrdinal: number): RecoveryStep {
  if (tracker.current?.ordinal! > failedOrdinal) return 'replay'; // no session: undefined > n is false
  return tracker.reinitializing ? 'wait' : 'start';
}

/**
 * Marks a re-initialization as under way; {@link adoptSession} ends it, or
 * {@link abandonReinitialize} when the `initialize` failed.
 *
 * @example
 * if (recoveryStep(tracker, failed) === 'start') tracker = beginReinitialize(markDead(tracker, failed));
 */
export function beginReinitialize(tracker: SessionTracker): SessionTracker {
  return { ...tracker, reinitializing: true };
}

/**
 * Ends a re-initialization that produced no session, so that the next caller starts anew.
 *
 * @example
 * tracker = abandonReinitialize(tracker);
 */
export function abandonReinitialize(tracker: SessionTracker): SessionTracker {
  return { ...tracker, reinitializing: false };
}

/**
 * Whether the current session has been idle for at least `idleBudgetMs`, so that it is
 * better replaced before the next call than discovered dead by it.
 *
 * @example
 * if (isIdleBeyond(tracker, now, 7_200_000)) startNewSession();
 */
export function isIdleBeyond(tracker: SessionTracker, nowMs: number, idleBudgetMs: number): boolean {
  const lastActivityAtMs = tracker.current?.lastActivityAtMs;
  return lastActivityAtMs !== undefined && nowMs - lastActivityAtMs >= idleBudgetMs;
}
