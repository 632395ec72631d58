import { defined } from '@mcp-resilience/core';
import type { Lineage } from './lineage.ts';
import type { Engine } from './engine.ts';
import { storableHeaders } from './credentials.ts';
import type { InitializeAnswer } from './initialize-answer.ts';
import { STORED_INSTRUCTIONS_LIMIT } from './limits.ts';
import { readStored, storeCall, type StoreBound } from './store-call.ts';
import { sessionStoreKey } from './store-key.ts';
import { newLineageKey, type SessionStore, type StoredSession } from './session-store.ts';

/**
 * One lineage's copy in the session store: written (one write after another) each time its
 * session changes, while this lineage is the one its endpoint's store belongs to; read back by
 * another engine (a reload, the next request of a Worker) to go on with that session; removed
 * when its client ends the session. It is kept under the key of the lineage's endpoint and the
 * engine's `identity` (see {@link sessionStoreKey}), and holds no credential.
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
  /** What the server said of itself when the current session opened (kept for a resumed client's `getServerVersion()` and `getInstructions()`). */
  #server: Pick<StoredSession, 'serverInfo' | 'instructions'> = {};

  readonly #session: Lineage;
  readonly #engine: Engine;

  constructor(session: Lineage, engine: Engine) {
    this.#session = session;
    this.#engine = engine;
  }

  /** The key of an endpoint's session for the engine's identity in its store (see {@link sessionStoreKey}). */
  static keyOf(engine: Engine, url: string): Promise<string> {
    return sessionStoreKey(url, engine.identity);
  }

  /** How long the engine waits for its store's answer: its deadline port, within `requestDeadlineMs`. */
  static boundOf(engine: Engine): StoreBound {
    return { deadline: engine.ports.deadline, requestDeadlineMs: engine.requestDeadlineMs };
  }

  /**
   * Hands the store its copy of the session (background work: a store that fails costs only the
   * hand-over); with the `initialize` answer that opened it, what the server said of itself there
   * (long instructions are not stored).
   */
  save(opened?: InitializeAnswer): void {
    if (opened) {
      const { serverInfo, instructions } = opened;
      this.#server = defined({ serverInfo, instructions: instructions !== undefined && instructions.length <= STORED_INSTRUCTIONS_LIMIT ? instructions : undefined });
    }
    const session = this.#session, engine = this.#engine;
    const { initializeRequest: initialize, initializedRequest: initialized, negotiated } = session;
    if (!engine.ports.sessionStore || !initialize || !negotiated || engine.closed || !session.ownsStore) return;
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
      ...this.#server,
    });
    // One write after another, in the order the session changed: a slow earlier write (the dead
    // session) must never land after a later one (its replacement) on a remote store.
    this.#chain((store, key) => store.set(key, stored));
  }

  /** Goes on with the session a store kept (its client named it): a reload, the next request of a Worker. */
  resume(stored: StoredSession): void {
    const session = this.#session;
    session.state.load(stored.subscriptions, stored.logLevel);
    this.#storeKey = stored.lineage;
    this.#server = defined({ serverInfo: stored.serverInfo, instructions: stored.instructions });
    session.resumed(defined({
      initialize: { text: stored.initialize.body, headers: new Headers(stored.initialize.headers) },
      initialized: stored.initialized && { text: stored.initialized.body, headers: new Headers(stored.initialized.headers) },
      negotiated: { revision: stored.revision, capabilities: stored.capabilities }, sessionId: stored.sessionId,
    }));
  }

  /**
   * Removes the lineage's copy from the store (its client ended the session for good), after
   * every write before it, and only while the copy there is still this lineage's (its name, or
   * `endedId`, the session its client ended): never another client's. Never rejects.
   */
  forget(endedId?: string): Promise<void> {
    const ours = (stored: StoredSession | undefined) =>
      stored !== undefined && ((this.#storeKey !== undefined && stored.lineage === this.#storeKey) || (endedId !== undefined && stored.sessionId === endedId));
    return this.#chain(async (store, key) => {
      if (ours(await readStored(store, key, SessionPersistence.boundOf(this.#engine)))) await store.delete(key);
    });
  }

  /** Runs `work` on the store after the writes before it, within the store's deadline, as background work. */
  #chain(work: (store: SessionStore, key: string) => unknown): Promise<void> {
    const engine = this.#engine, store = engine.ports.sessionStore;
    if (!store) return Promise.resolve();
    const bound = SessionPersistence.boundOf(engine);
    this.#saving = this.#saving
      .then(async () => void (await storeCall(bound, async () => work(store, await SessionPersistence.keyOf(engine, this.#session.url)))))
      .catch(() => {});
    engine.ports.background(this.#saving);
    return this.#saving;
  }
}
