import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { storableHeaders } from './credentials.ts';
import { MemorySessionStore, storableSession } from './session-store.ts';
import { sessionStoreKey } from './store-key.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

const AUTH = { authorization: 'Bearer very-secret-token' };

describe('a session store', () => {
  it('lets a second engine (a new isolate, a reload) go on with the same session, and recover it later', async () => {
    chaos = await startChaosServer();
    const store = new MemorySessionStore();
    const writes: Promise<unknown>[] = []; // the store is written in the background (it may be remote): the background port
    const first = new Client({ name: 'first', version: '0' });
    clients.push(first);
    await first.connect(new StreamableHTTPClientTransport(new URL(chaos.url), {
      fetch: createResilientFetch({ sessionStore: store, background: (task) => void writes.push(task) }), requestInit: { headers: AUTH },
    }));
    await first.subscribeResource({ uri: 'chaos://counter' });
    expect(writes.length).toBeGreaterThan(0);
    await Promise.all(writes);
    const key = await sessionStoreKey(chaos.url);
    const stored = store.get(key)!;
    expect(stored).toMatchObject({ revision: '2025-11-25', subscriptions: ['chaos://counter'], sessionId: expect.any(String) });
    expect(JSON.stringify(stored)).not.toContain('very-secret-token'); // credentials are never stored

    // The second engine knows nothing but the store; its SDK client is handed the session id (no initialize).
    const sent: Headers[] = [];
    const spy: typeof fetch = (input, init) => (sent.push(new Headers(init?.headers)), fetch(input, init));
    const events: ResilienceEvent[] = [];
    const second = new Client({ name: 'second', version: '0' });
    clients.push(second);
    await second.connect(new StreamableHTTPClientTransport(new URL(chaos.url), {
      sessionId: stored.sessionId!, requestInit: { headers: AUTH },
      fetch: createResilientFetch({ fetch: spy, sessionStore: store, onEvent: (e) => events.push(e) }),
    }));
    await expect(second.callTool({ name: 'echo', arguments: { text: 'same session' } })).resolves.toMatchObject({ content: [{ text: 'same session' }] });
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);

    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(second.callTool({ name: 'echo', arguments: { text: 'recovered' } })).resolves.toMatchObject({ content: [{ text: 'recovered' }] });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['session-lost', 'session-reinitialized', 'state-restored', 'replayed']));
    const reinitialize = sent.find((h) => h.get('mcp-session-id') === null && h.get('content-type') === 'application/json');
    expect(reinitialize?.get('authorization')).toBe(AUTH.authorization); // the live request's credentials
    expect(store.get(key)?.sessionId).not.toBe(stored.sessionId);
    expect(chaos.state().sessions).toEqual(expect.arrayContaining([expect.objectContaining({ subscriptions: ['chaos://counter'] })]));
  });

  it('never writes credentials or a session id among the stored headers', () => {
    expect(storableHeaders(new Headers({ accept: 'a', authorization: 'x', cookie: 'y', 'proxy-authorization': 'z', 'mcp-session-id': 's' }))).toEqual({ accept: 'a' });
  });

  it('takes no credential header into a store, whatever the case of its name, and keeps the rest of the session', () => {
    const session = {
      sessionId: 's1', revision: '2025-11-25', subscriptions: ['a://b'], logLevel: 'debug',
      initialize: { body: '{"i":1}', headers: { Accept: 'a', Authorization: 'x', COOKIE: 'y' } },
      initialized: { body: '{"n":1}', headers: { 'proxy-authorization': 'z', 'x-trace': 't' } },
    };
    expect(storableSession(session)).toEqual({
      ...session, initialize: { body: '{"i":1}', headers: { Accept: 'a' } }, initialized: { body: '{"n":1}', headers: { 'x-trace': 't' } },
    });
    const { initialized: _, ...withoutNotification } = session;
    expect(storableSession(withoutNotification)).not.toHaveProperty('initialized');
  });
});
