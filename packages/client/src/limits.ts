/**
 * The engine's limits, named once. Every wait and every read of the engine is bounded by one
 * of these (or by an option that defaults to one).
 *
 * @module
 */

/** The most of an error response read: enough for any JSON-RPC error. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/** The most of an answer the engine reads itself (an `initialize` may carry long instructions): what the SDK reads, within reason. */
export const ANSWER_LIMIT = 16 * 1024 * 1024;

/** The default bound on each of the engine's own requests (a re-initialization, a restore, a DELETE): `requestDeadlineMs`. */
export const DEFAULT_REQUEST_DEADLINE_MS = 20_000;

/** The exchanges a session keeps for a bug report. */
export const EXCHANGES_KEPT = 20;

/** The longest a refusal being read holds the other requests of its session (until it is classified). */
export const HOLD_CAP_MS = 2_000;
