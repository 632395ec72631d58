import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { isResilienceError, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { LineageRegistry } from './lineage-registry.ts';
import { createResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

describe('a new session that negotiates something else', () => {
  it('is reported, and the replay fails safe with SESSION_CHANGED instead of going on blindly', async () => {
    chaos = await startChaosServer();
    let initializes = 0;
    // The re-initialization asks for an older revision, and the real server agrees to it.
    const downgrading: typeof fetch = (input, init) => {
      const body = typeof init?.body === 'string' && init.body.includes('"method":"initialize"') && ++initializes > 1
        ? init.body.replace('"protocolVersion":"2025-11-25"', '"protocolVersion":"2025-06-18"')
        : init?.body;
      return fetch(input, { ...init, ...(body === undefined ? {} : { body }) });
    };
    const events: ResilienceEvent[] = [];
    client = new Client({ name: 'resilient', version: '0' });
    const resilient = createResilientFetch({ fetch: downgrading, onEvent: (e) => events.push(e) });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: resilient }));
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    const error = await client.callTool({ name: 'echo', arguments: { text: 'x' } }).then(() => undefined, (e: unknown) => e);
    expect(isResilienceError(error, 'SESSION_CHANGED')).toBe(true);
    expect(events.find((e) => e.type === 'session-changed')).toMatchObject({
      from: 1, to: 2, revision: { from: '2025-11-25', to: '2025-06-18' },
    });
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(1); // not replayed
    // Not later calls either: the SDK's view of the server is stale until the application connects again.
    const later = await client.callTool({ name: 'echo', arguments: { text: 'y' } }).then(() => undefined, (e: unknown) => e);
    expect(isResilienceError(later, 'SESSION_CHANGED')).toBe(true);
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(1);
    await client.close();
    client = new Client({ name: 'resilient', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: resilient }));
    await expect(client.callTool({ name: 'echo', arguments: { text: 'z' } })).resolves.toMatchObject({ content: [{ text: 'z' }] });
  });
});

describe('EndpointSession.learn', () => {
  it('reads the session from a plain JSON initialize response as well as from SSE', async () => {
    const events: ResilienceEvent[] = [];
    const session = new LineageRegistry(new Engine({ onEvent: (e) => events.push(e), now: () => 0 })).open('http://127.0.0.1:1/mcp');
    const response = new Response('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}}}}', {
      headers: { 'content-type': 'application/json', 'mcp-session-id': 'json-session' },
    });
    await session.learn(response);
    expect(session.revision).toBe('2025-06-18');
    expect(session.ordinal).toBe(1);
    const sdk = new Headers({ 'mcp-session-id': 'what-the-sdk-holds' });
    expect(session.stamp(sdk).get('mcp-session-id')).toBe('json-session');
    expect(sdk.get('mcp-session-id')).toBe('what-the-sdk-holds'); // the request's own headers are never changed
    expect(await response.text()).toContain('protocolVersion'); // still readable by the SDK
    expect(events).toEqual([{ type: 'session-started', session: 1, revision: '2025-06-18', atMs: 0 }]);
  });
});

describe('A lineage\'s recovery: the diagnosis knows about an open stream', () => {
  it('a session lost while its standalone stream was open was in use: evicted while busy', async () => {
    let now = 0;
    const events: ResilienceEvent[] = [];
    const session = new LineageRegistry(new Engine({ onEvent: (e) => events.push(e), now: () => now })).open('http://127.0.0.1:1/mcp');
    await session.learn(new Response('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}', {
      headers: { 'content-type': 'application/json', 'mcp-session-id': 's' },
    }));
    const close = session.openStream();
    now = 120_000; // two minutes without a call, but listening all along
    session.noteExchange('tools/call', 200, 0);
    session.recovery.lost(1, { kind: 'session-gone', dialect: 'amdahl', outcome: 'not-processed', serverUptimeSeconds: 86_400 }, 'tools/call');
    expect(events.at(-1)).toMatchObject({
      type: 'session-lost', cause: 'evicted-while-busy', suspectedServerBug: true,
      report: {
        sessionAgeMs: 120_000, idleMs: 120_000, serverUptimeSeconds: 86_400, busy: { because: 'stream-open', windowMs: 60_000 },
        exchanges: [{ method: 'tools/call', status: 200, offsetMs: 120_000 }],
      },
    });
    close();
  });
});
