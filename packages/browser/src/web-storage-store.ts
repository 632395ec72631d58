import type { SessionStore, StoredSession } from '@mcp-resilience/client';
import { storableSession } from '@mcp-resilience/client/adapter';

/** The key prefix of stored sessions: `mcp-resilience:session:<endpoint>`. */
export const STORAGE_PREFIX = 'mcp-resilience:session:';

/**
 * A session store on Web Storage: `sessionStorage` (per tab, survives a reload: the default of
 * this adapter) or `localStorage` (shared by the origin's tabs, survives the browser). Credentials
 * are never written, and a value that cannot be read (another version, a full or blocked storage)
 * counts as no session.
 *
 * @example
 * const fetch = createResilientFetch({ sessionStore: new WebStorageSessionStore(localStorage) });
 */
export class WebStorageSessionStore implements SessionStore {
  readonly #storage: Storage;

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  get(endpoint: string): StoredSession | undefined {
    try {
      const text = this.#storage.getItem(STORAGE_PREFIX + endpoint);
      const value = text === null ? undefined : (JSON.parse(text) as StoredSession);
      return typeof value?.revision === 'string' && typeof value.initialize?.body === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  set(endpoint: string, session: StoredSession): void {
    try {
      this.#storage.setItem(STORAGE_PREFIX + endpoint, JSON.stringify(storableSession(session)));
    } catch {
      // A full or blocked storage: the session lives on in this page only.
    }
  }

  delete(endpoint: string): void {
    try {
      this.#storage.removeItem(STORAGE_PREFIX + endpoint);
    } catch {
      // Nothing stored to remove.
    }
  }
}
