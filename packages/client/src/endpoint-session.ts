import {
  abandonReinitialize, adoptSession, beginReinitialize, diagnoseLoss, isIdleBeyond, isSessionful, markDead, NO_SESSION,
  recoveryStep, ResilienceError, sessionChange, touch, type Negotiated, type ResilienceEvent, type SessionTracker,
} from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';
import { withDeadline } from './deadline.ts';
import { isAnswerTo, isEventStream, responseMessages, type RpcMessage } from './messages.ts';
import { SseParser } from './sse-parser.ts';
import { CREDENTIAL_HEADERS, storableHeaders, type SessionStore, type StoredSession } from './session-store.ts';

/** What an endpoint's sessions need from the engine. */
export interface SessionDeps {
  readonly fetch: typeof fetch;
  /** Sends the `initialize` of a re-initialization, backing off 429/5xx like any call (without session logic). */
  readonly initialize: (url: string, init: RequestInit & { body: string }) => Promise<Response>;
  readonly emit: (event: ResilienceEvent) => void;
  readonly now: () => number;
  /** Replace a session idle this long before the next call (saves the failed round trip). */
  readonly idleBudgetMs?: number;
  /** The server's idle budget, when known, for the diagnosis. */
  readonly serverIdleBudgetMs?: number;
  /** Where the session outlives this engine (another isolate, a reload picks it up). */
  readonly store?: SessionStore;
}

interface Remembered {
  readonly text: string;
  readonly headers: Headers;
}

/** The most of an `initialize` answer read (it may carry long instructions): what the SDK itself reads, within reason. */
const INITIALIZE_LIMIT = 16 * 1024 * 1024;
/** The longest a re-initialization (or one of the engine's own requests) may take: the calls waiting on it are released then. */
const REINITIALIZE_TIMEOUT_MS = 20_000;
let internalIds = 0;

/** For `readBounded`: enough once an event of the stream carries a message that `wanted` accepts. */
function untilSse(wanted: (message: RpcMessage) => boolean): (text: string) => boolean {
  const parser = new SseParser();
  return (text) => parser.push(text).some((event) => responseMessages(event.data, 'application/json').some(wanted));
}

/**
 * The sessions of one MCP endpoint (one URL): the current session (core's tracker), the
 * client's own `initialize` and `notifications/initialized` to open a new one with, the
 * session state to restore on it (subscriptions, log level), and the one re-initialization
 * that concurrent calls share. Session ids stay with the endpoint that minted them.
 */
export class EndpointSession {
  tracker: SessionTracker = NO_SESSION;
  negotiated: Negotiated | undefined;
  /**
   * Set when a new session negotiated something else: the SDK's view of the server is stale,
   * so every call fails (`SESSION_CHANGED`) until the application connects again.
   */
  changed: ResilienceError | undefined;
  readonly subscriptions = new Set<string>();
  logLevel: string | undefined;
  #initialize: Remembered | undefined;
  #initialized: Remembered | undefined;
  #reinitializing: Promise<void> | undefined;
  /** Calls in flight and standalone streams open: a session with either is in use, never idle. */
  #inFlight = 0;
  #streams = 0;
  #loaded: Promise<void> | undefined;
  /** The credentials of the latest request, in memory only: a re-initialization sends them. */
  readonly #credentials = new Headers();
  /** The session the SDK's standalone stream last opened on: its cursors belong to that one. */
  #streamSession: number | undefined;

  constructor(readonly url: string, private readonly deps: SessionDeps) {}

  /** Session logic applies: the connection negotiated a sessionful revision. */
  get sessionful(): boolean {
    return this.negotiated !== undefined && isSessionful(this.negotiated.revision);
  }

  rememberInitialize(text: string, headers: Headers): void {
    this.#initialize = { text, headers: new Headers(headers) };
    this.changed = undefined; // the application is connecting again
  }

  rememberInitialized(text: string, headers: Headers): void {
    this.#initialized = { text, headers: new Headers(headers) };
    this.save();
  }

  /** Keeps the credentials a request carries (in memory), for a re-initialization to send. */
  noteCredentials(headers: Headers): void {
    for (const name of CREDENTIAL_HEADERS) {
      const value = headers.get(name);
      if (value !== null) this.#credentials.set(name, value);
    }
  }

  /** Picks up the session a store holds for this endpoint, once. */
  load(): Promise<void> {
    this.#loaded ??= (async () => {
      const stored = await this.deps.store?.get(this.url);
      if (!stored || this.#initialize) return;
      this.#initialize = { text: stored.initialize.body, headers: new Headers(stored.initialize.headers) };
      if (stored.initialized) this.#initialized = { text: stored.initialized.body, headers: new Headers(stored.initialized.headers) };
      for (const uri of stored.subscriptions) this.subscriptions.add(uri);
      this.logLevel = stored.logLevel;
      this.negotiated = { revision: stored.revision, capabilities: stored.capabilities };
      const adopted = adoptSession(this.tracker, {
        ...(stored.sessionId === undefined ? {} : { id: stored.sessionId }), revision: stored.revision, nowMs: this.deps.now(),
      });
      if (adopted.ok) this.tracker = adopted.tracker;
      if (stored.sessionId === undefined) this.tracker = markDead(this.tracker, this.tracker.current?.ordinal ?? 0);
    })().catch(() => {});
    return this.#loaded;
  }

  /** Writes the session to the store, if there is one (best effort: a store that fails costs only the hand-over). */
  save(): void {
    const { store } = this.deps;
    if (!store || !this.#initialize || !this.negotiated) return;
    const id = this.tracker.current?.id;
    const session: StoredSession = {
      ...(id === undefined ? {} : { sessionId: id }),
      revision: this.negotiated.revision,
      ...(this.negotiated.capabilities === undefined ? {} : { capabilities: this.negotiated.capabilities }),
      initialize: { body: this.#initialize.text, headers: storableHeaders(this.#initialize.headers) },
      ...(this.#initialized ? { initialized: { body: this.#initialized.text, headers: storableHeaders(this.#initialized.headers) } } : {}),
      subscriptions: [...this.subscriptions],
      ...(this.logLevel === undefined ? {} : { logLevel: this.logLevel }),
    };
    void Promise.resolve().then(() => store.set(this.url, session)).catch(() => {});
  }

  /**
   * Puts the current session id on a request, in place of whatever the SDK holds; with no
   * current session, the SDK's (dead) id is removed rather than sent again. A stream cursor
   * (`Last-Event-ID`) from another session is dropped with it: it means nothing here.
   */
  stamp(headers: Headers): void {
    if (!this.sessionful || !headers.has('mcp-session-id')) return;
    const id = this.tracker.current?.id;
    // The SDK may already hold the new id (it reads it off every response) with the old cursor.
    if (headers.get('mcp-session-id') !== id || this.#streamSession !== this.tracker.current?.ordinal) headers.delete('last-event-id');
    if (id === undefined) headers.delete('mcp-session-id');
    else headers.set('mcp-session-id', id);
  }

  touch(): void {
    this.tracker = touch(this.tracker, this.deps.now());
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

  /**
   * Reads the revision, capabilities and session id off an `initialize` response, leaving it
   * readable. An event stream is read up to the answer only: it may stay open after it.
   * Returns false when the response carried no `initialize` result.
   */
  async learn(response: Response, reason?: { from: number; why: 'lost' | 'idle' }): Promise<boolean> {
    const text = await readBounded(response.clone(), INITIALIZE_LIMIT, isEventStream(response) ? untilSse((m) => 'result' in m) : undefined);
    const result = responseMessages(text, response.headers.get('content-type')).find((m) => 'result' in m)?.result as
      | { protocolVersion?: unknown; capabilities?: unknown }
      | undefined;
    const revision = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
    if (revision === undefined) return false;
    // As it goes on the wire: a value set on Headers loses its surrounding whitespace, one read off a response may not have.
    const id = response.headers.get('mcp-session-id')?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    const adopted = adoptSession(this.tracker, { ...(id === undefined ? {} : { id }), revision, nowMs: this.deps.now() });
    if (!adopted.ok) throw new ResilienceError(adopted.error);
    this.tracker = adopted.tracker;
    this.negotiated = { revision, capabilities: result?.capabilities };
    const session = this.tracker.current!.ordinal;
    this.deps.emit({ type: 'session-started', session, revision, atMs: this.deps.now() });
    this.save();
    if (reason) this.deps.emit({ type: 'session-reinitialized', from: reason.from, to: session, reason: reason.why, atMs: this.deps.now() });
    return true;
  }

  /** Notes a session loss with its diagnosis; the session is declared dead. */
  lost(ordinal: number, dialect: string, method: string | undefined, serverUptimeSeconds: number | undefined): void {
    const current = this.tracker.current;
    if (current?.ordinal === ordinal) {
      const { now, serverIdleBudgetMs } = this.deps;
      const diagnosis = diagnoseLoss({
        sessionStartedAtMs: current.startedAtMs, lastActivityAtMs: current.lastActivityAtMs, failedAtMs: now(), streamOpen: this.#streams > 0,
        ...(serverUptimeSeconds === undefined ? {} : { serverUptimeSeconds }),
        ...(serverIdleBudgetMs === undefined ? {} : { idleBudgetMs: serverIdleBudgetMs }),
      });
      this.deps.emit({ type: 'session-lost', session: ordinal, dialect, ...(method === undefined ? {} : { method }), ...diagnosis, atMs: now() });
    }
    this.tracker = markDead(this.tracker, ordinal);
    this.save(); // without the dead id: no other engine picks it up
  }

  /**
   * Before a request goes out: if the SDK holds a session that is dead (a call gave up on it)
   * or, before a call's first attempt, idle past the budget, open the new one first, so that no
   * dead id is ever sent. A call being retried keeps its session: backoff is on the same session.
   */
  async prepare(sdkSentSession: boolean, firstAttempt: boolean, selfCounted: boolean): Promise<void> {
    if (this.#reinitializing) await this.#reinitializing.catch(() => {});
    if (!sdkSentSession || !this.sessionful || this.#initialize === undefined) return;
    const current = this.tracker.current;
    if (current === undefined) return this.recover(this.tracker.ordinals, 'lost');
    const { idleBudgetMs } = this.deps;
    // In use (another call in flight, a stream open) is never idle.
    const inUse = this.#inFlight > (selfCounted ? 1 : 0) || this.#streams > 0;
    if (firstAttempt && !inUse && idleBudgetMs !== undefined && isIdleBeyond(this.tracker, this.deps.now(), idleBudgetMs)) {
      this.tracker = markDead(this.tracker, current.ordinal);
      void this.#end(current.id);
      return this.recover(current.ordinal, 'idle');
    }
  }

  /**
   * Makes sure a session newer than `failedOrdinal` exists: the first caller opens it, the
   * others wait for that one (core's `recoveryStep`).
   */
  recover(failedOrdinal: number, why: 'lost' | 'idle' = 'lost'): Promise<void> {
    const step = recoveryStep(this.tracker, failedOrdinal);
    if (step === 'replay') return Promise.resolve();
    if (step === 'wait' && this.#reinitializing) return this.#reinitializing;
    this.tracker = beginReinitialize(markDead(this.tracker, failedOrdinal));
    const run = this.#reinitialize(failedOrdinal, why).finally(() => {
      if (this.#reinitializing === run) this.#reinitializing = undefined;
    });
    this.#reinitializing = run;
    return run;
  }

  async #reinitialize(from: number, why: 'lost' | 'idle'): Promise<void> {
    const init = this.#initialize;
    const before = this.negotiated;
    try {
      // An SDK given a session id up front skips initialize: there is nothing to open a new session with.
      if (!init) throw new ResilienceError({ code: 'SESSION_LOST', message: 'A new session could not be opened (this client never sent an initialize)', details: {} });
      const headers = new Headers(init.headers);
      headers.delete('mcp-session-id');
      headers.delete('last-event-id');
      this.#credentials.forEach((value, name) => headers.set(name, value));
      const adopted = await withDeadline(REINITIALIZE_TIMEOUT_MS, async (signal) => {
        const response = await this.deps.initialize(this.url, { method: 'POST', headers, body: init.text, redirect: 'manual', signal });
        if (!response.ok) {
          const status = response.status;
          await response.body?.cancel().catch(() => {});
          throw new ResilienceError({ code: 'SESSION_LOST', message: `A new session could not be opened (HTTP ${status})`, details: { status } });
        }
        const learned = await this.learn(response, { from, why });
        await response.body?.cancel().catch(() => {});
        return learned;
      });
      if (!adopted) throw new ResilienceError({ code: 'SESSION_LOST', message: 'A new session could not be opened (no initialize result)', details: {} });
    } catch (error) {
      this.tracker = abandonReinitialize(this.tracker);
      if (error instanceof ResilienceError) throw error;
      throw new ResilienceError({ code: 'SESSION_LOST', message: 'A new session could not be opened', details: {} }, { cause: error });
    }
    if (this.#initialized) await this.#post(this.#initialized.text).catch(() => false);
    await this.#restore();
    const change = before && this.negotiated ? sessionChange(before, this.negotiated) : undefined;
    if (change) {
      const to = this.tracker.current!.ordinal;
      this.deps.emit({ type: 'session-changed', from, to, ...change, atMs: this.deps.now() });
      this.changed = new ResilienceError({
        code: 'SESSION_CHANGED', message: 'The new session negotiated another revision or other capabilities: connect again',
        details: { ...change },
      });
      throw this.changed;
    }
  }

  /** Re-sends the subscriptions and the log level that had succeeded on the old session. */
  async #restore(): Promise<void> {
    let subscriptions = 0;
    for (const uri of this.subscriptions) {
      if (await this.#request('resources/subscribe', { uri })) subscriptions++;
    }
    const level = this.logLevel;
    const levelRestored = level !== undefined && (await this.#request('logging/setLevel', { level }));
    if (subscriptions === 0 && !levelRestored) return;
    this.deps.emit({
      type: 'state-restored', session: this.tracker.current!.ordinal, subscriptions,
      ...(levelRestored ? { logLevel: level } : {}), atMs: this.deps.now(),
    });
  }

  async #request(method: string, params: Record<string, unknown>): Promise<boolean> {
    const id = `mcp-resilience-${++internalIds}`;
    const text = await this.#post(JSON.stringify({ jsonrpc: '2.0', id, method, params }), id).catch(() => undefined);
    return text !== undefined && responseMessages(text.body, text.type).some((m) => isAnswerTo(m, id) && 'result' in m);
  }

  /**
   * Sends one of the engine's own messages on the current session. The answer to request
   * `answerTo` is read (an event stream up to it only: it may stay open); a notification's
   * response is not read at all: whatever it holds, and however long it lasts, nobody waits for it.
   */
  async #post(body: string, answerTo?: string): Promise<{ body: string; type: string | null }> {
    const headers = new Headers(this.#initialize!.headers);
    const id = this.tracker.current?.id;
    if (id !== undefined) headers.set('mcp-session-id', id);
    if (this.negotiated) headers.set('mcp-protocol-version', this.negotiated.revision);
    return withDeadline(REINITIALIZE_TIMEOUT_MS, async (signal) => {
      const response = await this.deps.fetch(this.url, { method: 'POST', headers, body, redirect: 'manual', signal });
      const type = response.headers.get('content-type');
      if (answerTo === undefined) {
        await response.body?.cancel().catch(() => {});
        return { body: '', type };
      }
      return { body: await readBounded(response, INITIALIZE_LIMIT, isEventStream(type) ? untilSse((m) => isAnswerTo(m, answerTo)) : undefined), type };
    });
  }

  /** Ends a session the client leaves (idle replacement), best effort. */
  async #end(id: string | undefined): Promise<void> {
    if (id === undefined) return;
    await withDeadline(REINITIALIZE_TIMEOUT_MS, (signal) =>
      this.deps.fetch(this.url, { method: 'DELETE', headers: { 'mcp-session-id': id }, redirect: 'manual', signal }).then((r) => r.body?.cancel(), () => {}));
  }
}
