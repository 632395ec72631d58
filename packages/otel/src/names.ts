/**
 * The names this package reports under, in the style of OpenTelemetry's semantic conventions:
 * metrics under `mcp.client.*`, attributes under `mcp.*` (with the conventions' own
 * `mcp.method.name`, `mcp.protocol.version`, `error.type` and `http.response.status_code`
 * where they fit), span events under `mcp.resilience.*`. Metric attributes are few-valued
 * (causes, methods, codes): a session ordinal is never one, so they stay cheap to store.
 *
 * @example
 * reader.collect().then(({ resourceMetrics }) => find(resourceMetrics, METRIC.sessionLosses));
 */
export const METRIC = Object.freeze({
  /** Counter: sessions opened (the first, and each one that replaced another). */
  sessionStarts: 'mcp.client.session.starts',
  /** Counter: sessions found gone, by cause and dialect. */
  sessionLosses: 'mcp.client.session.losses',
  /** Counter: sessions opened to replace another, by reason (`lost`, `idle`). */
  reinitializations: 'mcp.client.session.reinitializations',
  /** Counter: calls sent again on a new session (and standalone streams reopened). */
  replays: 'mcp.client.replays',
  /** Counter: waits before sending a call again on the same session (429, 503, other 5xx, refused). */
  backoffs: 'mcp.client.backoffs',
  /** Histogram (s): how long each of those waits was. */
  backoffDelay: 'mcp.client.backoff.delay',
  /** Counter: broken response streams resumed with `Last-Event-ID`. */
  resumptions: 'mcp.client.stream.resumptions',
  /** Counter: requests whose outcome was unknown, sent again because that was safe. */
  reissues: 'mcp.client.reissues',
  /** Waits for a server that refused connections (a restart) to listen again, by how they ended (`mcp.server_wait.outcome`). */
  serverWaits: 'mcp.client.server_waits',
  /** Counter: calls the engine gave up on, by `error.type` (the typed error's code). */
  gaveUp: 'mcp.client.gave_up',
  /** Histogram (s): from a session found gone to the call sent again on its replacement. */
  recoveryDuration: 'mcp.client.session.recovery.duration',
  /** Counter: tasks that outlived their session (polled on the new one). */
  tasksSurvived: 'mcp.client.tasks.survived',
  /** Counter: tasks the server no longer knows, by cause. */
  tasksLost: 'mcp.client.tasks.lost',
  /** Counter: refusals no "session gone" dialect knows, on a request that carried a session. */
  unrecognisedAnswers: 'mcp.client.unrecognised_answers',
});

/**
 * Attribute names. Session ordinals (1, 2, … in the order the engine opened them) appear on
 * span events only; a raw session id appears nowhere, because the engine's events carry none.
 *
 * @example
 * point.attributes[ATTRIBUTE.lossCause] // 'evicted-while-idle'
 */
export const ATTRIBUTE = Object.freeze({
  method: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  errorType: 'error.type',
  httpStatus: 'http.response.status_code',
  rpcErrorCode: 'rpc.jsonrpc.error_code',
  lossCause: 'mcp.session.loss.cause',
  lossDialect: 'mcp.session.loss.dialect',
  suspectedServerBug: 'mcp.session.loss.suspected_server_bug',
  reinitializationReason: 'mcp.session.reinitialization.reason',
  replayStream: 'mcp.replay.stream',
  verdict: 'mcp.backoff.verdict',
  taskLossCause: 'mcp.task.loss.cause',
  taskMayStillRun: 'mcp.task.may_still_run',
  taskRecreatable: 'mcp.task.recreatable',
  serverWaitOutcome: 'mcp.server_wait.outcome',
  /** Span events only: the session's ordinal, never its id. */
  session: 'mcp.resilience.session',
  sessionFrom: 'mcp.resilience.session.from',
  sessionTo: 'mcp.resilience.session.to',
  task: 'mcp.resilience.task',
  attempt: 'mcp.resilience.attempt',
  delayMs: 'mcp.resilience.delay_ms',
  serverWaitLimitMs: 'mcp.resilience.server_wait.limit_ms',
  serverWaitAttempts: 'mcp.resilience.server_wait.attempts',
  serverWaitedMs: 'mcp.resilience.server_wait.waited_ms',
  sessionAgeMs: 'mcp.resilience.session.age_ms',
  idleMs: 'mcp.resilience.session.idle_ms',
  serverUptimeSeconds: 'mcp.resilience.server.uptime_s',
  /** JSON of the loss report of a session dropped while in use (no ids in it). */
  lossReport: 'mcp.resilience.loss_report',
  restoredSubscriptions: 'mcp.resilience.restored.subscriptions',
  restoredLogLevel: 'mcp.resilience.restored.log_level',
  revisionFrom: 'mcp.resilience.revision.from',
  revisionTo: 'mcp.resilience.revision.to',
  changedCapabilities: 'mcp.resilience.changed_capabilities',
  answerMessage: 'mcp.resilience.answer.message',
  answerText: 'mcp.resilience.answer.text',
});

/** The prefix of every span event's name: `mcp.resilience.session_lost`, `mcp.resilience.backed_off`, … */
export const SPAN_EVENT_PREFIX = 'mcp.resilience.';

/**
 * The span event name of an engine event type: its type with `_` for `-`, under
 * {@link SPAN_EVENT_PREFIX}.
 *
 * @example
 * spanEventName('session-lost') // 'mcp.resilience.session_lost'
 */
export function spanEventName(type: string): string {
  return `${SPAN_EVENT_PREFIX}${type.replaceAll('-', '_')}`;
}
