import { readRpcError } from './json-rpc.ts';
import type { Observation } from './observation.ts';
import { redactSessionId } from './redact-session-id.ts';
import { revisionTraits } from './revisions.ts';
import type { Verdict } from './verdict.ts';

/**
 * A refusal that met a request carrying a session id on a sessionful revision, and that no
 * "session gone" dialect knows: maybe a server's own way of saying its session is gone. What a
 * user needs to report it, or to add it with the `dialects` option: the status and the JSON-RPC
 * code and message, or the plain text of the body, cut at {@link UNRECOGNISED_TEXT_LIMIT}
 * characters, with the session id redacted wherever the server repeated it.
 */
export interface UnrecognisedAnswer {
  readonly status: number;
  readonly code?: number;
  readonly message?: string;
  /** A body that is not a JSON-RPC error, trimmed. */
  readonly text?: string;
}

/** How much of a message or body an unrecognised answer keeps. */
export const UNRECOGNISED_TEXT_LIMIT = 200;

/** Statuses that name a cause of their own (authorization, method, media type, size, rate): never a session's end. */
const OTHER_CAUSES = [401, 403, 405, 406, 407, 411, 413, 414, 415, 429, 431];

function redacted(text: string, sessionId: string | undefined): string {
  const cut = sessionId ? text.split(sessionId).join(redactSessionId(sessionId)) : text;
  return cut.slice(0, UNRECOGNISED_TEXT_LIMIT);
}

/**
 * The unrecognised answer in a classified observation, if it is one: a 4xx (other than those
 * that name another cause) classified as a plain client error, on a request that carried
 * `sessionId` on a sessionful revision.
 *
 * @example
 * const observation = { kind: 'http', status: 400, revision: '2025-11-25', sessionIdSent: true,
 *   body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}' } as const;
 * unrecognisedAnswer(observation, classify(observation), 'abc')
 * // { status: 400, code: -32000, message: 'Bad Request: Server not initialized' }
 */
export function unrecognisedAnswer(observation: Observation, verdict: Verdict, sessionId?: string): UnrecognisedAnswer | undefined {
  if (observation.kind !== 'http' || verdict.kind !== 'client-error' || !observation.sessionIdSent) return undefined;
  const { status, body } = observation;
  if (status < 400 || status > 499 || OTHER_CAUSES.includes(status) || !revisionTraits(observation.revision).sessions) return undefined;
  const rpc = readRpcError(body);
  if (rpc) return { status, code: rpc.code, message: redacted(rpc.message, sessionId) };
  const text = typeof body === 'string' && body.trim();
  return { status, ...(text ? { text: redacted(text, sessionId) } : {}) };
}
