import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_RUNTIME } from '@mcp-resilience/client/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_CHANNEL, nodeRuntime, resilienceMiddleware, type ResilienceEvent } from './index.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
const published: unknown[] = [];
const subscriber = (message: unknown) => void published.push(message);
afterEach(async () => {
  unsubscribe(EVENT_CHANNEL, subscriber);
  published.length = 0;
  await client?.close().catch(() => {});
  await chaos?.stop();
  chaos = client = undefined;
});

describe("Node's resilienceMiddleware", () => {
  it("is the engine with Node's runtime around the next fetch: an eviction is recovered through it, and told on the diagnostics channel", async () => {
    chaos = await startChaosServer();
    subscribe(EVENT_CHANNEL, subscriber);
    const sent: string[] = [];
    const next = (url: string | URL, init?: RequestInit) => (sent.push(init?.method ?? 'GET'), fetch(url, init));
    const events: ResilienceEvent[] = [];
    const engine = resilienceMiddleware({ onEvent: (event) => events.push(event) })(next);
    client = new Client({ name: 'node-middleware', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: engine }));
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).resolves.toMatchObject({ content: [{ text: 'after' }] });
    expect(events.filter((e) => e.type === 'session-reinitialized')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'replayed')).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'tools/call' })]));
    expect(published).toEqual(events); // nodeRuntime's sink, before the application's onEvent
    expect(sent).toHaveLength(chaos.state().log.length); // every request went through next
  });

  it('declares every runtime fact under the same keys as the other adapters', () => {
    expect(Object.keys(nodeRuntime).sort()).toEqual(Object.keys(DEFAULT_RUNTIME).sort());
  });
});
