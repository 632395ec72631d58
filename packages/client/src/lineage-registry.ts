import { invalidOption } from '@mcp-resilience/core';
import { EndpointSession, type LineageHost } from './endpoint-session.ts';
import type { Engine } from './engine.ts';
import { SessionPersistence } from './session-persistence.ts';
import { readStored } from './store-call.ts';
import type { LineageLimits } from './options.ts';
import { DEFAULT_LINEAGE_IDLE_MS, DEFAULT_MAX_LINEAGES, ENDED_IDS_KEPT, IDS_PER_LINEAGE } from './limits.ts';

interface Entry {
  /** Its keys in the index: `endpoint \n id` for each id it answers to (or `endpoint \n` for a lineage without one). */
  readonly keys: string[];
  usedAt: number;
}

const endpointOf = (url: string) => url.split('#')[0]!;

/**
 * The client lineages of one fetch, and which one a request belongs to. A lineage is opened by
 * a client's `initialize` sent without a session id; a later request belongs to the lineage
 * whose session id it carries (the live one, or one the lineage replaced, which an SDK may go on
 * sending). A request is never routed by its URL alone: a session id no lineage knows opens a
 * lineage of its own (resumed from the session store when the store holds that session), and a
 * request without one (a revision without sessions) goes to its endpoint's lineage without an id.
 * Lineages no client uses any more are forgotten: a closed one at once, the others past
 * {@link LineageLimits} (least recently used first, never one in use).
 *
 * @example
 * const lineages = new LineageRegistry(engine, { max: 1000 });
 * const session = opensLineage ? lineages.open(url) : await lineages.route(url, headers);
 */
export class LineageRegistry implements LineageHost {
  /** Least recently used first. */
  readonly #entries = new Map<EndpointSession, Entry>();
  readonly #index = new Map<string, EndpointSession>();
  /** Ids of sessions their clients ended (DELETE), by key: the id their late requests carry (bounded, oldest out first). */
  readonly #ended = new Map<string, string>();
  readonly #resuming = new Map<string, Promise<EndpointSession>>();
  /** Per endpoint URL, the one lineage that writes the session store (the latest opened or resumed). */
  readonly #storeOwners = new Map<string, EndpointSession>();
  readonly #max: number;
  readonly #idleMs: number;
  #clients = 0;

  readonly #engine: Engine;

  constructor(engine: Engine, limits: LineageLimits = {}) {
    this.#engine = engine;
    const { max = DEFAULT_MAX_LINEAGES, idleMs = DEFAULT_LINEAGE_IDLE_MS } = limits;
    if (!Number.isInteger(max) || max < 1) throw invalidOption('lineages.max', 'an integer >= 1');
    if (!Number.isFinite(idleMs) || idleMs < 0) throw invalidOption('lineages.idleMs', 'a finite number >= 0');
    this.#max = max;
    this.#idleMs = idleMs;
  }

  /** A lineage for a client's `initialize` sent without a session id: known by its id once the answer gives one. */
  open(url: string): EndpointSession {
    this.#sweep();
    const client = ++this.#clients;
    return new EndpointSession(url, this.#engine, this, false, client > 1 ? client : undefined);
  }

  /**
   * The lineage of a request that opens none (a promise only while a stored session is read for
   * it: the common case costs no tick). A request carrying the id of a session its client ended
   * goes on with that id (rewritten on `headers`), with no session logic.
   */
  route(url: string, headers: Headers): EndpointSession | Promise<EndpointSession> {
    this.#sweep();
    const id = headers.get('mcp-session-id');
    const key = `${endpointOf(url)}\n${id ?? ''}`;
    const known = this.#index.get(key);
    if (known) return this.#use(known);
    if (id === null) return this.#add(this.open(url), key);
    const ended = this.#ended.get(key);
    if (ended !== undefined) {
      headers.set('mcp-session-id', ended);
      return new EndpointSession(url, this.#engine, this, true); // its client ended it: no session logic
    }
    let resuming = this.#resuming.get(key);
    if (!resuming) {
      resuming = this.#resume(url, id, key).finally(() => this.#resuming.delete(key));
      this.#resuming.set(key, resuming);
    }
    return resuming.then((lineage) => this.#use(lineage));
  }

  /** A session id no lineage knows: the store's session when it is that one, else a lineage of that id alone. */
  async #resume(url: string, id: string, key: string): Promise<EndpointSession> {
    const store = this.#engine.ports.sessionStore;
    // A store's answer has a deadline: one that fails or is silent holds nothing (and no request).
    const storeKey = store && (await SessionPersistence.keyOf(this.#engine, url).catch(() => undefined));
    const stored = storeKey === undefined ? undefined : await readStored(store!, storeKey, SessionPersistence.boundOf(this.#engine)).catch(() => undefined);
    const lineage = this.#add(this.open(url), key);
    if (stored && (stored.sessionId === id || stored.lineage === id)) lineage.persistence.resume(stored); // `id`: a string
    return lineage;
  }

  claim(lineage: EndpointSession, id: string | undefined): void {
    const key = `${endpointOf(lineage.url)}\n${id ?? ''}`;
    const entry = this.#entries.get(lineage);
    if (!entry) return void this.#add(lineage, key);
    if (entry.keys.includes(key) || this.#contested(lineage, key, id)) return;
    // The first id (an SDK may send it for the client's life) and the latest ones.
    if (entry.keys.push(key) > IDS_PER_LINEAGE) this.#unindex(lineage, entry.keys.splice(1, 1));
    this.#index.set(key, lineage);
    this.#use(lineage);
  }

  takeStore(lineage: EndpointSession): void {
    this.#storeOwners.set(lineage.url, lineage);
  }

  ownsStore(lineage: EndpointSession): boolean {
    return this.#storeOwners.get(lineage.url) === lineage;
  }

  /** Its client ended the session (`finalId`): forgotten at once; its ids' late requests carry `finalId` (or nothing is stamped). */
  ended(lineage: EndpointSession, finalId: string | undefined): void {
    const keys = this.#entries.get(lineage)?.keys ?? [];
    this.forget(lineage);
    if (finalId === undefined) return;
    for (const key of keys) {
      this.#ended.delete(key);
      if (this.#ended.set(key, finalId).size > ENDED_IDS_KEPT) this.#ended.delete(this.#ended.keys().next().value!);
    }
  }

  forget(lineage: EndpointSession): void {
    const entry = this.#entries.get(lineage);
    this.#entries.delete(lineage);
    if (entry) this.#unindex(lineage, entry.keys);
    if (this.ownsStore(lineage)) this.#storeOwners.delete(lineage.url);
  }

  /**
   * Forgets every lineage (the fetch closes) and lets each go (see {@link EndpointSession.close}),
   * telling it whether it was the one writing its endpoint's store.
   */
  closeAll(endSessions: boolean): Promise<void[]> {
    return Promise.all([...this.#entries.keys()].map((lineage) => {
      const ownsStore = this.ownsStore(lineage);
      this.forget(lineage);
      return lineage.close(endSessions, ownsStore);
    }));
  }

  /** A renewal of credentials failed (a token request through this fetch refused): no lineage waits for one any more. */
  renewalFailed(): void {
    for (const lineage of this.#entries.keys()) lineage.clientHeaders.renewalFailed();
  }

  /** Whether a client initialized `url` (a lineage of it is remembered). Asked only of JSON-RPC without MCP's headers: rare. */
  knows(url: string): boolean {
    const endpoint = endpointOf(url);
    for (const lineage of this.#entries.keys()) if (endpointOf(lineage.url) === endpoint) return true;
    return false;
  }

  #unindex(lineage: EndpointSession, keys: readonly string[]): void {
    for (const key of keys) if (this.#index.get(key) === lineage) this.#index.delete(key);
  }

  #add(lineage: EndpointSession, key: string): EndpointSession {
    this.#entries.set(lineage, { keys: [key], usedAt: this.#engine.ports.now() });
    if (!this.#contested(lineage, key, key.slice(key.indexOf('\n') + 1) || undefined)) this.#index.set(key, lineage);
    this.#evictOverMax(lineage);
    return lineage;
  }

  /**
   * A session id another lineage already answers to (a server that handed one id to two clients):
   * neither client's lineage has it from now on. Their requests with it go as they are, with no
   * session logic, so that nothing of one client (its token, its state) reaches the other's.
   */
  #contested(lineage: EndpointSession, key: string, id: string | undefined): boolean {
    const other = this.#index.get(key);
    if (id === undefined || !other || other === lineage) return false;
    this.#index.delete(key);
    if (this.#ended.set(key, id).size > ENDED_IDS_KEPT) this.#ended.delete(this.#ended.keys().next().value!);
    return true;
  }

  #use(lineage: EndpointSession): EndpointSession {
    const entry = this.#entries.get(lineage);
    if (entry) {
      this.#entries.delete(lineage); // to the end: most recently used
      entry.usedAt = this.#engine.ports.now();
      this.#entries.set(lineage, entry);
    }
    return lineage;
  }

  /** Forgets lineages unused past the idle horizon (least recently used first; a lineage in use is kept). */
  #sweep(): void {
    const horizon = this.#engine.ports.now() - this.#idleMs;
    for (const [lineage, entry] of this.#entries) {
      if (entry.usedAt > horizon) return;
      if (!lineage.busy) this.forget(lineage);
    }
  }

  #evictOverMax(added: EndpointSession): void {
    if (this.#entries.size <= this.#max) return;
    for (const lineage of this.#entries.keys()) {
      if (lineage !== added && !lineage.busy) this.forget(lineage);
      if (this.#entries.size <= this.#max) return;
    }
  }
}
