import type { CheckName } from './scenario.ts';

/**
 * What each check asks, as the reports print it.
 *
 * @example
 * CHECK_TITLES.reinitialized; // 're-initialized without the old id'
 */
export const CHECK_TITLES: Readonly<Record<CheckName, string>> = {
  reinitialized: 're-initialized without the old id',
  'continued-in-new-session': 'the call went on in the new session',
  'replayed-once': 'replayed at most once',
  'dead-id-dropped': 'never sent a dead session id again once it read the loss',
  'one-initialize': 'one initialize for concurrent calls',
  'waited-retry-after': 'sent again, and waited at least Retry-After first',
  'retry-after-capped': 'capped a hostile Retry-After (settled within 90 % of the call timeout)',
  'no-4xx-retry': 'never retried a 4xx',
  'ran-once': 'never ran a non-idempotent call twice',
  resumed: 'resumed with Last-Event-ID',
  'stateless-2026': 'no session logic on 2026-07-28',
  'session-kept': 'kept its session (no churn, no new session)',
  'calls-answered': 'each call came to what it should, its answer on the wire',
  'no-hang': 'no call hung until its timeout',
  'token-refreshed': 'refreshed its expired token and went on with the new one',
};

/**
 * How to fix a client that fails each check: one line, printed under a failed check in client mode
 * (as docs/churn-check.md gives the server checks' fixes).
 *
 * @example
 * CHECK_HINTS['dead-id-dropped']; // 'Forget the session id as soon as …'
 */
export const CHECK_HINTS: Readonly<Record<CheckName, string>> = {
  reinitialized: 'On a 404 (or a known "session gone" 400) to a request that carried Mcp-Session-Id, drop the id and send initialize without it (MCP: the client MUST start a new session).',
  'continued-in-new-session': 'After the new initialize, send the failed call again carrying the new session id (and notifications/initialized first).',
  'replayed-once': 'Send a call again at most once after a session loss; if the replay fails too, give the caller the error (no loops).',
  'dead-id-dropped': 'Forget the session id the moment you read its 404: no ping, list or retry on it; send later requests only with the new id (a DELETE of the old id is fine).',
  'one-initialize': 'Share one re-initialization among the calls that met the same dead session (a single in-flight promise), not one initialize each.',
  'waited-retry-after': 'On 429/503 with Retry-After, wait at least that long (delta-seconds or an HTTP-date) and then send the call again on the same session.',
  'retry-after-capped': 'Cap Retry-After (a few seconds to a minute) and fail the call at once when the server asks for longer than the call has left.',
  'no-4xx-retry': 'Do not send a call again after a 4xx other than 429 (and a "session gone" 404/400): it is the server\'s answer, not churn.',
  'ran-once': 'Replay a non-idempotent call only when the server provably did not run it (404 session gone, 429, 503, refused); a broken stream after it was sent is an unknown outcome: report it.',
  resumed: 'When a response stream with event ids drops, GET the endpoint with Last-Event-ID on the same session instead of sending the call again.',
  'stateless-2026': 'On 2026-07-28 send no initialize and no Mcp-Session-Id: there are no sessions to manage.',
  'session-kept': 'Keep the session through 429s, 5xx and dropped streams, and keep an idle session alive with its open GET stream: open a new one only when the old is gone.',
  'calls-answered': 'Give the application each call\'s real answer (the echoed text) once it arrives, and a failure only where the server refused the call.',
  'no-hang': 'End every call before its timeout: a broken stream that cannot be resumed is an error to report at once, not a wait.',
  'token-refreshed': 'On a 401, refresh the access token at the token endpoint and send the request again with the new one.',
};

/**
 * Where each check's rule comes from: the MCP specification (`MCP`), the official conformance
 * suite's pending scenario (`MCP conformance`), HTTP (RFC 9110's `Retry-After`), OAuth (RFC 6749 and
 * 6750's refresh on `invalid_token`), or the seed's session contract (`seed`: this project's, what
 * a client that absorbs churn does beyond the spec).
 *
 * @example
 * CHECK_SOURCES.reinitialized; // 'MCP'
 */
export const CHECK_SOURCES: Readonly<Record<CheckName, 'MCP' | 'MCP conformance' | 'HTTP' | 'OAuth' | 'seed'>> = {
  reinitialized: 'MCP',
  'continued-in-new-session': 'MCP conformance',
  'replayed-once': 'seed',
  'dead-id-dropped': 'seed',
  'one-initialize': 'seed',
  'waited-retry-after': 'HTTP',
  'retry-after-capped': 'seed',
  'no-4xx-retry': 'seed',
  'ran-once': 'seed',
  resumed: 'MCP',
  'stateless-2026': 'MCP',
  'session-kept': 'seed',
  'calls-answered': 'seed',
  'no-hang': 'seed',
  'token-refreshed': 'OAuth',
};
