import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './connect.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

const echo = (text: string) => client!.callTool({ name: 'echo', arguments: { text } });

describe('connect', () => {
  it('returns a connected SDK client that survives an eviction', async () => {
    chaos = await startChaosServer({ dialect: 'amdahl' });
    const events: ResilienceEvent[] = [];
    client = await connect(chaos.url, { onEvent: (e) => events.push(e) });
    await expect(echo('before')).resolves.toMatchObject({ content: [{ text: 'before' }] });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(echo('after')).resolves.toMatchObject({ content: [{ text: 'after' }] });
    expect(events.map((e) => e.type)).toEqual(['session-started', 'session-lost', 'session-started', 'session-reinitialized', 'replayed']);
    expect(events.find((e) => e.type === 'session-lost')).toMatchObject({ session: 1, dialect: 'amdahl', method: 'tools/call' });
    expect(events.find((e) => e.type === 'replayed')).toMatchObject({ session: 2, method: 'tools/call' });
  });

  it('sends the default client info, or the one given, and passes client and transport options on', async () => {
    chaos = await startChaosServer();
    const seen: { info: unknown; capabilities: unknown; header: string | null }[] = [];
    const spy: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: { clientInfo?: unknown; capabilities?: unknown } }) : {};
      if (body.method === 'initialize') {
        seen.push({ info: body.params?.clientInfo, capabilities: body.params?.capabilities, header: new Headers(init?.headers).get('x-app') });
      }
      return fetch(input, init);
    };
    client = await connect(new URL(chaos.url), { fetch: spy });
    await client.close();
    client = await connect(chaos.url, {
      fetch: spy,
      clientInfo: { name: 'app', version: '1.2.3' },
      clientOptions: { capabilities: { roots: { listChanged: true } } },
      transportOptions: { requestInit: { headers: { 'x-app': 'yes' } } },
    });
    expect(seen).toEqual([
      { info: { name: 'mcp-resilience', version: '0.0.0' }, capabilities: {}, header: null },
      { info: { name: 'app', version: '1.2.3' }, capabilities: { roots: { listChanged: true } }, header: 'yes' },
    ]);
  });

  it('rejects when the server cannot be reached', async () => {
    chaos = await startChaosServer();
    const url = chaos.url;
    await chaos.stop();
    chaos = undefined;
    await expect(connect(url, { backoff: { initialMs: 1, maxMs: 2, maxAttempts: 1 } })).rejects.toThrow();
  });
});
