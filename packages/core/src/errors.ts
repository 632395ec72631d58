/**
 * String codes of every error this project raises.
 *
 * @example
 * const code: ErrorCode | undefined = resilienceCodeOf(error);
 * if (code === 'OUTCOME_UNKNOWN') checkBeforeRetrying();
 */
export type ErrorCode =
  /** The call's session was lost and the call is not sent again: a second loss after its one replay, or a message with nothing to replay. */
  | 'SESSION_LOST'
  /** A new session could not be opened in place of a lost one (the `initialize` was refused, unanswered, or never sent by this client): `details.reason` says which. */
  | 'REINITIALIZE_FAILED'
  /** The request may or may not have run, and sending it again is not safe. */
  | 'OUTCOME_UNKNOWN'
  /** Retries on the same session ran out of attempts or of total delay. */
  | 'RETRY_EXHAUSTED'
  /** The server refused connections (down, restarting) until the call's wait for it ran out (`restartWait.maxWaitMs`). */
  | 'SERVER_UNREACHABLE'
  /** The server asked for a wait longer than the configured cap. */
  | 'RETRY_AFTER_TOO_LONG'
  /** The fleet-wide ratio of retries to calls is spent; the call is not retried. */
  | 'RETRY_BUDGET_EXHAUSTED'
  /** The response was not JSON-RPC over JSON or SSE (an HTML page from a proxy, say). */
  | 'MALFORMED_RESPONSE'
  /** The server handed out a session id that had already been declared dead. */
  | 'SESSION_ID_REUSED'
  /** A new session negotiated another revision or other capabilities than the old one. */
  | 'SESSION_CHANGED'
  /** The application's `onSessionRestored` hook failed on the new session: the call is not replayed. */
  | 'SESSION_RESTORE_FAILED'
  /** The server's `Mcp-Session-Id` was hidden from the client (CORS without `Access-Control-Expose-Headers: Mcp-Session-Id`). */
  | 'SESSION_ID_HIDDEN'
  /** The engine was closed: its waits ended, and it takes no more calls. */
  | 'ENGINE_CLOSED'
  /** An option had a value outside its range. */
  | 'INVALID_OPTION'
  /** A platform binding (a Durable Object namespace, a KV store) is missing or is not the kind asked for. */
  | 'INVALID_BINDING'
  /** This runtime lacks what the call needs (an API, a permission to generate code): `details.needs` names it. */
  | 'RUNTIME_UNSUPPORTED'
  /** An optional peer package (the official MCP SDK) is not installed: `details.package` names it. */
  | 'PEER_MISSING'
  /** The server answered one of the engine's own requests (one made for the application's hook) with a JSON-RPC error: `details.rpcCode`, `details.data`. */
  | 'RPC_ERROR'
  /** The runtime did not permit the request to be sent (Deno without `--allow-net` for the host); never retried. */
  | 'NOT_PERMITTED'
  /** The server no longer knows a task (its session was lost, it restarted, or it discarded the task): never re-created silently. */
  | 'TASK_LOST'
  /** Polling stopped while the task was still running: the wait cap or the task's TTL ran out. The task may still finish. */
  | 'TASK_UNFINISHED'
  /** The task ended `cancelled`, and not at this caller's request. */
  | 'TASK_CANCELLED'
  /** The caller gave up on the call (its SDK timed it out or cancelled it): nothing of it is sent again, and every wait for it ends. */
  | 'CALL_CANCELLED';

/**
 * A serializable description of an error: what decisions carry, what vectors compare.
 *
 * @example
 * const info: ErrorInfo = { code: 'SESSION_LOST', message: 'The session was lost', details: { replays: 1 } };
 * throw new ResilienceError(info);
 */
export interface ErrorInfo {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

const BRAND = Symbol.for('mcp-resilience.error');

/**
 * The one error class of the project. Recognize it with {@link isResilienceError}, which
 * works across duplicate copies of the package; `instanceof` does not.
 *
 * @example
 * throw new ResilienceError({ code: 'SESSION_LOST', message: 'session lost after replay' }, { cause });
 */
export class ResilienceError extends Error {
  declare readonly code: ErrorCode;
  declare readonly details: Readonly<Record<string, unknown>>;
  readonly [BRAND] = true;

  constructor(info: ErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.code = info.code;
    this.details = info.details ?? {};
    this.name = 'ResilienceError';
  }
}

/**
 * Whether a value is a {@link ResilienceError} (from any copy of this package), optionally
 * with a given code.
 *
 * @example
 * if (isResilienceError(err, 'OUTCOME_UNKNOWN')) showUnknownOutcome(err.details);
 */
export function isResilienceError(value: unknown, code?: ErrorCode): value is ResilienceError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true &&
    (code === undefined || (value as ResilienceError).code === code)
  );
}

/**
 * The JSON-RPC error code with which the engine ends a call it gave up on inside a response
 * stream the SDK was already reading (the SDK then rejects with its own error type);
 * `data.code` carries the {@link ErrorCode}.
 *
 * @example
 * // What the SDK rejects with when the engine gives up inside a stream it was reading:
 * if (error.code === SURFACED_ERROR_CODE) console.log(error.data.code); // 'OUTCOME_UNKNOWN', …
 */
export const SURFACED_ERROR_CODE = -32090;

/**
 * Every {@link ErrorCode}, for validating codes that arrive as data.
 *
 * @example
 * ERROR_CODES.includes(value as ErrorCode)
 */
export const ERROR_CODES = [
  'SESSION_LOST', 'REINITIALIZE_FAILED', 'OUTCOME_UNKNOWN', 'RETRY_EXHAUSTED', 'SERVER_UNREACHABLE', 'RETRY_AFTER_TOO_LONG', 'RETRY_BUDGET_EXHAUSTED',
  'MALFORMED_RESPONSE', 'SESSION_ID_REUSED', 'SESSION_CHANGED', 'SESSION_RESTORE_FAILED', 'SESSION_ID_HIDDEN', 'ENGINE_CLOSED',
  'INVALID_OPTION', 'INVALID_BINDING', 'RUNTIME_UNSUPPORTED', 'PEER_MISSING', 'RPC_ERROR', 'NOT_PERMITTED', 'TASK_LOST', 'TASK_UNFINISHED', 'TASK_CANCELLED',
  'CALL_CANCELLED',
] as const satisfies readonly ErrorCode[];
// Fails to compile when ErrorCode gains a code this list does not name.
const everyCode: [Exclude<ErrorCode, (typeof ERROR_CODES)[number]>] extends [never] ? true : false = true;
void everyCode;

/**
 * The {@link ErrorCode} of a failure, in either form it reaches an application: a
 * {@link ResilienceError}, or the SDK's JSON-RPC error with code {@link SURFACED_ERROR_CODE}
 * and the code in `data.code`. Anything else gives `undefined`.
 *
 * @example
 * try { await client.callTool(call); }
 * catch (error) { if (resilienceCodeOf(error) === 'OUTCOME_UNKNOWN') checkBeforeRetrying(); }
 */
export function resilienceCodeOf(error: unknown): ErrorCode | undefined {
  if (isResilienceError(error)) return error.code;
  const surfaced = error as { code?: unknown; data?: { code?: unknown } } | null;
  const code = surfaced?.data?.code;
  return surfaced?.code === SURFACED_ERROR_CODE && (ERROR_CODES as readonly unknown[]).includes(code) ? (code as ErrorCode) : undefined;
}
