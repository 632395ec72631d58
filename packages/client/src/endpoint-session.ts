import {
  adoptSession, diagnoseLoss, isIdleBeyond, isSessionful, lossReport, markDead, NO_SESSION, ResilienceError, sessionIdUnread, touch,
  unreadSessionId, type ErrorInfo, type ExchangeNote, type Negotiated, type Operation, type SessionChange, type SessionTracker,
  type ToolAnnotations, type Verdict,
} from '@mcp-resilience/core';
import { AnsweredResponse } from './answered-response.ts';
import { readBounded } from './bounded-read.ts';
import type { Engine } from './engine.ts';
import { ANSWER_LIMIT, EXCHANGES_KEPT, HOLD_CAP_MS } from './limits.ts';
import { isEventStream, responseMessages, untilSse, type RpcMessage } from './messages.ts';
import { SessionPersistence } from './session-persistence.ts';
import { SessionRecovery } from './session-recovery.ts';
import { SessionState } from './session-state.ts';
import { TaskTracker } from './task-tracker.ts';
import { ToolCatalog } from './tool-catalog.ts';

interface Remembered {
  readonly text: string;
  readonly headers: Headers;
}

/** Headers that belong to one request, not to its client: never carried over to the engine's own requests. */
const PER_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'accept', 'content-type', 'content-length', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name',
]);

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
export class EndpointSession {
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
  /** Set when a new session negotiated something else: every call fails (`SESSION_CHANGED`) until the application connects again. */
  #changed: ErrorInfo | undefined;
  readonly #tools = new ToolCatalog();
  readonly #tasks: TaskTracker;
  /** Calls in flight and standalone streams open: a session with either is in use, never idle. */
  #inFlight = 0;
  #streams = 0;
  /** The headers of the client's latest request (its credentials among them), in memory only: the engine's own requests send them. */
  readonly #headers = new Headers();
  /** The session the SDK's standalone stream last opened on: its cursors belong to that one. */
  #streamSession: number | undefined;
  /** The current session's last exchanges, for a bug report. */
  #exchanges: ExchangeNote[] = [];
  /** The application ended the session itself (its DELETE succeeded): no session logic until it connects again. */
  #terminated = false;
  /** The id of the session the application ended: the only one its late requests may still carry. */
  #terminatedId: string | undefined;
  /** Refusals on the current session being read: until they are classified, no request goes out on it. */
  #holds = 0;
  #held: { readonly until: Promise<void>; readonly open: () => void } | undefined;
  /** The current session's id may have been hidden (CORS): the next answer to a request sent without one tells. */
  #idUnread = false;

  constructor(readonly url: string, private readonly engine: Engine, private readonly host: LineageHost) {
    this.#tasks = new TaskTracker(engine);
    this.recovery = new SessionRecovery(this, engine);
    this.persistence = new SessionPersistence(this, engine);
  }

  /** A stand-in for a session its client ended: its late requests go as they are, with no session logic. */
  static ended(url: string, engine: Engine, host: LineageHost): EndpointSession {
    const session = new EndpointSession(url, engine, host);
    session.#terminated = true;
    return session;
  }

  /** In use: a call in flight, a stream open, a re-initialization or a refusal under way. Never forgotten while it is. */
  get busy(): boolean {
    return this.#inFlight > 0 || this.#streams > 0 || this.recovery.underWay !== undefined || this.#holds > 0;
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

  /** Why every call fails until the application connects again, if it must. */
  get changed(): ErrorInfo | undefined {
    return this.#changed;
  }

  rememberInitialize(text: string, headers: Headers): void {
    this.initializeRequest = { text, headers: new Headers(headers) };
    this.#changed = undefined; // the application is connecting again
    this.#terminated = false;
    this.#terminatedId = undefined;
    this.#idUnread = false; // its answer is read by learn()
    this.host.takeStore(this); // the latest client to connect is the one a reload goes on with
  }

  /**
   * The application ended its session (the SDK's `terminateSession()`: a DELETE answered 2xx).
   * Whatever the SDK still sends with that id (a stream reconnecting in passing) goes as it is
   * and its answer comes back as it is: the engine opens no session the application has left.
   */
  terminate(): void {
    this.#terminated = true;
    this.#terminatedId = this.tracker.current?.id;
    this.tracker = markDead(this.tracker, this.ordinal);
    this.save();
    this.host.ended(this, this.#terminatedId);
  }

  get terminated(): boolean {
    return this.#terminated;
  }

  rememberInitialized(text: string, headers: Headers): void {
    this.initializedRequest = { text, headers: new Headers(headers) };
    this.save();
  }

  /**
   * Keeps the headers of the client's latest request (in memory), but those that belong to one
   * request only: the engine's own requests for this lineage send them, a refreshed token the next time.
   */
  noteHeaders(headers: Headers): void {
    headers.forEach((value, name) => {
      if (!PER_REQUEST_HEADERS.has(name)) this.#headers.set(name, value);
    });
  }

  /** A stored session was resumed (`id`, if it was live): its client's requests carry that id; this lineage writes the store. */
  resumed(id: string | undefined): void {
    if (id !== undefined) this.host.claim(this, id);
    this.host.takeStore(this);
  }

  /** Whether this lineage is the one writing its endpoint's session store. */
  get ownsStore(): boolean {
    return this.host.ownsStore(this);
  }

  /** Hands the store its copy of the session (see {@link SessionPersistence}). */
  save(): void {
    this.persistence.save();
  }

  /** A new session negotiated something else: every call fails with the error returned until the application connects again. */
  markChanged(change: SessionChange): ErrorInfo {
    return (this.#changed = { code: 'SESSION_CHANGED', message: 'The new session negotiated another revision or other capabilities: connect again', details: { ...change } });
  }

  /** The client's latest headers (its credentials) over `base`: what the engine's own requests for this lineage carry. */
  headersFor(base?: HeadersInit): Headers {
    const headers = new Headers(base);
    this.#headers.forEach((value, name) => headers.set(name, value));
    return headers;
  }

  /**
   * Puts the current session id on a request, in place of whatever the SDK holds; with no
   * current session, the SDK's (dead) id is removed rather than sent again. A stream cursor
   * (`Last-Event-ID`) from another session is dropped with it: it means nothing here. Once the
   * application has ended its session, its late requests carry that session's id, never an
   * older one.
   */
  stamp(headers: Headers): void {
    if (!this.sessionful || !headers.has('mcp-session-id')) return;
    const id = this.#terminated ? this.#terminatedId : this.tracker.current?.id;
    // The SDK may already hold the new id (it reads it off every response) with the old cursor.
    if (headers.get('mcp-session-id') !== id || this.#streamSession !== this.tracker.current?.ordinal) headers.delete('last-event-id');
    if (id === undefined) headers.delete('mcp-session-id');
    else headers.set('mcp-session-id', id);
  }

  touch(): void {
    this.tracker = touch(this.tracker, this.engine.ports.now());
  }

  /** Notes an exchange on the current session (method and status only), for a bug report. */
  noteExchange(method: string, status: number | 'network'): void {
    if (this.#exchanges.push({ method, status, atMs: this.engine.ports.now() }) > EXCHANGES_KEPT) this.#exchanges.shift();
  }

  /**
   * A refusal of a request that carried the session id arrived: until it is classified (the
   * function returned says so, and at the latest after {@link HOLD_CAP_MS}), requests wait
   * before they go, so that none carries an id about to be declared dead.
   */
  hold(): () => void {
    this.#holds += 1;
    if (!this.#held) {
      let open!: () => void;
      const until = new Promise<void>((resolve) => (open = resolve));
      this.#held = { until, open };
    }
    const capped = new AbortController();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      capped.abort();
      if (--this.#holds === 0 && this.#held) {
        this.#held.open();
        this.#held = undefined;
      }
    };
    this.engine.ports.sleep(HOLD_CAP_MS, capped.signal).then(release, () => {});
    return release;
  }

  /** A call goes out; the function returned says it is over (once its answer has been read). */
  enter(): () => void {
    return this.#count(() => (this.#inFlight += 1), () => (this.#inFlight -= 1));
  }

  /** A standalone stream opened; the function returned says it closed. */
  openStream(): () => void {
    this.#streamSession = this.tracker.current?.ordinal;
    return this.#count(() => (this.#streams += 1), () => (this.#streams -= 1));
  }

  #count(up: () => void, down: () => void): () => void {
    up();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      down();
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
    else if (SessionState.tracks(request.method) && this.state.record(request, answer)) this.save();
    return this.#tasks.answered(request, answer, on, this.revision, operation);
  }

  /** Reads a message the server sent on any stream (a change of its tools, a task's status). */
  notice(message: RpcMessage): void {
    this.#tools.notice(message);
    this.#tasks.notice(message);
  }

  /**
   * Reads the revision, capabilities and session id off an `initialize` response, leaving it
   * readable. An event stream is read up to the answer only: it may stay open after it.
   * Returns false when the response carried no `initialize` result.
   */
  async learn(response: Response, reason?: { from: number; why: 'lost' | 'idle' }): Promise<boolean> {
    const result = (await this.#initializeAnswer(response))?.result as { protocolVersion?: unknown; capabilities?: unknown } | undefined;
    const revision = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
    if (revision === undefined) return false;
    // As it goes on the wire: a value set on Headers loses its surrounding whitespace, one read off a response may not have.
    const id = response.headers.get('mcp-session-id')?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    const { now, headersHidden } = this.engine.ports;
    // Hidden by CORS, or a server without sessions: the next answer to a request sent without it tells (answeredWithoutId).
    this.#idUnread = sessionIdUnread({
      revision, status: response.status, hasResult: true, sessionIdReadable: id !== undefined, headersHidden: headersHidden(this.url),
    });
    const adopted = adoptSession(this.tracker, { ...(id === undefined ? {} : { id }), revision, nowMs: now() });
    if (!adopted.ok) throw new ResilienceError(adopted.error);
    this.tracker = adopted.tracker;
    this.negotiated = { revision, capabilities: result?.capabilities };
    this.#exchanges = [];
    this.#tools.forget(); // what the old session's server advertised is not this one's word
    this.host.claim(this, id); // its client's requests carry this id from now on (or an older one of the lineage)
    const session = this.ordinal;
    this.engine.emit({ type: 'session-started', session, revision });
    this.save();
    if (reason) this.engine.emit({ type: 'session-reinitialized', from: reason.from, to: session, reason: reason.why });
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

  async #initializeAnswer(response: Response): Promise<RpcMessage | undefined> {
    if (response instanceof AnsweredResponse) return response.answer;
    const stream = isEventStream(response);
    const text = await readBounded(response.clone(), ANSWER_LIMIT, stream ? untilSse((m) => 'result' in m) : undefined);
    return responseMessages(text, response.headers.get('content-type')).find((m) => 'result' in m);
  }

  /** Notes a session loss with its diagnosis (and a bug report when it was in use); the session is declared dead. */
  lost(ordinal: number, verdict: Extract<Verdict, { kind: 'session-gone' }>, method: string | undefined): void {
    const current = this.tracker.current;
    if (current?.ordinal === ordinal) {
      const { serverUptimeSeconds } = verdict;
      const { serverIdleBudgetMs, busyWindowMs } = this.engine;
      const facts = {
        sessionStartedAtMs: current.startedAtMs, lastActivityAtMs: current.lastActivityAtMs, failedAtMs: this.engine.ports.now(),
        streamOpen: this.#streams > 0,
        ...(serverUptimeSeconds === undefined ? {} : { serverUptimeSeconds }),
        ...(serverIdleBudgetMs === undefined ? {} : { idleBudgetMs: serverIdleBudgetMs }),
        ...(busyWindowMs === undefined ? {} : { busyWindowMs }),
      };
      const diagnosis = diagnoseLoss(facts);
      this.#tasks.sessionLost(ordinal, diagnosis.cause);
      const report = lossReport(facts, diagnosis, this.#exchanges);
      this.engine.emit({
        type: 'session-lost', session: ordinal, dialect: verdict.dialect, ...(method === undefined ? {} : { method }), ...diagnosis,
        ...(report ? { report } : {}),
      });
    }
    this.tracker = markDead(this.tracker, ordinal);
    this.save(); // without the dead id: no other engine picks it up
  }

  /**
   * Before a request goes out: if the SDK holds a session that is dead (a call gave up on it)
   * or, before a call's first attempt, idle past the budget, open the new one first, so that no
   * dead id is ever sent. A call being retried keeps its session: backoff is on the same session.
   * Returns what to wait for, after which the caller prepares again (the session may have moved
   * on meanwhile), or `undefined` when the request may go at once (the common case: nothing is
   * allocated for it). Nothing runs on behalf of a caller that stopped waiting.
   */
  prepare(sdkSentSession: boolean, firstAttempt: boolean, selfCounted: boolean): Promise<void> | undefined {
    // A re-initialization under way, or a refusal being read: wait for it (whatever came of it), then prepare again.
    const waitFor = this.recovery.underWay ?? (sdkSentSession ? this.#held?.until : undefined);
    if (waitFor) return waitFor.catch(() => {});
    if (!sdkSentSession || !this.sessionful || this.initializeRequest === undefined) return undefined;
    const current = this.tracker.current;
    if (current === undefined) return this.recovery.recover(this.tracker.ordinals, 'lost');
    const { idleBudgetMs } = this.engine;
    // In use (another call in flight, a stream open, a task running on it) is never idle.
    const inUse = this.#inFlight > (selfCounted ? 1 : 0) || this.#streams > 0 || this.#tasks.holdsTask(current.ordinal);
    if (firstAttempt && !inUse && idleBudgetMs !== undefined && isIdleBeyond(this.tracker, this.engine.ports.now(), idleBudgetMs)) {
      this.tracker = markDead(this.tracker, current.ordinal);
      this.recovery.end(current.id);
      return this.recovery.recover(current.ordinal, 'idle');
    }
    return undefined;
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
      ownsStore ? this.persistence.forget() : undefined,
    ]);
  }
}
