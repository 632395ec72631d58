import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './connect.ts';
import { MemorySessionStore, type StoredSession } from './session-store.ts';
import { sessionStoreKey } from './store-key.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

const USER = 'user:alice';
const versionOf = (client: Client) => (client.transport as unknown as { protocolVersion?: string }).protocolVersion;
const initializes = () => chaos!.state().log.filter((e) => e.rpcMethod === 'initialize').length;

/** Connects, calls once, and waits for the store to hold the session (it is written in the background). */
async function firstClient(store: MemorySessionStore): Promise<Client> {
  const writes: Promise<unknown>[] = [];
  const client = await connect(chaos!.url, { sessionStore: store, resumeStored: true, identity: USER, background: (task) => void writes.push(task) });
  clients.push(client);
  await client.callTool({ name: 'echo', arguments: { text: 'one' } });
  await Promise.all(writes);
  expect(store.get(await sessionStoreKey(chaos!.url, USER))).toMatchObject({ sessionId: expect.any(String) });
  return client;
}

describe('connect({ sessionStore, resumeStored: true })', () => {
  it('goes on with the stored session without an initialize, knowing its protocol version and capabilities (strict checks pass)', async () => {
    chaos = await startChaosServer();
    const store = new MemorySessionStore();
    const first = await firstClient(store);
    // Strict capability checks read what the SDK learnt at initialize: the resumed client must know it too.
    const second = await connect(chaos.url, { sessionStore: store, resumeStored: true, identity: USER, clientOptions: { enforceStrictCapabilities: true } });
    clients.push(second);
    expect(versionOf(second)).toBe(versionOf(first));
    expect(versionOf(second)).toBe('2025-11-25');
    expect(second.getServerCapabilities()).toEqual(first.getServerCapabilities());
    await expect(second.callTool({ name: 'echo', arguments: { text: 'two' } })).resolves.toMatchObject({ content: [{ text: 'two' }] });
    expect(initializes()).toBe(1);
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.sessionOrdinal)).toEqual([1, 1]);
  });

  it('goes on with a lineage whose session was lost (no live id stored) by opening one new session from the stored initialize', async () => {
    chaos = await startChaosServer();
    const store = new MemorySessionStore();
    await firstClient(store);
    const key = await sessionStoreKey(chaos.url, USER);
    const { sessionId: _, ...lost } = store.get(key)!;
    store.set(key, { ...lost, lineage: 'a-lineage-name' } satisfies StoredSession);
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    const second = await connect(chaos.url, { sessionStore: store, resumeStored: true, identity: USER });
    clients.push(second);
    expect(second.getServerCapabilities()).toMatchObject({ tools: {} });
    await expect(second.callTool({ name: 'echo', arguments: { text: 'two' } })).resolves.toMatchObject({ content: [{ text: 'two' }] });
    expect(initializes()).toBe(2);
  });

  it('connects as usual with an empty store, or when not asked to resume', async () => {
    chaos = await startChaosServer();
    const store = new MemorySessionStore();
    await firstClient(store); // the store was empty: an initialize
    expect(initializes()).toBe(1);
    clients.push(await connect(chaos.url, { sessionStore: store })); // not asked to resume
    expect(initializes()).toBe(2);
  });
});
