import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { startServerEverything, type ServerEverything } from '@mcp-resilience/chaos/server-everything';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';

let upstream: ServerEverything;
let chaos: ChaosServer | undefined;
let client: Client | undefined;
// Above the minute server-everything may take to start (START_CAP_MS), so that a start that fails says why.
beforeAll(async () => {
  upstream = await startServerEverything();
}, 90_000);
afterAll(async () => {
  await upstream?.stop();
});
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

/** The engine, with a view of the session ids the server hands out (the test needs them; the engine never shows them). */
function engine(events: ResilienceEvent[]) {
  const issued: string[] = [];
  const spy: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const id = response.headers.get('mcp-session-id');
    if (id && !issued.includes(id)) issued.push(id);
    return response;
  };
  return { issued, fetch: createResilientFetch({ fetch: spy, onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 } }) };
}

describe('@modelcontextprotocol/server-everything', () => {
  it('speaks its own 400 dialect for a session it ended, and the engine recovers from it', async () => {
    const events: ResilienceEvent[] = [];
    const { issued, fetch } = engine(events);
    client = new Client({ name: 'resilient', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(upstream.url), { fetch }));
    await expect(client.callTool({ name: 'echo', arguments: { message: 'one' } })).resolves.toMatchObject({ content: [{ text: expect.stringContaining('one') }] });
    // The server ends the session behind the client's back.
    const ended = await globalThis.fetch(upstream.url, { method: 'DELETE', headers: { 'mcp-session-id': issued[0]!, 'mcp-protocol-version': '2025-11-25' } });
    expect(ended.ok).toBe(true);
    await expect(client.callTool({ name: 'echo', arguments: { message: 'two' } })).resolves.toMatchObject({ content: [{ text: expect.stringContaining('two') }] });
    expect(events.find((e) => e.type === 'session-lost')).toMatchObject({ dialect: 'express-400' });
    expect(issued).toHaveLength(2);
  });

  it('recovers behind the chaos proxy: evicted in front and upstream', async () => {
    chaos = await startChaosServer({ upstream: upstream.url, dialect: 'express-400' });
    const events: ResilienceEvent[] = [];
    client = new Client({ name: 'resilient', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: engine(events).fetch }));
    await client.callTool({ name: 'echo', arguments: { message: 'before' } });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }, { kind: 'status', status: 429, retryAfter: '0' }]);
    await expect(client.callTool({ name: 'echo', arguments: { message: 'after' } })).resolves.toMatchObject({ content: [{ text: expect.stringContaining('after') }] });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['session-lost', 'session-reinitialized', 'replayed', 'backed-off']));
  });
});
