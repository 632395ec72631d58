import type { ErrorInfo } from './errors.ts';
import { isSessionful } from './revisions.ts';

/** The response header a cross-origin MCP server must expose for a browser client to keep its session. */
export const EXPOSE_SESSION_ID_FIX = 'Access-Control-Expose-Headers: Mcp-Session-Id';

/** What the runtime saw of an `initialize` answer: the facts the hidden-session-id rule needs. */
export interface InitializeAnswerFacts {
  /** The revision the answer negotiated. */
  readonly revision: string;
  readonly status: number;
  /** Whether the answer carried an `initialize` result. */
  readonly hasResult: boolean;
  /** Whether an `Mcp-Session-Id` could be read off the response. */
  readonly sessionIdReadable: boolean;
  /**
   * Whether the runtime hides response headers the server did not expose (a browser reading a
   * cross-origin response under CORS). Only the runtime knows; elsewhere it is `false`.
   */
  readonly headersHidden: boolean;
}

/**
 * The error for a session id the runtime hid from the client: a sessionful `initialize`
 * answered 200 with a result, cross-origin, with no `Mcp-Session-Id` readable. Without it every
 * later request would go without the session and the server would answer 400 ("No valid session
 * ID provided"); this names the fix instead. `undefined` when the facts say nothing was hidden.
 *
 * @example
 * hiddenSessionId({ revision: '2025-11-25', status: 200, hasResult: true, sessionIdReadable: false, headersHidden: true })
 * // { code: 'SESSION_ID_HIDDEN', message: '… Access-Control-Expose-Headers: Mcp-Session-Id …', details: { … } }
 */
export function hiddenSessionId(facts: InitializeAnswerFacts): ErrorInfo | undefined {
  const { revision, status, hasResult, sessionIdReadable, headersHidden } = facts;
  if (!headersHidden || sessionIdReadable || !hasResult || status !== 200 || !isSessionful(revision)) return undefined;
  return {
    code: 'SESSION_ID_HIDDEN',
    message: `Mcp-Session-Id is not readable cross-origin (${revision}): the server must send ${EXPOSE_SESSION_ID_FIX}`,
    details: { revision, fix: EXPOSE_SESSION_ID_FIX },
  };
}

/** What a fetch that failed without an answer means, as far as the runtime can tell. */
export type FailedFetch =
  /** The runtime was offline: nothing went out. */
  | { readonly kind: 'offline'; readonly notSent: true; readonly message: string }
  /** Online, yet no answer could be read: a CORS refusal, a failed preflight, a refused or broken connection alike. */
  | { readonly kind: 'blocked-or-unreachable'; readonly notSent: false; readonly message: string };

/**
 * What a fetch that failed without an answer (a browser's `TypeError: Failed to fetch`) means,
 * from whether the runtime was online. A browser reads a CORS refusal, a failed preflight, a
 * refused connection and a broken one alike, so online it is "blocked or unreachable", never a
 * server failure; offline, the request provably did not go out.
 *
 * @example
 * failedFetch({ online: true }).kind // 'blocked-or-unreachable'
 * failedFetch({ online: false }).notSent // true
 */
export function failedFetch(facts: { readonly online: boolean }): FailedFetch {
  return facts.online
    ? {
      kind: 'blocked-or-unreachable', notSent: false,
      message: 'blocked or unreachable (CORS, network)',
    }
    : { kind: 'offline', notSent: true, message: 'offline: not sent' };
}
