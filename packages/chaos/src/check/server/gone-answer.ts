import { shown } from './mcp-talk.ts';
import { failed, passed, skipped, type Verdict } from './server-catalogue.ts';
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
 * Judges the POST answer to a dead session id by its status, as the spec does: 404, whatever
 * the body (`undefined` when it is so). The body is judged by `judgeGoneJsonRpc` (JSON-RPC's
 * rules) and `judgeGoneBody` (the seed's).
 *
 * @example
 * postGoneProblem({ status: 400, … }); // '400 {"jsonrpc":"2.0",…}: not 404'
 */
export function postGoneProblem(post: Exchange): string | undefined {
  return post.status === 404 ? undefined : `${shown(post)}: not 404`;
}

/**
 * What JSON-RPC 2.0 asks of a 404's body, as two verdicts: a JSON-RPC error object, and the request's id echoed in it.
 *
 * @example
 * const { body, id }: JsonRpcVerdicts = judgeGoneJsonRpc([{ reply: post, id: 7 }]);
 */
export interface JsonRpcVerdicts {
  readonly body: Verdict;
  readonly id: Verdict;
}

/**
 * Judges the 404s to dead session ids (each with the id of the request it answered) against
 * JSON-RPC 2.0: the body is a response object with an `error` (`gone-jsonrpc-body`), and that
 * error's `id` is the request's, not `null`, since the request's id could be read
 * (`gone-jsonrpc-id`; skipped when there is no JSON-RPC error to read). Answers that are not 404
 * are left to the status checks (skipped here when none is).
 *
 * @example
 * judgeGoneJsonRpc([{ reply: post, id: 7 }]).id.status; // 'failed' for `"id": null`
 */
export function judgeGoneJsonRpc(answers: readonly { readonly reply: Exchange; readonly id: number }[]): JsonRpcVerdicts {
  const gone = answers.filter((a) => a.reply.status === 404);
  if (gone.length === 0) {
    const none = skipped('no dead session id was answered 404: the status checks say what came back');
    return { body: none, id: none };
  }
  const errors = gone.map((a) => ({ ...a, error: a.reply.messages.find((m) => m.jsonrpc === '2.0' && typeof m.error === 'object' && m.error !== null) }));
  const bodiless = errors.find((e) => e.error === undefined);
  const body = bodiless ? failed(`a dead session id was answered ${shown(bodiless.reply)}: no JSON-RPC error object`)
    : passed(`${gone.length} answer${gone.length === 1 ? '' : 's'} 404 with a JSON-RPC error object`);
  const readable = errors.filter((e) => e.error !== undefined);
  if (readable.length === 0) return { body, id: skipped('no 404 carried a JSON-RPC error: there is no id to read') };
  const wrong = readable.find((e) => e.error!.id !== e.id);
  const id = wrong ? failed(`${shown(wrong.reply)}: the JSON-RPC error carries id ${JSON.stringify(wrong.error!.id ?? null)}, not the request's ${wrong.id}`)
    : passed(`the JSON-RPC error${readable.length === 1 ? '' : 's'} carried the request's id (${readable.map((e) => e.id).join(', ')})`);
  return { body, id };
}

/** Why a GET or DELETE answer to a dead id is wrong (`undefined` when it is 404, or 405 as on a live session). */
function otherGoneProblem(reply: Exchange, live405: boolean): string | undefined {
  if (reply.status === 404 || (reply.status === 405 && live405)) return undefined;
  return `${reply.status}: not 404${reply.status === 405 ? ' (405, but a live session is not answered 405)' : ''}`;
}

/**
 * Judges the answers to a session id the server does not have (`what`: "never issued", "ended by
 * DELETE", …) by their status, as the spec's rule is: 404 on POST, GET and DELETE; a GET or
 * DELETE may be 405 when the server answers a live session's so too. The body is not judged here.
 *
 * @example
 * judgeDeadId(answers, 'an id never issued', { get405: false, delete405: false });
 */
export function judgeDeadId(answers: DeadIdAnswers, what: string, live: LiveMethods): Verdict {
  const problems = [
    ['POST', postGoneProblem(answers.post)],
    ['GET', otherGoneProblem(answers.get, live.get405)],
    ['DELETE', otherGoneProblem(answers.del, live.delete405)],
  ].filter((p): p is [string, string] => p[1] !== undefined);
  if (problems.length) return failed(`${what}: ${problems.map(([method, why]) => `${method} → ${why}`).join('; ')}`);
  return passed(`${what}: POST → 404, GET → ${answers.get.status}, DELETE → ${answers.del.status}`);
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
