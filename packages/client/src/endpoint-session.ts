import {
  abandonReinitialize, adoptSession, beginReinitialize, diagnoseLoss, isIdleBeyond, isSessionful, markDead, NO_SESSION,
  recoveryStep, ResilienceError, sessionChange, touch, type Negotiated, type ResilienceEvent, type SessionTracker,
} from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';
import { responseMessages } from './messages.ts';

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
}

interface Remembered {
  readonly text: string;
  readonly headers: Headers;
}

const INITIALIZE_LIMIT = 1024 * 1024;
let internalIds = 0;

/**
 * The sessions of one MCP endpoint (one URL): the current session (core's tracker), the
 * client's own `initialize` and `notifications/initialized` to open a new one with, the
 * session state to restore on it (subscriptions, log level), and the one re-initialization
 * that concurrent calls share. Session ids stay with the endpoint that minted them.
 */
export class EndpointSession {
  tracker: SessionTracker = NO_SESSION;
  negotiated: Negotiated | undefined;
  readonly subscriptions = new Set<string>();
  logLevel: string | undefined;
  #initialize: Remembered | undefined;
  #initialized: Remembered | undefined;
  #reinitializing: Promise<void> | undefined;

  constructor(readonly url: string, private readonly deps: SessionDeps) {}

  /** Session logic applies: the connection negotiated a sessionful revision. */
  get sessionful(): boolean {
    return this.negotiated !== undefined && isSessionful(this.negotiated.revision);
  }

  rememberInitialize(text: string, headers: Headers): void {
    this.#initialize = { text, headers: new Headers(headers) };
  }

  rememberInitialized(text: string, headers: Headers): void {
    this.#initialized = { text, headers: new Headers(headers) };
  }

  /** Puts the current session id on a request, in place of whatever the SDK holds. */
  stamp(headers: Headers): void {
    const id = this.tracker.current?.id;
    if (this.sessionful && id !== undefined && headers.has('mcp-session-id')) headers.set('mcp-session-id', id);
  }

  touch(): void {
    this.tracker = touch(this.tracker, this.deps.now());
  }

  /** Reads the revision, capabilities and session id off an `initialize` response, leaving it readable. */
  async learn(response: Response, reason?: { from: number; why: 'lost' | 'idle' }): Promise<void> {
    const text = await readBounded(response.clone(), INITIALIZE_LIMIT);
    const result = responseMessages(text, response.headers.get('content-type')).find((m) => 'result' in m)?.result as
      | { protocolVersion?: unknown; capabilities?: unknown }
      | undefined;
    const revision = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
    if (revision === undefined) return;
    const id = response.headers.get('mcp-session-id') ?? undefined;
    const adopted = adoptSession(this.tracker, { ...(id === undefined ? {} : { id }), revision, nowMs: this.deps.now() });
    if (!adopted.ok) throw new ResilienceError(adopted.error);
    this.tracker = adopted.tracker;
    this.negotiated = { revision, capabilities: result?.capabilities };
    const session = this.tracker.current!.ordinal;
    this.deps.emit({ type: 'session-started', session, revision, atMs: this.deps.now() });
    if (reason) this.deps.emit({ type: 'session-reinitialized', from: reason.from, to: session, reason: reason.why, atMs: this.deps.now() });
  }

  /** Notes a session loss with its diagnosis; the session is declared dead. */
  lost(ordinal: number, dialect: string, method: string | undefined, serverUptimeSeconds: number | undefined): void {
    const current = this.tracker.current;
    if (current?.ordinal === ordinal) {
      const { now, serverIdleBudgetMs } = this.deps;
      const diagnosis = diagnoseLoss({
        sessionStartedAtMs: current.startedAtMs, lastActivityAtMs: current.lastActivityAtMs, failedAtMs: now(),
        ...(serverUptimeSeconds === undefined ? {} : { serverUptimeSeconds }),
        ...(serverIdleBudgetMs === undefined ? {} : { idleBudgetMs: serverIdleBudgetMs }),
      });
      this.deps.emit({ type: 'session-lost', session: ordinal, dialect, ...(method === undefined ? {} : { method }), ...diagnosis, atMs: now() });
    }
    this.tracker = markDead(this.tracker, ordinal);
  }

  /**
   * Before a request goes out: if the SDK holds a session that is dead (a call gave up on it)
   * or, before a call's first attempt, idle past the budget, open the new one first, so that no
   * dead id is ever sent. A call being retried keeps its session: backoff is on the same session.
   */
  async prepare(sdkSentSession: boolean, firstAttempt: boolean): Promise<void> {
    if (this.#reinitializing) await this.#reinitializing.catch(() => {});
    if (!sdkSentSession || !this.sessionful || this.#initialize === undefined) return;
    const current = this.tracker.current;
    if (current === undefined) return this.recover(this.tracker.ordinals, 'lost');
    const { idleBudgetMs } = this.deps;
    if (firstAttempt && idleBudgetMs !== undefined && isIdleBeyond(this.tracker, this.deps.now(), idleBudgetMs)) {
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
    const init = this.#initialize!;
    const before = this.negotiated;
    const headers = new Headers(init.headers);
    headers.delete('mcp-session-id');
    headers.delete('last-event-id');
    try {
      const response = await this.deps.initialize(this.url, { method: 'POST', headers, body: init.text });
      if (!response.ok) {
        const status = response.status;
        await response.body?.cancel().catch(() => {});
        throw new ResilienceError({ code: 'SESSION_LOST', message: `A new session could not be opened (HTTP ${status})`, details: { status } });
      }
      await this.learn(response, { from, why });
      await response.body?.cancel().catch(() => {});
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
      throw new ResilienceError({
        code: 'SESSION_CHANGED', message: 'The new session negotiated another revision or other capabilities; the call was not replayed',
        details: { ...change },
      });
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
    const text = await this.#post(JSON.stringify({ jsonrpc: '2.0', id, method, params })).catch(() => undefined);
    return text !== undefined && responseMessages(text.body, text.type).some((m) => m.id === id && 'result' in m);
  }

  async #post(body: string): Promise<{ body: string; type: string | null }> {
    const headers = new Headers(this.#initialize!.headers);
    const id = this.tracker.current?.id;
    if (id !== undefined) headers.set('mcp-session-id', id);
    if (this.negotiated) headers.set('mcp-protocol-version', this.negotiated.revision);
    const response = await this.deps.fetch(this.url, { method: 'POST', headers, body });
    return { body: await readBounded(response, INITIALIZE_LIMIT), type: response.headers.get('content-type') };
  }

  /** Ends a session the client leaves (idle replacement), best effort. */
  async #end(id: string | undefined): Promise<void> {
    if (id === undefined) return;
    await this.deps.fetch(this.url, { method: 'DELETE', headers: { 'mcp-session-id': id } }).then((r) => r.body?.cancel(), () => {});
  }
}
