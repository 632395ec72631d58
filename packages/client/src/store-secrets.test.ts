import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type ConnectOptions } from './connect.ts';
import { MemorySessionStore, type SessionStore, type StoredSession } from './session-store.ts';
import { sessionStoreKey } from './store-key.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

/** A store that keeps a copy of every key and session it is handed. */
function recording(): { store: SessionStore; handed: string[] } {
  const inner = new MemorySessionStore();
  const handed: string[] = [];
  return {
    handed,
    store: {
      get: (key) => (handed.push(key), inner.get(key)),
      set: (key, session: StoredSession) => (handed.push(key, JSON.stringify(session)), inner.set(key, session)),
      delete: (key) => (handed.push(key), inner.delete(key)),
    },
  };
}

const SECRETS = ['QUERY-SECRET', 'HEADER-SECRET', 'BEARER-SECRET', 'DPOP-SECRET', 'COOKIE-SECRET'];

describe('nothing secret is stored', () => {
  it('neither a token in the URL, a custom credential header, Authorization, Cookie nor a DPoP proof reaches the store, its keys or its sessions', async () => {
    chaos = await startChaosServer();
    const url = `${chaos.url}?api_key=QUERY-SECRET`;
    const { store, handed } = recording();
    const sent: string[] = [];
    const writes: Promise<unknown>[] = [];
    const options: ConnectOptions = {
      sessionStore: store, resumeStored: true, identity: 'user:a', credentialHeaders: ['X-API-Key'],
      background: (task) => void writes.push(task),
      fetch: (input, init) => (sent.push(`${String(input)} ${JSON.stringify([...new Headers(init?.headers)])}`), fetch(input, init)),
      transportOptions: {
        requestInit: { headers: { 'x-api-key': 'HEADER-SECRET', authorization: 'Bearer BEARER-SECRET', dpop: 'DPOP-SECRET', cookie: 'c=COOKIE-SECRET' } },
      },
    };
    const first = await connect(url, options);
    clients.push(first);
    await first.subscribeResource({ uri: 'chaos://counter' });
    await Promise.all(writes);
    // The wire had every secret (the test would prove nothing otherwise); the store, none.
    for (const secret of SECRETS) expect(sent.join('\n')).toContain(secret);
    expect(handed.filter((entry) => entry.startsWith('{'))).not.toEqual([]);
    expect(handed.join('\n')).not.toMatch(new RegExp(SECRETS.join('|')));
    expect(handed[0]).toBe(await sessionStoreKey(url, 'user:a'));
    expect(handed[0]).toMatch(/^[0-9a-f]{64}$/);
    // And the session goes on from there: a second client resumes it, its own credentials on the wire.
    const second = await connect(url, options);
    clients.push(second);
    await expect(second.callTool({ name: 'echo', arguments: { text: 'two' } })).resolves.toMatchObject({ content: [{ text: 'two' }] });
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
  });

  it('keys differ by any part of the URL but its fragment, and by identity', async () => {
    const base = 'https://mcp.example.com/mcp';
    const key = await sessionStoreKey(base, 'a');
    expect(await sessionStoreKey(`${base}#x`, 'a')).toBe(key);
    for (const other of [await sessionStoreKey(base, 'b'), await sessionStoreKey(base), await sessionStoreKey(`${base}?t=1`, 'a'), await sessionStoreKey(`${base}/x`, 'a')]) {
      expect(other).not.toBe(key);
    }
  });
});
