import type { Attributes } from '@opentelemetry/api';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { ATTRIBUTE as A } from './names.ts';

/** Sets `name` when `value` is defined. */
function put(into: Record<string, string | number | boolean | string[]>, name: string, value: string | number | boolean | readonly string[] | undefined): void {
  if (value !== undefined) into[name] = Array.isArray(value) ? [...value] : (value as string | number | boolean);
}

/**
 * The attributes a metric point of `event` carries: the few-valued facts only (cause, dialect,
 * method, code, status, verdict), never an ordinal, a count or a time, so that each metric has
 * a small, fixed set of series.
 *
 * @example
 * metricAttributes({ type: 'gave-up', method: 'tools/call', code: 'OUTCOME_UNKNOWN' })
 * // { 'mcp.method.name': 'tools/call', 'error.type': 'OUTCOME_UNKNOWN' }
 */
export function metricAttributes(event: ResilienceEvent): Attributes {
  const out: Record<string, string | number | boolean | string[]> = {};
  if ('method' in event) put(out, A.method, event.method);
  switch (event.type) {
    case 'session-started':
      put(out, A.protocolVersion, event.revision);
      break;
    case 'session-lost':
      put(out, A.lossCause, event.cause);
      put(out, A.lossDialect, event.dialect);
      put(out, A.suspectedServerBug, event.suspectedServerBug);
      break;
    case 'session-reinitialized':
      put(out, A.reinitializationReason, event.reason);
      break;
    case 'replayed':
      put(out, A.replayStream, event.stream === true);
      break;
    case 'backed-off':
      put(out, A.verdict, event.verdict);
      put(out, A.httpStatus, event.status);
      break;
    case 'gave-up':
      put(out, A.errorType, event.code);
      break;
    case 'task-lost':
      put(out, A.taskLossCause, event.cause);
      put(out, A.taskMayStillRun, event.mayStillRun);
      put(out, A.taskRecreatable, event.recreatable);
      break;
    case 'unrecognised-answer':
      put(out, A.httpStatus, event.status);
      put(out, A.rpcErrorCode, event.code);
      break;
    case 'session-changed':
    case 'state-restored':
    case 'resumed':
    case 'reissued':
    case 'task-survived':
      break;
    default:
      unknownEvent(event);
  }
  return out;
}

/**
 * The attributes of the span event for `event`: those of {@link metricAttributes}, and the
 * details that belong to one call rather than to a series: session ordinals (never ids),
 * attempts, waits, ages, what was restored or changed, what an unrecognised answer said
 * (core has already redacted any session id in it).
 *
 * @example
 * spanAttributes({ type: 'replayed', session: 2, method: 'tools/call' })
 * // { 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false, 'mcp.resilience.session': 2 }
 */
export function spanAttributes(event: ResilienceEvent): Attributes {
  const out = metricAttributes(event) as Record<string, string | number | boolean | string[]>;
  if ('session' in event) put(out, A.session, event.session);
  if ('from' in event) put(out, A.sessionFrom, event.from);
  if ('to' in event) put(out, A.sessionTo, event.to);
  if ('attempt' in event) put(out, A.attempt, event.attempt);
  if ('delayMs' in event) put(out, A.delayMs, event.delayMs);
  switch (event.type) {
    case 'session-lost':
      put(out, A.sessionAgeMs, event.sessionAgeMs);
      put(out, A.idleMs, event.idleMs);
      put(out, A.serverUptimeSeconds, event.serverUptimeSeconds);
      if (event.report) put(out, A.lossReport, JSON.stringify(event.report));
      break;
    case 'session-changed':
      put(out, A.revisionFrom, event.revision?.from);
      put(out, A.revisionTo, event.revision?.to);
      put(out, A.changedCapabilities, event.capabilities);
      break;
    case 'state-restored':
      put(out, A.restoredSubscriptions, event.subscriptions);
      put(out, A.restoredLogLevel, event.logLevel);
      break;
    case 'task-survived':
    case 'task-lost':
      put(out, A.task, event.task);
      break;
    case 'unrecognised-answer':
      put(out, A.answerMessage, event.message);
      put(out, A.answerText, event.text);
      break;
    default:
      break;
  }
  return out;
}

/** Compile-time exhaustiveness: an event type added to core must be mapped here deliberately. */
function unknownEvent(_event: never): void {}
