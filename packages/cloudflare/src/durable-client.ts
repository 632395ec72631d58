import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SessionStore } from '@mcp-resilience/client';
import { DEFAULT_PORTS, sessionStoreKey } from '@mcp-resilience/client/adapter';
import { ResilienceError } from '@mcp-resilience/core';
import { connect, type WorkersConnectOptions } from './connect.ts';
import { storageSessionStore } from './storage-session-store.ts';

/** Options of {@link durableClient}: those of `connect`, but the object is the store and the context. */
export type DurableClientOptions = Omit<WorkersConnectOptions, 'ctx' | 'sessions' | 'sessionName' | 'sessionStore' | 'budgetMs'>;

/** An official SDK client held by a Durable Object for all of its requests. */
export interface DurableClient {
  /** The connected client: opened on first use (on the stored session, if any), then the same one for every request to this object. */
  client(): Promise<Client>;
  /** Ends the session on its server (DELETE), forgets it and closes the client; a later `client()` opens a new session. */
  end(): Promise<void>;
  /** Closes the client and keeps the session stored, for this object's next instance to go on with. */
  close(): Promise<void>;
}

/** The identity a {@link durableClient}'s session is stored under, unless `identity` is given: the object's storage is its own. */
const DURABLE_IDENTITY = 'durable-object';

interface Held {
  readonly opening: Promise<Client>;
  /** Whether the engine may still write to the store: shut before an end, so that no late write brings the session back. */
  readonly gate: { open: boolean };
}

const notState = () => new ResilienceError({
  code: 'INVALID_BINDING', details: { option: 'state' },
  message: 'durableClient takes a Durable Object\'s state (this.ctx); in a stateless Worker, call connect() in each request',
});

/**
 * Holds an official SDK 1.x `Client` inside a Durable Object, for agents and other long-lived
 * use: the object's requests all share one client and its session, with the engine's recovery
 * (an eviction between two requests costs one re-initialization). Inside a Durable Object,
 * I/O made for one request may be used by the next (a stateless Worker refuses that), but never
 * by another object: create it per object (a field), never in a module global. The session is
 * kept in the object's own storage, so the next instance (after the runtime evicted this one)
 * goes on with it without an `initialize`; `end()` ends it on the server. The engine's own
 * requests get its usual deadline (no request budget), background work goes to `state.waitUntil`.
 *
 * @example
 * export class Agent extends DurableObject {
 *   readonly mcp = durableClient(this.ctx, 'https://mcp.example.com/mcp');
 *   async search(q: string) {
 *     return (await this.mcp.client()).callTool({ name: 'search', arguments: { q } });
 *   }
 *   async alarm() { await this.mcp.end(); } // going away: end the session on the server
 * }
 */
export function durableClient(state: DurableObjectState, url: string | URL, options: DurableClientOptions = {}): DurableClient {
  if (typeof state?.storage?.get !== 'function') throw notState();
  // The object's own storage holds only its own session: the object is its identity.
  const identity = options.identity ?? DURABLE_IDENTITY;
  const storedKey = sessionStoreKey(new URL(url).href, identity);
  const storage = storageSessionStore(state.storage);
  let held: Held | undefined;

  function open(): Held {
    const gate = { open: true };
    const store: SessionStore = {
      get: (key) => storage.get(key),
      set: (key, session) => (gate.open ? storage.set(key, session) : undefined),
      delete: (key) => (gate.open ? storage.delete(key) : undefined),
    };
    const entry: Held = { gate, opening: connect(url, { deadline: DEFAULT_PORTS.deadline, ...options, identity, ctx: state, sessionStore: store }) };
    entry.opening.catch(() => held === entry && (held = undefined)); // a failed open is tried again by the next client()
    return entry;
  }

  return {
    client: () => (held ??= open()).opening,

    async end() {
      // A new instance ends the session it stored, too: opening it sends nothing, the DELETE carries its id.
      if (!held && (await storage.get(await storedKey)) === undefined) return;
      const entry = held ?? open();
      held = undefined;
      entry.gate.open = false;
      const client = await entry.opening.catch(() => undefined);
      const transport = client?.transport as { terminateSession?: () => Promise<void> } | undefined;
      await transport?.terminateSession?.().catch(() => {}); // a session already gone is ended all the same
      await client?.close();
      await storage.delete(await storedKey);
    },

    async close() {
      const entry = held;
      held = undefined;
      await (await entry?.opening.catch(() => undefined))?.close();
    },
  };
}
