import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { inject, stateOf } from './test-support/raw-client.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close().catch(() => {});
  await chaos?.stop();
  chaos = undefined;
  client = undefined;
});

// The problem this project solves, shown against the official SDK client (1.x) as it is.
describe('the plain official SDK client after an eviction', () => {
  it('keeps sending the dead session id and fails every later call', async () => {
    chaos = await startChaosServer();
    client = new Client({ name: 'plain', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url)));
    const echo = () => client!.callTool({ name: 'echo', arguments: { text: 'hi' } });
    await expect(echo()).resolves.toMatchObject({ content: [{ text: 'hi' }] });

    await inject(chaos, { kind: 'evict', session: 'all' });
    for (let i = 0; i < 3; i++) await expect(echo()).rejects.toThrow(/404|Session not found/);

    const calls = (await stateOf(chaos)).log.filter((e) => e.rpcMethod === 'tools/call');
    expect(calls.map((e) => e.status)).toEqual([200, 404, 404, 404]);
    expect(new Set(calls.map((e) => e.session)).size).toBe(1); // the same dead id, every time
    expect((await stateOf(chaos)).log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1); // never re-initialized
  });
});
