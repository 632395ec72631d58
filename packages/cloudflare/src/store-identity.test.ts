// Runs inside workerd: whose session connect() goes on with, and what ending one does to the
// store, against real mcp-chaos servers on 127.0.0.1 started by the Node side (globalSetup).
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { connect, durableSessionStore, MemorySessionStore, sessionStoreKey, type SessionStoreNamespace, type WorkersConnectOptions } from './index.ts';
import { poolServer, wireLog, type PoolServer } from './test-support/chaos-pool.ts';

const sessions = (env as unknown as { MCP_SESSIONS: SessionStoreNamespace }).MCP_SESSIONS;

/** One Worker request's client: one call, its background work (store writes) waited for, closed. */
async function request(server: PoolServer, options: WorkersConnectOptions, keepOpen = false) {
  const ctx = createExecutionContext();
  const client = await connect(server.url, { ...options, ctx });
  await client.callTool({ name: 'echo', arguments: { text: 'x' } });
  if (!keepOpen) await client.close();
  await waitOnExecutionContext(ctx);
  return client;
}
/** The wire (GET streams aside): each request's JSON-RPC or HTTP method and the session it carried, by ordinal. */
const posts = async (server: PoolServer) =>
  (await wireLog(server)).filter((e) => e.httpMethod !== 'GET').map((e) => [e.rpcMethod ?? e.httpMethod, e.sessionOrdinal ?? null]);

describe('connect() on Workers: whose session', () => {
  it('needs a sessionName with a store: without one it rejects INVALID_OPTION and sends nothing', async () => {
    const server = await poolServer();
    for (const options of [{ sessions }, { sessionStore: new MemorySessionStore() }]) {
      await expect(connect(server.url, options)).rejects.toMatchObject({ code: 'INVALID_OPTION', details: { option: 'sessionName' } });
    }
    expect(await wireLog(server)).toEqual([]);
  });

  it('never goes on with another sessionName\'s session: user B after user A opens its own', async () => {
    const server = await poolServer();
    const sessionStore = new MemorySessionStore(); // one store for both: only the key tells them apart
    await request(server, { sessionStore, sessionName: 'user:a' });
    await request(server, { sessionStore, sessionName: 'user:b' });
    await request(server, { sessionStore, sessionName: 'user:a' }); // A's own session again: no initialize
    expect((await posts(server)).filter(([method]) => method !== 'notifications/initialized')).toEqual([
      ['initialize', null], ['tools/call', 1], ['initialize', null], ['tools/call', 2], ['tools/call', 1],
    ]);
  });

  it('removes an ended session (DELETE) from the Durable Object: the next request opens a new one', async () => {
    const server = await poolServer();
    const options = { sessions, sessionName: 'ended' };
    const key = await sessionStoreKey(server.url, 'ended');
    const client = await request(server, options, true);
    expect(await durableSessionStore(sessions, 'ended').get(key)).toMatchObject({ sessionId: expect.any(String) });
    const ctx = createExecutionContext();
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    await waitOnExecutionContext(ctx);
    await expect.poll(() => durableSessionStore(sessions, 'ended').get(key)).toBeUndefined();
    await request(server, options);
    expect(await posts(server)).toEqual([
      ['initialize', null], ['notifications/initialized', 1], ['tools/call', 1], ['DELETE', 1],
      ['initialize', null], ['notifications/initialized', 2], ['tools/call', 2],
    ]);
  });

  it('a request that goes on with a stored session opens its standalone GET stream, as a fresh client does', async () => {
    const server = await poolServer();
    const options = { sessions, sessionName: 'stream' };
    await request(server, options);
    const resumed = await request(server, options, true);
    try {
      await expect.poll(async () => (await wireLog(server)).filter((e) => e.httpMethod === 'GET' && e.sessionOrdinal === 1).length).toBe(2);
      expect((await wireLog(server)).filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
      expect(resumed.getServerVersion()).toEqual({ name: 'mcp-chaos', version: '0.0.0' });
    } finally {
      await resumed.close();
    }
  });
});
