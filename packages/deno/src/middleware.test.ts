// Deno's own tests (deno test, leak sanitizers on): the engine as an SDK 2.x Middleware, with Deno's runtime.
import { deepStrictEqual as assertEquals } from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_RUNTIME } from '@mcp-resilience/client/adapter';
import { denoNotSent, denoRuntime, resilienceMiddleware, type ResilienceEvent } from './index.ts';
import { startChaos } from './test-support/chaos-process.ts';

Deno.test('denoRuntime declares its facts under the same keys as every adapter', () => {
  assertEquals(Object.keys(denoRuntime).sort(), Object.keys(DEFAULT_RUNTIME).sort());
  assertEquals(denoRuntime.notSent, denoNotSent);
});

Deno.test('resilienceMiddleware recovers an eviction, every request going through the next fetch', async () => {
  const chaos = await startChaos();
  try {
    const sent: string[] = [];
    const next = (url: string | URL, init?: RequestInit) => (sent.push(init?.method ?? 'GET'), fetch(url, init));
    const events: ResilienceEvent[] = [];
    const client = new Client({ name: 'deno-middleware', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: resilienceMiddleware({ onEvent: (e) => events.push(e) })(next) }));
    try {
      await client.callTool({ name: 'echo', arguments: { text: 'before' } });
      await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'after' } }) as { content: { text: string }[] };
      assertEquals(result.content[0]!.text, 'after');
      assertEquals(events.filter((e) => e.type === 'session-reinitialized').length, 1);
      assertEquals(sent.filter((method) => method === 'POST').length >= 5, true); // initialize, initialized, call, its 404, re-initialize…
    } finally {
      await client.close();
    }
  } finally {
    await chaos.stop();
  }
});
