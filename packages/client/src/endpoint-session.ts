import {
  abandonReinitialize, adoptSession, beginReinitialize, defined, isSessionful, markDead, NO_SESSION, ResilienceError, touch, type ErrorInfo,
  type ExchangeNote, type Negotiated, type Operation, type SessionChange, type SessionTracker, type ToolAnnotations,
} from '@mcp-resilience/core';
import { CallRunner } from './call-runner.ts';
import { ClientHeaders } from './client-headers.ts';
import type { Engine } from './engine.ts';
import { readInitializeAnswer } from './initialize-answer.ts';
import { EXCHANGES_KEPT } from './limits.ts';
import type { RpcMessage } from './messages.ts';
import { HiddenSessionId } from './hidden-session-id.ts';
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
  // What each field means is said once, in the Lineage interface (lineage.ts); only this object's methods change them.
  #tracker: SessionTracker = NO_SESSION;
  #negotiated: Negotiated | undefined;
  #initializeRequest: Remembered | undefined;
  #initializedRequest: Remembered | undefined;
  readonly state = new SessionState();
  readonly recovery: SessionRecovery;
  readonly persistence: SessionPersistence;
  changed: ErrorInfo | undefined;
  readonly #tools = new ToolCatalog();
  readonly tasks: TaskTracker;
  reached = false;
  callsInFlight = 0;
  streamsOpen = 0;
  readonly clientHeaders: ClientHeaders;
  #streamSession: number | undefined; // the session the SDK's standalone stream last opened on: its cursors belong to that one
  exchanges: ExchangeNote[] = [];
  #terminatedId: string | undefined; // the session the application ended: the only id its late requests may still carry
  #ending = 0;
  readonly refusals: RefusalHold;
  readonly #hiddenId = new HiddenSessionId();
  readonly inFlight = new InFlightCalls();
  #idPrefix: string | undefined; // set once it resumed a stored session (see wireIdOf)

  readonly #engine: Engine;
  readonly #host: LineageHost;

  /**
   * `terminated`: the application ended the session (its DELETE succeeded): no session logic, its late requests go as they are.
   * `client`: its number among the fetch's clients, from the second on.
   */
  constructor(readonly url: string, engine: Engine, host: LineageHost, public terminated = false, readonly client: number | undefined = undefined) {
    this.#engine = engine;
    this.#host = host;
    this.clientHeaders = new ClientHeaders(engine.credentials, engine.options.renewsCredentials === true);
    this.tasks = new TaskTracker(engine, client);
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

  get tracker(): SessionTracker { return this.#tracker; }
  get negotiated(): Negotiated | undefined { return this.#negotiated; }
  get initializeRequest(): Remembered | undefined { return this.#initializeRequest; }
  get initializedRequest(): Remembered | undefined { return this.#initializedRequest; }
  get ending(): boolean { return this.#ending > 0; }

  markDead(ordinal: number): void { this.#tracker = markDead(this.#tracker, ordinal); }
  reinitializing(failed: number): void { this.#tracker = beginReinitialize(markDead(this.#tracker, failed)); }
  reinitializeAbandoned(): void { this.#tracker = abandonReinitialize(this.#tracker); }

  /** The application's DELETE of this session goes out; the function returned says it was answered. */
  ends(): () => void {
    this.#ending++;
    return () => void this.#ending--;
  }

  /** Session logic applies: the connection negotiated a sessionful revision. */
  get sessionful(): boolean {
    return this.#negotiated !== undefined && isSessionful(this.#negotiated.revision);
  }

  /** The negotiated revision, once an `initialize` was answered. */
  get revision(): string | undefined {
    return this.#negotiated?.revision;
  }

  /** The current session's ordinal; 0 when there is none. */
  get ordinal(): number {
    return this.#tracker.current?.ordinal ?? 0;
  }

  rememberInitialize(text: string, headers: Headers): void {
    this.#initializeRequest = { text, headers: new Headers(headers) };
    this.changed = undefined; // the application is connecting again
    this.terminated = false;
    this.#terminatedId = undefined;
    this.#hiddenId.reset(); // its answer is read by learn()
    this.#host.takeStore(this); // the latest client to connect is the one a reload goes on with
  }

  /** The application ended its session (a DELETE answered 2xx): what the SDK still sends with that id goes, and comes back, as it is. */
  terminate(): void {
    this.terminated = true;
    this.#terminatedId = this.#tracker.current?.id;
    this.#tracker = markDead(this.#tracker, this.ordinal);
    if (this.ownsStore) void this.persistence.forget(this.#terminatedId); // its copy leaves the store: nobody goes on with it
    this.#host.ended(this, this.#terminatedId);
  }

  rememberInitialized(text: string, headers: Headers): void {
    this.#initializedRequest = { text, headers: new Headers(headers) };
    this.save();
  }

  /**
   * The JSON-RPC id a request of the client goes out under: its own on a session its client opened; on a resumed one (another
   * tab, Worker request or process may go on with it, and with the same ids), a name no other client uses, mapped back on the answer.
   */
  wireIdOf(id: string | number): string | number {
    return this.#idPrefix === undefined ? id : `${this.#idPrefix}${String(id)}`;
  }

  /**
   * Goes on with a stored session (`sessionId`, if it was live; none: lost and not replaced yet): its client's requests carry
   * that id, a new session is opened with the stored `initialize`, and this lineage writes the store.
   */
  resumed(stored: { readonly initialize: Remembered; readonly initialized?: Remembered; readonly negotiated: Negotiated; readonly sessionId?: string }): void {
    const { sessionId: id, negotiated } = stored;
    this.#initializeRequest = stored.initialize;
    this.#initializedRequest = stored.initialized;
    this.#negotiated = negotiated;
    const adopted = adoptSession(this.#tracker, defined({ id, revision: negotiated.revision, nowMs: this.#engine.ports.now() }));
    if (adopted.ok) this.#tracker = adopted.tracker;
    if (id === undefined) this.markDead(this.ordinal);
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
    const id = this.terminated ? this.#terminatedId : this.#tracker.current?.id;
    const sent = headers.get('mcp-session-id');
    // The SDK may already hold the new id (it reads it off every response) with the old cursor.
    const dropCursor = headers.has('last-event-id') && (sent !== id || this.#streamSession !== this.#tracker.current?.ordinal);
    if (sent === id && !dropCursor) return headers; // the common case: nothing to change, nothing copied
    headers = new Headers(headers);
    if (dropCursor) headers.delete('last-event-id');
    if (id === undefined) headers.delete('mcp-session-id');
    else headers.set('mcp-session-id', id);
    return headers;
  }

  touch(): void {
    this.#tracker = touch(this.#tracker, this.#engine.ports.now());
  }

  /** Notes an exchange on the current session (method and status only), for a bug report. */
  noteExchange(method: string, status: number | 'network', version: number): void {
    this.clientHeaders.heard(version);
    if (status !== 'network') this.reached = true;
    if (this.exchanges.push({ method, status, atMs: this.#engine.ports.now() }) > EXCHANGES_KEPT) this.exchanges.shift();
  }

  /** A call goes out; the function returned says it is over (once its answer has been read). */
  enter(): () => void {
    return this.#count('callsInFlight');
  }

  /** A standalone stream opened; the function returned says it closed. */
  openStream(): () => void {
    this.#streamSession = this.#tracker.current?.ordinal;
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

  /** Takes a request and its answer (on session `on`): state to restore, tool annotations, tasks; the answer to hand on instead, if any. */
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
    this.#hiddenId.opened({ revision, status: response.status, sessionIdReadable: id !== undefined, headersHidden: headersHidden(this.url) });
    const adopted = adoptSession(this.#tracker, defined({ id, revision, nowMs: now() }));
    if (!adopted.ok) throw new ResilienceError(adopted.error);
    this.#tracker = adopted.tracker;
    this.#negotiated = { revision, capabilities };
    this.exchanges = [];
    this.#tools.forget(); // what the old session's server advertised is not this one's word
    this.#host.claim(this, id); // its client's requests carry this id from now on (or an older one of the lineage)
    const session = this.ordinal;
    this.#engine.emit({ type: 'session-started', session, revision }, this.client);
    this.persistence.save(answer); // with what the server said of itself, for a client that resumes it
    if (reason) this.#engine.emit({ type: 'session-reinitialized', from: reason.from, to: session, reason: reason.why }, this.client);
    return true;
  }

  /** What the answer to a request sent without a session id proves, while the current session's id may have been hidden (see {@link HiddenSessionId}). */
  answeredWithoutId(status: number): ErrorInfo | undefined {
    return this.#hiddenId.answeredWithoutId(this.revision!, status);
  }

  /** Lets the lineage go: `endSession` ends the current session on the server (DELETE) and in the store; without, the store keeps it. */
  async close(endSession: boolean, ownsStore: boolean): Promise<void> {
    await this.recovery.underWay?.catch(() => {}); // ended by the engine's close, and never adopted after it
    const id = this.#tracker.current?.id;
    this.#tracker = markDead(this.#tracker, this.ordinal);
    if (!endSession) return;
    await Promise.all([
      id === undefined ? undefined : this.recovery.delete(id),
      ownsStore ? this.persistence.forget(id) : undefined,
    ]);
  }
}
