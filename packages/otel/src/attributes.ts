import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { EventType, ResilienceEvent } from '@mcp-resilience/core';
import { ATTRIBUTE as A } from './names.ts';

type EventOf<T extends EventType> = Extract<ResilienceEvent, { type: T }>;
/** One attribute taken from a field of an event of type `T`, encoded when the field is not a plain value. */
type Rule<T extends EventType> = {
  [F in keyof EventOf<T> & string]: readonly [name: string, field: F, encode?: (value: EventOf<T>[F]) => AttributeValue | undefined];
}[keyof EventOf<T> & string];
/** The attributes of each event type: every type is listed, so one added to core must be mapped here deliberately. */
type Rules = { readonly [T in EventType]: readonly Rule<T>[] };

const attempt = [[A.attempt, 'attempt'], [A.delayMs, 'delayMs']] as const;
const isTrue = (value: boolean | undefined) => value === true;
const json = (value: object | undefined) => value && JSON.stringify(value);
const list = (value: readonly string[]) => [...value];
const revisionFrom = (revision: { readonly from: string } | undefined) => revision?.from;
const revisionTo = (revision: { readonly to: string } | undefined) => revision?.to;

/**
 * Metric attributes: the few-valued facts only (cause, dialect, method, code, status, verdict),
 * never an ordinal, a count, a time or a server's text, so that each metric has a small, fixed
 * set of series.
 */
const METRIC_RULES: Rules = {
  'session-started': [[A.protocolVersion, 'revision']],
  'session-lost': [[A.method, 'method'], [A.lossCause, 'cause'], [A.lossDialect, 'dialect'], [A.suspectedServerBug, 'suspectedServerBug']],
  'session-reinitialized': [[A.reinitializationReason, 'reason']],
  'session-changed': [],
  'state-restored': [],
  replayed: [[A.method, 'method'], [A.replayStream, 'stream', isTrue]],
  'backed-off': [[A.method, 'method'], [A.verdict, 'verdict'], [A.httpStatus, 'status']],
  resumed: [[A.method, 'method']],
  reissued: [[A.method, 'method']],
  'server-wait-started': [[A.method, 'method']],
  'server-wait-ended': [[A.method, 'method'], [A.serverWaitOutcome, 'outcome']],
  'gave-up': [[A.method, 'method'], [A.errorType, 'code']],
  'task-survived': [],
  'task-lost': [[A.method, 'method'], [A.taskLossCause, 'cause'], [A.taskMayStillRun, 'mayStillRun'], [A.taskRecreatable, 'recreatable']],
  'unrecognised-answer': [[A.method, 'method'], [A.httpStatus, 'status'], [A.rpcErrorCode, 'code']],
};

/**
 * What span events add: the details of one call rather than of a series. Session ordinals,
 * never ids; what an unrecognised answer said (core has already redacted any session id in it).
 */
const SPAN_RULES: Rules = {
  'session-started': [[A.session, 'session']],
  'session-lost': [
    [A.session, 'session'], [A.sessionAgeMs, 'sessionAgeMs'], [A.idleMs, 'idleMs'], [A.serverUptimeSeconds, 'serverUptimeSeconds'],
    [A.lossReport, 'report', json],
  ],
  'session-reinitialized': [[A.sessionFrom, 'from'], [A.sessionTo, 'to']],
  'session-changed': [
    [A.sessionFrom, 'from'], [A.sessionTo, 'to'], [A.revisionFrom, 'revision', revisionFrom], [A.revisionTo, 'revision', revisionTo],
    [A.changedCapabilities, 'capabilities', list],
  ],
  'state-restored': [[A.session, 'session'], [A.restoredSubscriptions, 'subscriptions'], [A.restoredLogLevel, 'logLevel']],
  replayed: [[A.session, 'session']],
  'backed-off': attempt,
  resumed: attempt,
  reissued: attempt,
  'server-wait-started': [[A.serverWaitLimitMs, 'limitMs']],
  'server-wait-ended': [[A.serverWaitAttempts, 'attempts'], [A.serverWaitedMs, 'waitedMs']],
  'gave-up': [],
  'task-survived': [[A.task, 'task'], [A.sessionFrom, 'from'], [A.session, 'session']],
  'task-lost': [[A.task, 'task'], [A.session, 'session']],
  'unrecognised-answer': [[A.answerMessage, 'message'], [A.answerText, 'text']],
};

function apply(rules: Rules, event: ResilienceEvent, into: Record<string, AttributeValue>): Record<string, AttributeValue> {
  const fields = event as unknown as Record<string, unknown>;
  for (const [name, field, encode] of rules[event.type] as readonly Rule<EventType>[]) {
    const raw = fields[field];
    const value = encode ? (encode as (value: unknown) => AttributeValue | undefined)(raw) : (raw as AttributeValue | undefined);
    if (value !== undefined) into[name] = value;
  }
  return into;
}

/**
 * The attributes a metric point of `event` carries (see {@link METRIC_RULES}).
 *
 * @example
 * metricAttributes({ type: 'gave-up', method: 'tools/call', code: 'OUTCOME_UNKNOWN' })
 * // { 'mcp.method.name': 'tools/call', 'error.type': 'OUTCOME_UNKNOWN' }
 */
export function metricAttributes(event: ResilienceEvent): Attributes {
  return apply(METRIC_RULES, event, {});
}

/**
 * The attributes of the span event for `event`: those of {@link metricAttributes}, and the
 * details of that one call: session ordinals (never ids), attempts, waits, ages, what was
 * restored or changed, what an unrecognised answer said.
 *
 * @example
 * spanAttributes({ type: 'replayed', session: 2, method: 'tools/call' })
 * // { 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false, 'mcp.resilience.session': 2 }
 */
export function spanAttributes(event: ResilienceEvent): Attributes {
  return apply(SPAN_RULES, event, apply(METRIC_RULES, event, {}));
}
