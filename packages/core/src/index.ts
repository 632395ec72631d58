/**
 * @mcp-resilience/core — the pure decisions behind an MCP client that survives session
 * churn: no I/O, no timers, no clock and no randomness of its own.
 *
 * @example
 * import { classify, decide, FRESH_CALL } from '@mcp-resilience/core';
 * const verdict = classify({ kind: 'http', status: 404, revision: '2025-11-25', sessionIdSent: true, body });
 * const action = decide({ verdict, call: FRESH_CALL, operation: { method: 'tools/list' }, nowMs: Date.now(), random: Math.random() });
 * // action.type === 'reinitialize-and-replay'
 *
 * @module
 */
export { backoffDelay, createBackoff, equalJitter, fullJitter, noJitter, type Backoff, type Jitter } from './backoff.ts';
export { sendPhase, type Blocked } from './blocked.ts';
export { failedFetch, sessionIdUnread, unreadSessionId } from './cors.ts';
export { classify, type ClassifyOptions } from './classify.ts';
export { advance, createRetryPolicy, decide, FRESH_CALL, type Action, type CallState, type RetryPolicy } from './decide.ts';
export { invalidOption } from './check-option.ts';
export { defined, type Defined, type Loose } from './defined.ts';
export { diagnoseLoss, type LossCause, type LossFacts } from './diagnose.ts';
export type { SessionGoneDialect } from './dialects.ts';
export {
  ERROR_CODES, isResilienceError, ResilienceError, resilienceCodeOf, SURFACED_ERROR_CODE, type ErrorCode, type ErrorInfo,
} from './errors.ts';
export { normalizeTrace, type EventType, type NormalizedEvent, type ResilienceEvent } from './events.ts';
export { lossReport, type ExchangeNote, type LossReport } from './loss-report.ts';
export type { Observation, RequestFacts } from './observation.ts';
export { redactSessionId } from './redact-session-id.ts';
export { isReplaySafe, type Operation, type ReplayPolicy, type ToolAnnotations, type ToolTrust } from './replay-safety.ts';
export { serverUnreachable, type RestartWait } from './restart-wait.ts';
export { parseRetryAfter, retryAfterMs } from './retry-after.ts';
export { canRetry, createRetryBudget, recordCall, recordRetry, type RetryBudget, type RetryBudgetState } from './retry-budget.ts';
export { isSessionful, KNOWN_REVISIONS, revisionTraits } from './revisions.ts';
export { sessionChange, type Negotiated, type SessionChange } from './session-change.ts';
export {
  abandonReinitialize, adoptSession, beginReinitialize, isIdleBeyond, markDead, NO_SESSION, recoveryStep, touch, type SessionTracker,
} from './session-tracker.ts';
export {
  createsTask, DEFAULT_TASK_POLL, followTask, isUnknownTask, nextTaskStep, readTask, taskLost, taskMode, type TaskFacts,
  type TaskLossCause, type TaskPollPolicy, type TaskStatus,
} from './tasks.ts';
export { unrecognisedAnswer } from './unrecognised.ts';
export type { Verdict } from './verdict.ts';
