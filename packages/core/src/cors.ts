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
 * Whether the session id of an `initialize` answer may have been hidden from the client: a
 * sessionful `initialize` answered 200 with a result, cross-origin, with no `Mcp-Session-Id`
 * readable. A browser cannot tell that from a server that runs without sessions, so the client
 * goes on without one and lets the next answer to a request sent without one decide
 * ({@link unreadSessionId}).
 *
 * @example
 * sessionIdUnread({ revision: '2025-11-25', status: 200, hasResult: true, sessionIdReadable: false, headersHidden: true }) // true
 */
export function sessionIdUnread(facts: InitializeAnswerFacts): boolean {
  return facts.headersHidden && !facts.sessionIdReadable && facts.hasResult && facts.status === 200 && isSessionful(facts.revision);
}

/** What the next answer to a request sent without a session id, after one was unread, proves. */
export type UnreadSessionId =
  /** 400, the spec's answer of a server that requires a session: the id was hidden; the error names the fix. */
  | { readonly kind: 'hidden'; readonly error: ErrorInfo }
  /** Answered (2xx): the server runs without sessions; nothing was hidden. */
  | { readonly kind: 'sessionless' }
  /** Anything else (429, 5xx, 401, …) proves neither. */
  | { readonly kind: 'undecided' };

/**
 * Reads the answer to a request sent without a session id after an `initialize` whose id was
 * unread ({@link sessionIdUnread}): a 400 proves the server wanted the session the browser hid
 * (`SESSION_ID_HIDDEN`, naming `Access-Control-Expose-Headers: Mcp-Session-Id`, instead of the
 * server's "No valid session ID provided"); a 2xx proves it runs without sessions.
 *
 * @example
 * unreadSessionId({ revision: '2025-11-25', status: 400 }).kind // 'hidden'
 * unreadSessionId({ revision: '2025-11-25', status: 202 }).kind // 'sessionless'
 */
export function unreadSessionId(facts: { readonly revision: string; readonly status: number }): UnreadSessionId {
  const { revision, status } = facts;
  if (status >= 200 && status < 300) return { kind: 'sessionless' };
  if (status !== 400) return { kind: 'undecided' };
  return {
    kind: 'hidden',
    error: {
      code: 'SESSION_ID_HIDDEN',
      message: `Mcp-Session-Id is not readable cross-origin (${revision}): the server must send ${EXPOSE_SESSION_ID_FIX}`,
      details: { revision, status, fix: EXPOSE_SESSION_ID_FIX },
    },
  };
}

/** What a fetch that failed without an answer means, as far as the runtime can tell. */
export type FailedFetch =
  /** The runtime was offline when the request started, and stayed so: nothing went out. */
  | { readonly kind: 'offline'; readonly notSent: true; readonly message: string }
  /** Online when the request started, offline when it failed: it may have left before the network went. */
  | { readonly kind: 'went-offline'; readonly notSent: false; readonly message: string }
  /** Online, yet no answer could be read: a CORS refusal, a failed preflight, a refused or broken connection alike. */
  | { readonly kind: 'blocked-or-unreachable'; readonly notSent: false; readonly message: string };

/**
 * What a fetch that failed without an answer (a browser's `TypeError: Failed to fetch`) means,
 * from whether the runtime was offline when the request started (read before calling `fetch`)
 * and whether it is online now (or came online at any time during the request). A browser reads
 * a CORS refusal, a failed preflight, a refused connection and a broken one alike, so online it
 * is "blocked or unreachable", never a server failure. Offline is proof of "not sent" only when
 * it held from the start: a device that lost its network after sending reads offline too, and
 * that request may have run (a `create_order` must not be sent again on that word).
 *
 * @example
 * failedFetch({ offlineAtStart: false, online: true }).kind     // 'blocked-or-unreachable'
 * failedFetch({ offlineAtStart: true, online: false }).notSent  // true
 * failedFetch({ offlineAtStart: false, online: false }).notSent // false: it went offline during the request
 */
export function failedFetch(facts: { readonly offlineAtStart: boolean; readonly online: boolean }): FailedFetch {
  if (facts.online) return { kind: 'blocked-or-unreachable', notSent: false, message: 'blocked or unreachable (CORS, network)' };
  return facts.offlineAtStart
    ? { kind: 'offline', notSent: true, message: 'offline: not sent' }
    : { kind: 'went-offline', notSent: false, message: 'offline since the request started: maybe sent' };
}
