/** String codes of every error this project raises. */
export type ErrorCode =
  /** A call met a session loss again after its one replay, or its session died under it. */
  | 'SESSION_LOST'
  /** The request may or may not have run, and sending it again is not safe. */
  | 'OUTCOME_UNKNOWN'
  /** Retries on the same session ran out of attempts or of total delay. */
  | 'RETRY_EXHAUSTED'
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
  /** An option had a value outside its range. */
  | 'INVALID_OPTION';

/** A serializable description of an error: what decisions carry, what vectors compare. */
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
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  readonly [BRAND] = true;

  constructor(info: ErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'ResilienceError';
    this.code = info.code;
    this.details = info.details ?? {};
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
