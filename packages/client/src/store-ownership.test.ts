import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type ConnectOptions } from './connect.ts';
import { MemorySessionStore } from './session-store.ts';
import { sessionStoreKey } from './store-key.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

const writes: Promise<unknown>[] = [];
/** A client on `store` (its store writes are collected, to be awaited), with one call made. */
async function open(store: MemorySessionStore, identity: string, options: ConnectOptions = {}): Promise<Client> {
  const client = await connect(chaos!.url, { sessionStore: store, resumeStored: true, identity, background: (task) => void writes.push(task), ...options });
  clients.push(client);
  await client.callTool({ name: 'echo', arguments: { text: identity } });
  await Promise.all(writes);
  return client;
}
const terminate = (client: Client) => (client.transport as StreamableHTTPClientTransport).terminateSession();
const sessionIdOf = (client: Client) => (client.transport as StreamableHTTPClientTransport).sessionId;
/** The wire: each request's HTTP and JSON-RPC method and the session (by ordinal) it carried. */
const wire = () => chaos!.state().log.map((e) => [e.httpMethod, e.rpcMethod ?? null, e.sessionOrdinal ?? null]);

describe('a stored session belongs to the client lineage and the identity that stored it', () => {
  it('leaves the store when its client ends it (DELETE): the next client opens a new session, never the ended one', async () => {
    chaos = await startChaosServer();
    const store = new MemorySessionStore();
    const key = await sessionStoreKey(chaos.url, 'user:alice');
    const first = await open(store, 'user:alice');
    expect(store.get(key)).toMatchObject({ sessionId: sessionIdOf(first) });
    await terminate(first);
    await Promise.all(writes);
    expect(store.get(key)).toBeUndefined();
    const events: ResilienceEvent[] = [];
    await open(store, 'user:alice', { onEvent: (e) => events.push(e) });
    expect(events.map((e) => e.type)).toEqual(['session-started']); // its own initialize: nothing resumed, nothing mended
    // On the wire (GET streams aside: they open beside the POSTs): the second client's own initialize, nothing with the ended session.
    expect(wire().filter(([method]) => method !== 'GET')).toEqual([
      ['POST', 'initialize', null], ['POST', 'notifications/initialized', 1], ['POST', 'tools/call', 1],
      ['DELETE', null, 1],
      ['POST', 'initialize', null], ['POST', 'notifications/initialized', 2], ['POST', 'tools/call', 2],
    ]);
  });

  it('an ended session never removes another client\'s stored one (a later client stored its own under the same key)', async () => {
    chaos = await startChaosServer();
    const store = new MemorySessionStore();
    const key = await sessionStoreKey(chaos.url, 'user:alice');
    const older = await open(store, 'user:alice');
    const newer = await open(store, 'user:alice', { resumeStored: false }); // another engine: its session is the one stored now
    expect(store.get(key)?.sessionId).toBe(sessionIdOf(newer));
    await terminate(older);
    await Promise.all(writes);
    expect(store.get(key)?.sessionId).toBe(sessionIdOf(newer));
  });

  it('is never gone on with under another identity: user B after user A opens its own session', async () => {
    chaos = await startChaosServer();
    const store = new MemorySessionStore();
    const alice = await open(store, 'user:alice');
    const bob = await open(store, 'user:bob');
    expect(sessionIdOf(bob)).not.toBe(sessionIdOf(alice));
    expect(wire().filter(([, rpc]) => rpc === 'initialize' || rpc === 'tools/call')).toEqual([
      ['POST', 'initialize', null], ['POST', 'tools/call', 1], ['POST', 'initialize', null], ['POST', 'tools/call', 2],
    ]);
    expect(store.get(await sessionStoreKey(chaos.url, 'user:alice'))?.sessionId).toBe(sessionIdOf(alice));
    expect(store.get(await sessionStoreKey(chaos.url, 'user:bob'))?.sessionId).toBe(sessionIdOf(bob));
  });

  it('resumeStored needs an identity: without one connect rejects INVALID_OPTION and sends nothing', async () => {
    chaos = await startChaosServer();
    await expect(connect(chaos.url, { sessionStore: new MemorySessionStore(), resumeStored: true }))
      .rejects.toMatchObject({ code: 'INVALID_OPTION', details: { option: 'identity' } });
    await expect(connect(chaos.url, { sessionStore: new MemorySessionStore(), resumeStored: true, identity: '' }))
      .rejects.toMatchObject({ code: 'INVALID_OPTION', details: { option: 'identity' } });
    expect(chaos.state().log).toEqual([]);
  });
});
