import type { SessionStore, StoredSession } from '@mcp-resilience/client';
import { storableSession } from '@mcp-resilience/client/adapter';

/** Where {@link storageSessionStore} keeps an endpoint's session in the object's storage. */
export const SESSION_KEY_PREFIX = 'mcp-resilience/session:';

/**
 * The engine's `sessionStore` port on a Durable Object's own storage (its key-value API, so a
 * SQLite-backed class and an older key-value one alike): one key per endpoint, never a credential.
 * {@link durableClient} keeps its session here, so that the object's next instance goes on with it.
 *
 * @example
 * const store = storageSessionStore(this.ctx.storage);
 */
export function storageSessionStore(storage: DurableObjectStorage): SessionStore {
  return {
    get: (endpoint) => storage.get<StoredSession>(SESSION_KEY_PREFIX + endpoint),
    set: (endpoint, session) => storage.put(SESSION_KEY_PREFIX + endpoint, storableSession(session)),
    delete: async (endpoint) => void (await storage.delete(SESSION_KEY_PREFIX + endpoint)),
  };
}
