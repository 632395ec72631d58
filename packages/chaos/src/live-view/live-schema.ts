/**
 * The messages of `{control}/live`, the chaos server's live feed over a WebSocket: JSON text
 * frames, one message each. The first is always `hello` (the schema version and the state now,
 * with the recent past), then one event per thing that happens, and `stopped` last when the server
 * stops in order. Times (`atMs`) are
 * milliseconds on one clock: since this server started (a `restart` fault does not reset it).
 * Sessions are named by ordinal only, never by id.
 *
 * Shared by the server and the page that draws it: types and constants only, no `node:` and no DOM.
 *
 * @module
 */

/** The schema version `hello` carries; a change that breaks a reader increments it. */
export const LIVE_SCHEMA_VERSION = 1;

/** Why a session ended: an `evict` fault, the idle budget, capacity pressure, a restart, or the client's DELETE. */
export type SessionEndReason = 'evicted' | 'idle' | 'capacity' | 'restart' | 'deleted';

/**
 * How a request ended, as the server answered it: `ok` (2xx), `session-gone` (the dialect's
 * answer to a session it no longer has), `slow-down` (429, 503), `server-error` (other 5xx),
 * `client-error` (other 4xx), `dropped` (its response stream broken by a `drop-stream` fault).
 */
export type RequestOutcome = 'ok' | 'session-gone' | 'slow-down' | 'server-error' | 'client-error' | 'dropped';

/** Every outcome with what it means, in the order a legend shows them. */
export const REQUEST_OUTCOMES: readonly { readonly outcome: RequestOutcome; readonly meaning: string }[] = [
  { outcome: 'ok', meaning: 'answered (2xx)' },
  { outcome: 'session-gone', meaning: 'session gone (the dialect\'s 404/400)' },
  { outcome: 'slow-down', meaning: '429 / 503: slow down' },
  { outcome: 'server-error', meaning: 'other 5xx' },
  { outcome: 'client-error', meaning: 'other 4xx (a GET refused with 405, …)' },
  { outcome: 'dropped', meaning: 'response stream dropped' },
];

/** A fault as `POST {control}/faults` took it (`kind` and its fields, as documented in the README). */
export type LiveFault = { readonly kind: string } & Readonly<Record<string, unknown>>;

/** The faults in force (as in `GET {control}/state`'s `faults`). */
export interface LiveFaultsInForce {
  readonly dialect: string;
  readonly idleBudgetMs: number | null;
  readonly capacity: number | null;
  readonly pendingStatus: readonly { readonly status: number; readonly remaining: number }[];
  readonly pendingDrops: readonly { readonly afterEvents: number; readonly eventIds: boolean; readonly remaining: number }[];
}

/** A session opened: the server minted it for an `initialize`. */
export interface SessionOpenedMessage {
  readonly type: 'session-opened';
  readonly atMs: number;
  readonly session: number;
}

/** A session ended; `atMs` is when it ended (for `idle`: when it crossed the budget, which the server notices on its next request). */
export interface SessionEndedMessage {
  readonly type: 'session-ended';
  readonly atMs: number;
  readonly session: number;
  readonly reason: SessionEndReason;
}

/** A fault applied (from the control API, the command line or a schedule); `untilMs` for `refuse` and a restart's `downMs`. */
export interface FaultMessage {
  readonly type: 'fault';
  readonly atMs: number;
  readonly fault: LiveFault;
  readonly untilMs?: number;
}

/**
 * A request arrived (an entry of the wire log). `session` is the ordinal of the session id it
 * carried, when the server knows it (alive or ended); `unknownSession` when it carried an id
 * this server never issued (or has forgotten).
 */
export interface RequestMessage {
  readonly type: 'request';
  readonly atMs: number;
  readonly seq: number;
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly rpcId?: string | number | null;
  readonly session?: number;
  readonly unknownSession?: true;
}

/**
 * The answer to request `seq` is over (sent, or its stream closed): its status, its outcome, the
 * fault that shaped it (`status 429`, `session-gone amdahl`, `drop-stream`), and the ordinal of
 * the session it opened (an `initialize`).
 */
export interface ResponseMessage {
  readonly type: 'response';
  readonly atMs: number;
  readonly seq: number;
  readonly status: number;
  readonly outcome: RequestOutcome;
  readonly fault?: string;
  readonly opened?: number;
}

/** `POST {control}/reset`: faults, ledger and wire log cleared (sessions stay); `faults` as they are now. */
export interface ResetMessage {
  readonly type: 'reset';
  readonly atMs: number;
  readonly faults: LiveFaultsInForce;
}

/** One thing that happened. */
export type LiveEvent = SessionOpenedMessage | SessionEndedMessage | FaultMessage | RequestMessage | ResponseMessage | ResetMessage;

/**
 * The first message: the schema version, the server's mode, the sessions alive now, the faults in
 * force, and the last events (up to 1,000, oldest first) so that a late viewer is not blank.
 */
export interface HelloMessage {
  readonly type: 'hello';
  readonly version: typeof LIVE_SCHEMA_VERSION;
  readonly atMs: number;
  readonly mode: 'legacy' | 'modern' | 'proxy';
  readonly sessions: readonly { readonly session: number; readonly openedAtMs: number }[];
  readonly faults: LiveFaultsInForce;
  readonly backlog: readonly LiveEvent[];
}

/**
 * The last message, when the server stops in order (`stop()`, SIGTERM, its pool's end, a `DELETE`
 * of its control URL): the connection then closes with {@link LIVE_STOPPED_CLOSE_CODE}. A connection
 * that ends without it was lost (the process died, the network broke), and a viewer may try again.
 *
 * @example
 * socket.onmessage = ({ data }) => JSON.parse(data).type === 'stopped' && showTheEnd();
 */
export interface StoppedMessage {
  readonly type: 'stopped';
  readonly atMs: number;
}

/**
 * The close code after `stopped`: 1001, "going away".
 *
 * @example
 * socket.onclose = ({ code }) => (code === LIVE_STOPPED_CLOSE_CODE ? showTheEnd() : tryAgainSoon());
 */
export const LIVE_STOPPED_CLOSE_CODE = 1001;

/** Any message of the feed. */
export type LiveMessage = HelloMessage | LiveEvent | StoppedMessage;
