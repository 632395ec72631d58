import type { Observation, Operation } from '@mcp-resilience/core';
import type { PostBody } from './messages.ts';

/**
 * One request for the call loop ({@link CallRunner}): as the application's SDK sent it, or one of the engine's own.
 *
 * @example
 * const request: CallRequest = { url, init: { method: 'POST', headers, body: text }, body: readPostBody(text), operation: { method: 'tools/list' } };
 */
export interface CallRequest {
  readonly url: string;
  /** With its method in capitals, and its headers as the engine's own copy (never changed: each attempt copies what it changes). */
  readonly init: RequestInit & { readonly method: string; readonly headers: Headers };
  /** A POST's body, read once. */
  readonly body?: PostBody;
  readonly operation: Operation;
  /** Told once when the call is over (its answer read, or it failed): how the session knows it is in use. */
  readonly done?: () => void;
  /** Counted as one call in flight on its session already (it must not find itself "in use"). */
  readonly entered?: boolean;
  /**
   * One of the engine's own requests for its lineage (an `initialize`, a restore, a DELETE): sent
   * as built, with no session logic (never prepared, stamped or taken for a session loss), its
   * 2xx handed back unread; a give-up is thrown untold (the call waiting on it tells `gave-up`).
   */
  readonly own?: boolean;
}

/**
 * What one attempt came to: the response to hand on, or what was observed for core to classify
 * (with the response, the refusal's text, the fetch's error, and the session id it carried).
 *
 * @example
 * const attempt: Attempt = { observation: { kind: 'stream-ended', sessionIdSent: true } };
 */
export type Attempt =
  | { readonly answer: Response }
  | { readonly observation: Observation; readonly response?: Response; readonly text?: string; readonly cause?: unknown; readonly sessionId?: string | undefined };
