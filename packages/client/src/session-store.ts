import { CREDENTIAL_HEADERS } from './credentials.ts';

/** What the engine keeps of an endpoint's session, so another engine (a new isolate, a reload) can go on with it. */
export interface StoredSession {
  /** The live session's id; none when it was lost and not replaced yet (resume it by {@link StoredSession.lineage}). */
  readonly sessionId?: string;
  /**
   * An opaque name of the client lineage that stored it (never a session id): an SDK client
   * handed it as its session id goes on with this session when it has no live id (`sessionId ?? lineage`).
   */
  readonly lineage?: string;
  readonly revision: string;
  readonly capabilities?: unknown;
  /** The client's own `initialize`, to open a new session with; credentials are never stored. */
  readonly initialize: { readonly body: string; readonly headers: Readonly<Record<string, string>> };
  readonly initialized?: { readonly body: string; readonly headers: Readonly<Record<string, string>> };
  readonly subscriptions: readonly string[];
  readonly logLevel?: string;
  /** What the server said of itself in its `initialize` answer: a resumed SDK client answers `getServerVersion()` and `getInstructions()` with them. */
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly instructions?: string;
}

/**
 * Where sessions outlive one engine: a runtime port. Workers keep them in a Durable Object,
 * browsers in `sessionStorage`; {@link MemorySessionStore} serves one process. Each session is
 * kept under a `key` the engine makes of the endpoint and the application's `identity`
 * (`sessionStoreKey`: a digest, which holds no secret of the URL); what is stored never
 * holds a credential. The engine gives every answer a deadline: a store that fails or is silent
 * counts as holding nothing.
 *
 * @example
 * const store: SessionStore = { get: (key) => kv.get(key), set: (key, session) => kv.put(key, session), delete: (key) => kv.delete(key) };
 */
export interface SessionStore {
  get(key: string): Promise<StoredSession | undefined> | StoredSession | undefined;
  set(key: string, session: StoredSession): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/**
 * A session store in memory, shared by the engines of one process.
 *
 * @example
 * const store = new MemorySessionStore();
 * const fetch = createResilientFetch({ sessionStore: store });
 */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, StoredSession>();

  get(key: string): StoredSession | undefined {
    return this.#sessions.get(key);
  }

  set(key: string, session: StoredSession): void {
    this.#sessions.set(key, session);
  }

  delete(key: string): void {
    this.#sessions.delete(key);
  }
}

/**
 * A new opaque name for a lineage in a store: 128 random bits, hex.
 *
 * @example
 * newLineageKey() // 'f3a9…' (32 hex digits)
 */
export function newLineageKey(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A session as a store keeps it: without a credential header in its `initialize` or
 * `notifications/initialized`. The engine hands none; a store that writes outside the process
 * (Web Storage, a Durable Object, `Deno.Kv`) does not take that on trust.
 *
 * @example
 * storage.put(key, storableSession(session));
 */
export function storableSession(session: StoredSession): StoredSession {
  const clean = (headers: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()) && name.toLowerCase() !== 'dpop'));
  return {
    ...session,
    initialize: { ...session.initialize, headers: clean(session.initialize.headers) },
    ...(session.initialized ? { initialized: { ...session.initialized, headers: clean(session.initialized.headers) } } : {}),
  };
}
