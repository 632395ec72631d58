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
export {
  backoffDelay, createBackoff, DEFAULT_BACKOFF, equalJitter, fullJitter, noJitter, type Backoff, type Jitter,
} from './backoff.ts';
export { blockedError, sendPhase, type Blocked, type SendPhase } from './blocked.ts';
export {
  EXPOSE_SESSION_ID_FIX, failedFetch, sessionIdUnread, unreadSessionId, type FailedFetch, type InitializeAnswerFacts, type UnreadSessionId,
} from './cors.ts';
export { classify, type ClassifyOptions } from './classify.ts';
export {
  advance, createRetryPolicy, decide, DEFAULT_RETRY_POLICY, FRESH_CALL, type Action, type CallState, type DecisionInput, type RetryPolicy,
} from './decide.ts';
export { DEFAULT_BUSY_WINDOW_MS, diagnoseLoss, type Diagnosis, type LossCause, type LossFacts } from './diagnose.ts';
export { matchDialect, SESSION_GONE_DIALECTS, type DialectEvidence, type SessionGoneDialect } from './dialects.ts';
export {
  ERROR_CODES, isResilienceError, ResilienceError, resilienceCodeOf, SURFACED_ERROR_CODE, type ErrorCode, type ErrorInfo,
} from './errors.ts';
export { normalizeTrace, redactSessionId, type EventType, type NormalizedEvent, type ResilienceEvent } from './events.ts';
export { lossReport, REPORTED_EXCHANGES, type ExchangeNote, type LossReport } from './loss-report.ts';
export type { Observation, RequestFacts } from './observation.ts';
export {
  isReplaySafe, REPLAY_SAFE_METHODS, type Operation, type ReplayPolicy, type ToolAnnotations, type ToolTrust,
} from './replay-safety.ts';
export { serverUnreachable, type RestartWait } from './restart-wait.ts';
export { parseRetryAfter, retryAfterMs, type RetryAfter } from './retry-after.ts';
export {
  canRetry, createRetryBudget, DEFAULT_RETRY_BUDGET, recordCall, recordRetry, type RetryBudget, type RetryBudgetState,
} from './retry-budget.ts';
export {
  DEFAULT_REVISION, isSessionful, KNOWN_REVISIONS, revisionTraits, type Era, type RevisionTraits, type TaskSupport,
} from './revisions.ts';
export { sessionChange, type Negotiated, type SessionChange } from './session-change.ts';
export {
  abandonReinitialize, adoptSession, beginReinitialize, DEAD_IDS_KEPT, isIdleBeyond, markDead, NO_SESSION, recoveryStep, touch, type RecoveryStep, type SessionRecord, type SessionTracker,
} from './session-tracker.ts';
export {
  createsTask, DEFAULT_TASK_POLL, followTask, isUnknownTask, nextTaskStep, readTask, taskLost, taskMode, type TaskFacts, type TaskLossCause,
  type TaskPollInput, type TaskPollPolicy, type TaskStatus, type TaskStep,
} from './tasks.ts';
export { UNRECOGNISED_TEXT_LIMIT, unrecognisedAnswer, type UnrecognisedAnswer } from './unrecognised.ts';
export type { Verdict, VerdictKind } from './verdict.ts';
