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
  tracker: SessionTracker;
  negotiated: Negotiated | undefined;
  initializeRequest: Remembered | undefined;
  initializedRequest: Remembered | undefined;
  changed: ErrorInfo | undefined;
  terminated: boolean;
  reached: boolean;
  callsInFlight: number;
  streamsOpen: number;
  ending: number;
  exchanges: ExchangeNote[];
  readonly state: SessionState;
  readonly tasks: TaskTracker;
  readonly clientHeaders: ClientHeaders;
  readonly refusals: RefusalHold;
  readonly inFlight: InFlightCalls;
  readonly recovery: Recovery;
  readonly persistence: Persistence;
  readonly sessionful: boolean;
  readonly revision: string | undefined;
  readonly ordinal: number;
  readonly ownsStore: boolean;
  wireIdOf(id: string | number): string | number;
  resumed(id: string | undefined): void;
  save(): void;
  markChanged(change: SessionChange): ErrorInfo;
  stamp(headers: Headers): Headers;
  touch(): void;
  noteExchange(method: string, status: number | 'network'): void;
  answered(request: RpcMessage, answer: RpcMessage, on?: number, operation?: Operation): RpcMessage | undefined;
  notice(message: RpcMessage): void;
  learn(response: Response, reason?: { from: number; why: 'lost' | 'idle' }): Promise<boolean>;
  answeredWithoutId(status: number): ErrorInfo | undefined;
}

/** One of the engine's own requests for a lineage, through the call loop (see `SessionRecovery`). */
export type OwnSend = (init: RequestInit & { method: string; headers: Headers; signal: AbortSignal }, method: string | undefined) => Promise<Response>;
