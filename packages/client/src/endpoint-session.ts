import {
  abandonReinitialize, adoptSession, beginReinitialize, diagnoseLoss, isIdleBeyond, isSessionful, lossReport, markDead, NO_SESSION,
  recoveryStep, ResilienceError, sessionChange, sessionIdUnread, touch, unreadSessionId, type ErrorInfo, type ExchangeNote,
  type Negotiated, type Operation, type SessionTracker, type ToolAnnotations, type Verdict,
} from '@mcp-resilience/core';
import { AnsweredResponse } from './answered-response.ts';
import { readBounded } from './bounded-read.ts';
import type { Engine } from './engine.ts';
import { ANSWER_LIMIT, EXCHANGES_KEPT, HOLD_CAP_MS } from './limits.ts';
import { isAnswerTo, isEventStream, responseMessages, type RpcMessage } from './messages.ts';
import type { SessionRestoredContext } from './options.ts';
import { sendWithBackoff } from './send-with-backoff.ts';
import { SessionState } from './session-state.ts';
import { newLineageKey, storableHeaders, type StoredSession } from './session-store.ts';
import { SseParser } from './sse-parser.ts';
import { TaskTracker } from './task-tracker.ts';
import { ToolCatalog } from './tool-catalog.ts';

interface Remembered {
  readonly text: string;
  readonly headers: Headers;
}

let internalIds = 0;

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

/** For `readBounded`: enough once an event of the stream carries a message that `wanted` accepts. */
function untilSse(wanted: (message: RpcMessage) => boolean): (text: string) => boolean {
  const parser = new SseParser();
  return (text) => parser.push(text).some((event) => responseMessages(event.data, 'application/json').some(wanted));
}

const failure = (message: string, details: Record<string, unknown> = {}): ErrorInfo => ({ code: 'SESSION_LOST', message, details });

/**
 * One client's lineage of sessions on one MCP endpoint: the current session (core's tracker),
 * the client's own `initialize` and `notifications/initialized` to open a new one with, the
 * headers of its latest request (its credentials), the state to restore on it, the tool
 * annotations the server advertised, and the one re-initialization that the client's concurrent
 * calls share. Session ids and headers stay with the lineage, and never leave this object but on
 * the requests of its own client (see {@link LineageRegistry} for which requests those are).
 */
export class EndpointSession {
  #tracker: SessionTracker = NO_SESSION;
  #negotiated: Negotiated | undefined;
  /** Set when a new session negotiated something else: every call fails (`SESSION_CHANGED`) until the application connects again. */
  #changed: ErrorInfo | undefined;
  readonly #state = new SessionState();
  readonly #tools = new ToolCatalog();
  readonly #tasks: TaskTracker;
  #initialize: Remembered | undefined;
  #initialized: Remembered | undefined;
  #reinitializing: Promise<void> | undefined;
  /** Calls in flight and standalone streams open: a session with either is in use, never idle. */
  #inFlight = 0;
  #streams = 0;
  /** The headers of the client's latest request (its credentials among them), in memory only: the engine's own requests send them. */
  readonly #headers = new Headers();
  /** Names this lineage in the session store: an SDK given it as a session id resumes this lineage (a stored session with no live id). */
  #storeKey: string | undefined;
  /** The session the SDK's standalone stream last opened on: its cursors belong to that one. */
  #streamSession: number | undefined;
  /** The current session's last exchanges, for a bug report. */
  #exchanges: ExchangeNote[] = [];
  /** The store's writes, chained. */
  #saving: Promise<void> = Promise.resolve();
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
  }

  /** A stand-in for a session its client ended: its late requests go as they are, with no session logic. */
  static ended(url: string, engine: Engine, host: LineageHost): EndpointSession {
    const session = new EndpointSession(url, engine, host);
    session.#terminated = true;
    return session;
  }

  /** In use: a call in flight, a stream open, a re-initialization or a refusal under way. Never forgotten while it is. */
  get busy(): boolean {
    return this.#inFlight > 0 || this.#streams > 0 || this.#reinitializing !== undefined || this.#holds > 0;
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

  /** Why every call fails until the application connects again, if it must. */
  get changed(): ErrorInfo | undefined {
    return this.#changed;
  }

  rememberInitialize(text: string, headers: Headers): void {
    this.#initialize = { text, headers: new Headers(headers) };
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
    this.#terminatedId = this.#tracker.current?.id;
    this.#tracker = markDead(this.#tracker, this.ordinal);
    this.#save();
    this.host.ended(this, this.#terminatedId);
  }

  get terminated(): boolean {
    return this.#terminated;
  }

  rememberInitialized(text: string, headers: Headers): void {
    this.#initialized = { text, headers: new Headers(headers) };
    this.#save();
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

  /** Goes on with the session a store kept (its client named it): a reload, the next request of a Worker. */
  resume(stored: StoredSession): void {
    this.#initialize = { text: stored.initialize.body, headers: new Headers(stored.initialize.headers) };
    if (stored.initialized) this.#initialized = { text: stored.initialized.body, headers: new Headers(stored.initialized.headers) };
    this.#state.load(stored.subscriptions, stored.logLevel);
    this.#negotiated = { revision: stored.revision, capabilities: stored.capabilities };
    this.#storeKey = stored.lineage;
    const adopted = adoptSession(this.#tracker, {
      ...(stored.sessionId === undefined ? {} : { id: stored.sessionId }), revision: stored.revision, nowMs: this.engine.ports.now(),
    });
    if (adopted.ok) this.#tracker = adopted.tracker;
    if (stored.sessionId === undefined) this.#tracker = markDead(this.#tracker, this.ordinal);
    else this.host.claim(this, stored.sessionId);
    this.host.takeStore(this);
  }

  /** Hands the store its copy of the session (background work: a store that fails costs only the hand-over). */
  #save(): void {
    const store = this.engine.ports.sessionStore;
    if (!store || !this.#initialize || !this.#negotiated || this.engine.closed || !this.host.ownsStore(this)) return;
    const id = this.#tracker.current?.id;
    const { subscriptions, logLevel } = this.#state;
    const session: StoredSession = {
      ...(id === undefined ? {} : { sessionId: id }),
      lineage: (this.#storeKey ??= newLineageKey()),
      revision: this.#negotiated.revision,
      ...(this.#negotiated.capabilities === undefined ? {} : { capabilities: this.#negotiated.capabilities }),
      initialize: { body: this.#initialize.text, headers: storableHeaders(this.#initialize.headers) },
      ...(this.#initialized ? { initialized: { body: this.#initialized.text, headers: storableHeaders(this.#initialized.headers) } } : {}),
      subscriptions,
      ...(logLevel === undefined ? {} : { logLevel }),
    };
    // One write after another, in the order the session changed: a slow earlier write (the dead
    // session) must never land after a later one (its replacement) on a remote store.
    this.#saving = this.#saving.then(() => store.set(this.url, session)).catch(() => {});
    this.engine.ports.background(this.#saving);
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
    const id = this.#terminated ? this.#terminatedId : this.#tracker.current?.id;
    // The SDK may already hold the new id (it reads it off every response) with the old cursor.
    if (headers.get('mcp-session-id') !== id || this.#streamSession !== this.#tracker.current?.ordinal) headers.delete('last-event-id');
    if (id === undefined) headers.delete('mcp-session-id');
    else headers.set('mcp-session-id', id);
  }

  touch(): void {
    this.#tracker = touch(this.#tracker, this.engine.ports.now());
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
    this.#streamSession = this.#tracker.current?.ordinal;
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
    else if (SessionState.tracks(request.method) && this.#state.record(request, answer)) this.#save();
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
    const adopted = adoptSession(this.#tracker, { ...(id === undefined ? {} : { id }), revision, nowMs: now() });
    if (!adopted.ok) throw new ResilienceError(adopted.error);
    this.#tracker = adopted.tracker;
    this.#negotiated = { revision, capabilities: result?.capabilities };
    this.#exchanges = [];
    this.#tools.forget(); // what the old session's server advertised is not this one's word
    this.host.claim(this, id); // its client's requests carry this id from now on (or an older one of the lineage)
    const session = this.ordinal;
    this.engine.emit({ type: 'session-started', session, revision });
    this.#save();
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
    const current = this.#tracker.current;
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
    this.#tracker = markDead(this.#tracker, ordinal);
    this.#save(); // without the dead id: no other engine picks it up
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
    const waitFor = this.#reinitializing ?? (sdkSentSession ? this.#held?.until : undefined);
    if (waitFor) return waitFor.catch(() => {});
    if (!sdkSentSession || !this.sessionful || this.#initialize === undefined) return undefined;
    const current = this.#tracker.current;
    if (current === undefined) return this.recover(this.#tracker.ordinals, 'lost');
    const { idleBudgetMs } = this.engine;
    // In use (another call in flight, a stream open, a task running on it) is never idle.
    const inUse = this.#inFlight > (selfCounted ? 1 : 0) || this.#streams > 0 || this.#tasks.holdsTask(current.ordinal);
    if (firstAttempt && !inUse && idleBudgetMs !== undefined && isIdleBeyond(this.#tracker, this.engine.ports.now(), idleBudgetMs)) {
      this.#tracker = markDead(this.#tracker, current.ordinal);
      this.#end(current.id);
      return this.recover(current.ordinal, 'idle');
    }
    return undefined;
  }

  /**
   * Makes sure a session newer than `failedOrdinal` exists: the first caller opens it, the
   * others wait for that one (core's `recoveryStep`).
   */
  recover(failedOrdinal: number, why: 'lost' | 'idle' = 'lost'): Promise<void> {
    try {
      this.engine.assertOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    const step = recoveryStep(this.#tracker, failedOrdinal);
    if (step === 'replay') return Promise.resolve();
    if (step === 'wait' && this.#reinitializing) return this.#reinitializing;
    this.#tracker = beginReinitialize(markDead(this.#tracker, failedOrdinal));
    const run = this.#reinitialize(failedOrdinal, why).finally(() => {
      if (this.#reinitializing === run) this.#reinitializing = undefined;
    });
    this.#reinitializing = run;
    return run;
  }

  async #reinitialize(from: number, why: 'lost' | 'idle'): Promise<void> {
    const before = this.#negotiated;
    await this.#open(from, why);
    if (this.#initialized) await this.#post(this.#initialized.text).catch(() => undefined);
    const restored = await this.#state.restore((method, params) => this.#request(method, params).then((m) => 'result' in m, () => false));
    const to = this.ordinal;
    if (restored) this.engine.emit({ type: 'state-restored', session: to, ...restored });
    const change = before && this.#negotiated ? sessionChange(before, this.#negotiated) : undefined;
    if (change) {
      this.engine.emit({ type: 'session-changed', from, to, ...change });
      this.#changed = {
        code: 'SESSION_CHANGED', message: 'The new session negotiated another revision or other capabilities: connect again',
        details: { ...change },
      };
      throw new ResilienceError(this.#changed);
    }
    const hook = this.engine.onSessionRestored;
    if (hook) await this.#runHook(hook, { from, why, restored });
  }

  /** Opens the new session with the client's own `initialize`, backed off like any request, within the deadline. */
  async #open(from: number, why: 'lost' | 'idle'): Promise<void> {
    const init = this.#initialize;
    try {
      // An SDK given a session id up front skips initialize: there is nothing to open a new session with.
      if (!init) throw new ResilienceError(failure('A new session could not be opened (this client never sent an initialize)'));
      const headers = new Headers(init.headers);
      headers.delete('mcp-session-id');
      headers.delete('last-event-id');
      this.#headers.forEach((value, name) => headers.set(name, value));
      const adopted = await this.engine.bounded(async (signal) => {
        const response = await sendWithBackoff(this.engine, this.url, { method: 'POST', headers, body: init.text, redirect: 'manual', signal }, 'initialize');
        this.engine.assertOpen(); // closed while it was answered: the session is not taken (nobody would end it)
        const learned = await this.learn(response, { from, why });
        await response.body?.cancel().catch(() => {});
        return learned;
      });
      if (!adopted) throw new ResilienceError(failure('A new session could not be opened (no initialize result)'));
    } catch (error) {
      this.#tracker = abandonReinitialize(this.#tracker);
      if (error instanceof ResilienceError) throw error;
      throw new ResilienceError(failure('A new session could not be opened'), { cause: error });
    }
  }

  /** The application's hook: a failure ends the new session too (the next call opens another), and fails the calls waiting. */
  async #runHook(
    hook: (context: SessionRestoredContext) => unknown,
    { from, why, restored }: { from: number; why: 'lost' | 'idle'; restored: { subscriptions: number; logLevel?: string } | undefined },
  ): Promise<void> {
    const session = this.ordinal;
    const context: SessionRestoredContext = {
      session, previous: from, reason: why, revision: this.#negotiated!.revision, capabilities: this.#negotiated!.capabilities,
      restored: restored ?? { subscriptions: 0 },
      request: async (method, params) => {
        const answer = await this.#request(method, params);
        if ('result' in answer) return answer.result;
        const { code, message, data } = answer.error as { code?: unknown; message?: unknown; data?: unknown };
        throw Object.assign(new Error(`${method} failed: ${String(message)}`), { code, data });
      },
      notify: async (method, params) => {
        await this.#post(JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }));
      },
    };
    try {
      await this.engine.bounded((signal) => Promise.race([
        Promise.resolve().then(() => hook(context)),
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ]));
    } catch (error) {
      const id = this.#tracker.current?.id;
      this.#tracker = markDead(this.#tracker, session);
      this.#end(id);
      this.#save();
      throw new ResilienceError({
        code: 'SESSION_RESTORE_FAILED', message: 'onSessionRestored failed on the new session: the call is not replayed', details: { session },
      }, { cause: error });
    }
  }

  /** One of the engine's own requests on the current session; resolves with its answer (a result or an error). */
  async #request(method: string, params: Record<string, unknown> | undefined): Promise<RpcMessage & { error?: unknown }> {
    const id = `mcp-resilience-${++internalIds}`;
    const request = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
    const { body, type } = await this.#post(JSON.stringify(request), id);
    const answer = responseMessages(body, type).find((m) => isAnswerTo(m, id));
    if (!answer) throw new ResilienceError({ code: 'MALFORMED_RESPONSE', message: `No answer to ${method}`, details: {} });
    this.answered(request, answer); // a tools/list sent from onSessionRestored teaches the new session's annotations
    return answer;
  }

  /**
   * Sends one of the engine's own messages on the current session. The answer to request
   * `answerTo` is read (an event stream up to it only: it may stay open); a notification's
   * response is not read at all: whatever it holds, and however long it lasts, nobody waits for it.
   */
  #post(body: string, answerTo?: string): Promise<{ body: string; type: string | null }> {
    const headers = new Headers(this.#initialize!.headers);
    this.#headers.forEach((value, name) => headers.set(name, value));
    const id = this.#tracker.current?.id;
    if (id !== undefined) headers.set('mcp-session-id', id);
    if (this.#negotiated) headers.set('mcp-protocol-version', this.#negotiated.revision);
    return this.engine.bounded(async (signal) => {
      const response = await this.engine.fetch(this.url, { method: 'POST', headers, body, redirect: 'manual', signal });
      const type = response.headers.get('content-type');
      if (answerTo === undefined) {
        await response.body?.cancel().catch(() => {});
        return { body: '', type };
      }
      return { body: await readBounded(response, ANSWER_LIMIT, isEventStream(type) ? untilSse((m) => isAnswerTo(m, answerTo)) : undefined), type };
    });
  }

  /** Ends a session the client leaves (background work, best effort). */
  #end(id: string | undefined): void {
    if (id !== undefined) this.engine.ports.background(this.#delete(id));
  }

  #delete(id: string): Promise<void> {
    const headers = new Headers({ 'mcp-session-id': id });
    this.#headers.forEach((value, name) => headers.set(name, value));
    if (this.#negotiated) headers.set('mcp-protocol-version', this.#negotiated.revision);
    return this.engine.ports.deadline(this.engine.requestDeadlineMs, (signal) =>
      this.engine.fetch(this.url, { method: 'DELETE', headers, redirect: 'manual', signal }).then((r) => r.body?.cancel(), () => {}))
      .catch(() => {});
  }

  /**
   * Lets the lineage go: with `endSession`, the current session is ended on the server (DELETE)
   * and removed from the store (if it is the one there); without, the store keeps it for another
   * engine to go on with.
   */
  async close(endSession: boolean, ownsStore: boolean): Promise<void> {
    await this.#reinitializing?.catch(() => {}); // ended by the engine's close, and never adopted after it
    const id = this.#tracker.current?.id;
    this.#tracker = markDead(this.#tracker, this.ordinal);
    if (!endSession) return;
    await Promise.all([
      id === undefined ? undefined : this.#delete(id),
      ownsStore ? Promise.resolve().then(() => this.engine.ports.sessionStore?.delete(this.url)).catch(() => {}) : undefined,
    ]);
  }
}
