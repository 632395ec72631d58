import { backoffDelay, equalJitter, type Jitter } from './backoff.ts';
import { atLeast, checkedOptions } from './check-option.ts';
import type { ErrorInfo } from './errors.ts';

/**
 * How one call waits for a server that refuses connections (a restart, a deploy): attempts spaced
 * by jittered, capped, growing delays until the server answers or `maxWaitMs` has passed since
 * the call's first refusal. A refused connection sent nothing, so any call may wait, a
 * non-idempotent one too. Immutable.
 *
 * @example
 * const policy = createRetryPolicy({ restartWait: { maxWaitMs: 10_000 } });
 * const wait: RestartWait = policy.restartWait; // 100 ms doubling to 1 s, for 10 s
 */
export interface RestartWait {
  /** The first delay after a refusal, at least 1 ms: a server that is down is not hammered. */
  readonly initialMs: number;
  /** The cap on one delay: once the server listens again, a waiting call goes within this long. */
  readonly maxMs: number;
  readonly factor: number;
  /** The longest one call waits, in all, for a server that refuses it; 0: not at all. */
  readonly maxWaitMs: number;
  readonly jitter: Jitter;
}

/** At most 20 s a call: the engine's default request deadline. */
export const DEFAULT_RESTART_WAIT: RestartWait = {
  initialMs: 100, maxMs: 1_000, factor: 2, maxWaitMs: 20_000, jitter: equalJitter,
};

/**
 * A restart wait from defaults and overrides, checked: throws `INVALID_OPTION` naming the
 * option (`restartWait.maxMs`, …) on a negative, non-finite or inconsistent value.
 */
export function createRestartWait(overrides: Partial<RestartWait> = {}): RestartWait {
  return checkedOptions('restartWait.', DEFAULT_RESTART_WAIT, overrides, {
    initialMs: atLeast(1),
    maxMs: [(n, w) => Number.isFinite(n) && n >= w.initialMs, 'a finite number >= initialMs'],
    factor: atLeast(1),
    maxWaitMs: atLeast(0),
    jitter: [(f) => typeof f === 'function', 'a function'],
  });
}

/**
 * The error of a call whose server still refused it at the deadline, after `attempts` attempts
 * past its first refusal (`SERVER_UNREACHABLE`).
 *
 * @example
 * throw new ResilienceError(serverUnreachable(25, 20_000));
 */
export function serverUnreachable(attempts: number, maxWaitMs: number): ErrorInfo {
  return { code: 'SERVER_UNREACHABLE', message: 'The server refused connections until the deadline', details: { attempts, maxWaitMs } };
}

/** Where a call stands in its wait for its server. */
export interface WaitState {
  /** Attempts made after a refusal so far. */
  readonly waits: number;
  /** When the wait must be over (the clock of `nowMs`), fixed at the call's first refusal. */
  readonly untilMs?: number | undefined;
}

/** Wait `delayMs`, then send again: attempt `attempt`, all of it over by `untilMs`. */
export interface ServerWaitStep {
  readonly type: 'wait-for-server';
  readonly delayMs: number;
  readonly attempt: number;
  readonly untilMs: number;
}

/**
 * The next step of a call whose connection was refused: a delay (jittered, capped at `maxMs`,
 * never past the deadline, so the last attempt goes at the deadline itself, even a fraction of
 * a ms away), or, once the deadline has come, the typed error `SERVER_UNREACHABLE`. The
 * deadline is `maxWaitMs` after the first refusal. A clock that is not a finite number ends the wait.
 */
export function nextServerWait(wait: RestartWait, state: WaitState, nowMs: number, random: number): ServerWaitStep | ErrorInfo {
  const untilMs = state.untilMs ?? nowMs + wait.maxWaitMs;
  const leftMs = untilMs - nowMs;
  if (!(leftMs > 0)) return serverUnreachable(state.waits, wait.maxWaitMs);
  const delayMs = Math.min(backoffDelay(wait, state.waits, random), leftMs);
  return { type: 'wait-for-server', delayMs, attempt: state.waits + 1, untilMs };
}
