import type { Backoff, ReplayPolicy, RestartWait, RetryBudget, SessionGoneDialect, ToolTrust } from '@mcp-resilience/core';
import type { LogOption } from './event-logger.ts';
import type { RpcMessage } from './messages.ts';
import type { RuntimePorts } from './ports.ts';

/** How many client lineages one fetch remembers, and for how long an unused one is kept. */
export interface LineageLimits {
  /** The most lineages remembered at once (default 1,000): past it, the least recently used one not in use is forgotten. */
  readonly max?: number;
  /** A lineage unused this long (and not in use) is forgotten (default one hour). */
  readonly idleMs?: number;
}

/**
 * What `onSessionRestored` is given: the new session (by ordinal, never by id), what it
 * negotiated, what the engine restored on it, and a way to send requests on it before any call
 * is replayed.
 *
 * @example
 * createResilientFetch({ onSessionRestored: async (ctx) => void (await ctx.request('tools/call', { name: 'login', arguments: { user } })) });
 */
export interface SessionRestoredContext {
  readonly session: number;
  /** The session it replaces. */
  readonly previous: number;
  /** `lost`: the old session was found dead; `idle`: it was replaced for being idle past `idleBudgetMs`. */
  readonly reason: 'lost' | 'idle';
  readonly revision: string;
  readonly capabilities: unknown;
  /** What the engine sent again: subscriptions and the log level. */
  readonly restored: { readonly subscriptions: number; readonly logLevel?: string };
  /**
   * Sends a request on the new session; resolves with its result, rejects with its JSON-RPC
   * error as a `ResilienceError` `RPC_ERROR` (`details.rpcCode`, `details.data`), or a failure to reach the server.
   */
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Sends a notification on the new session. */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
}

/**
 * The policy an application sets: when to replay, how to back off, how long to wait, what to
 * restore, how to be told. Every one has a default, the same in every runtime; the runtime's own
 * facts are {@link RuntimePorts}, which an adapter fills.
 *
 * @example
 * const policy: ResiliencePolicy = { replay: 'safe', backoff: { maxAttempts: 4 }, idleBudgetMs: 300_000, log: true };
 * const fetch = createResilientFetch(policy);
 */
export interface ResiliencePolicy {
  /** When a call whose outcome is unknown may be sent again (default `safe`). */
  readonly replay?: ReplayPolicy;
  /** Tools the application vouches for as read-only or idempotent, or whose annotations it trusts. */
  readonly tools?: ToolTrust;
  /**
   * One request the application vouches for as safe to repeat, besides the tool lists: a
   * predicate over the JSON-RPC request. A request whose `params._meta` carries
   * {@link IDEMPOTENCY_KEY} is vouched for without one.
   */
  readonly replayConsent?: (request: RpcMessage) => boolean;
  readonly backoff?: Partial<Backoff>;
  /** The longest `Retry-After` honoured (default 20 s). */
  readonly retryAfterCapMs?: number;
  /** A ratio of retries to calls for the whole client; `false` turns it off. */
  readonly retryBudget?: Partial<RetryBudget> | false;
  /** Replace a session idle this long before the next call instead of discovering it dead. */
  readonly idleBudgetMs?: number;
  /** The server's idle budget, when known: sharpens the diagnosis of a loss. */
  readonly serverIdleBudgetMs?: number;
  /**
   * Idle for less than this counts as busy in the diagnosis (default 60 s): a session dropped
   * that soon after an exchange, or with its stream open, is `evicted-while-busy`.
   */
  readonly busyWindowMs?: number;
  /**
   * The bound on each of the engine's own requests (a re-initialization, a restore, a DELETE) and
   * on a call's wait for a server that refuses connections (default 20 s).
   */
  readonly requestDeadlineMs?: number;
  /**
   * How a call waits for a server that refuses connections, as during a restart or a deploy. A
   * refused connection sent nothing, so every call waits, a non-idempotent `tools/call` too:
   * attempts spaced by `initialMs` (100 ms) doubling (`factor` 2) to at most `maxMs` (1 s, so a
   * call goes within about a second of the server's return), jittered (equal jitter), for at most
   * `maxWaitMs` from the call's first refusal (default and upper bound: `requestDeadlineMs`, a
   * longer one is cut to it); then
   * the call fails `SERVER_UNREACHABLE`. The caller's abort ends the wait at once, with its
   * reason. The wait has its own bound: neither `backoff` nor `retryBudget` counts it (a refused
   * connection costs the server nothing). `maxWaitMs: 0` fails a refused call at once. A bad
   * value throws `INVALID_OPTION` naming it. Told as `server-wait-started` and `server-wait-ended`.
   * Only where the runtime can tell a refusal from a broken connection (the `notSent` port: Node,
   * Deno); elsewhere a failed fetch may have been sent, and only a call safe to repeat is re-issued.
   *
   * @example
   * // Ride out deploys of up to a minute, trying every 2 s at most.
   * createResilientFetch({ requestDeadlineMs: 60_000, restartWait: { maxWaitMs: 60_000, maxMs: 2_000 } });
   */
  readonly restartWait?: Partial<RestartWait>;
  /**
   * Whether a client whose server has never answered it waits for that server too, as for a
   * restart (a server still starting beside it, in a deploy). Default `false`: a refused
   * connection before any answer (a typo'd URL, a port nothing listens on) fails at once with
   * `SERVER_UNREACHABLE` naming the URL (`details.reached: false`), as fast as the plain SDK;
   * once the server has answered, a refused connection is a restart, ridden out (`restartWait`).
   *
   * @example
   * createResilientFetch({ waitForNewServer: true }); // a sidecar that may not be listening yet
   */
  readonly waitForNewServer?: boolean;
  /**
   * Header names that carry credentials besides `Authorization`, `Cookie` and
   * `Proxy-Authorization` (an API key, say). Each is the client's, never one request's: a request
   * sent again and the engine's own requests carry the client's current value (or none, once it
   * stops sending it); a change of it counts as new credentials; no store, event or log holds it.
   *
   * @example
   * createResilientFetch({ credentialHeaders: ['X-API-Key'] });
   */
  readonly credentialHeaders?: readonly string[];
  /**
   * Whose sessions these are: the application's name for the user, tenant or agent this engine's
   * clients act for (a user id, say; never a token). With a `sessionStore`, it is part of the key
   * every session is stored under, so a stored session is only ever gone on with under the
   * identity that stored it: user B signing in after user A never continues A's session.
   * Required by `connect()` with `resumeStored` (the browser and Workers turn that on). A
   * non-empty string, else `INVALID_OPTION`.
   *
   * @example
   * const client = await connect(url, { sessionStore, resumeStored: true, identity: `user:${user.id}` });
   */
  readonly identity?: string;
  /**
   * The client renews refused credentials: its SDK transport has an auth provider
   * (`authProvider`, SDK 2.x `AuthProvider`, the AI SDK's `authProvider`), or the application
   * sends new ones after a 401. Then a 401 goes to one call, for the provider to refresh the
   * token once, and the client's other calls wait for the new credentials (at most
   * `requestDeadlineMs`) and go again with them: twenty calls meeting an expired token cost one
   * refresh. Without it (the default: a static token, an API key), every call that meets a 401
   * gets it at once, as from the plain SDK. `connect()` sets it when given an `authProvider`.
   *
   * @example
   * new StreamableHTTPClientTransport(url, { authProvider, fetch: createResilientFetch({ renewsCredentials: true }) });
   */
  readonly renewsCredentials?: boolean;
  /** More ways servers say "session gone", tried before the built-in ones. */
  readonly dialects?: readonly SessionGoneDialect[];
  /**
   * Runs on a new session once the engine has restored subscriptions and the log level, before
   * any call is replayed on it: restore the application's own state there. If it throws, the
   * calls waiting on the new session fail with `SESSION_RESTORE_FAILED` (never retried in a loop).
   */
  readonly onSessionRestored?: (context: SessionRestoredContext) => unknown;
  /** One human line per event: `true` writes to the runtime's log (stderr on Node), or give a function. */
  readonly log?: LogOption;
  /**
   * How many clients' lineages one fetch remembers (default `{ max: 1000, idleMs: 3_600_000 }`):
   * a fetch may serve many clients, each on its own sessions; one no client used for `idleMs`,
   * or the least recently used past `max`, is forgotten (never one in use). A client whose
   * lineage was forgotten goes on with its session as it is, without recovery.
   */
  readonly lineages?: LineageLimits;
}

/**
 * Options of {@link createResilientFetch}: the application's {@link ResiliencePolicy} and the
 * runtime's {@link RuntimePorts} (an adapter fills those; any given here wins). Every one has a default.
 *
 * @example
 * const fetch = createResilientFetch({ replay: 'safe', onEvent: (event) => console.log(event.type) });
 */
export interface ResilientFetchOptions extends ResiliencePolicy, RuntimePorts {}

/**
 * The `_meta` key by which one request is vouched for as safe to repeat: its value, a string, is
 * the idempotency key the server can use to run it at most once.
 *
 * @example
 * await client.callTool({ name: 'charge', arguments, _meta: { [IDEMPOTENCY_KEY]: crypto.randomUUID() } });
 */
export const IDEMPOTENCY_KEY = 'mcp-resilience/idempotency-key';
