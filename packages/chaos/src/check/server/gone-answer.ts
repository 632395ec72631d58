import { shown } from './mcp-talk.ts';
import { failed, passed, type Verdict } from './server-catalogue.ts';
import type { Exchange } from './server-http.ts';

/** What the server does with a GET or DELETE on a live session: 405 means it offers none, so 405 for a dead id is no fault. */
export interface LiveMethods {
  readonly get405: boolean;
  readonly delete405: boolean;
}

/** The answers to a dead session id: the POST (with its request id), the GET and the DELETE. */
export interface DeadIdAnswers {
  readonly post: Exchange;
  readonly postId: number;
  readonly get: Exchange;
  readonly del: Exchange;
}

/**
 * Judges the POST answer to a dead session id: HTTP 404 with a JSON-RPC error whose `id` is the
 * request's (JSON-RPC 2.0: an id that could be read is echoed); `undefined` when it is so.
 *
 * @example
 * postGoneProblem({ status: 400, … }, 7); // '400 {"jsonrpc":"2.0",…}: not 404'
 */
export function postGoneProblem(post: Exchange, id: number | undefined): string | undefined {
  if (post.status !== 404) return `${shown(post)}: not 404`;
  if (id === undefined) return undefined;
  const error = post.messages.find((m) => 'error' in m);
  if (!error) return `${shown(post)}: a 404 without a JSON-RPC error body`;
  if (error.id !== id) return `${shown(post)}: the JSON-RPC error carries id ${JSON.stringify(error.id ?? null)}, not the request's ${id}`;
  return undefined;
}

/** Why a GET or DELETE answer to a dead id is wrong (`undefined` when it is 404, or 405 as on a live session). */
function otherGoneProblem(reply: Exchange, live405: boolean): string | undefined {
  if (reply.status === 404 || (reply.status === 405 && live405)) return undefined;
  return `${reply.status}: not 404${reply.status === 405 ? ' (405, but a live session is not answered 405)' : ''}`;
}

/**
 * Judges the answers to a session id the server does not have (`what`: "never issued", "ended by
 * DELETE", …): 404 on POST (with the request's id in a JSON-RPC error), GET and DELETE; a GET or
 * DELETE may be 405 when the server answers a live session's so too. `statusOnly`: the POST's
 * status is judged, not its body (`restart-404`).
 *
 * @example
 * judgeDeadId(answers, 'an id never issued', { get405: false, delete405: false });
 */
export function judgeDeadId(answers: DeadIdAnswers, what: string, live: LiveMethods, statusOnly = false): Verdict {
  const problems = [
    ['POST', postGoneProblem(answers.post, statusOnly ? undefined : answers.postId)],
    ['GET', otherGoneProblem(answers.get, live.get405)],
    ['DELETE', otherGoneProblem(answers.del, live.delete405)],
  ].filter((p): p is [string, string] => p[1] !== undefined);
  if (problems.length) return failed(`${what}: ${problems.map(([method, why]) => `${method} → ${why}`).join('; ')}`);
  return passed(`${what}: POST → 404${statusOnly ? '' : " with the request's id"}, GET → ${answers.get.status}, DELETE → ${answers.del.status}`);
}

/** The `server_uptime_seconds` of a session-gone body, when it carries one (in `error.data`). */
export function uptimeSeconds(post: Exchange): number | undefined {
  const error = post.messages.find((m) => 'error' in m)?.error as { data?: { server_uptime_seconds?: unknown } } | undefined;
  const uptime = error?.data?.server_uptime_seconds;
  return typeof uptime === 'number' && Number.isFinite(uptime) ? uptime : undefined;
}

/**
 * Judges a session-gone answer against the seed's contract: 404 with JSON-RPC error `-32000`,
 * `data.reason` `session_not_found`, `data.action` `reinitialize_and_replay_once` and a number
 * `data.server_uptime_seconds`.
 *
 * @example
 * judgeGoneBody(post).status; // 'failed' for the SDK's 404 -32001 "Session not found"
 */
export function judgeGoneBody(post: Exchange): Verdict {
  const error = post.messages.find((m) => 'error' in m)?.error as { code?: unknown; data?: Record<string, unknown> } | undefined;
  const missing = [
    post.status === 404 ? undefined : 'status 404',
    error?.code === -32000 ? undefined : 'code -32000',
    error?.data?.reason === 'session_not_found' ? undefined : 'data.reason "session_not_found"',
    error?.data?.action === 'reinitialize_and_replay_once' ? undefined : 'data.action "reinitialize_and_replay_once"',
    uptimeSeconds(post) === undefined ? 'data.server_uptime_seconds' : undefined,
  ].filter((m) => m !== undefined);
  if (missing.length) return failed(`a dead session id was answered ${shown(post)}: no ${missing.join(', ')}`);
  return passed(`404 -32000 with data.reason, data.action and server_uptime_seconds ${uptimeSeconds(post)}`);
}
