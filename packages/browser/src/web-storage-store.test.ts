import { describe, expect, it } from 'vitest';
import { sessionStoreKey } from '@mcp-resilience/client';
import { STORAGE_PREFIX, WebStorageSessionStore } from './web-storage-store.ts';

/** A Web Storage as the spec describes it (the Chromium tests use the browser's own). */
class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();
  get length() { return this.#items.size; }
  clear() { this.#items.clear(); }
  getItem(key: string) { return this.#items.get(key) ?? null; }
  key(index: number) { return [...this.#items.keys()][index] ?? null; }
  removeItem(key: string) { this.#items.delete(key); }
  setItem(key: string, value: string) { this.#items.set(key, value); }
}

const session = {
  sessionId: 's-1', revision: '2025-11-25', subscriptions: [],
  initialize: { body: '{"jsonrpc":"2.0","id":0,"method":"initialize"}', headers: { accept: 'application/json', Authorization: 'Bearer secret', cookie: 'a=b' } },
};

describe('WebStorageSessionStore', () => {
  it('keeps a session under the engine\'s key, without credentials', async () => {
    const storage = new MemoryStorage();
    const store = new WebStorageSessionStore(storage);
    const key = await sessionStoreKey('https://mcp.example/mcp?api_key=in-the-url', 'user:a');
    store.set(key, session);
    expect(storage.key(0)).toBe(`${STORAGE_PREFIX}${key}`);
    expect(storage.key(0)).not.toMatch(/mcp\.example|in-the-url|user:a/);
    expect(storage.getItem(storage.key(0)!)).not.toMatch(/secret|a=b/);
    expect(store.get(key)).toMatchObject({ sessionId: 's-1', initialize: { headers: { accept: 'application/json' } } });
    store.delete(key);
    expect(store.get(key)).toBeUndefined();
  });

  it('drops what an older version kept under the URL itself, and nothing else', () => {
    const storage = new MemoryStorage();
    storage.setItem(`${STORAGE_PREFIX}https://mcp.example/mcp?api_key=in-the-url`, JSON.stringify(session));
    storage.setItem(`${STORAGE_PREFIX}${'a'.repeat(64)}`, JSON.stringify(session));
    storage.setItem('app:own', 'kept');
    new WebStorageSessionStore(storage);
    expect([0, 1, 2].map((index) => storage.key(index))).toEqual([`${STORAGE_PREFIX}${'a'.repeat(64)}`, 'app:own', null]);
  });

  it('counts a value it cannot read as no session, and a full storage as nothing kept', () => {
    const storage = new MemoryStorage();
    storage.setItem(`${STORAGE_PREFIX}x`, '{not json');
    expect(new WebStorageSessionStore(storage).get('x')).toBeUndefined();
    const full = Object.assign(new MemoryStorage(), { setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } });
    expect(() => new WebStorageSessionStore(full).set('x', session)).not.toThrow();
  });
});
