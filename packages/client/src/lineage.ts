import type { ErrorInfo, ExchangeNote, Negotiated, Operation, SessionChange, SessionTracker, Verdict } from '@mcp-resilience/core';
import type { ClientHeaders } from './client-headers.ts';
import type { InFlightCalls } from './in-flight-calls.ts';
import type { InitializeAnswer } from './initialize-answer.ts';
import type { RpcMessage } from './messages.ts';
import type { RefusalHold } from './refusal-hold.ts';
import type { SessionState } from './session-state.ts';
import type { StoredSession } from './session-store.ts';
import type { TaskTracker } from './task-tracker.ts';

/** A request of the client's, kept to send again: its body and headers. */
export interface Remembered {
  readonly text: string;
  readonly headers: Headers;
}

/** What the parts of a lineage ask of its recovery (see `SessionRecovery`). */
export interface Recovery {
  readonly underWay: Promise<void> | undefined;
  lost(ordinal: number, verdict: Extract<Verdict, { kind: 'session-gone' }>, method: string | undefined): void;
  prepare(sdkSentSession: boolean, firstAttempt: boolean, selfCounted: boolean): Promise<void> | undefined;
  recover(failedOrdinal: number, why?: 'lost' | 'idle'): Promise<void>;
  end(id: string | undefined): void;
  delete(id: string): Promise<void>;
}

/** What the parts of a lineage ask of its copy in the session store (see `SessionPersistence`). */
export interface Persistence {
  save(opened?: InitializeAnswer): void;
  resume(stored: StoredSession): void;
  forget(endedId?: string): Promise<void>;
}

/**
 * One client's lineage of sessions as its parts see it (the call loop, its recovery, its copy in
 * the store): the vocabulary they share, declared here so that none of them imports the object
 * that holds them all (`EndpointSession`, which implements it). The words are defined in
 * docs/architecture.md.
 *
 * @example
 * function stampFor(lineage: Lineage, headers: Headers): Headers { return lineage.stamp(headers); }
 */
export interface Lineage {
  readonly url: string;
  /** Core's tracker of the lineage's sessions (the current one, the dead ones, a re-initialization under way). */
  readonly tracker: SessionTracker;
  /** What the current session negotiated, once an `initialize` was answered (or a stored session resumed). */
  readonly negotiated: Negotiated | undefined;
  /** The client's own `initialize` and `notifications/initialized`: a new session is opened with them. */
  readonly initializeRequest: Remembered | undefined;
  readonly initializedRequest: Remembered | undefined;
  /** Set when a new session negotiated something else: why every call fails (`SESSION_CHANGED`) until the application connects again. */
  readonly changed: ErrorInfo | undefined;
  /** The application ended the session (its DELETE succeeded): no session logic, its late requests go as they are. */
  readonly terminated: boolean;
  /** The application's DELETE of the session is on its way: a session it is ending is not the engine's to mend either. */
  readonly ending: boolean;
  /** The server answered this lineage (or a stored session of it was resumed): a refused connection is a restart. */
  readonly reached: boolean;
  /** Calls in flight and standalone streams open: a session with either is in use, never idle. */
  readonly callsInFlight: number;
  readonly streamsOpen: number;
  /** The current session's last exchanges (method and status), for a bug report. */
  readonly exchanges: readonly ExchangeNote[];
  /** What the client set on its session (subscriptions, log level), to restore on the next one. */
  readonly state: SessionState;
  readonly tasks: TaskTracker;
  /** The client's credentials as it sends them now, and a refusal of them. */
  readonly clientHeaders: ClientHeaders;
  /** Refusals on the current session being read: until they are classified, no request that carries its id goes out. */
  readonly refusals: RefusalHold;
  /** The client's calls in flight, by id: a `notifications/cancelled` ends the one it names. */
  readonly inFlight: InFlightCalls;
  readonly recovery: Recovery;
  readonly persistence: Persistence;
  readonly sessionful: boolean;
  readonly revision: string | undefined;
  readonly ordinal: number;
  /** Its number among the clients of the fetch, from the second on (2, 3, …), which its events carry; none for the first. */
  readonly client: number | undefined;
  readonly ownsStore: boolean;
  /** Session `ordinal` is dead: its id is never sent again. */
  markDead(ordinal: number): void;
  /** Session `failed` is dead, and a re-initialization opens the next (`reinitializeAbandoned` when it could not). */
  reinitializing(failed: number): void;
  reinitializeAbandoned(): void;
  wireIdOf(id: string | number): string | number;
  resumed(stored: { readonly initialize: Remembered; readonly initialized?: Remembered; readonly negotiated: Negotiated; readonly sessionId?: string }): void;
  save(): void;
  markChanged(change: SessionChange): ErrorInfo;
  stamp(headers: Headers): Headers;
  touch(): void;
  /** An exchange on the current session (method and status), sent with the client's credentials of `version`. */
  noteExchange(method: string, status: number | 'network', version: number): void;
  answered(request: RpcMessage, answer: RpcMessage, on?: number, operation?: Operation): RpcMessage | undefined;
  notice(message: RpcMessage): void;
  learn(response: Response, reason?: { from: number; why: 'lost' | 'idle' }): Promise<boolean>;
  answeredWithoutId(status: number): ErrorInfo | undefined;
}

/** One of the engine's own requests for a lineage, through the call loop (see `SessionRecovery`). */
export type OwnSend = (init: RequestInit & { method: string; headers: Headers; signal: AbortSignal }, method: string | undefined) => Promise<Response>;
