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

/** The most client lineages one fetch remembers by default (`lineages.max`): past it, the least recently used one is forgotten. */
export const DEFAULT_MAX_LINEAGES = 1_000;

/** How long one fetch remembers a lineage no client used, by default (`lineages.idleMs`): one hour. */
export const DEFAULT_LINEAGE_IDLE_MS = 3_600_000;

/** The session ids a lineage answers to: its first (an SDK may send it for the client's life) and its latest ones. */
export const IDS_PER_LINEAGE = 16;

/** Sessions their clients ended whose late requests are still recognised (their ids only). */
export const ENDED_IDS_KEPT = 256;

/** The longest the engine waits for a session store's answer (and never longer than `requestDeadlineMs`): past it, nothing is stored. */
export const STORE_DEADLINE_MS = 5_000;

/** The longest server `instructions` a store is handed: longer ones are left out of the stored session (a Web Storage or a Durable Object row is small). */
export const STORED_INSTRUCTIONS_LIMIT = 64 * 1024;
