import { deepStrictEqual as assertEquals, ok as assert } from 'node:assert/strict';
import { connect, isResilienceError, KvSessionStore } from './index.ts';
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
    const first = await connect(chaos.url, { sessionStore: store });
    await first.callTool({ name: 'echo', arguments: { text: 'one' } });
    const kept = await store.get(chaos.url);
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
