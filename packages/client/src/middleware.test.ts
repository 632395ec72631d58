import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { applyMiddlewares, Client, StreamableHTTPClientTransport, withLogging } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { resilienceMiddleware } from './middleware.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

describe('resilienceMiddleware, the engine as an SDK 2.x Middleware', () => {
  it("composes with the SDK's withLogging: an eviction costs one re-initialization, and every request the engine sent went through the logger", async () => {
    chaos = await startChaosServer();
    const events: ResilienceEvent[] = [];
    const logged: { method: string; status: number }[] = [];
    const fetch = applyMiddlewares(
      withLogging({ logger: ({ method, status }) => void logged.push({ method, status }) }),
      resilienceMiddleware({ onEvent: (event) => events.push(event) }),
    )((url, init) => globalThis.fetch(url, init));
    client = new Client({ name: 'middleware', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }));
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).resolves.toMatchObject({ content: [{ text: 'after' }] });

    expect(events.map((e) => e.type)).toEqual(['session-started', 'session-lost', 'session-started', 'session-reinitialized', 'replayed']);
    const wire = chaos.state().log;
    expect(wire.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(2);
    // The engine sends through `next`: the logger saw each request the server got, the 404 and the re-initialization too.
    expect(logged.map((e) => `${e.method} ${e.status}`)).toEqual(wire.map((e) => `${e.httpMethod} ${e.status}`));
    expect(logged.filter((e) => e.status === 404)).toHaveLength(1);
  });
});
