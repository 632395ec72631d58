import type { SessionStore, StoredSession } from '@mcp-resilience/client';
import { storableSession } from '@mcp-resilience/client/adapter';

/** The key prefix of stored sessions: `mcp-resilience:session:<key>`, the engine's key (a digest of endpoint and identity). */
export const STORAGE_PREFIX = 'mcp-resilience:session:';

/** Removes what an older version kept under the endpoint's URL itself (which may carry a token). */
function dropUrlKeyed(storage: Storage): void {
  try {
    for (let index = storage.length - 1; index >= 0; index--) {
      const key = storage.key(index);
      if (key?.startsWith(STORAGE_PREFIX) && key.slice(STORAGE_PREFIX.length).includes(':')) storage.removeItem(key);
    }
  } catch {
    // A blocked storage: nothing to drop.
  }
}

/**
 * A session store on Web Storage: `sessionStorage` (per tab, survives a reload: the default of
 * this adapter) or `localStorage` (shared by the origin's tabs, survives the browser). Keys are
 * the engine's (a digest of endpoint and identity: no token of the URL), credentials are never
 * written, and a value that cannot be read (another version, a full or blocked storage) counts as
 * no session.
 *
 * @example
 * const fetch = createResilientFetch({ sessionStore: new WebStorageSessionStore(localStorage) });
 */
export class WebStorageSessionStore implements SessionStore {
  readonly #storage: Storage;

  constructor(storage: Storage) {
    this.#storage = storage;
    dropUrlKeyed(storage);
  }

  get(key: string): StoredSession | undefined {
    try {
      const text = this.#storage.getItem(STORAGE_PREFIX + key);
      const value = text === null ? undefined : (JSON.parse(text) as StoredSession);
      return typeof value?.revision === 'string' && typeof value.initialize?.body === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  set(key: string, session: StoredSession): void {
    try {
      this.#storage.setItem(STORAGE_PREFIX + key, JSON.stringify(storableSession(session)));
    } catch {
      // A full or blocked storage: the session lives on in this page only.
    }
  }

  delete(key: string): void {
    try {
      this.#storage.removeItem(STORAGE_PREFIX + key);
    } catch {
      // Nothing stored to remove.
    }
  }
}
