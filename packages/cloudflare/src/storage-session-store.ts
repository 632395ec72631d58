import type { SessionStore, StoredSession } from '@mcp-resilience/client';
import { storableSession } from '@mcp-resilience/client/adapter';

/** Where {@link storageSessionStore} keeps a session in the object's storage: this prefix and the engine's key. */
export const SESSION_KEY_PREFIX = 'mcp-resilience/session:';

/**
 * The engine's `sessionStore` port on a Durable Object's own storage (its key-value API, so a
 * SQLite-backed class and an older key-value one alike): one key per endpoint and identity (the
 * engine's digest of both: no secret of the URL), never a credential.
 * {@link durableClient} keeps its session here, so that the object's next instance goes on with it.
 *
 * @example
 * const store = storageSessionStore(this.ctx.storage);
 */
export function storageSessionStore(storage: DurableObjectStorage): SessionStore {
  return {
    get: (key) => storage.get<StoredSession>(SESSION_KEY_PREFIX + key),
    set: (key, session) => storage.put(SESSION_KEY_PREFIX + key, storableSession(session)),
    delete: async (key) => void (await storage.delete(SESSION_KEY_PREFIX + key)),
  };
}
