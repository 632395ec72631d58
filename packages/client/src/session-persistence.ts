import { adoptSession, defined, markDead } from '@mcp-resilience/core';
import type { EndpointSession } from './endpoint-session.ts';
import type { Engine } from './engine.ts';
import { storableHeaders } from './credentials.ts';
import { newLineageKey, type StoredSession } from './session-store.ts';

/**
 * One lineage's copy in the session store: written (one write after another) each time its
 * session changes, while this lineage is the one its endpoint's store belongs to; read back by
 * another engine (a reload, the next request of a Worker) to go on with that session.
 *
 * @example
 * session.persistence.save();           // hand the store the current session (background work)
 * session.persistence.resume(stored);   // go on with the session a store kept
 */
export class SessionPersistence {
  /** The store's writes, chained. */
  #saving: Promise<void> = Promise.resolve();
  /** Names this lineage in the store: an SDK given it as a session id resumes this lineage (a stored session with no live id). */
  #storeKey: string | undefined;

  readonly #session: EndpointSession;
  readonly #engine: Engine;

  constructor(session: EndpointSession, engine: Engine) {
    this.#session = session;
    this.#engine = engine;
  }

  /** Hands the store its copy of the session (background work: a store that fails costs only the hand-over). */
  save(): void {
    const session = this.#session, engine = this.#engine;
    const store = engine.ports.sessionStore;
    const { initializeRequest: initialize, initializedRequest: initialized, negotiated } = session;
    if (!store || !initialize || !negotiated || engine.closed || !session.ownsStore) return;
    const id = session.tracker.current?.id;
    const { subscriptions, logLevel } = session.state;
    const stored: StoredSession = defined({
      sessionId: id,
      lineage: (this.#storeKey ??= newLineageKey()),
      revision: negotiated.revision,
      capabilities: negotiated.capabilities,
      initialize: { body: initialize.text, headers: storableHeaders(initialize.headers, engine.credentials) },
      initialized: initialized && { body: initialized.text, headers: storableHeaders(initialized.headers, engine.credentials) },
      subscriptions,
      logLevel,
    });
    // One write after another, in the order the session changed: a slow earlier write (the dead
    // session) must never land after a later one (its replacement) on a remote store.
    this.#saving = this.#saving.then(() => store.set(session.url, stored)).catch(() => {});
    engine.ports.background(this.#saving);
  }

  /** Goes on with the session a store kept (its client named it): a reload, the next request of a Worker. */
  resume(stored: StoredSession): void {
    const session = this.#session;
    session.initializeRequest = { text: stored.initialize.body, headers: new Headers(stored.initialize.headers) };
    if (stored.initialized) session.initializedRequest = { text: stored.initialized.body, headers: new Headers(stored.initialized.headers) };
    session.state.load(stored.subscriptions, stored.logLevel);
    session.negotiated = { revision: stored.revision, capabilities: stored.capabilities };
    this.#storeKey = stored.lineage;
    const adopted = adoptSession(session.tracker, defined({ id: stored.sessionId, revision: stored.revision, nowMs: this.#engine.ports.now() }));
    if (adopted.ok) session.tracker = adopted.tracker;
    if (stored.sessionId === undefined) session.tracker = markDead(session.tracker, session.ordinal);
    session.resumed(stored.sessionId);
  }

  /** Removes the lineage's copy from the store (its client ended the session for good); never rejects. */
  async forget(): Promise<void> {
    await Promise.resolve().then(() => this.#engine.ports.sessionStore?.delete(this.#session.url)).catch(() => {});
  }
}
