import { blockedError } from './blocked.ts';
import { backoffDelay, createBackoff, DEFAULT_BACKOFF, unitRandom, type Backoff } from './backoff.ts';
import { atLeast, checkedOptions, COUNT } from './check-option.ts';
import type { ErrorCode, ErrorInfo } from './errors.ts';
import { isReplaySafe, type Operation, type ReplayPolicy, type ToolTrust } from './replay-safety.ts';
import { createRestartWait, DEFAULT_RESTART_WAIT, nextServerWait, type RestartWait, type ServerWaitStep } from './restart-wait.ts';
import { retryAfterMs, type RetryAfter } from './retry-after.ts';
import { revisionTraits } from './revisions.ts';
import type { Verdict } from './verdict.ts';

/**
 * How one logical call may be retried. Immutable.
 *
 * @example
 * const policy: RetryPolicy = createRetryPolicy({ replay: 'never' });
 * decide({ verdict, call: FRESH_CALL, operation, policy, nowMs, random });
 */
export interface RetryPolicy {
  readonly backoff: Backoff;
  /** The longest `Retry-After` or SSE `retry` honoured; a longer one ends the call with `RETRY_AFTER_TOO_LONG`. */
  readonly retryAfterCapMs: number;
  /** Stream resumptions allowed for one call. */
  readonly maxResumes: number;
  readonly replay: ReplayPolicy;
  readonly tools: ToolTrust;
  /** How a call waits for a server that refuses connections (a restart): apart from `backoff` and the retry budget. */
  readonly restartWait: RestartWait;
}

/**
 * Backoff defaults (30 s of waiting per call, inside the SDK's 60 s request timeout),
 * `Retry-After` honoured up to 20 s, 3 resumptions, replay only when safe, a refusing server
 * waited for up to 20 s.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  backoff: DEFAULT_BACKOFF, retryAfterCapMs: 20_000, maxResumes: 3, replay: 'safe', tools: {}, restartWait: DEFAULT_RESTART_WAIT,
};

/**
 * A checked policy from defaults and overrides (throws `INVALID_OPTION`).
 *
 * @example
 * const policy = createRetryPolicy({ backoff: { maxAttempts: 2 }, tools: { readOnlyTools: ['search'] } });
 */
export function createRetryPolicy(
  overrides: Partial<Omit<RetryPolicy, 'backoff' | 'restartWait'>> & {
    readonly backoff?: Partial<Backoff>; readonly restartWait?: Partial<RestartWait>;
  } = {},
): RetryPolicy {
  // The backoff and the restart wait are checked first, then the policy's own options.
  const nested = { backoff: createBackoff(overrides.backoff), restartWait: createRestartWait(overrides.restartWait) };
  return checkedOptions('', DEFAULT_RETRY_POLICY, { ...overrides, ...nested }, {
    retryAfterCapMs: atLeast(0),
    maxResumes: COUNT,
  });
}

/**
 * What one logical call has used so far.
 *
 * @example
 * let call: CallState = FRESH_CALL;
 * call = advance(call, { type: 'retry', delayMs: 300, attempt: 1 }); // { replays: 0, retries: 1, resumes: 0, delayMs: 300 }
 */
export interface CallState {
  /** Re-sends on a new session after a session loss (at most one). */
  readonly replays: number;
  /** Retries and re-issues after a delay. */
  readonly retries: number;
  readonly resumes: number;
  /** Total delay waited so far (backoffs, re-issues, resumes; not the wait for a refusing server). */
  readonly delayMs: number;
  /** Attempts made after a refused connection (absent: none). */
  readonly waits?: number;
  /** When the wait for a refusing server must be over, fixed at the call's first refusal (absent: no refusal yet). */
  readonly waitUntilMs?: number;
}

/**
 * A call that has not failed yet.
 *
 * @example
 * decide({ verdict: { kind: 'unavailable' }, call: FRESH_CALL, operation: { method: 'tools/list' }, nowMs: 0, random: 0 })
 * // { type: 'retry', delayMs: 100, attempt: 1 }
 */
export const FRESH_CALL: CallState = Object.freeze({ replays: 0, retries: 0, resumes: 0, delayMs: 0 });

/**
 * What to do next with a call:
 * - `deliver`: hand the response (success or final error) to the caller untouched.
 * - `reinitialize-and-replay`: the session is dead; open a new one, then send the request again.
 * - `retry`: send the same request on the same session after `delayMs` (the server did not process it).
 * - `resume`: continue the broken stream with GET + `Last-Event-ID` after `delayMs`.
 * - `reissue`: send the request again as a new request (a new JSON-RPC id) after `delayMs`.
 * - `wait-for-server`: the connection was refused (nothing was sent): send the same request
 *   again after `delayMs`, a server that restarts being waited for until `untilMs`.
 * - `give-up`: fail the call with `error` (the session's fate is the tracker's: a lost session is
 *   declared dead by whoever saw the loss, not by this action).
 *
 * @example
 * const action: Action = decide({ verdict, call, operation, nowMs, random });
 * if (action.type === 'give-up') throw new ResilienceError(action.error);
 */
export type Action =
  | { readonly type: 'deliver' }
  | { readonly type: 'reinitialize-and-replay' }
  | { readonly type: 'retry' | 'reissue'; readonly delayMs: number; readonly attempt: number }
  | { readonly type: 'resume'; readonly lastEventId: string; readonly delayMs: number; readonly attempt: number }
  | ServerWaitStep
  | { readonly type: 'give-up'; readonly error: ErrorInfo };

/** Everything {@link decide} looks at. */
export interface DecisionInput {
  readonly verdict: Verdict;
  readonly call: CallState;
  readonly operation: Operation;
  readonly revision?: string;
  readonly policy?: RetryPolicy;
  readonly nowMs: number;
  /** A random number in [0, 1) for jitter. */
  readonly random: number;
  /** The fleet-wide retry budget's answer (see `canRetry`); default true. */
  readonly retryBudgetAllows?: boolean;
}

/** The server's `Retry-After` is a floor; up to this share of it is added to spread clients. */
const RETRY_AFTER_SPREAD = 0.1;

const MESSAGES: Record<Exclude<ErrorCode, 'SERVER_UNREACHABLE' | 'NOT_PERMITTED' | 'INVALID_OPTION' | 'REINITIALIZE_FAILED' | 'INVALID_BINDING' | 'RUNTIME_UNSUPPORTED' | 'PEER_MISSING' | 'RPC_ERROR' | 'SESSION_ID_REUSED' | 'SESSION_CHANGED' | 'SESSION_RESTORE_FAILED' | 'ENGINE_CLOSED' | 'SESSION_ID_HIDDEN' | 'CALL_CANCELLED' | `TASK_${string}`>, string> = {
  SESSION_LOST: 'The session was lost and the call cannot be replayed',
  OUTCOME_UNKNOWN: 'The request may have run, and it is not safe to send again',
  RETRY_EXHAUSTED: 'The retries ran out',
  RETRY_AFTER_TOO_LONG: 'The server asked for too long a wait',
  RETRY_BUDGET_EXHAUSTED: "The client's retry budget is spent",
  MALFORMED_RESPONSE: 'The response was neither JSON nor SSE',
};

function giveUp(code: keyof typeof MESSAGES, details: Record<string, unknown>): Action {
  return { type: 'give-up', error: { code, message: MESSAGES[code], details } };
}

function later(input: DecisionInput, policy: RetryPolicy, type: 'retry' | 'reissue', retryAfter?: RetryAfter): Action {
  const { call, verdict, random } = input;
  const { backoff } = policy;
  const requested = retryAfterMs(retryAfter, input.nowMs);
  if (requested !== undefined && requested > policy.retryAfterCapMs) {
    return giveUp('RETRY_AFTER_TOO_LONG', { verdict: verdict.kind, retryAfterMs: requested, capMs: policy.retryAfterCapMs });
  }
  if (call.retries >= backoff.maxAttempts) return giveUp('RETRY_EXHAUSTED', { verdict: verdict.kind, attempts: call.retries });
  const remainingMs = backoff.maxTotalDelayMs - call.delayMs;
  let delayMs: number;
  if (requested === undefined) {
    delayMs = backoffDelay(backoff, call.retries, random);
    if (delayMs > remainingMs) return giveUp('RETRY_EXHAUSTED', { verdict: verdict.kind, attempts: call.retries, delayMs: call.delayMs });
  } else {
    // The server's own wait must fit in what the call may still wait; the spread only fills what is left.
    if (requested > remainingMs) return giveUp('RETRY_AFTER_TOO_LONG', { verdict: verdict.kind, retryAfterMs: requested, remainingMs });
    delayMs = Math.min(requested + Math.floor(requested * RETRY_AFTER_SPREAD * unitRandom(random)), remainingMs);
  }
  if (input.retryBudgetAllows === false) return giveUp('RETRY_BUDGET_EXHAUSTED', { verdict: verdict.kind });
  return { type, delayMs, attempt: call.retries + 1 };
}

/**
 * Decides what to do with a classified request. The invariants of the design hold here:
 * one replay per call after a session loss, and a second loss is `SESSION_LOST`; 429 and a 503
 * the server vouched for retried on the same session within attempts, total delay and the
 * `Retry-After` cap; other 4xx delivered untouched; a request with an unknown outcome (5xx, a
 * gateway's bare 503, a broken connection or stream) sent again, under a new id, only when the
 * replay policy says it is safe, and never after the caller's own timeout; no session logic on a revision without sessions.
 *
 * @example
 * decide({ verdict: { kind: 'rate-limited', retryAfter: { kind: 'delay', ms: 1000 } },
 *          call: FRESH_CALL, operation: { method: 'tools/list' }, nowMs: 0, random: 0 })
 * // { type: 'retry', delayMs: 1000, attempt: 1 }
 */
export function decide(input: DecisionInput): Action {
  const { verdict, call, operation } = input;
  const policy = input.policy ?? DEFAULT_RETRY_POLICY;
  const safe = () => isReplaySafe(operation, policy.replay, policy.tools);
  const traits = revisionTraits(input.revision);
  switch (verdict.kind) {
    case 'session-gone':
      if (!traits.sessions) return { type: 'deliver' };
      // Replayed once already; or a POSTed response answered a request of the dead session: there
      // is nothing to replay it to (not replayed yet: `replays` is 0). The standalone stream is
      // different: it is opened again on the new session.
      if (call.replays >= 1 || (operation.method === undefined && operation.stream !== true)) {
        return giveUp('SESSION_LOST', { dialect: verdict.dialect, replays: call.replays });
      }
      if (verdict.outcome === 'unknown' && !safe()) return giveUp('OUTCOME_UNKNOWN', { dialect: verdict.dialect });
      return { type: 'reinitialize-and-replay' };
    case 'rate-limited':
    case 'unavailable':
      return later(input, policy, 'retry', verdict.retryAfter);
    case 'not-processed': {
      // Refused: nothing was sent, so any call may wait for the server (a restart), on its own budget.
      const step = nextServerWait(policy.restartWait, { waits: call.waits ?? 0, untilMs: call.waitUntilMs }, input.nowMs, input.random);
      return 'type' in step ? step : { type: 'give-up', error: step };
    }
    case 'blocked':
      return { type: 'give-up', error: blockedError(verdict.needs) };
    case 'server-error':
      if (!verdict.retryable) return { type: 'deliver' };
      // It may have run, and may still be running under its id: a safe call goes again under a new id.
      return safe() ? later(input, policy, 'reissue', verdict.retryAfter) : giveUp('OUTCOME_UNKNOWN', { status: verdict.status });
    case 'broken-stream': {
      const { retryMs, lastEventId } = verdict;
      const canResume = verdict.resumable && lastEventId !== undefined && traits.resumable && call.resumes < policy.maxResumes;
      // A server `retry` above the cap is not waited for: the call goes on as if the stream could not resume.
      const delayMs = retryMs !== undefined && retryMs > policy.retryAfterCapMs
        ? undefined
        : (retryMs ?? backoffDelay(policy.backoff, call.resumes, input.random));
      if (canResume && delayMs !== undefined && call.delayMs + delayMs <= policy.backoff.maxTotalDelayMs) {
        return { type: 'resume', lastEventId, delayMs, attempt: call.resumes + 1 };
      }
      return safe() ? later(input, policy, 'reissue') : giveUp('OUTCOME_UNKNOWN', { verdict: verdict.kind });
    }
    case 'outcome-unknown':
      // After the caller's own deadline nobody waits for an answer: it is never sent again.
      return verdict.reason !== 'timeout' && safe() ? later(input, policy, 'reissue') : giveUp('OUTCOME_UNKNOWN', { reason: verdict.reason });
    case 'malformed':
      return giveUp('MALFORMED_RESPONSE', { contentType: verdict.contentType });
    default:
      // Every other verdict is delivered as it came (a kind added later fails to compile until it is placed).
      verdict satisfies { readonly kind: 'success' | 'client-error' | 'method-not-found' | 'version-unsupported' };
      return { type: 'deliver' };
  }
}

/**
 * The call's state after an action has been carried out.
 *
 * @example
 * let call = FRESH_CALL;
 * call = advance(call, decide({ verdict, call, operation, nowMs, random }));
 */
export function advance(call: CallState, action: Action): CallState {
  switch (action.type) {
    case 'reinitialize-and-replay':
      return { ...call, replays: call.replays + 1 };
    case 'retry':
    case 'reissue':
      return { ...call, retries: call.retries + 1, delayMs: call.delayMs + action.delayMs };
    case 'resume':
      return { ...call, resumes: call.resumes + 1, delayMs: call.delayMs + action.delayMs };
    case 'wait-for-server':
      return { ...call, waits: (call.waits ?? 0) + 1, waitUntilMs: action.untilMs };
    default:
      return call;
  }
}
