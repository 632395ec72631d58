import { describe, expect, it } from 'vitest';
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
  it('keeps a session under its endpoint, without credentials', () => {
    const storage = new MemoryStorage();
    const store = new WebStorageSessionStore(storage);
    store.set('https://mcp.example/mcp', session);
    expect(storage.key(0)).toBe(`${STORAGE_PREFIX}https://mcp.example/mcp`);
    expect(storage.getItem(storage.key(0)!)).not.toMatch(/secret|a=b/);
    expect(store.get('https://mcp.example/mcp')).toMatchObject({ sessionId: 's-1', initialize: { headers: { accept: 'application/json' } } });
    store.delete('https://mcp.example/mcp');
    expect(store.get('https://mcp.example/mcp')).toBeUndefined();
  });

  it('counts a value it cannot read as no session, and a full storage as nothing kept', () => {
    const storage = new MemoryStorage();
    storage.setItem(`${STORAGE_PREFIX}x`, '{not json');
    expect(new WebStorageSessionStore(storage).get('x')).toBeUndefined();
    const full = Object.assign(new MemoryStorage(), { setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } });
    expect(() => new WebStorageSessionStore(full).set('x', session)).not.toThrow();
  });
});
