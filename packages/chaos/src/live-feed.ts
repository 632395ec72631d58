import { redactSessionId } from '@mcp-resilience/core';
import {
  LIVE_SCHEMA_VERSION, type HelloMessage, type LiveEvent, type LiveFault, type LiveFaultsInForce, type RequestOutcome, type SessionEndReason,
} from './live-view/live-schema.ts';
import type { WireEntry } from './wire-log.ts';

/** How many events a late viewer gets in its `hello`. */
const LIVE_BACKLOG = 1_000;
/** How many ended sessions' tags are remembered, so a request on one is drawn on its lane. */
const REMEMBERED_SESSIONS = 10_000;

/**
 * How a request ended, from its status and the fault the chaos server applied to it.
 *
 * @example
 * requestOutcome(404, 'session-gone amdahl'); // 'session-gone'
 * requestOutcome(429, 'status 429');          // 'slow-down'
 * requestOutcome(503, 'status 503 after run'); // 'server-error'
 */
function requestOutcome(status: number, fault: string | undefined): RequestOutcome {
  if (fault === 'drop-stream') return 'dropped';
  if (fault?.startsWith('session-gone')) return 'session-gone';
  if (fault?.endsWith('after run')) return 'server-error'; // it ran: a gateway's error after forwarding is no request to slow down
  if (status === 429 || status === 503) return 'slow-down';
  if (status >= 500) return 'server-error';
  if (status >= 400) return 'client-error';
  return 'ok';
}

/**
 * What a chaos server tells its live viewers: the events of the schema in
 * `live-view/live-schema.ts`, on one clock, sessions by ordinal (it sees ids only to redact them
 * into the tags it remembers), and the last {@link LIVE_BACKLOG} of them for a late viewer.
 *
 * @example
 * const feed = new LiveFeed(() => Date.now() - startedAt);
 * const stop = feed.subscribe((event) => console.log(event.type));
 * feed.sessionOpened('4f1c…', 1); // session-opened, session 1
 * stop();
 */
export class LiveFeed {
  readonly #clock: () => number;
  readonly #listeners = new Set<(event: LiveEvent) => void>();
  #backlog: LiveEvent[] = [];
  /** Redacted tag → ordinal, for sessions alive or ended (oldest forgotten first). */
  readonly #ordinals = new Map<string, number>();
  /** Request seq → the ordinal of the session it opened. */
  readonly #opened = new Map<number, number>();

  constructor(clock: () => number) {
    this.#clock = clock;
  }

  /** The feed's clock: milliseconds since the server started. */
  now(): number {
    return this.#clock();
  }

  /** Calls `listener` with every event from now on; returns how to stop. */
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The first message a viewer gets: the state now (as the server tells it) and the last events, oldest first. */
  hello(mode: HelloMessage['mode'], faults: LiveFaultsInForce, sessions: HelloMessage['sessions']): HelloMessage {
    return { type: 'hello', version: LIVE_SCHEMA_VERSION, atMs: this.now(), mode, sessions, faults, backlog: this.#backlog.slice(-LIVE_BACKLOG) };
  }

  #emit(event: LiveEvent): void {
    this.#backlog.push(event);
    if (this.#backlog.length >= LIVE_BACKLOG * 2) this.#backlog = this.#backlog.slice(-LIVE_BACKLOG); // amortized
    for (const listener of this.#listeners) listener(event);
  }

  /** A session was minted; `openedBy` is the wire entry of the request that opened it, if known. */
  sessionOpened(id: string, session: number, openedBy?: WireEntry): void {
    this.#ordinals.set(redactSessionId(id), session);
    if (this.#ordinals.size > REMEMBERED_SESSIONS) this.#ordinals.delete(this.#ordinals.keys().next().value!);
    if (openedBy) this.#opened.set(openedBy.seq, session);
    this.#emit({ type: 'session-opened', atMs: this.now(), session });
  }

  /** A session ended; `atMs` when it ended earlier than now (an idle expiry noticed late). */
  sessionEnded(session: number, reason: SessionEndReason, atMs = this.now()): void {
    this.#emit({ type: 'session-ended', atMs, session, reason });
  }

  faultApplied(fault: LiveFault, atMs: number, untilMs?: number): void {
    this.#emit({ type: 'fault', atMs, fault, ...(untilMs === undefined ? {} : { untilMs }) });
  }

  requestStarted(entry: WireEntry): void {
    const session = entry.sessionOrdinal ?? (entry.session === undefined ? undefined : this.#ordinals.get(entry.session));
    this.#emit({
      type: 'request', atMs: this.now(), seq: entry.seq, httpMethod: entry.httpMethod,
      ...(entry.rpcMethod === undefined ? {} : { rpcMethod: entry.rpcMethod }), ...(entry.rpcId === undefined ? {} : { rpcId: entry.rpcId }),
      ...(session === undefined ? {} : { session }), ...(entry.session !== undefined && session === undefined ? { unknownSession: true } : {}),
    });
  }

  requestEnded(entry: WireEntry): void {
    const status = entry.status ?? 0;
    const opened = this.#opened.get(entry.seq);
    this.#opened.delete(entry.seq);
    this.#emit({
      type: 'response', atMs: this.now(), seq: entry.seq, status, outcome: requestOutcome(status, entry.fault),
      ...(entry.fault === undefined ? {} : { fault: entry.fault }), ...(opened === undefined ? {} : { opened }),
    });
  }

  reset(faults: LiveFaultsInForce): void {
    this.#emit({ type: 'reset', atMs: this.now(), faults });
  }
}
