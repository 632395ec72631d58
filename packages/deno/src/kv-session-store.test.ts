import { deepStrictEqual as assertEquals, ok as assert } from 'node:assert/strict';
import { connect, isResilienceError, KvSessionStore, sessionStoreKey } from './index.ts';
import { startChaos } from './test-support/chaos-process.ts';

Deno.test('KvSessionStore keeps, gives back and forgets a session in Deno.Kv', async () => {
  const store = await KvSessionStore.open(':memory:');
  try {
    const session = { sessionId: 's1', revision: '2025-11-25', initialize: { body: '{}', headers: { accept: 'application/json' } }, subscriptions: [] };
    assertEquals(await store.get('http://x/mcp'), undefined);
    await store.set('http://x/mcp', session);
    assertEquals(await store.get('http://x/mcp'), session);
    await store.delete('http://x/mcp');
    assertEquals(await store.get('http://x/mcp'), undefined);
  } finally {
    store.close();
  }
});

Deno.test('a client keeps its session in Deno.Kv, against a real mcp-chaos', async () => {
  const chaos = await startChaos();
  const store = await KvSessionStore.open(':memory:');
  try {
    const writes: Promise<unknown>[] = [];
    const first = await connect(chaos.url, { sessionStore: store, background: (task) => void writes.push(task) });
    await first.callTool({ name: 'echo', arguments: { text: 'one' } });
    await Promise.all(writes);
    const kept = await store.get(await sessionStoreKey(chaos.url));
    assert(kept?.sessionId, 'the session was stored');
    assertEquals(JSON.stringify(kept).includes('authorization'), false);
    await first.close();
  } finally {
    store.close();
    await chaos.stop();
  }
});

Deno.test('KvSessionStore.open without Deno.openKv (no --unstable-kv) fails RUNTIME_UNSUPPORTED, naming what is needed', async () => {
  const descriptor = Object.getOwnPropertyDescriptor(Deno, 'openKv')!;
  Object.defineProperty(Deno, 'openKv', { value: undefined, configurable: true });
  try {
    const error = await KvSessionStore.open(':memory:').then(() => undefined, (e: unknown) => e);
    assertEquals(isResilienceError(error, 'RUNTIME_UNSUPPORTED') && error.details, { needs: 'Deno.openKv' });
  } finally {
    Object.defineProperty(Deno, 'openKv', descriptor);
  }
});

/** The server's wire log: each request's HTTP and JSON-RPC method, and the session it carried by ordinal. */
async function wire(control: string): Promise<[string, string | null, number | null][]> {
  const { log } = await (await fetch(`${control}/state`)).json() as { log: { httpMethod: string; rpcMethod?: string; sessionOrdinal?: number }[] };
  return log.map((e) => [e.httpMethod, e.rpcMethod ?? null, e.sessionOrdinal ?? null]);
}

Deno.test('a client resumed from Deno.Kv is whole (GET stream, server version), never another identity\'s, and an ended session leaves the store', async () => {
  const chaos = await startChaos();
  const store = await KvSessionStore.open(':memory:');
  const writes: Promise<unknown>[] = [];
  const open = async (identity: string) => {
    const client = await connect(chaos.url, { sessionStore: store, resumeStored: true, identity, background: (task) => void writes.push(task) });
    await client.callTool({ name: 'echo', arguments: { text: identity } });
    await Promise.all(writes);
    return client;
  };
  try {
    await (await open('user:a')).close();
    const resumed = await open('user:a');
    assertEquals(resumed.getServerVersion(), { name: 'mcp-chaos', version: '0.0.0' });
    const bob = await open('user:b');
    // The resumed client's GET stream reaches the server within milliseconds (the SDK opens it in the background).
    for (let i = 0; i < 1_000 && (await wire(chaos.control)).filter(([http, , on]) => http === 'GET' && on === 1).length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const log = await wire(chaos.control);
    assertEquals(log.filter(([http, , on]) => http === 'GET' && on === 1).length, 2); // the first client's and the resumed one's
    assertEquals(log.filter(([, rpc]) => rpc === 'tools/call').map(([, , on]) => on), [1, 1, 2]); // bob: a session of his own
    await (resumed.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
    await Promise.all(writes);
    assertEquals(await store.get(await sessionStoreKey(chaos.url, 'user:a')), undefined);
    assert((await store.get(await sessionStoreKey(chaos.url, 'user:b')))?.sessionId, 'bob\'s session stays');
    await resumed.close();
    await bob.close();
  } finally {
    store.close();
    await chaos.stop();
  }
});

Deno.test('KvSessionStore drops what an older version kept under an endpoint URL (it may carry a token), and nothing else', async () => {
  const kv = await Deno.openKv(':memory:');
  const session = { sessionId: 's1', revision: '2025-11-25', initialize: { body: '{}', headers: {} }, subscriptions: [] };
  try {
    await kv.set(['mcp-resilience', 'session', 'http://x/mcp?api_key=secret'], session);
    await kv.set(['mcp-resilience', 'session', 'a'.repeat(64)], session);
    await kv.set(['app', 'own'], 'kept');
    const store = new KvSessionStore(kv);
    assertEquals(await store.get('a'.repeat(64)), session);
    const keys: unknown[] = [];
    for await (const entry of kv.list({ prefix: [] })) keys.push(entry.key);
    assertEquals(keys, [['app', 'own'], ['mcp-resilience', 'session', 'a'.repeat(64)]]);
  } finally {
    kv.close();
  }
});
