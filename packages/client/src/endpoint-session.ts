import {
  adoptSession, defined, isSessionful, markDead, NO_SESSION, ResilienceError, sessionIdUnread, touch, unreadSessionId, type ErrorInfo,
  type ExchangeNote, type Negotiated, type Operation, type SessionChange, type SessionTracker, type ToolAnnotations,
} from '@mcp-resilience/core';
import { CallRunner } from './call-runner.ts';
import { ClientHeaders } from './client-headers.ts';
import type { Engine } from './engine.ts';
import { readInitializeAnswer } from './initialize-answer.ts';
import { EXCHANGES_KEPT } from './limits.ts';
import type { RpcMessage } from './messages.ts';
import { InFlightCalls } from './in-flight-calls.ts';
import type { Lineage, Remembered } from './lineage.ts';
import { RefusalHold } from './refusal-hold.ts';
import { SessionPersistence } from './session-persistence.ts';
import { newLineageKey } from './session-store.ts';
import { SessionRecovery } from './session-recovery.ts';
import { SessionState } from './session-state.ts';
import { TaskTracker } from './task-tracker.ts';
import { ToolCatalog } from './tool-catalog.ts';

/** What a lineage asks of the registry that routes requests to it. */
export interface LineageHost {
  /** The lineage answers to this session id from now on (besides those it had); `undefined`: to requests without one. */
  claim(lineage: EndpointSession, id: string | undefined): void;
  /** The client ended its session (`finalId`): the lineage is forgotten. */
  ended(lineage: EndpointSession, finalId: string | undefined): void;
  /** This lineage writes the session store of its endpoint from now on. */
  takeStore(lineage: EndpointSession): void;
  ownsStore(lineage: EndpointSession): boolean;
}

/**
 * One client's lineage of sessions on one MCP endpoint: the current session (core's tracker),
 * the client's own `initialize` and `notifications/initialized` to open a new one with, the
 * headers of its latest request (its credentials), the state to restore on it, the tool
 * annotations the server advertised, and the one re-initialization that the client's concurrent
 * calls share. Session ids and headers stay with the lineage, and never leave this object but on
 * the requests of its own client (see {@link LineageRegistry} for which requests those are).
 */
export class EndpointSession implements Lineage {
  /** Core's tracker of the lineage's sessions: moved on here, by its recovery and by its store's copy. */
  tracker: SessionTracker = NO_SESSION;
  /** What the current session negotiated, once an `initialize` was answered (or a stored session resumed). */
  negotiated: Negotiated | undefined;
  /** The client's own `initialize` and `notifications/initialized`: a new session is opened with them. */
  initializeRequest: Remembered | undefined;
  initializedRequest: Remembered | undefined;
  /** What the client set on its session (subscriptions, log level), to restore on the next one. */
  readonly state = new SessionState();
  readonly recovery: SessionRecovery;
  readonly persistence: SessionPersistence;
  /** Set when a new session negotiated something else: why every call fails (`SESSION_CHANGED`) until the application connects again. */
  changed: ErrorInfo | undefined;
  readonly #tools = new ToolCatalog();
  readonly tasks: TaskTracker;
  reached = false; // the server answered this lineage (or a stored session of it was resumed): a refused connection is a restart
  /** Calls in flight and standalone streams open: a session with either is in use, never idle (counted by {@link enter} and {@link openStream}). */
  callsInFlight = 0;
  streamsOpen = 0;
  /** The headers of the client's latest request (its credentials among them): the engine's own requests for it send them; a refusal of them. */
  readonly clientHeaders: ClientHeaders;
  /** The session the SDK's standalone stream last opened on: its cursors belong to that one. */
  #streamSession: number | undefined;
  /** The current session's last exchanges, for a bug report (see {@link noteExchange}). */
  exchanges: ExchangeNote[] = [];
  /** The id of the session the application ended: the only one its late requests may still carry. */
  #terminatedId: string | undefined;
  /** The application's DELETEs of this session on their way: a session it is ending is not the engine's to mend either. */
  ending = 0;
  /** Refusals on the current session being read: until they are classified, no request that carries its id goes out. */
  readonly refusals: RefusalHold;
  /** The current session's id may have been hidden (CORS): the next answer to a request sent without one tells. */
  #idUnread = false;
  readonly inFlight = new InFlightCalls(); // the client's calls, by id: a `notifications/cancelled` ends the one it names
  /** Set once it resumed a stored session, which other clients may go on with too: see {@link wireIdOf}. */
  #idPrefix: string | undefined;

  readonly #engine: Engine;
  readonly #host: LineageHost;

  /** `terminated`: the application ended the session (its DELETE succeeded): no session logic, its late requests go as they are. */
  constructor(readonly url: string, engine: Engine, host: LineageHost, public terminated = false) {
    this.#engine = engine;
    this.#host = host;
    this.clientHeaders = new ClientHeaders(engine.credentials, engine.options.renewsCredentials === true);
    this.tasks = new TaskTracker(engine);
    this.refusals = new RefusalHold(engine.ports.sleep);
    // The engine's own requests for this lineage go through the one call loop, as its own (no session logic).
    this.recovery = new SessionRecovery(this, engine, (init, method) =>
      new CallRunner(engine, this, { url, init: { ...init, redirect: 'manual' }, operation: defined({ method }), own: true }).run());
    this.persistence = new SessionPersistence(this, engine);
  }

  /** In use: a call in flight, a stream open, a re-initialization or a refusal under way. Never forgotten while it is. */
  get busy(): boolean {
    return this.callsInFlight > 0 || this.streamsOpen > 0 || this.recovery.underWay !== undefined || this.refusals.until !== undefined;
  }

  /** Session logic applies: the connection negotiated a sessionful revision. */
  get sessionful(): boolean {
    return this.negotiated !== undefined && isSessionful(this.negotiated.revision);
  }

  /** The negotiated revision, once an `initialize` was answered. */
  get revision(): string | undefined {
    return this.negotiated?.revision;
  }

  /** The current session's ordinal; 0 when there is none. */
  get ordinal(): number {
    return this.tracker.current?.ordinal ?? 0;
  }

  rememberInitialize(text: string, headers: Headers): void {
    this.initializeRequest = { text, headers: new Headers(headers) };
    this.changed = undefined; // the application is connecting again
    this.terminated = false;
    this.#terminatedId = undefined;
    this.#idUnread = false; // its answer is read by learn()
    this.#host.takeStore(this); // the latest client to connect is the one a reload goes on with
  }

  /**
   * The application ended its session (the SDK's `terminateSession()`: a DELETE answered 2xx).
   * Whatever the SDK still sends with that id (a stream reconnecting in passing) goes as it is
   * and its answer comes back as it is: the engine opens no session the application has left.
   */
  terminate(): void {
    this.terminated = true;
    this.#terminatedId = this.tracker.current?.id;
    this.tracker = markDead(this.tracker, this.ordinal);
    if (this.ownsStore) void this.persistence.forget(this.#terminatedId); // its copy leaves the store: nobody goes on with it
    this.#host.ended(this, this.#terminatedId);
  }

  rememberInitialized(text: string, headers: Headers): void {
    this.initializedRequest = { text, headers: new Headers(headers) };
    this.save();
  }

  /**
   * The JSON-RPC id a request of the client goes out under: its own on a session its client opened; on a resumed one (another
   * tab, Worker request or process may go on with it, and with the same ids), a name no other client uses, mapped back on the answer.
   */
  wireIdOf(id: string | number): string | number {
    return this.#idPrefix === undefined ? id : `${this.#idPrefix}${String(id)}`;
  }

  /** A stored session was resumed (`id`, if it was live): its client's requests carry that id; this lineage writes the store. */
  resumed(id: string | undefined): void {
    this.#idPrefix ??= `${newLineageKey().slice(0, 12)}.`;
    this.reached = true;
    if (id !== undefined) this.#host.claim(this, id);
    this.#host.takeStore(this);
  }

  /** Whether this lineage is the one writing its endpoint's session store. */
  get ownsStore(): boolean {
    return this.#host.ownsStore(this);
  }

  /** Hands the store its copy of the session (see {@link SessionPersistence}). */
  save(): void {
    this.persistence.save();
  }

  /** A new session negotiated something else: every call fails with the error returned until the application connects again. */
  markChanged(change: SessionChange): ErrorInfo {
    return (this.changed = { code: 'SESSION_CHANGED', message: 'The new session negotiated differently: connect again', details: { ...change } });
  }

  /**
   * A request's headers with the current session id, in place of the SDK's (a copy, when that changes anything); with none,
   * the SDK's (dead) id is removed, not sent again. A stream cursor (`Last-Event-ID`) from another session is dropped with it:
   * it means nothing here. Once the application has ended its session, its late requests carry that session's id, never an older one.
   */
  stamp(headers: Headers): Headers {
    if (!this.sessionful || !headers.has('mcp-session-id')) return headers;
    const id = this.terminated ? this.#terminatedId : this.tracker.current?.id;
    const sent = headers.get('mcp-session-id');
    // The SDK may already hold the new id (it reads it off every response) with the old cursor.
    const dropCursor = headers.has('last-event-id') && (sent !== id || this.#streamSession !== this.tracker.current?.ordinal);
    if (sent === id && !dropCursor) return headers; // the common case: nothing to change, nothing copied
    headers = new Headers(headers);
    if (dropCursor) headers.delete('last-event-id');
    if (id === undefined) headers.delete('mcp-session-id');
    else headers.set('mcp-session-id', id);
    return headers;
  }

  touch(): void {
    this.tracker = touch(this.tracker, this.#engine.ports.now());
  }

  /** Notes an exchange on the current session (method and status only), for a bug report. */
  noteExchange(method: string, status: number | 'network'): void {
    if (status !== 'network') this.reached = true;
    if (this.exchanges.push({ method, status, atMs: this.#engine.ports.now() }) > EXCHANGES_KEPT) this.exchanges.shift();
  }

  /** A call goes out; the function returned says it is over (once its answer has been read). */
  enter(): () => void {
    return this.#count('callsInFlight');
  }

  /** A standalone stream opened; the function returned says it closed. */
  openStream(): () => void {
    this.#streamSession = this.tracker.current?.ordinal;
    return this.#count('streamsOpen');
  }

  #count(counter: 'callsInFlight' | 'streamsOpen'): () => void {
    this[counter]++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this[counter]--;
      this.touch();
    };
  }

  /** What the server advertised of a tool, if a `tools/list` answer said so. */
  annotations(tool: string): ToolAnnotations | undefined {
    return this.#tools.annotations(tool);
  }

  /**
   * Takes a request and its answer (on session `on`): session state to restore later, tool
   * annotations, tasks. Returns the answer to hand on instead, if the server lost a task with its session.
   */
  answered(request: RpcMessage, answer: RpcMessage, on = this.ordinal, operation: Operation = {}): RpcMessage | undefined {
    if (request.method === 'tools/list') this.#tools.learn(request, answer);
    else if (this.state.record(request, answer)) this.save();
    return this.tasks.answered(request, answer, on, this.revision, operation);
  }

  /** Reads a message the server sent on any stream (a change of its tools, a task's status). */
  notice(message: RpcMessage): void {
    this.#tools.notice(message);
    this.tasks.notice(message);
  }

  /**
   * Takes the session an `initialize` response opened (its revision, capabilities and id),
   * leaving the response readable. Returns false when it carried no `initialize` result.
   */
  async learn(response: Response, reason?: { from: number; why: 'lost' | 'idle' }): Promise<boolean> {
    const answer = await readInitializeAnswer(response);
    if (!answer) return false;
    const { revision, capabilities, id } = answer;
    const { now, headersHidden } = this.#engine.ports;
    // Hidden by CORS, or a server without sessions: the next answer to a request sent without it tells (answeredWithoutId).
    this.#idUnread = sessionIdUnread({
      revision, status: response.status, hasResult: true, sessionIdReadable: id !== undefined, headersHidden: headersHidden(this.url),
    });
    const adopted = adoptSession(this.tracker, defined({ id, revision, nowMs: now() }));
    if (!adopted.ok) throw new ResilienceError(adopted.error);
    this.tracker = adopted.tracker;
    this.negotiated = { revision, capabilities };
    this.exchanges = [];
    this.#tools.forget(); // what the old session's server advertised is not this one's word
    this.#host.claim(this, id); // its client's requests carry this id from now on (or an older one of the lineage)
    const session = this.ordinal;
    this.#engine.emit({ type: 'session-started', session, revision });
    this.persistence.save(answer); // with what the server said of itself, for a client that resumes it
    if (reason) this.#engine.emit({ type: 'session-reinitialized', from: reason.from, to: session, reason: reason.why });
    return true;
  }

  /**
   * What the answer to a request sent without a session id proves, while the current session's
   * id may have been hidden: the error to fail with when the server wanted it (its 400); the
   * question is settled by the first answer that proves either way.
   */
  answeredWithoutId(status: number): ErrorInfo | undefined {
    if (!this.#idUnread) return undefined;
    const proof = unreadSessionId({ revision: this.revision!, status });
    if (proof.kind !== 'undecided') this.#idUnread = false;
    return proof.kind === 'hidden' ? proof.error : undefined;
  }

  /**
   * Lets the lineage go: with `endSession`, the current session is ended on the server (DELETE)
   * and removed from the store (if it is the one there); without, the store keeps it for another
   * engine to go on with.
   */
  async close(endSession: boolean, ownsStore: boolean): Promise<void> {
    await this.recovery.underWay?.catch(() => {}); // ended by the engine's close, and never adopted after it
    const id = this.tracker.current?.id;
    this.tracker = markDead(this.tracker, this.ordinal);
    if (!endSession) return;
    await Promise.all([
      id === undefined ? undefined : this.recovery.delete(id),
      ownsStore ? this.persistence.forget(id) : undefined,
    ]);
  }
}
